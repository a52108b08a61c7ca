//! The D3D11 API's vocabulary, as an application hands it to the runtime: the enumerations ([`enums`]), the
//! fixed-function state descriptions ([`fixed_function`]), resources, views and samplers ([`resource`]), viewports and
//! scissor rectangles ([`viewport`]), the standard multisample patterns ([`multisample`]), everything one draw call
//! depends on ([`draw`]) and the limits on how much of it a pipeline binds ([`limits`]).
//!
//! This is the ground every other module stands on: it imports nothing of the crate but [`crate::error`] and
//! [`crate::format`]. The pipeline stages read these descriptions and turn them into their own working forms; the
//! front doors ([`crate::capture`], [`crate::description`]) build them.

pub mod dispatch;
pub mod draw;
pub mod enums;
pub mod fixed_function;
pub mod limits;
pub mod multisample;
pub mod resource;
pub mod viewport;

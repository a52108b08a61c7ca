//! Draws: the state one D3D11 draw call depends on ([`state`]) and the JSON draw descriptions of the `d3d11-ref`
//! reference renderer, read into that state ([`description`]; the format is documented in
//! `docs/draw-description.md`).
//!
//! A [`state::DrawState`] is self-contained: shaders, input assembler bindings, every bound resource with its
//! contents, the fixed-function state and the targets with their contents before the draw. The input assembler
//! ([`crate::input_assembler`]) reads it to make the vertices a vertex program runs on.

pub mod description;
pub mod state;

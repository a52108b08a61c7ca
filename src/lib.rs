//! Iridia re-runs a Direct3D 11 draw recorded from a running program on the CPU, exactly as the D3D11.3 functional
//! specification says, executing the program's own DXBC shader bytecode, and sets the pixels it gets against the ones
//! the GPU wrote.
//!
//! The modules follow the data: [`dxbc`] reads and writes shader bytecode, [`format`] reads and writes texels of
//! every DXGI format, [`shader`] runs programs. `docs/architecture.md` describes the whole flow.

#![forbid(unsafe_code)]

pub mod api;
pub mod capture;
pub mod compare;
pub mod description;
pub mod dispatch;
pub mod draw;
pub mod dxbc;
pub mod error;
pub mod format;
pub mod input_assembler;
pub mod inspect;
pub mod output_merger;
pub mod raster;
pub mod replay;
pub mod shader;
pub mod tessellator;
pub mod text;
pub mod viewer_api;

pub use error::{Error, Result};

#[cfg(target_arch = "wasm32")]
mod wasm;

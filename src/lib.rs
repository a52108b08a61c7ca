//! Iridia re-runs a Direct3D 11 draw recorded from a running program on the CPU, exactly as the D3D11.3 functional
//! specification says, executing the program's own DXBC shader bytecode, and sets the pixels it gets against the ones
//! the GPU wrote.
//!
//! The modules follow the data: [`dxbc`] reads and writes shader bytecode. `docs/architecture.md` describes the
//! whole flow.

pub mod dxbc;
pub mod error;
pub mod raster;

pub use error::{Error, Result};

#[cfg(target_arch = "wasm32")]
mod wasm;

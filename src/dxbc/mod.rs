//! DXBC: the container Direct3D shader bytecode travels in, its chunks, and the SM4/SM5 program inside.
//!
//! [`Shader`] parses a whole blob; [`disasm`] prints it as an `fxc`-style listing and [`asm`] reads such a listing
//! back into the same tokens.

pub mod asm;
pub mod container;
pub mod disasm;
pub mod program;
pub mod reflection;
pub mod shader;
pub mod signature;
mod syntax;

pub use container::{Chunk, Container, FourCc, Verify};
pub use shader::Shader;

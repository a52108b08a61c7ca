//! DXBC: the container Direct3D shader bytecode travels in, its chunks, and the SM4/SM5 program inside.

pub mod container;
pub mod program;
pub mod reflection;
pub mod signature;

pub use container::{Chunk, Container, FourCc, Verify};

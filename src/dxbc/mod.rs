//! DXBC: the container Direct3D shader bytecode travels in, its chunks, and the SM4/SM5 program inside.

pub mod program;

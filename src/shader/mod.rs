//! The SM4/SM5 shader interpreter: running a decoded DXBC program on the CPU, lane by lane, as the D3D11.3
//! functional specification says. [`alu`] holds what each arithmetic, bitwise and conversion instruction does to one
//! lane's register words; [`texture`] reads resources and samples textures.

pub mod alu;
pub mod texture;

//! DXGI formats: what each format is (D3D11.3 chapter 19), and how its texels become the 32-bit words a shader
//! reads and back (section 3.2).
//!
//! Everything that reads or writes texels goes through here: the sampler and `ld` (decode), the input assembler
//! (decode; 8.20 applies the same conversions), the output merger (encode, depth quantisation) and the viewer's
//! previews ([`display_rgba8`]).
//!
//! - [`Format`]: every DXGI_FORMAT value with its name, parsed from `"R8G8B8A8_UNORM"`, `"DXGI_FORMAT_..."` or the
//!   number; [`Format::info`] gives the layout (bytes per texel or per block), the stored fields (channel,
//!   interpretation, bit offset and width), the numeric kind, the shader return type, and the `_TYPELESS` family that
//!   decides which formats a view may use ([`Format::can_view_as`]).
//! - [`TexelCodec`]: decode one element to [`Texel`] words, with the spec's defaults for missing components
//!   (19.1.3.3), and encode shader output words back; BC blocks decode to 16 texels ([`bc`] has the rules).
//! - [`convert`]: the scalar conversions (UNORM, SNORM, sRGB, float16/11/10, shared exponent, integer clamps).
//! - Depth: [`decode_depth_stencil`], [`encode_depth`], [`encode_stencil`], [`quantize_depth`] (17.11).
//!
//! Exactness: every read is exact (the nearest f32 to the spec's ideal value, which for all but sRGB is the value
//! itself); every write is the spec's ideal conversion. Where the spec allows a tolerance (0.6 ULP for writes to
//! UNORM/SNORM/SRGB, palette rounding for BC1–BC5) this module does the ideal/literal thing; WARP's own choice
//! there is not documented. `tests/format_reference.rs` compares reads of 39 formats and render-target writes of 9
//! with a real D3D11 (Wine on llvmpipe): equal, except where llvmpipe is itself off the spec (see
//! `fixtures/format/README.md`).
//!
//! Build a [`TexelCodec`] once per view and reuse it: it holds the format's fields, so a texel costs one match on
//! the codec kind and a few shifts, with no allocation.

pub mod bc;
pub mod convert;
mod display;
mod table;
mod texel;

pub use display::{DisplayMapping, display_rgba8};
pub use table::{Channel, Field, FieldKind, Format, FormatInfo, Layout, NumericKind, ShaderType, Texel};
pub use texel::{
    DepthStencil, TexelCodec, WRITE_ALL, WriteMask, decode_depth_stencil, decode_texel, encode_depth, encode_stencil,
    encode_texel, quantize_depth,
};

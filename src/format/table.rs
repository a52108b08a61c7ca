//! The DXGI_FORMAT list: every value `dxgiformat.h` defines, its name, and what D3D11.3 chapter 19 says about its
//! memory layout and interpretation.
//!
//! - Names follow 19.1.3: components are listed in memory order, first at the lowest address (whole bytes) or the
//!   lowest bits (packed fields, e.g. R10G10B10A2: R in bits 0-9, A in bits 30-31; B5G6R5: B in bits 0-4).
//! - A `_TYPELESS` format names bit counts without an interpretation; a view of a resource created with it may use
//!   any format of the same family (same bits per component), and only such formats (19.1.1, 19.1.4). A fully typed
//!   resource is viewed only as its own format.
//! - Video, planar and palette formats (AYUV..V408, sampler feedback) are known by name and number but have no texel
//!   layout here: a D3D11 draw never samples or renders them. R1_UNORM was dropped from D3D11 (19: "Non-adopted
//!   1-bit format ... removed") and R10G10B10_XR_BIAS_A2_UNORM is a display-only format whose conversion the spec
//!   does not define; both are described but not decoded.

use std::fmt;
use std::str::FromStr;

use crate::{Error, Result};

/// The four 32-bit words (x, y, z, w) a shader reads from or writes to a texel: f32 bits for float, normalized and
/// depth data, integers for UINT and SINT data.
pub type Texel = [u32; 4];

/// Which shader-visible component (or depth/stencil part) a stored field holds (19.1.3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Channel {
    /// Red: shader component x.
    R,
    /// Green: shader component y.
    G,
    /// Blue: shader component z.
    B,
    /// Alpha: shader component w.
    A,
    /// Depth of a depth/stencil format; read as component x.
    Depth,
    /// Stencil of a depth/stencil format; read as component y (as the X24_TYPELESS_G8_UINT view does).
    Stencil,
    /// The shared exponent of R9G9B9E5_SHAREDEXP.
    Exponent,
    /// Bits the format leaves unused (X in a name, or the part a typeless-suffixed view ignores).
    Unused,
}

impl Channel {
    /// The shader component (0 = x .. 3 = w) this channel is read into, if any.
    pub const fn slot(self) -> Option<usize> {
        match self {
            Channel::R | Channel::Depth => Some(0),
            Channel::G | Channel::Stencil => Some(1),
            Channel::B => Some(2),
            Channel::A => Some(3),
            Channel::Exponent | Channel::Unused => None,
        }
    }
}

/// How a stored field's bits are interpreted (19.1.3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FieldKind {
    /// Unsigned normalized: 0 .. 2^n - 1 is 0.0 .. 1.0 (3.2.3.5).
    Unorm,
    /// Signed normalized, two's complement: -1.0 .. 1.0 (3.2.3.3).
    Snorm,
    /// Unsigned integer.
    Uint,
    /// Signed integer, two's complement.
    Sint,
    /// Floating point of the field's width: 32, 16 (3.1.5), 11 or 10 bits (3.1.6).
    Float,
    /// sRGB-encoded 8-bit value (3.2.3.7).
    Srgb,
    /// A mantissa or the exponent of R9G9B9E5_SHAREDEXP (19.3.2).
    SharedExp,
    /// Bits with no interpretation (a `_TYPELESS` format or the unused part of a view).
    Typeless,
}

/// One stored component of a texel: which channel, how it is interpreted, and where its bits are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Field {
    /// The channel it holds.
    pub channel: Channel,
    /// Its interpretation.
    pub kind: FieldKind,
    /// Its lowest bit, counted from the least significant bit of the little-endian element.
    pub offset: u8,
    /// Its width in bits.
    pub bits: u8,
}

/// A format's numeric interpretation as a whole (19.1.3.2), with depth/stencil formats apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NumericKind {
    /// Unsigned normalized.
    Unorm,
    /// Signed normalized.
    Snorm,
    /// Unsigned integer.
    Uint,
    /// Signed integer.
    Sint,
    /// Floating point (32, 16, 11/10 bits, or BC6H).
    Float,
    /// sRGB-encoded colour (alpha, where present, is UNORM).
    Srgb,
    /// Bits without an interpretation yet.
    Typeless,
    /// R9G9B9E5_SHAREDEXP.
    SharedExp,
    /// A depth-only format (D16_UNORM, D32_FLOAT).
    Depth,
    /// A depth/stencil format (D24_UNORM_S8_UINT, D32_FLOAT_S8X24_UINT).
    DepthStencil,
    /// Unknown, video, palette, or display-only: not decoded.
    Other,
}

/// What a shader's load/sample returns for a format: float, uint or sint words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShaderType {
    /// 32-bit floats (UNORM, SNORM, SRGB, FLOAT, SHAREDEXP and depth formats).
    Float,
    /// 32-bit unsigned integers.
    Uint,
    /// 32-bit signed integers.
    Sint,
    /// No shader view may use the format as it is (typeless, video).
    None,
}

/// How texels are laid out in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// One texel per element of `bytes` bytes.
    Texel {
        /// Bytes per texel.
        bytes: u8,
    },
    /// One element of `bytes` bytes holds `width` x `height` texels: BC formats (4x4, 19.5), the sub-sampled
    /// R8G8_B8G8/G8R8_G8B8 (2x1, 19.4) and R1_UNORM (8x1).
    Block {
        /// Texels across.
        width: u8,
        /// Texels down.
        height: u8,
        /// Bytes per block.
        bytes: u8,
    },
    /// No layout described here (unknown, video, planar, palette, sampler feedback).
    Opaque,
}

impl Layout {
    /// Bytes per element (texel or block), if the layout is known.
    pub const fn element_bytes(self) -> Option<usize> {
        match self {
            Layout::Texel { bytes } | Layout::Block { bytes, .. } => Some(bytes as usize),
            Layout::Opaque => None,
        }
    }

    /// Texels per element across and down: (1, 1) for plain formats.
    pub const fn block_size(self) -> (u32, u32) {
        match self {
            Layout::Block { width, height, .. } => (width as u32, height as u32),
            Layout::Texel { .. } | Layout::Opaque => (1, 1),
        }
    }
}

/// Everything this module knows about one format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FormatInfo {
    /// Memory layout.
    pub layout: Layout,
    /// Numeric interpretation.
    pub kind: NumericKind,
    /// What a shader reads it as.
    pub shader_type: ShaderType,
    /// Its `_TYPELESS` family, if it has one (itself for the typeless member).
    pub family: Option<Format>,
    /// Bit mask of the shader components (bit 0 = x .. bit 3 = w) the format stores or decodes; the others read as
    /// the defaults of 19.1.3.3.
    pub channels: u8,
    fields: [Field; 4],
    field_count: u8,
}

/// A placeholder for the unused tail of the fixed field array.
const NONE: Field = fld(Channel::Unused, FieldKind::Typeless, 0, 0);
/// The 24 unused bits after the 8-bit stencil of the R32G8X24 family.
const UNUSED_40_24: Field = fld(Channel::Unused, FieldKind::Typeless, 40, 24);

/// A field of `bits` bits at bit `offset`.
const fn fld(channel: Channel, kind: FieldKind, offset: u8, bits: u8) -> Field {
    Field {
        channel,
        kind,
        offset,
        bits,
    }
}

/// R10G10B10A2 with the given interpretation of every field.
const fn rgb10a2(kind: FieldKind) -> [Field; 4] {
    [
        fld(Channel::R, kind, 0, 10),
        fld(Channel::G, kind, 10, 10),
        fld(Channel::B, kind, 20, 10),
        fld(Channel::A, kind, 30, 2),
    ]
}

/// B8G8R8A8 / B8G8R8X8: colour fields of `color` kind, the fourth byte `alpha` kind in channel `fourth`.
const fn bgra8(color: FieldKind, alpha: FieldKind, fourth: Channel) -> [Field; 4] {
    [
        fld(Channel::B, color, 0, 8),
        fld(Channel::G, color, 8, 8),
        fld(Channel::R, color, 16, 8),
        fld(fourth, alpha, 24, 8),
    ]
}

impl FormatInfo {
    /// The stored fields, in memory order (empty for block and opaque formats).
    pub fn fields(&self) -> &[Field] {
        self.fields.get(..usize::from(self.field_count)).unwrap_or(&[])
    }

    /// Whether the format is 8-bit UNORM: every stored field 8 bits, read as UNORM (not SRGB).
    pub fn is_8bit_unorm(&self) -> bool {
        self.kind == NumericKind::Unorm && !self.fields().is_empty() && self.fields().iter().all(|f| f.bits == 8)
    }

    /// The shader type a format of `kind` returns.
    const fn shader_type_of(kind: NumericKind) -> ShaderType {
        match kind {
            NumericKind::Uint => ShaderType::Uint,
            NumericKind::Sint => ShaderType::Sint,
            NumericKind::Typeless | NumericKind::Other => ShaderType::None,
            NumericKind::Unorm
            | NumericKind::Snorm
            | NumericKind::Float
            | NumericKind::Srgb
            | NumericKind::SharedExp
            | NumericKind::Depth
            | NumericKind::DepthStencil => ShaderType::Float,
        }
    }

    /// A format of `bytes` bytes per texel with up to four fields (unused tail entries have 0 bits).
    #[allow(clippy::indexing_slicing)] // const fn: `i < 4` keeps the index inside the 4-entry array
    const fn with_fields(bytes: u8, kind: NumericKind, family: Option<Format>, fields: [Field; 4]) -> Self {
        let mut count = 0u8;
        let mut channels = 0u8;
        let mut i = 0;
        while i < 4 {
            let field = fields[i];
            if field.bits > 0 {
                count = count.wrapping_add(1);
                if let Some(slot) = field.channel.slot() {
                    channels |= 1 << slot;
                }
            }
            i = i.wrapping_add(1);
        }
        FormatInfo {
            layout: Layout::Texel { bytes },
            kind,
            shader_type: Self::shader_type_of(kind),
            family,
            channels,
            fields,
            field_count: count,
        }
    }

    /// `count` components R, G, B, A of `bits` bits each, interpreted as `kind` (SRGB leaves alpha UNORM, 19.1.3.2).
    #[allow(clippy::indexing_slicing)] // const fn: `i < 4` keeps the index inside both 4-entry arrays
    const fn uniform(bits: u8, kind: NumericKind, family: Option<Format>, count: u8) -> Self {
        let field_kind = match kind {
            NumericKind::Unorm => FieldKind::Unorm,
            NumericKind::Snorm => FieldKind::Snorm,
            NumericKind::Uint => FieldKind::Uint,
            NumericKind::Sint => FieldKind::Sint,
            NumericKind::Float => FieldKind::Float,
            NumericKind::Srgb => FieldKind::Srgb,
            _ => FieldKind::Typeless,
        };
        let channels = [Channel::R, Channel::G, Channel::B, Channel::A];
        let mut fields = [NONE; 4];
        let mut i = 0;
        while i < 4 && i < count as usize {
            let kind = if i == 3 && matches!(field_kind, FieldKind::Srgb) {
                FieldKind::Unorm
            } else {
                field_kind
            };
            fields[i] = fld(channels[i], kind, (i as u8).wrapping_mul(bits), bits);
            i = i.wrapping_add(1);
        }
        Self::with_fields(count.wrapping_mul(bits) / 8, kind, family, fields)
    }

    /// A block format: `width` x `height` texels in `bytes` bytes, decoding the components in `channels`.
    const fn block(width: u8, height: u8, bytes: u8, kind: NumericKind, family: Option<Format>, channels: u8) -> Self {
        FormatInfo {
            layout: Layout::Block { width, height, bytes },
            kind,
            shader_type: Self::shader_type_of(kind),
            family,
            channels,
            fields: [NONE; 4],
            field_count: 0,
        }
    }

    /// A format with no layout described here.
    const fn opaque(kind: NumericKind) -> Self {
        FormatInfo {
            layout: Layout::Opaque,
            kind,
            shader_type: ShaderType::None,
            family: None,
            channels: 0,
            fields: [NONE; 4],
            field_count: 0,
        }
    }
}

/// Defines `Format` with its numeric values and names.
macro_rules! formats {
    ($($value:literal $variant:ident $name:literal;)*) => {
        /// A DXGI_FORMAT, with the numeric value `dxgiformat.h` gives it.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u32)]
        pub enum Format {
            $(
                #[doc = concat!("`DXGI_FORMAT_", $name, "` = ", stringify!($value), ".")]
                $variant = $value,
            )*
        }

        impl Format {
            /// Every format, in numeric order.
            pub const ALL: &'static [Format] = &[$(Format::$variant,)*];

            /// The name without the `DXGI_FORMAT_` prefix, e.g. `"R8G8B8A8_UNORM"`.
            pub const fn name(self) -> &'static str {
                match self {
                    $(Format::$variant => $name,)*
                }
            }

            /// The format with this numeric value, if `dxgiformat.h` defines one.
            pub const fn from_u32(value: u32) -> Option<Format> {
                match value {
                    $($value => Some(Format::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

formats! {
    0 Unknown "UNKNOWN";
    1 R32G32B32A32Typeless "R32G32B32A32_TYPELESS";
    2 R32G32B32A32Float "R32G32B32A32_FLOAT";
    3 R32G32B32A32Uint "R32G32B32A32_UINT";
    4 R32G32B32A32Sint "R32G32B32A32_SINT";
    5 R32G32B32Typeless "R32G32B32_TYPELESS";
    6 R32G32B32Float "R32G32B32_FLOAT";
    7 R32G32B32Uint "R32G32B32_UINT";
    8 R32G32B32Sint "R32G32B32_SINT";
    9 R16G16B16A16Typeless "R16G16B16A16_TYPELESS";
    10 R16G16B16A16Float "R16G16B16A16_FLOAT";
    11 R16G16B16A16Unorm "R16G16B16A16_UNORM";
    12 R16G16B16A16Uint "R16G16B16A16_UINT";
    13 R16G16B16A16Snorm "R16G16B16A16_SNORM";
    14 R16G16B16A16Sint "R16G16B16A16_SINT";
    15 R32G32Typeless "R32G32_TYPELESS";
    16 R32G32Float "R32G32_FLOAT";
    17 R32G32Uint "R32G32_UINT";
    18 R32G32Sint "R32G32_SINT";
    19 R32G8X24Typeless "R32G8X24_TYPELESS";
    20 D32FloatS8X24Uint "D32_FLOAT_S8X24_UINT";
    21 R32FloatX8X24Typeless "R32_FLOAT_X8X24_TYPELESS";
    22 X32TypelessG8X24Uint "X32_TYPELESS_G8X24_UINT";
    23 R10G10B10A2Typeless "R10G10B10A2_TYPELESS";
    24 R10G10B10A2Unorm "R10G10B10A2_UNORM";
    25 R10G10B10A2Uint "R10G10B10A2_UINT";
    26 R11G11B10Float "R11G11B10_FLOAT";
    27 R8G8B8A8Typeless "R8G8B8A8_TYPELESS";
    28 R8G8B8A8Unorm "R8G8B8A8_UNORM";
    29 R8G8B8A8UnormSrgb "R8G8B8A8_UNORM_SRGB";
    30 R8G8B8A8Uint "R8G8B8A8_UINT";
    31 R8G8B8A8Snorm "R8G8B8A8_SNORM";
    32 R8G8B8A8Sint "R8G8B8A8_SINT";
    33 R16G16Typeless "R16G16_TYPELESS";
    34 R16G16Float "R16G16_FLOAT";
    35 R16G16Unorm "R16G16_UNORM";
    36 R16G16Uint "R16G16_UINT";
    37 R16G16Snorm "R16G16_SNORM";
    38 R16G16Sint "R16G16_SINT";
    39 R32Typeless "R32_TYPELESS";
    40 D32Float "D32_FLOAT";
    41 R32Float "R32_FLOAT";
    42 R32Uint "R32_UINT";
    43 R32Sint "R32_SINT";
    44 R24G8Typeless "R24G8_TYPELESS";
    45 D24UnormS8Uint "D24_UNORM_S8_UINT";
    46 R24UnormX8Typeless "R24_UNORM_X8_TYPELESS";
    47 X24TypelessG8Uint "X24_TYPELESS_G8_UINT";
    48 R8G8Typeless "R8G8_TYPELESS";
    49 R8G8Unorm "R8G8_UNORM";
    50 R8G8Uint "R8G8_UINT";
    51 R8G8Snorm "R8G8_SNORM";
    52 R8G8Sint "R8G8_SINT";
    53 R16Typeless "R16_TYPELESS";
    54 R16Float "R16_FLOAT";
    55 D16Unorm "D16_UNORM";
    56 R16Unorm "R16_UNORM";
    57 R16Uint "R16_UINT";
    58 R16Snorm "R16_SNORM";
    59 R16Sint "R16_SINT";
    60 R8Typeless "R8_TYPELESS";
    61 R8Unorm "R8_UNORM";
    62 R8Uint "R8_UINT";
    63 R8Snorm "R8_SNORM";
    64 R8Sint "R8_SINT";
    65 A8Unorm "A8_UNORM";
    66 R1Unorm "R1_UNORM";
    67 R9G9B9E5Sharedexp "R9G9B9E5_SHAREDEXP";
    68 R8G8B8G8Unorm "R8G8_B8G8_UNORM";
    69 G8R8G8B8Unorm "G8R8_G8B8_UNORM";
    70 Bc1Typeless "BC1_TYPELESS";
    71 Bc1Unorm "BC1_UNORM";
    72 Bc1UnormSrgb "BC1_UNORM_SRGB";
    73 Bc2Typeless "BC2_TYPELESS";
    74 Bc2Unorm "BC2_UNORM";
    75 Bc2UnormSrgb "BC2_UNORM_SRGB";
    76 Bc3Typeless "BC3_TYPELESS";
    77 Bc3Unorm "BC3_UNORM";
    78 Bc3UnormSrgb "BC3_UNORM_SRGB";
    79 Bc4Typeless "BC4_TYPELESS";
    80 Bc4Unorm "BC4_UNORM";
    81 Bc4Snorm "BC4_SNORM";
    82 Bc5Typeless "BC5_TYPELESS";
    83 Bc5Unorm "BC5_UNORM";
    84 Bc5Snorm "BC5_SNORM";
    85 B5G6R5Unorm "B5G6R5_UNORM";
    86 B5G5R5A1Unorm "B5G5R5A1_UNORM";
    87 B8G8R8A8Unorm "B8G8R8A8_UNORM";
    88 B8G8R8X8Unorm "B8G8R8X8_UNORM";
    89 R10G10B10XrBiasA2Unorm "R10G10B10_XR_BIAS_A2_UNORM";
    90 B8G8R8A8Typeless "B8G8R8A8_TYPELESS";
    91 B8G8R8A8UnormSrgb "B8G8R8A8_UNORM_SRGB";
    92 B8G8R8X8Typeless "B8G8R8X8_TYPELESS";
    93 B8G8R8X8UnormSrgb "B8G8R8X8_UNORM_SRGB";
    94 Bc6hTypeless "BC6H_TYPELESS";
    95 Bc6hUf16 "BC6H_UF16";
    96 Bc6hSf16 "BC6H_SF16";
    97 Bc7Typeless "BC7_TYPELESS";
    98 Bc7Unorm "BC7_UNORM";
    99 Bc7UnormSrgb "BC7_UNORM_SRGB";
    100 Ayuv "AYUV";
    101 Y410 "Y410";
    102 Y416 "Y416";
    103 Nv12 "NV12";
    104 P010 "P010";
    105 P016 "P016";
    106 Opaque420 "420_OPAQUE";
    107 Yuy2 "YUY2";
    108 Y210 "Y210";
    109 Y216 "Y216";
    110 Nv11 "NV11";
    111 Ai44 "AI44";
    112 Ia44 "IA44";
    113 P8 "P8";
    114 A8P8 "A8P8";
    115 B4G4R4A4Unorm "B4G4R4A4_UNORM";
    130 P208 "P208";
    131 V208 "V208";
    132 V408 "V408";
    189 SamplerFeedbackMinMipOpaque "SAMPLER_FEEDBACK_MIN_MIP_OPAQUE";
    190 SamplerFeedbackMipRegionUsedOpaque "SAMPLER_FEEDBACK_MIP_REGION_USED_OPAQUE";
    191 A4B4G4R4Unorm "A4B4G4R4_UNORM";
}

/// Slots of [`FORMAT_INFOS`]: one past the largest DXGI value a [`Format`] has.
const FORMAT_INFO_SLOTS: usize = 192;

/// [`Format::compute_info`] of every format, by DXGI value (the values no format has hold `Unknown`'s). Built at
/// compile time, where an index out of range stops the build.
#[allow(clippy::indexing_slicing)]
static FORMAT_INFOS: [FormatInfo; FORMAT_INFO_SLOTS] = {
    let mut table = [Format::Unknown.compute_info(); FORMAT_INFO_SLOTS];
    let mut i = 0;
    while i < Format::ALL.len() {
        let format = Format::ALL[i];
        // a value past the table stops the build here
        table[format as usize] = format.compute_info();
        i += 1;
    }
    table
};

impl Format {
    /// The numeric DXGI_FORMAT value.
    pub const fn value(self) -> u32 {
        self as u32
    }

    /// Layout, interpretation, shader type, family and fields (chapter 19): a read of [`FORMAT_INFOS`], which
    /// holds [`Format::compute_info`] for every format (texel decoding asks for it per texel).
    pub const fn info(self) -> FormatInfo {
        // every discriminant is a DXGI value below FORMAT_INFO_SLOTS (checked where the table is built)
        #[allow(clippy::indexing_slicing)]
        FORMAT_INFOS[self as usize]
    }

    /// Layout, interpretation, shader type, family and fields (chapter 19), worked out.
    const fn compute_info(self) -> FormatInfo {
        use Channel as Ch;
        use FieldKind as FK;
        use Format as F;
        use NumericKind as NK;
        match self {
            F::Unknown => FormatInfo::opaque(NK::Other),
            F::R32G32B32A32Typeless => FormatInfo::uniform(32, NK::Typeless, Some(F::R32G32B32A32Typeless), 4),
            F::R32G32B32A32Float => FormatInfo::uniform(32, NK::Float, Some(F::R32G32B32A32Typeless), 4),
            F::R32G32B32A32Uint => FormatInfo::uniform(32, NK::Uint, Some(F::R32G32B32A32Typeless), 4),
            F::R32G32B32A32Sint => FormatInfo::uniform(32, NK::Sint, Some(F::R32G32B32A32Typeless), 4),
            F::R32G32B32Typeless => FormatInfo::uniform(32, NK::Typeless, Some(F::R32G32B32Typeless), 3),
            F::R32G32B32Float => FormatInfo::uniform(32, NK::Float, Some(F::R32G32B32Typeless), 3),
            F::R32G32B32Uint => FormatInfo::uniform(32, NK::Uint, Some(F::R32G32B32Typeless), 3),
            F::R32G32B32Sint => FormatInfo::uniform(32, NK::Sint, Some(F::R32G32B32Typeless), 3),
            F::R16G16B16A16Typeless => FormatInfo::uniform(16, NK::Typeless, Some(F::R16G16B16A16Typeless), 4),
            F::R16G16B16A16Float => FormatInfo::uniform(16, NK::Float, Some(F::R16G16B16A16Typeless), 4),
            F::R16G16B16A16Unorm => FormatInfo::uniform(16, NK::Unorm, Some(F::R16G16B16A16Typeless), 4),
            F::R16G16B16A16Uint => FormatInfo::uniform(16, NK::Uint, Some(F::R16G16B16A16Typeless), 4),
            F::R16G16B16A16Snorm => FormatInfo::uniform(16, NK::Snorm, Some(F::R16G16B16A16Typeless), 4),
            F::R16G16B16A16Sint => FormatInfo::uniform(16, NK::Sint, Some(F::R16G16B16A16Typeless), 4),
            F::R32G32Typeless => FormatInfo::uniform(32, NK::Typeless, Some(F::R32G32Typeless), 2),
            F::R32G32Float => FormatInfo::uniform(32, NK::Float, Some(F::R32G32Typeless), 2),
            F::R32G32Uint => FormatInfo::uniform(32, NK::Uint, Some(F::R32G32Typeless), 2),
            F::R32G32Sint => FormatInfo::uniform(32, NK::Sint, Some(F::R32G32Typeless), 2),
            F::R32G8X24Typeless => FormatInfo::with_fields(
                8,
                NK::Typeless,
                Some(F::R32G8X24Typeless),
                [
                    fld(Ch::R, FK::Typeless, 0, 32),
                    fld(Ch::G, FK::Typeless, 32, 8),
                    UNUSED_40_24,
                    NONE,
                ],
            ),
            F::D32FloatS8X24Uint => FormatInfo::with_fields(
                8,
                NK::DepthStencil,
                Some(F::R32G8X24Typeless),
                [
                    fld(Ch::Depth, FK::Float, 0, 32),
                    fld(Ch::Stencil, FK::Uint, 32, 8),
                    UNUSED_40_24,
                    NONE,
                ],
            ),
            F::R32FloatX8X24Typeless => FormatInfo::with_fields(
                8,
                NK::Float,
                Some(F::R32G8X24Typeless),
                [
                    fld(Ch::R, FK::Float, 0, 32),
                    fld(Ch::Unused, FK::Typeless, 32, 8),
                    UNUSED_40_24,
                    NONE,
                ],
            ),
            F::X32TypelessG8X24Uint => FormatInfo::with_fields(
                8,
                NK::Uint,
                Some(F::R32G8X24Typeless),
                [
                    fld(Ch::Unused, FK::Typeless, 0, 32),
                    fld(Ch::G, FK::Uint, 32, 8),
                    UNUSED_40_24,
                    NONE,
                ],
            ),
            F::R10G10B10A2Typeless => {
                FormatInfo::with_fields(4, NK::Typeless, Some(F::R10G10B10A2Typeless), rgb10a2(FK::Typeless))
            }
            F::R10G10B10A2Unorm => {
                FormatInfo::with_fields(4, NK::Unorm, Some(F::R10G10B10A2Typeless), rgb10a2(FK::Unorm))
            }
            F::R10G10B10A2Uint => FormatInfo::with_fields(4, NK::Uint, Some(F::R10G10B10A2Typeless), rgb10a2(FK::Uint)),
            F::R11G11B10Float => FormatInfo::with_fields(
                4,
                NK::Float,
                None,
                [
                    fld(Ch::R, FK::Float, 0, 11),
                    fld(Ch::G, FK::Float, 11, 11),
                    fld(Ch::B, FK::Float, 22, 10),
                    NONE,
                ],
            ),
            F::R8G8B8A8Typeless => FormatInfo::uniform(8, NK::Typeless, Some(F::R8G8B8A8Typeless), 4),
            F::R8G8B8A8Unorm => FormatInfo::uniform(8, NK::Unorm, Some(F::R8G8B8A8Typeless), 4),
            F::R8G8B8A8UnormSrgb => FormatInfo::uniform(8, NK::Srgb, Some(F::R8G8B8A8Typeless), 4),
            F::R8G8B8A8Uint => FormatInfo::uniform(8, NK::Uint, Some(F::R8G8B8A8Typeless), 4),
            F::R8G8B8A8Snorm => FormatInfo::uniform(8, NK::Snorm, Some(F::R8G8B8A8Typeless), 4),
            F::R8G8B8A8Sint => FormatInfo::uniform(8, NK::Sint, Some(F::R8G8B8A8Typeless), 4),
            F::R16G16Typeless => FormatInfo::uniform(16, NK::Typeless, Some(F::R16G16Typeless), 2),
            F::R16G16Float => FormatInfo::uniform(16, NK::Float, Some(F::R16G16Typeless), 2),
            F::R16G16Unorm => FormatInfo::uniform(16, NK::Unorm, Some(F::R16G16Typeless), 2),
            F::R16G16Uint => FormatInfo::uniform(16, NK::Uint, Some(F::R16G16Typeless), 2),
            F::R16G16Snorm => FormatInfo::uniform(16, NK::Snorm, Some(F::R16G16Typeless), 2),
            F::R16G16Sint => FormatInfo::uniform(16, NK::Sint, Some(F::R16G16Typeless), 2),
            F::R32Typeless => FormatInfo::uniform(32, NK::Typeless, Some(F::R32Typeless), 1),
            F::D32Float => FormatInfo::with_fields(
                4,
                NK::Depth,
                Some(F::R32Typeless),
                [fld(Ch::Depth, FK::Float, 0, 32), NONE, NONE, NONE],
            ),
            F::R32Float => FormatInfo::uniform(32, NK::Float, Some(F::R32Typeless), 1),
            F::R32Uint => FormatInfo::uniform(32, NK::Uint, Some(F::R32Typeless), 1),
            F::R32Sint => FormatInfo::uniform(32, NK::Sint, Some(F::R32Typeless), 1),
            F::R24G8Typeless => FormatInfo::with_fields(
                4,
                NK::Typeless,
                Some(F::R24G8Typeless),
                [
                    fld(Ch::R, FK::Typeless, 0, 24),
                    fld(Ch::G, FK::Typeless, 24, 8),
                    NONE,
                    NONE,
                ],
            ),
            F::D24UnormS8Uint => FormatInfo::with_fields(
                4,
                NK::DepthStencil,
                Some(F::R24G8Typeless),
                [
                    fld(Ch::Depth, FK::Unorm, 0, 24),
                    fld(Ch::Stencil, FK::Uint, 24, 8),
                    NONE,
                    NONE,
                ],
            ),
            F::R24UnormX8Typeless => FormatInfo::with_fields(
                4,
                NK::Unorm,
                Some(F::R24G8Typeless),
                [
                    fld(Ch::R, FK::Unorm, 0, 24),
                    fld(Ch::Unused, FK::Typeless, 24, 8),
                    NONE,
                    NONE,
                ],
            ),
            F::X24TypelessG8Uint => FormatInfo::with_fields(
                4,
                NK::Uint,
                Some(F::R24G8Typeless),
                [
                    fld(Ch::Unused, FK::Typeless, 0, 24),
                    fld(Ch::G, FK::Uint, 24, 8),
                    NONE,
                    NONE,
                ],
            ),
            F::R8G8Typeless => FormatInfo::uniform(8, NK::Typeless, Some(F::R8G8Typeless), 2),
            F::R8G8Unorm => FormatInfo::uniform(8, NK::Unorm, Some(F::R8G8Typeless), 2),
            F::R8G8Uint => FormatInfo::uniform(8, NK::Uint, Some(F::R8G8Typeless), 2),
            F::R8G8Snorm => FormatInfo::uniform(8, NK::Snorm, Some(F::R8G8Typeless), 2),
            F::R8G8Sint => FormatInfo::uniform(8, NK::Sint, Some(F::R8G8Typeless), 2),
            F::R16Typeless => FormatInfo::uniform(16, NK::Typeless, Some(F::R16Typeless), 1),
            F::R16Float => FormatInfo::uniform(16, NK::Float, Some(F::R16Typeless), 1),
            F::D16Unorm => FormatInfo::with_fields(
                2,
                NK::Depth,
                Some(F::R16Typeless),
                [fld(Ch::Depth, FK::Unorm, 0, 16), NONE, NONE, NONE],
            ),
            F::R16Unorm => FormatInfo::uniform(16, NK::Unorm, Some(F::R16Typeless), 1),
            F::R16Uint => FormatInfo::uniform(16, NK::Uint, Some(F::R16Typeless), 1),
            F::R16Snorm => FormatInfo::uniform(16, NK::Snorm, Some(F::R16Typeless), 1),
            F::R16Sint => FormatInfo::uniform(16, NK::Sint, Some(F::R16Typeless), 1),
            F::R8Typeless => FormatInfo::uniform(8, NK::Typeless, Some(F::R8Typeless), 1),
            F::R8Unorm => FormatInfo::uniform(8, NK::Unorm, Some(F::R8Typeless), 1),
            F::R8Uint => FormatInfo::uniform(8, NK::Uint, Some(F::R8Typeless), 1),
            F::R8Snorm => FormatInfo::uniform(8, NK::Snorm, Some(F::R8Typeless), 1),
            F::R8Sint => FormatInfo::uniform(8, NK::Sint, Some(F::R8Typeless), 1),
            F::A8Unorm => FormatInfo::with_fields(1, NK::Unorm, None, [fld(Ch::A, FK::Unorm, 0, 8), NONE, NONE, NONE]),
            F::R1Unorm => FormatInfo::block(8, 1, 1, NK::Unorm, None, 0b0001),
            F::R9G9B9E5Sharedexp => FormatInfo::with_fields(
                4,
                NK::SharedExp,
                None,
                [
                    fld(Ch::R, FK::SharedExp, 0, 9),
                    fld(Ch::G, FK::SharedExp, 9, 9),
                    fld(Ch::B, FK::SharedExp, 18, 9),
                    fld(Ch::Exponent, FK::SharedExp, 27, 5),
                ],
            ),
            F::R8G8B8G8Unorm => FormatInfo::block(2, 1, 4, NK::Unorm, None, 0b0111),
            F::G8R8G8B8Unorm => FormatInfo::block(2, 1, 4, NK::Unorm, None, 0b0111),
            F::Bc1Typeless => FormatInfo::block(4, 4, 8, NK::Typeless, Some(F::Bc1Typeless), 0b1111),
            F::Bc1Unorm => FormatInfo::block(4, 4, 8, NK::Unorm, Some(F::Bc1Typeless), 0b1111),
            F::Bc1UnormSrgb => FormatInfo::block(4, 4, 8, NK::Srgb, Some(F::Bc1Typeless), 0b1111),
            F::Bc2Typeless => FormatInfo::block(4, 4, 16, NK::Typeless, Some(F::Bc2Typeless), 0b1111),
            F::Bc2Unorm => FormatInfo::block(4, 4, 16, NK::Unorm, Some(F::Bc2Typeless), 0b1111),
            F::Bc2UnormSrgb => FormatInfo::block(4, 4, 16, NK::Srgb, Some(F::Bc2Typeless), 0b1111),
            F::Bc3Typeless => FormatInfo::block(4, 4, 16, NK::Typeless, Some(F::Bc3Typeless), 0b1111),
            F::Bc3Unorm => FormatInfo::block(4, 4, 16, NK::Unorm, Some(F::Bc3Typeless), 0b1111),
            F::Bc3UnormSrgb => FormatInfo::block(4, 4, 16, NK::Srgb, Some(F::Bc3Typeless), 0b1111),
            F::Bc4Typeless => FormatInfo::block(4, 4, 8, NK::Typeless, Some(F::Bc4Typeless), 0b0001),
            F::Bc4Unorm => FormatInfo::block(4, 4, 8, NK::Unorm, Some(F::Bc4Typeless), 0b0001),
            F::Bc4Snorm => FormatInfo::block(4, 4, 8, NK::Snorm, Some(F::Bc4Typeless), 0b0001),
            F::Bc5Typeless => FormatInfo::block(4, 4, 16, NK::Typeless, Some(F::Bc5Typeless), 0b0011),
            F::Bc5Unorm => FormatInfo::block(4, 4, 16, NK::Unorm, Some(F::Bc5Typeless), 0b0011),
            F::Bc5Snorm => FormatInfo::block(4, 4, 16, NK::Snorm, Some(F::Bc5Typeless), 0b0011),
            F::B5G6R5Unorm => FormatInfo::with_fields(
                2,
                NK::Unorm,
                None,
                [
                    fld(Ch::B, FK::Unorm, 0, 5),
                    fld(Ch::G, FK::Unorm, 5, 6),
                    fld(Ch::R, FK::Unorm, 11, 5),
                    NONE,
                ],
            ),
            F::B5G5R5A1Unorm => FormatInfo::with_fields(
                2,
                NK::Unorm,
                None,
                [
                    fld(Ch::B, FK::Unorm, 0, 5),
                    fld(Ch::G, FK::Unorm, 5, 5),
                    fld(Ch::R, FK::Unorm, 10, 5),
                    fld(Ch::A, FK::Unorm, 15, 1),
                ],
            ),
            F::B8G8R8A8Unorm => FormatInfo::with_fields(
                4,
                NK::Unorm,
                Some(F::B8G8R8A8Typeless),
                bgra8(FK::Unorm, FK::Unorm, Ch::A),
            ),
            F::B8G8R8X8Unorm => FormatInfo::with_fields(
                4,
                NK::Unorm,
                Some(F::B8G8R8X8Typeless),
                bgra8(FK::Unorm, FK::Typeless, Ch::Unused),
            ),
            F::R10G10B10XrBiasA2Unorm => {
                FormatInfo::with_fields(4, NK::Other, Some(F::R10G10B10A2Typeless), rgb10a2(FK::Typeless))
            }
            F::B8G8R8A8Typeless => FormatInfo::with_fields(
                4,
                NK::Typeless,
                Some(F::B8G8R8A8Typeless),
                bgra8(FK::Typeless, FK::Typeless, Ch::A),
            ),
            F::B8G8R8A8UnormSrgb => FormatInfo::with_fields(
                4,
                NK::Srgb,
                Some(F::B8G8R8A8Typeless),
                bgra8(FK::Srgb, FK::Unorm, Ch::A),
            ),
            F::B8G8R8X8Typeless => FormatInfo::with_fields(
                4,
                NK::Typeless,
                Some(F::B8G8R8X8Typeless),
                bgra8(FK::Typeless, FK::Typeless, Ch::Unused),
            ),
            F::B8G8R8X8UnormSrgb => FormatInfo::with_fields(
                4,
                NK::Srgb,
                Some(F::B8G8R8X8Typeless),
                bgra8(FK::Srgb, FK::Typeless, Ch::Unused),
            ),
            F::Bc6hTypeless => FormatInfo::block(4, 4, 16, NK::Typeless, Some(F::Bc6hTypeless), 0b0111),
            F::Bc6hUf16 => FormatInfo::block(4, 4, 16, NK::Float, Some(F::Bc6hTypeless), 0b0111),
            F::Bc6hSf16 => FormatInfo::block(4, 4, 16, NK::Float, Some(F::Bc6hTypeless), 0b0111),
            F::Bc7Typeless => FormatInfo::block(4, 4, 16, NK::Typeless, Some(F::Bc7Typeless), 0b1111),
            F::Bc7Unorm => FormatInfo::block(4, 4, 16, NK::Unorm, Some(F::Bc7Typeless), 0b1111),
            F::Bc7UnormSrgb => FormatInfo::block(4, 4, 16, NK::Srgb, Some(F::Bc7Typeless), 0b1111),
            F::Ayuv => FormatInfo::opaque(NK::Other),
            F::Y410 => FormatInfo::opaque(NK::Other),
            F::Y416 => FormatInfo::opaque(NK::Other),
            F::Nv12 => FormatInfo::opaque(NK::Other),
            F::P010 => FormatInfo::opaque(NK::Other),
            F::P016 => FormatInfo::opaque(NK::Other),
            F::Opaque420 => FormatInfo::opaque(NK::Other),
            F::Yuy2 => FormatInfo::opaque(NK::Other),
            F::Y210 => FormatInfo::opaque(NK::Other),
            F::Y216 => FormatInfo::opaque(NK::Other),
            F::Nv11 => FormatInfo::opaque(NK::Other),
            F::Ai44 => FormatInfo::opaque(NK::Other),
            F::Ia44 => FormatInfo::opaque(NK::Other),
            F::P8 => FormatInfo::opaque(NK::Other),
            F::A8P8 => FormatInfo::opaque(NK::Other),
            F::B4G4R4A4Unorm => FormatInfo::with_fields(
                2,
                NK::Unorm,
                None,
                [
                    fld(Ch::B, FK::Unorm, 0, 4),
                    fld(Ch::G, FK::Unorm, 4, 4),
                    fld(Ch::R, FK::Unorm, 8, 4),
                    fld(Ch::A, FK::Unorm, 12, 4),
                ],
            ),
            F::P208 => FormatInfo::opaque(NK::Other),
            F::V208 => FormatInfo::opaque(NK::Other),
            F::V408 => FormatInfo::opaque(NK::Other),
            F::SamplerFeedbackMinMipOpaque => FormatInfo::opaque(NK::Other),
            F::SamplerFeedbackMipRegionUsedOpaque => FormatInfo::opaque(NK::Other),
            F::A4B4G4R4Unorm => FormatInfo::with_fields(
                2,
                NK::Unorm,
                None,
                [
                    fld(Ch::A, FK::Unorm, 0, 4),
                    fld(Ch::B, FK::Unorm, 4, 4),
                    fld(Ch::G, FK::Unorm, 8, 4),
                    fld(Ch::R, FK::Unorm, 12, 4),
                ],
            ),
        }
    }

    /// The `_TYPELESS` format whose family this one belongs to (itself for a typeless format), if any.
    pub const fn typeless_family(self) -> Option<Format> {
        self.info().family
    }

    /// Whether a view of a resource created with this format may use `view`: the same format, or, for a `_TYPELESS`
    /// resource, any format of its family (19.1.1; 19.1.4 "Cast within Bit Layout"). Depth views of the R24G8,
    /// R32G8X24, R32 and R16 families are members like any other (D24_UNORM_S8_UINT, R24_UNORM_X8_TYPELESS, ...).
    pub fn can_view_as(self, view: Format) -> bool {
        if self == view {
            return true;
        }
        self.info().kind == NumericKind::Typeless && view.typeless_family() == Some(self)
    }

    /// Every format a view of a resource created with this format may use (see [`Format::can_view_as`]).
    pub fn view_formats(self) -> impl Iterator<Item = Format> {
        Format::ALL.iter().copied().filter(move |&view| self.can_view_as(view))
    }

    /// Whether this is a depth or depth/stencil format (a DSV format).
    pub const fn is_depth(self) -> bool {
        matches!(self.info().kind, NumericKind::Depth | NumericKind::DepthStencil)
    }

    /// Whether the format is block-compressed (BC1..BC7).
    pub const fn is_block_compressed(self) -> bool {
        matches!(
            self.info().layout,
            Layout::Block {
                width: 4,
                height: 4,
                ..
            }
        )
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = Error;

    /// Parses a name (`R8G8B8A8_UNORM`, `DXGI_FORMAT_R8G8B8A8_UNORM`, any letter case) or a number (`28`, `0x1c`).
    fn from_str(text: &str) -> Result<Format> {
        let trimmed = text.trim();
        let number = if let Some(hex) = trimmed.strip_prefix("0x").or_else(|| trimmed.strip_prefix("0X")) {
            u32::from_str_radix(hex, 16).ok()
        } else if !trimmed.is_empty() && trimmed.bytes().all(|b| b.is_ascii_digit()) {
            trimmed.parse::<u32>().ok()
        } else {
            None
        };
        if let Some(value) = number {
            return Format::from_u32(value)
                .ok_or_else(|| Error::new("format", format!("{value} is not a DXGI_FORMAT value")));
        }
        let upper = trimmed.to_ascii_uppercase();
        let name = upper.strip_prefix("DXGI_FORMAT_").unwrap_or(&upper);
        Format::ALL
            .iter()
            .copied()
            .find(|format| format.name() == name)
            .ok_or_else(|| Error::new("format", format!("\"{trimmed}\" is not a DXGI_FORMAT name")))
    }
}

impl serde::Serialize for Format {
    /// A format is written as its name without the prefix.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for Format {
    /// A format is read from any form [`Format::from_str`] accepts, or from its number.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Format;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a DXGI_FORMAT name or number")
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> std::result::Result<Format, E> {
                text.parse().map_err(|e: Error| E::custom(e.detail))
            }
            fn visit_u64<E: serde::de::Error>(self, value: u64) -> std::result::Result<Format, E> {
                u32::try_from(value)
                    .ok()
                    .and_then(Format::from_u32)
                    .ok_or_else(|| E::custom(format!("{value} is not a DXGI_FORMAT value")))
            }
            fn visit_i64<E: serde::de::Error>(self, value: i64) -> std::result::Result<Format, E> {
                u64::try_from(value)
                    .map_err(|_| E::custom(format!("{value} is not a DXGI_FORMAT value")))
                    .and_then(|v| self.visit_u64(v))
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

#[cfg(test)]
#[allow(clippy::arithmetic_side_effects)] // tests sum small bit counts
mod tests {
    use super::*;

    #[test]
    fn every_format_has_its_dxgiformat_h_number_and_name() {
        // dxgiformat.h: 0..=115 without gaps, then P208 = 130, V208 = 131, V408 = 132 and the D3D12 additions
        // SAMPLER_FEEDBACK_MIN_MIP_OPAQUE = 189, ..._MIP_REGION_USED_OPAQUE = 190, A4B4G4R4_UNORM = 191.
        assert_eq!(Format::ALL.len(), 116 + 3 + 3);
        for (i, format) in Format::ALL.iter().take(116).enumerate() {
            assert_eq!(format.value(), i as u32);
        }
        assert_eq!(Format::R8G8B8A8Unorm.value(), 28);
        assert_eq!(Format::D24UnormS8Uint.value(), 45);
        assert_eq!(Format::R9G9B9E5Sharedexp.value(), 67);
        assert_eq!(Format::B8G8R8A8Unorm.value(), 87);
        assert_eq!(Format::Bc6hUf16.value(), 95);
        assert_eq!(Format::Bc7UnormSrgb.value(), 99);
        assert_eq!(Format::B4G4R4A4Unorm.value(), 115);
        assert_eq!(Format::P208.value(), 130);
        assert_eq!(Format::V408.value(), 132);
        assert_eq!(Format::A4B4G4R4Unorm.value(), 191);
        assert_eq!(Format::from_u32(116), None);
        assert_eq!(Format::from_u32(133), None);
        for &format in Format::ALL {
            assert_eq!(Format::from_u32(format.value()), Some(format));
            assert_eq!(format.name().parse::<Format>().unwrap(), format);
            assert_eq!(
                format!("DXGI_FORMAT_{}", format.name()).parse::<Format>().unwrap(),
                format
            );
            assert_eq!(format.value().to_string().parse::<Format>().unwrap(), format);
        }
    }

    #[test]
    fn names_parse_with_prefix_any_case_or_as_numbers() {
        assert_eq!("R8G8B8A8_UNORM".parse::<Format>().unwrap(), Format::R8G8B8A8Unorm);
        assert_eq!(
            " dxgi_format_bc7_unorm_srgb ".parse::<Format>().unwrap(),
            Format::Bc7UnormSrgb
        );
        assert_eq!("0x1c".parse::<Format>().unwrap(), Format::R8G8B8A8Unorm);
        assert_eq!("420_OPAQUE".parse::<Format>().unwrap(), Format::Opaque420);
        assert_eq!(Format::R10G10B10XrBiasA2Unorm.to_string(), "R10G10B10_XR_BIAS_A2_UNORM");
        let error = "R8G8B8A8".parse::<Format>().unwrap_err();
        assert!(error.detail.contains("not a DXGI_FORMAT name"), "{error}");
        assert!("116".parse::<Format>().is_err());
        assert!("".parse::<Format>().is_err());
        assert!("0xZZ".parse::<Format>().is_err());
    }

    #[test]
    fn formats_serialize_as_names_and_read_names_or_numbers() {
        assert_eq!(serde_json::to_string(&Format::R16G16Float).unwrap(), "\"R16G16_FLOAT\"");
        assert_eq!(
            serde_json::from_str::<Format>("\"DXGI_FORMAT_D32_FLOAT\"").unwrap(),
            Format::D32Float
        );
        assert_eq!(serde_json::from_str::<Format>("41").unwrap(), Format::R32Float);
        assert!(serde_json::from_str::<Format>("-1").is_err());
        assert!(serde_json::from_str::<Format>("\"nope\"").is_err());
    }

    #[test]
    fn element_sizes_follow_the_names() {
        let bytes = |format: Format| format.info().layout.element_bytes();
        assert_eq!(bytes(Format::R32G32B32A32Float), Some(16));
        assert_eq!(bytes(Format::R32G32B32Uint), Some(12));
        assert_eq!(bytes(Format::R16G16B16A16Snorm), Some(8));
        assert_eq!(bytes(Format::D32FloatS8X24Uint), Some(8));
        assert_eq!(bytes(Format::R10G10B10A2Unorm), Some(4));
        assert_eq!(bytes(Format::R11G11B10Float), Some(4));
        assert_eq!(bytes(Format::D24UnormS8Uint), Some(4));
        assert_eq!(bytes(Format::B5G6R5Unorm), Some(2));
        assert_eq!(bytes(Format::R8G8Snorm), Some(2));
        assert_eq!(bytes(Format::A8Unorm), Some(1));
        assert_eq!(bytes(Format::Nv12), None);
        // 19.5: BC1 and BC4 are 8 bytes per 4x4 block, the others 16; 19.4: R8G8_B8G8 is 4 bytes per 2 texels.
        assert_eq!(
            Format::Bc1UnormSrgb.info().layout,
            Layout::Block {
                width: 4,
                height: 4,
                bytes: 8
            }
        );
        assert_eq!(
            Format::Bc4Snorm.info().layout,
            Layout::Block {
                width: 4,
                height: 4,
                bytes: 8
            }
        );
        for format in [
            Format::Bc2Unorm,
            Format::Bc3Unorm,
            Format::Bc5Snorm,
            Format::Bc6hSf16,
            Format::Bc7Unorm,
        ] {
            assert_eq!(
                format.info().layout,
                Layout::Block {
                    width: 4,
                    height: 4,
                    bytes: 16
                }
            );
            assert!(format.is_block_compressed());
        }
        assert_eq!(
            Format::G8R8G8B8Unorm.info().layout,
            Layout::Block {
                width: 2,
                height: 1,
                bytes: 4
            }
        );
        assert!(!Format::G8R8G8B8Unorm.is_block_compressed());
    }

    #[test]
    fn fields_tile_every_texel_without_overlap() {
        // Every bit of a plain format's element belongs to exactly one field (X bits included).
        for &format in Format::ALL {
            let info = format.info();
            let Layout::Texel { bytes } = info.layout else { continue };
            let mut used = 0u128;
            for field in info.fields() {
                let mask = ((1u128 << field.bits) - 1) << field.offset;
                assert_eq!(used & mask, 0, "{format}: {field:?} overlaps");
                used |= mask;
            }
            let total: u32 = info.fields().iter().map(|f| u32::from(f.bits)).sum();
            assert_eq!(total, u32::from(bytes) * 8, "{format}");
        }
    }

    #[test]
    fn packed_fields_sit_where_19_1_3_1_puts_them() {
        // R10G10B10A2: R bits 0-9, G 10-19, B 20-29, A 30-31. R11G11B10: R 0-10, G 11-21, B 22-31 (19.3.3's figure).
        // B5G6R5: B 0-4, G 5-10, R 11-15 (first-named component in the lowest bits).
        let positions = |format: Format| -> Vec<(Channel, u8, u8)> {
            format
                .info()
                .fields()
                .iter()
                .map(|f| (f.channel, f.offset, f.bits))
                .collect()
        };
        assert_eq!(
            positions(Format::R10G10B10A2Unorm),
            [
                (Channel::R, 0, 10),
                (Channel::G, 10, 10),
                (Channel::B, 20, 10),
                (Channel::A, 30, 2)
            ]
        );
        assert_eq!(
            positions(Format::R11G11B10Float),
            [(Channel::R, 0, 11), (Channel::G, 11, 11), (Channel::B, 22, 10)]
        );
        assert_eq!(
            positions(Format::B5G6R5Unorm),
            [(Channel::B, 0, 5), (Channel::G, 5, 6), (Channel::R, 11, 5)]
        );
        assert_eq!(
            positions(Format::D24UnormS8Uint),
            [(Channel::Depth, 0, 24), (Channel::Stencil, 24, 8)]
        );
    }

    #[test]
    fn srgb_formats_keep_alpha_linear() {
        // 19.1.3.2: "If a format with _SRGB has an A channel, the A channel is stored in Gamma 1.0f."
        for format in [Format::R8G8B8A8UnormSrgb, Format::B8G8R8A8UnormSrgb] {
            let kinds: Vec<(Channel, FieldKind)> = format.info().fields().iter().map(|f| (f.channel, f.kind)).collect();
            assert!(kinds.contains(&(Channel::A, FieldKind::Unorm)), "{format}");
            assert!(kinds.contains(&(Channel::R, FieldKind::Srgb)), "{format}");
        }
    }

    #[test]
    fn shader_types_follow_the_interpretation() {
        assert_eq!(Format::R8G8B8A8Uint.info().shader_type, ShaderType::Uint);
        assert_eq!(Format::R16Sint.info().shader_type, ShaderType::Sint);
        assert_eq!(Format::R8G8B8A8Snorm.info().shader_type, ShaderType::Float);
        assert_eq!(Format::Bc6hSf16.info().shader_type, ShaderType::Float);
        assert_eq!(Format::R24UnormX8Typeless.info().shader_type, ShaderType::Float);
        assert_eq!(Format::X24TypelessG8Uint.info().shader_type, ShaderType::Uint);
        assert_eq!(Format::X32TypelessG8X24Uint.info().shader_type, ShaderType::Uint);
        assert_eq!(Format::R32G32Typeless.info().shader_type, ShaderType::None);
        assert_eq!(Format::Yuy2.info().shader_type, ShaderType::None);
        assert!(Format::D16Unorm.is_depth() && Format::D32FloatS8X24Uint.is_depth());
        assert!(!Format::R24UnormX8Typeless.is_depth());
    }

    #[test]
    fn typeless_resources_may_be_viewed_as_any_family_member() {
        let views = |format: Format| -> Vec<Format> { format.view_formats().collect() };
        assert_eq!(
            views(Format::R8G8B8A8Typeless),
            [
                Format::R8G8B8A8Typeless,
                Format::R8G8B8A8Unorm,
                Format::R8G8B8A8UnormSrgb,
                Format::R8G8B8A8Uint,
                Format::R8G8B8A8Snorm,
                Format::R8G8B8A8Sint
            ]
        );
        assert_eq!(
            views(Format::R24G8Typeless),
            [
                Format::R24G8Typeless,
                Format::D24UnormS8Uint,
                Format::R24UnormX8Typeless,
                Format::X24TypelessG8Uint
            ]
        );
        assert!(Format::R32Typeless.can_view_as(Format::D32Float));
        assert!(Format::R16Typeless.can_view_as(Format::D16Unorm));
        assert!(Format::Bc1Typeless.can_view_as(Format::Bc1UnormSrgb));
        assert!(Format::B8G8R8X8Typeless.can_view_as(Format::B8G8R8X8UnormSrgb));
        // A typed resource is viewed only as itself.
        assert_eq!(views(Format::R8G8B8A8Unorm), [Format::R8G8B8A8Unorm]);
        assert!(!Format::R8G8B8A8Unorm.can_view_as(Format::R8G8B8A8UnormSrgb));
        assert!(!Format::R8G8B8A8Typeless.can_view_as(Format::B8G8R8A8Unorm));
        assert!(!Format::R11G11B10Float.can_view_as(Format::R32Float));
    }

    #[test]
    fn family_members_share_their_parents_bit_layout() {
        // 19.1.1: a view must keep the bits per component; so every member's fields have the parent's positions.
        for &format in Format::ALL {
            let Some(parent) = format.typeless_family() else {
                continue;
            };
            let (info, parent_info) = (format.info(), parent.info());
            assert_eq!(info.layout, parent_info.layout, "{format}");
            let bits = |i: &FormatInfo| -> Vec<(u8, u8)> { i.fields().iter().map(|f| (f.offset, f.bits)).collect() };
            assert_eq!(bits(&info), bits(&parent_info), "{format}");
            assert_eq!(parent_info.kind, NumericKind::Typeless, "{format}'s parent {parent}");
        }
    }
}

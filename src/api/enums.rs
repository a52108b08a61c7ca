//! The D3D11 API's enumerations a draw's state uses, numbered as `d3d11.h` numbers them (the D3D11.3 specification
//! quotes most of them in the sections cited). Each converts from its number and its name; a name may be given short
//! (`"BACK"`), in full (`"D3D11_CULL_BACK"`, also with a `D3D10_`/`D3D_` prefix) or as a number (`"3"`), in any case,
//! as the draw descriptions of `d3d11-ref` and Iridia's captures write them. Serialized, each is its short name.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// An enumeration value as JSON gives it: a number or a name.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum EnumValue {
    /// Its number.
    Number(u32),
    /// A name: short, full or a number in a string.
    Name(String),
}

/// The part of a full name after a `D3D11_`/`D3D10_`/`D3D_` prefix and the enumeration's `stem`, if `name` is one.
fn strip_full_name<'a>(name: &'a str, stem: &str) -> Option<&'a str> {
    ["D3D11_", "D3D10_", "D3D_"].iter().find_map(|prefix| {
        let rest = name
            .get(..prefix.len())
            .filter(|p| p.eq_ignore_ascii_case(prefix))
            .and(name.get(prefix.len()..))?;
        rest.get(..stem.len())
            .filter(|s| s.eq_ignore_ascii_case(stem))
            .and(rest.get(stem.len()..))
    })
}

/// Defines an API enumeration with its numbers and names (see the module documentation).
macro_rules! api_enum {
    ($(#[$meta:meta])* $name:ident, $stem:literal { $($(#[$vmeta:meta])* $variant:ident = $value:literal => $short:literal,)* }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(try_from = "EnumValue", into = "&'static str")]
        pub enum $name {
            $($(#[$vmeta])* $variant,)*
        }

        impl $name {
            /// Every value, in numeric order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            /// The value `d3d11.h` numbers `value`.
            pub fn from_value(value: u32) -> Option<Self> {
                match value {
                    $($value => Some(Self::$variant),)*
                    _ => None,
                }
            }

            /// Its number in `d3d11.h`.
            pub fn value(self) -> u32 {
                match self {
                    $(Self::$variant => $value,)*
                }
            }

            /// Its short name, as `d3d11.h` spells it after the enumeration's prefix.
            pub fn name(self) -> &'static str {
                match self {
                    $(Self::$variant => $short,)*
                }
            }

            /// The value a short name, full name or number names (any case); `None` for anything else.
            pub fn parse(text: &str) -> Option<Self> {
                let text = text.trim();
                if let Some(value) = parse_number(text) {
                    return Self::from_value(value);
                }
                let short = strip_full_name(text, $stem).unwrap_or(text);
                Self::ALL.iter().copied().find(|v| v.name().eq_ignore_ascii_case(short))
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }

        impl FromStr for $name {
            type Err = String;
            fn from_str(text: &str) -> Result<Self, String> {
                Self::parse(text).ok_or_else(|| format!(
                    "{text:?} is not a D3D11 {} value (one of {})",
                    stringify!($name),
                    Self::ALL.iter().map(|v| v.name()).collect::<Vec<_>>().join(", ")
                ))
            }
        }

        impl TryFrom<EnumValue> for $name {
            type Error = String;
            fn try_from(value: EnumValue) -> Result<Self, String> {
                match value {
                    EnumValue::Number(n) => Self::from_value(n)
                        .ok_or_else(|| format!("{n} is not a D3D11 {} value", stringify!($name))),
                    EnumValue::Name(text) => text.parse(),
                }
            }
        }

        impl From<$name> for &'static str {
            fn from(value: $name) -> &'static str {
                value.name()
            }
        }
    };
}

/// A decimal or `0x` hexadecimal number.
fn parse_number(text: &str) -> Option<u32> {
    match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u32::from_str_radix(hex, 16).ok(),
        None if text.bytes().all(|b| b.is_ascii_digit()) && !text.is_empty() => text.parse().ok(),
        None => None,
    }
}

api_enum! {
    /// A comparison of a value against a stored one (`D3D11_COMPARISON_FUNC`; 17.11, 7.18.15): the first operand is the incoming value.
    ComparisonFunc, "COMPARISON_" {
        /// Never passes.
        Never = 1 => "NEVER",
        /// Passes where the incoming value is less.
        Less = 2 => "LESS",
        /// Passes where equal.
        Equal = 3 => "EQUAL",
        /// Passes where less or equal.
        LessEqual = 4 => "LESS_EQUAL",
        /// Passes where greater.
        Greater = 5 => "GREATER",
        /// Passes where not equal.
        NotEqual = 6 => "NOT_EQUAL",
        /// Passes where greater or equal.
        GreaterEqual = 7 => "GREATER_EQUAL",
        /// Always passes.
        Always = 8 => "ALWAYS",
    }
}

api_enum! {
    /// What a stencil test outcome does to the stored stencil value (`D3D11_STENCIL_OP`; 17.12).
    StencilOp, "STENCIL_OP_" {
        /// Keeps it.
        Keep = 1 => "KEEP",
        /// Writes 0.
        Zero = 2 => "ZERO",
        /// Writes the reference value.
        Replace = 3 => "REPLACE",
        /// Adds 1, clamping at the maximum.
        IncrSat = 4 => "INCR_SAT",
        /// Subtracts 1, clamping at 0.
        DecrSat = 5 => "DECR_SAT",
        /// Inverts its bits.
        Invert = 6 => "INVERT",
        /// Adds 1, wrapping.
        Incr = 7 => "INCR",
        /// Subtracts 1, wrapping.
        Decr = 8 => "DECR",
    }
}

api_enum! {
    /// A blend factor (`D3D11_BLEND`; 17.1).
    Blend, "BLEND_" {
        /// (0, 0, 0, 0).
        Zero = 1 => "ZERO",
        /// (1, 1, 1, 1).
        One = 2 => "ONE",
        /// The pixel program's output for the target.
        SrcColor = 3 => "SRC_COLOR",
        /// 1 minus the program's output.
        InvSrcColor = 4 => "INV_SRC_COLOR",
        /// The output's alpha.
        SrcAlpha = 5 => "SRC_ALPHA",
        /// 1 minus the output's alpha.
        InvSrcAlpha = 6 => "INV_SRC_ALPHA",
        /// The target's alpha.
        DestAlpha = 7 => "DEST_ALPHA",
        /// 1 minus the target's alpha.
        InvDestAlpha = 8 => "INV_DEST_ALPHA",
        /// The target's value.
        DestColor = 9 => "DEST_COLOR",
        /// 1 minus the target's value.
        InvDestColor = 10 => "INV_DEST_COLOR",
        /// (f, f, f, 1) with f = min(output alpha, 1 - target alpha).
        SrcAlphaSat = 11 => "SRC_ALPHA_SAT",
        /// The blend factor of the state.
        BlendFactor = 14 => "BLEND_FACTOR",
        /// 1 minus the blend factor.
        InvBlendFactor = 15 => "INV_BLEND_FACTOR",
        /// The program's second output (`o1`), dual-source blending.
        Src1Color = 16 => "SRC1_COLOR",
        /// 1 minus `o1`.
        InvSrc1Color = 17 => "INV_SRC1_COLOR",
        /// `o1`'s alpha.
        Src1Alpha = 18 => "SRC1_ALPHA",
        /// 1 minus `o1`'s alpha.
        InvSrc1Alpha = 19 => "INV_SRC1_ALPHA",
    }
}

api_enum! {
    /// How the weighted source and destination combine (`D3D11_BLEND_OP`; 17.1).
    BlendOp, "BLEND_OP_" {
        /// source + destination.
        Add = 1 => "ADD",
        /// source - destination.
        Subtract = 2 => "SUBTRACT",
        /// destination - source.
        RevSubtract = 3 => "REV_SUBTRACT",
        /// The smaller, ignoring the factors.
        Min = 4 => "MIN",
        /// The larger, ignoring the factors.
        Max = 5 => "MAX",
    }
}

api_enum! {
    /// A logic operation of the program's output `s` with the target's `d` (`D3D11_LOGIC_OP`; 17.7).
    LogicOp, "LOGIC_OP_" {
        /// 0.
        Clear = 0 => "CLEAR",
        /// All ones.
        Set = 1 => "SET",
        /// s.
        Copy = 2 => "COPY",
        /// !s.
        CopyInverted = 3 => "COPY_INVERTED",
        /// d.
        Noop = 4 => "NOOP",
        /// !d.
        Invert = 5 => "INVERT",
        /// s & d.
        And = 6 => "AND",
        /// !(s & d).
        Nand = 7 => "NAND",
        /// s | d.
        Or = 8 => "OR",
        /// !(s | d).
        Nor = 9 => "NOR",
        /// s ^ d.
        Xor = 10 => "XOR",
        /// !(s ^ d).
        Equiv = 11 => "EQUIV",
        /// s & !d.
        AndReverse = 12 => "AND_REVERSE",
        /// !s & d.
        AndInverted = 13 => "AND_INVERTED",
        /// s | !d.
        OrReverse = 14 => "OR_REVERSE",
        /// !s | d.
        OrInverted = 15 => "OR_INVERTED",
    }
}

api_enum! {
    /// Which facing the rasterizer drops (`D3D11_CULL_MODE`; 15.11).
    CullMode, "CULL_" {
        /// None.
        None = 1 => "NONE",
        /// Front-facing triangles.
        Front = 2 => "FRONT",
        /// Back-facing triangles.
        Back = 3 => "BACK",
    }
}

api_enum! {
    /// How triangles are filled (`D3D11_FILL_MODE`; 15.13).
    FillMode, "FILL_" {
        /// As lines along their edges.
        Wireframe = 2 => "WIREFRAME",
        /// Their interiors.
        Solid = 3 => "SOLID",
    }
}

api_enum! {
    /// What a texture coordinate outside [0, 1] reads (`D3D11_TEXTURE_ADDRESS_MODE`; 7.18.9).
    AddressMode, "TEXTURE_ADDRESS_" {
        /// The texture repeats.
        Wrap = 1 => "WRAP",
        /// The texture repeats, every other copy mirrored.
        Mirror = 2 => "MIRROR",
        /// The edge texel.
        Clamp = 3 => "CLAMP",
        /// The sampler's border colour.
        Border = 4 => "BORDER",
        /// Mirrored once about 0, then clamped.
        MirrorOnce = 5 => "MIRROR_ONCE",
    }
}

api_enum! {
    /// How the input assembler groups vertices into primitives (`D3D11_PRIMITIVE_TOPOLOGY`; 8.10).
    PrimitiveTopology, "PRIMITIVE_TOPOLOGY_" {
        /// Not set.
        Undefined = 0 => "UNDEFINED",
        /// Points.
        PointList = 1 => "POINTLIST",
        /// Lines, two vertices each.
        LineList = 2 => "LINELIST",
        /// A strip of lines.
        LineStrip = 3 => "LINESTRIP",
        /// Triangles, three vertices each.
        TriangleList = 4 => "TRIANGLELIST",
        /// A strip of triangles, winding alternating.
        TriangleStrip = 5 => "TRIANGLESTRIP",
        /// Lines with adjacency, four vertices each.
        LineListAdj = 10 => "LINELIST_ADJ",
        /// A line strip with adjacency.
        LineStripAdj = 11 => "LINESTRIP_ADJ",
        /// Triangles with adjacency, six vertices each.
        TriangleListAdj = 12 => "TRIANGLELIST_ADJ",
        /// A triangle strip with adjacency.
        TriangleStripAdj = 13 => "TRIANGLESTRIP_ADJ",
        /// Patches of 1 control point.
        PatchList1 = 33 => "1_CONTROL_POINT_PATCHLIST",
        /// Patches of 2 control points.
        PatchList2 = 34 => "2_CONTROL_POINT_PATCHLIST",
        /// Patches of 3 control points.
        PatchList3 = 35 => "3_CONTROL_POINT_PATCHLIST",
        /// Patches of 4 control points.
        PatchList4 = 36 => "4_CONTROL_POINT_PATCHLIST",
        /// Patches of 5 control points.
        PatchList5 = 37 => "5_CONTROL_POINT_PATCHLIST",
        /// Patches of 6 control points.
        PatchList6 = 38 => "6_CONTROL_POINT_PATCHLIST",
        /// Patches of 7 control points.
        PatchList7 = 39 => "7_CONTROL_POINT_PATCHLIST",
        /// Patches of 8 control points.
        PatchList8 = 40 => "8_CONTROL_POINT_PATCHLIST",
        /// Patches of 9 control points.
        PatchList9 = 41 => "9_CONTROL_POINT_PATCHLIST",
        /// Patches of 10 control points.
        PatchList10 = 42 => "10_CONTROL_POINT_PATCHLIST",
        /// Patches of 11 control points.
        PatchList11 = 43 => "11_CONTROL_POINT_PATCHLIST",
        /// Patches of 12 control points.
        PatchList12 = 44 => "12_CONTROL_POINT_PATCHLIST",
        /// Patches of 13 control points.
        PatchList13 = 45 => "13_CONTROL_POINT_PATCHLIST",
        /// Patches of 14 control points.
        PatchList14 = 46 => "14_CONTROL_POINT_PATCHLIST",
        /// Patches of 15 control points.
        PatchList15 = 47 => "15_CONTROL_POINT_PATCHLIST",
        /// Patches of 16 control points.
        PatchList16 = 48 => "16_CONTROL_POINT_PATCHLIST",
        /// Patches of 17 control points.
        PatchList17 = 49 => "17_CONTROL_POINT_PATCHLIST",
        /// Patches of 18 control points.
        PatchList18 = 50 => "18_CONTROL_POINT_PATCHLIST",
        /// Patches of 19 control points.
        PatchList19 = 51 => "19_CONTROL_POINT_PATCHLIST",
        /// Patches of 20 control points.
        PatchList20 = 52 => "20_CONTROL_POINT_PATCHLIST",
        /// Patches of 21 control points.
        PatchList21 = 53 => "21_CONTROL_POINT_PATCHLIST",
        /// Patches of 22 control points.
        PatchList22 = 54 => "22_CONTROL_POINT_PATCHLIST",
        /// Patches of 23 control points.
        PatchList23 = 55 => "23_CONTROL_POINT_PATCHLIST",
        /// Patches of 24 control points.
        PatchList24 = 56 => "24_CONTROL_POINT_PATCHLIST",
        /// Patches of 25 control points.
        PatchList25 = 57 => "25_CONTROL_POINT_PATCHLIST",
        /// Patches of 26 control points.
        PatchList26 = 58 => "26_CONTROL_POINT_PATCHLIST",
        /// Patches of 27 control points.
        PatchList27 = 59 => "27_CONTROL_POINT_PATCHLIST",
        /// Patches of 28 control points.
        PatchList28 = 60 => "28_CONTROL_POINT_PATCHLIST",
        /// Patches of 29 control points.
        PatchList29 = 61 => "29_CONTROL_POINT_PATCHLIST",
        /// Patches of 30 control points.
        PatchList30 = 62 => "30_CONTROL_POINT_PATCHLIST",
        /// Patches of 31 control points.
        PatchList31 = 63 => "31_CONTROL_POINT_PATCHLIST",
        /// Patches of 32 control points.
        PatchList32 = 64 => "32_CONTROL_POINT_PATCHLIST",
    }
}

api_enum! {
    /// Whether an input element steps per vertex or per instance (`D3D11_INPUT_CLASSIFICATION`; 8.1).
    InputClassification, "INPUT_" {
        /// Per vertex.
        PerVertexData = 0 => "PER_VERTEX_DATA",
        /// Per instance, every `instance_step` instances.
        PerInstanceData = 1 => "PER_INSTANCE_DATA",
    }
}

api_enum! {
    /// The kind of a resource (`D3D11_RESOURCE_DIMENSION`; 5.3).
    ResourceDimension, "RESOURCE_DIMENSION_" {
        /// Unknown.
        Unknown = 0 => "UNKNOWN",
        /// A buffer.
        Buffer = 1 => "BUFFER",
        /// A 1D texture (or array).
        Texture1D = 2 => "TEXTURE1D",
        /// A 2D texture (or array, or cube).
        Texture2D = 3 => "TEXTURE2D",
        /// A 3D texture.
        Texture3D = 4 => "TEXTURE3D",
    }
}

api_enum! {
    /// How a shader resource view sees its resource (`D3D11_SRV_DIMENSION`; 5.2).
    SrvDimension, "SRV_DIMENSION_" {
        /// Unknown.
        Unknown = 0 => "UNKNOWN",
        /// A typed buffer.
        Buffer = 1 => "BUFFER",
        /// A 1D texture.
        Texture1D = 2 => "TEXTURE1D",
        /// A 1D texture array.
        Texture1DArray = 3 => "TEXTURE1DARRAY",
        /// A 2D texture.
        Texture2D = 4 => "TEXTURE2D",
        /// A 2D texture array.
        Texture2DArray = 5 => "TEXTURE2DARRAY",
        /// A multisampled 2D texture.
        Texture2DMs = 6 => "TEXTURE2DMS",
        /// A multisampled 2D texture array.
        Texture2DMsArray = 7 => "TEXTURE2DMSARRAY",
        /// A 3D texture.
        Texture3D = 8 => "TEXTURE3D",
        /// A cube.
        TextureCube = 9 => "TEXTURECUBE",
        /// A cube array.
        TextureCubeArray = 10 => "TEXTURECUBEARRAY",
        /// A buffer, possibly raw.
        BufferEx = 11 => "BUFFEREX",
    }
}

api_enum! {
    /// How an unordered access view sees its resource (`D3D11_UAV_DIMENSION`; 5.3.9).
    UavDimension, "UAV_DIMENSION_" {
        /// Unknown.
        Unknown = 0 => "UNKNOWN",
        /// A buffer: typed, raw or structured.
        Buffer = 1 => "BUFFER",
        /// A 1D texture.
        Texture1D = 2 => "TEXTURE1D",
        /// A 1D texture array.
        Texture1DArray = 3 => "TEXTURE1DARRAY",
        /// A 2D texture.
        Texture2D = 4 => "TEXTURE2D",
        /// A 2D texture array.
        Texture2DArray = 5 => "TEXTURE2DARRAY",
        /// A 3D texture (a range of its depth slices).
        Texture3D = 8 => "TEXTURE3D",
    }
}

api_enum! {
    /// How a render target view sees its resource (`D3D11_RTV_DIMENSION`; 5.2).
    RtvDimension, "RTV_DIMENSION_" {
        /// Unknown.
        Unknown = 0 => "UNKNOWN",
        /// A buffer.
        Buffer = 1 => "BUFFER",
        /// A 1D texture's mip.
        Texture1D = 2 => "TEXTURE1D",
        /// Slices of a 1D texture array.
        Texture1DArray = 3 => "TEXTURE1DARRAY",
        /// A 2D texture's mip.
        Texture2D = 4 => "TEXTURE2D",
        /// Slices of a 2D texture array.
        Texture2DArray = 5 => "TEXTURE2DARRAY",
        /// A multisampled 2D texture.
        Texture2DMs = 6 => "TEXTURE2DMS",
        /// Slices of a multisampled 2D texture array.
        Texture2DMsArray = 7 => "TEXTURE2DMSARRAY",
        /// Depth slices of a 3D texture's mip.
        Texture3D = 8 => "TEXTURE3D",
    }
}

api_enum! {
    /// How a depth-stencil view sees its resource (`D3D11_DSV_DIMENSION`; 5.2).
    DsvDimension, "DSV_DIMENSION_" {
        /// Unknown.
        Unknown = 0 => "UNKNOWN",
        /// A 1D texture's mip.
        Texture1D = 1 => "TEXTURE1D",
        /// Slices of a 1D texture array.
        Texture1DArray = 2 => "TEXTURE1DARRAY",
        /// A 2D texture's mip.
        Texture2D = 3 => "TEXTURE2D",
        /// Slices of a 2D texture array.
        Texture2DArray = 4 => "TEXTURE2DARRAY",
        /// A multisampled 2D texture.
        Texture2DMs = 5 => "TEXTURE2DMS",
        /// Slices of a multisampled 2D texture array.
        Texture2DMsArray = 6 => "TEXTURE2DMSARRAY",
    }
}

api_enum! {
    /// Whether a pixel that passes writes its depth (`D3D11_DEPTH_WRITE_MASK`; 17.8).
    DepthWriteMask, "DEPTH_WRITE_MASK_" {
        /// It does not.
        Zero = 0 => "ZERO",
        /// It does.
        All = 1 => "ALL",
    }
}

api_enum! {
    /// A sampler's filter (`D3D11_FILTER`; 7.18.3): bits [1:0] mip, [3:2] mag, [5:4] min (0 point, 1 linear), bit 6 anisotropic, bits [8:7] reduction (standard, comparison, minimum, maximum).
    Filter, "FILTER_" {
        /// `D3D11_FILTER_MIN_MAG_MIP_POINT`.
        MinMagMipPoint = 0 => "MIN_MAG_MIP_POINT",
        /// `D3D11_FILTER_MIN_MAG_POINT_MIP_LINEAR`.
        MinMagPointMipLinear = 1 => "MIN_MAG_POINT_MIP_LINEAR",
        /// `D3D11_FILTER_MIN_POINT_MAG_LINEAR_MIP_POINT`.
        MinPointMagLinearMipPoint = 4 => "MIN_POINT_MAG_LINEAR_MIP_POINT",
        /// `D3D11_FILTER_MIN_POINT_MAG_MIP_LINEAR`.
        MinPointMagMipLinear = 5 => "MIN_POINT_MAG_MIP_LINEAR",
        /// `D3D11_FILTER_MIN_LINEAR_MAG_MIP_POINT`.
        MinLinearMagMipPoint = 16 => "MIN_LINEAR_MAG_MIP_POINT",
        /// `D3D11_FILTER_MIN_LINEAR_MAG_POINT_MIP_LINEAR`.
        MinLinearMagPointMipLinear = 17 => "MIN_LINEAR_MAG_POINT_MIP_LINEAR",
        /// `D3D11_FILTER_MIN_MAG_LINEAR_MIP_POINT`.
        MinMagLinearMipPoint = 20 => "MIN_MAG_LINEAR_MIP_POINT",
        /// `D3D11_FILTER_MIN_MAG_MIP_LINEAR`.
        MinMagMipLinear = 21 => "MIN_MAG_MIP_LINEAR",
        /// `D3D11_FILTER_ANISOTROPIC`.
        Anisotropic = 85 => "ANISOTROPIC",
        /// `D3D11_FILTER_COMPARISON_MIN_MAG_MIP_POINT`.
        ComparisonMinMagMipPoint = 128 => "COMPARISON_MIN_MAG_MIP_POINT",
        /// `D3D11_FILTER_COMPARISON_MIN_MAG_POINT_MIP_LINEAR`.
        ComparisonMinMagPointMipLinear = 129 => "COMPARISON_MIN_MAG_POINT_MIP_LINEAR",
        /// `D3D11_FILTER_COMPARISON_MIN_POINT_MAG_LINEAR_MIP_POINT`.
        ComparisonMinPointMagLinearMipPoint = 132 => "COMPARISON_MIN_POINT_MAG_LINEAR_MIP_POINT",
        /// `D3D11_FILTER_COMPARISON_MIN_POINT_MAG_MIP_LINEAR`.
        ComparisonMinPointMagMipLinear = 133 => "COMPARISON_MIN_POINT_MAG_MIP_LINEAR",
        /// `D3D11_FILTER_COMPARISON_MIN_LINEAR_MAG_MIP_POINT`.
        ComparisonMinLinearMagMipPoint = 144 => "COMPARISON_MIN_LINEAR_MAG_MIP_POINT",
        /// `D3D11_FILTER_COMPARISON_MIN_LINEAR_MAG_POINT_MIP_LINEAR`.
        ComparisonMinLinearMagPointMipLinear = 145 => "COMPARISON_MIN_LINEAR_MAG_POINT_MIP_LINEAR",
        /// `D3D11_FILTER_COMPARISON_MIN_MAG_LINEAR_MIP_POINT`.
        ComparisonMinMagLinearMipPoint = 148 => "COMPARISON_MIN_MAG_LINEAR_MIP_POINT",
        /// `D3D11_FILTER_COMPARISON_MIN_MAG_MIP_LINEAR`.
        ComparisonMinMagMipLinear = 149 => "COMPARISON_MIN_MAG_MIP_LINEAR",
        /// `D3D11_FILTER_COMPARISON_ANISOTROPIC`.
        ComparisonAnisotropic = 213 => "COMPARISON_ANISOTROPIC",
        /// `D3D11_FILTER_MINIMUM_MIN_MAG_MIP_POINT`.
        MinimumMinMagMipPoint = 256 => "MINIMUM_MIN_MAG_MIP_POINT",
        /// `D3D11_FILTER_MINIMUM_MIN_MAG_POINT_MIP_LINEAR`.
        MinimumMinMagPointMipLinear = 257 => "MINIMUM_MIN_MAG_POINT_MIP_LINEAR",
        /// `D3D11_FILTER_MINIMUM_MIN_POINT_MAG_LINEAR_MIP_POINT`.
        MinimumMinPointMagLinearMipPoint = 260 => "MINIMUM_MIN_POINT_MAG_LINEAR_MIP_POINT",
        /// `D3D11_FILTER_MINIMUM_MIN_POINT_MAG_MIP_LINEAR`.
        MinimumMinPointMagMipLinear = 261 => "MINIMUM_MIN_POINT_MAG_MIP_LINEAR",
        /// `D3D11_FILTER_MINIMUM_MIN_LINEAR_MAG_MIP_POINT`.
        MinimumMinLinearMagMipPoint = 272 => "MINIMUM_MIN_LINEAR_MAG_MIP_POINT",
        /// `D3D11_FILTER_MINIMUM_MIN_LINEAR_MAG_POINT_MIP_LINEAR`.
        MinimumMinLinearMagPointMipLinear = 273 => "MINIMUM_MIN_LINEAR_MAG_POINT_MIP_LINEAR",
        /// `D3D11_FILTER_MINIMUM_MIN_MAG_LINEAR_MIP_POINT`.
        MinimumMinMagLinearMipPoint = 276 => "MINIMUM_MIN_MAG_LINEAR_MIP_POINT",
        /// `D3D11_FILTER_MINIMUM_MIN_MAG_MIP_LINEAR`.
        MinimumMinMagMipLinear = 277 => "MINIMUM_MIN_MAG_MIP_LINEAR",
        /// `D3D11_FILTER_MINIMUM_ANISOTROPIC`.
        MinimumAnisotropic = 341 => "MINIMUM_ANISOTROPIC",
        /// `D3D11_FILTER_MAXIMUM_MIN_MAG_MIP_POINT`.
        MaximumMinMagMipPoint = 384 => "MAXIMUM_MIN_MAG_MIP_POINT",
        /// `D3D11_FILTER_MAXIMUM_MIN_MAG_POINT_MIP_LINEAR`.
        MaximumMinMagPointMipLinear = 385 => "MAXIMUM_MIN_MAG_POINT_MIP_LINEAR",
        /// `D3D11_FILTER_MAXIMUM_MIN_POINT_MAG_LINEAR_MIP_POINT`.
        MaximumMinPointMagLinearMipPoint = 388 => "MAXIMUM_MIN_POINT_MAG_LINEAR_MIP_POINT",
        /// `D3D11_FILTER_MAXIMUM_MIN_POINT_MAG_MIP_LINEAR`.
        MaximumMinPointMagMipLinear = 389 => "MAXIMUM_MIN_POINT_MAG_MIP_LINEAR",
        /// `D3D11_FILTER_MAXIMUM_MIN_LINEAR_MAG_MIP_POINT`.
        MaximumMinLinearMagMipPoint = 400 => "MAXIMUM_MIN_LINEAR_MAG_MIP_POINT",
        /// `D3D11_FILTER_MAXIMUM_MIN_LINEAR_MAG_POINT_MIP_LINEAR`.
        MaximumMinLinearMagPointMipLinear = 401 => "MAXIMUM_MIN_LINEAR_MAG_POINT_MIP_LINEAR",
        /// `D3D11_FILTER_MAXIMUM_MIN_MAG_LINEAR_MIP_POINT`.
        MaximumMinMagLinearMipPoint = 404 => "MAXIMUM_MIN_MAG_LINEAR_MIP_POINT",
        /// `D3D11_FILTER_MAXIMUM_MIN_MAG_MIP_LINEAR`.
        MaximumMinMagMipLinear = 405 => "MAXIMUM_MIN_MAG_MIP_LINEAR",
        /// `D3D11_FILTER_MAXIMUM_ANISOTROPIC`.
        MaximumAnisotropic = 469 => "MAXIMUM_ANISOTROPIC",
    }
}

//! Signature chunks: the list of values a shader stage reads (input) or writes (output, patch constants), each with
//! its semantic, register, component mask and type. The D3D11.3 specification says what the values are (4.4.3
//! "Passing Elements Through Pipeline Interfaces", 4.4.4 "System Generated Values", 4.4.5 "System Interpreted
//! Values"); the chunk layout below is the compilers', as Wine's d3dcompiler and vkd3d-shader read and write it.
//!
//! A chunk holds a DWORD element count, a DWORD offset of the element table (8: just after these two), the elements,
//! then the NUL-terminated semantic names the elements point at (offsets from the chunk data's start). An element is
//! six DWORDs — name offset, semantic index, system value, component type, register, and a DWORD whose low byte is
//! the register's component mask and next byte the read/write mask — extended by the chunk kind:
//!
//! | chunk | element bytes | layout |
//! |---|---|---|
//! | `ISGN`, `OSGN`, `PCSG` | 24 | the six DWORDs |
//! | `OSG5` | 28 | stream, then the six DWORDs |
//! | `ISG1`, `OSG1`, `PSG1` | 32 | stream, the six DWORDs, minimum precision |
//!
//! The system value is a `D3D_NAME` (d3dcommon.h), which differs from the program's `D3D10_SB_NAME` from 11 on (one
//! `FINAL_QUAD_EDGE_TESSFACTOR` where the program has four). Compilers store 0 (undefined) for the pixel shader
//! outputs `SV_Target`, `SV_Depth`, `SV_Coverage` and the conservative depths (whose register is `0xFFFFFFFF`, they
//! have none); D3D11 reflection reports those by their name, which [`SignatureElement::d3d_name`] does too.
//!
//! The writer lays names out as vkd3d-shader (the reference compiler here) does: after the elements, in element
//! order, each NUL-terminated and padded with `0xAB` bytes to a multiple of 4, so writing a parsed compiler signature
//! gives back its bytes. [`NameTable::Shared`] writes each distinct name once instead.

use crate::Result;
use crate::dxbc::container::{ChunkReader, FourCc};

/// Which of the seven signature chunks, which decides the element layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SignatureKind {
    /// `ISGN`: input signature, 24-byte elements.
    Isgn,
    /// `OSGN`: output signature, 24-byte elements.
    Osgn,
    /// `OSG5`: output signature with a stream per element (SM5 geometry shaders), 28-byte elements.
    Osg5,
    /// `ISG1`: input signature with stream and minimum precision, 32-byte elements.
    Isg1,
    /// `OSG1`: output signature with stream and minimum precision, 32-byte elements.
    Osg1,
    /// `PCSG`: patch-constant signature (hull shader outputs, domain shader inputs), 24-byte elements.
    Pcsg,
    /// `PSG1`: patch-constant signature with stream and minimum precision, 32-byte elements.
    Psg1,
}

impl SignatureKind {
    /// The kind a chunk code names, or `None` for a code that is not a signature.
    pub fn from_fourcc(fourcc: FourCc) -> Option<Self> {
        Some(match fourcc {
            FourCc::ISGN => Self::Isgn,
            FourCc::OSGN => Self::Osgn,
            FourCc::OSG5 => Self::Osg5,
            FourCc::ISG1 => Self::Isg1,
            FourCc::OSG1 => Self::Osg1,
            FourCc::PCSG => Self::Pcsg,
            FourCc::PSG1 => Self::Psg1,
            _ => return None,
        })
    }

    /// The chunk code.
    pub fn fourcc(self) -> FourCc {
        match self {
            Self::Isgn => FourCc::ISGN,
            Self::Osgn => FourCc::OSGN,
            Self::Osg5 => FourCc::OSG5,
            Self::Isg1 => FourCc::ISG1,
            Self::Osg1 => FourCc::OSG1,
            Self::Pcsg => FourCc::PCSG,
            Self::Psg1 => FourCc::PSG1,
        }
    }

    /// Whether each element starts with a stream DWORD.
    pub fn has_stream(self) -> bool {
        matches!(self, Self::Osg5 | Self::Isg1 | Self::Osg1 | Self::Psg1)
    }

    /// Whether each element ends with a minimum-precision DWORD.
    pub fn has_min_precision(self) -> bool {
        matches!(self, Self::Isg1 | Self::Osg1 | Self::Psg1)
    }

    /// Whether the read/write mask byte holds the components never written (outputs, and patch constants as the
    /// compilers treat them) rather than the components read (inputs).
    pub fn rw_mask_is_never_written(self) -> bool {
        !matches!(self, Self::Isgn | Self::Isg1)
    }

    /// Size of one element in bytes.
    pub fn element_size(self) -> usize {
        let stream = if self.has_stream() { 4 } else { 0 };
        let precision = if self.has_min_precision() { 4 } else { 0 };
        BASE_ELEMENT_SIZE.saturating_add(stream).saturating_add(precision)
    }
}

/// Size of an element's six common DWORDs.
const BASE_ELEMENT_SIZE: usize = 24;
/// Size of the chunk header: element count and element table offset.
const SIGNATURE_HEADER_SIZE: usize = 8;
/// The byte vkd3d-shader (and fxc) pad strings with.
const STRING_PADDING: u8 = 0xab;

/// A `D3D_NAME` system value as a signature stores it (d3dcommon.h). Unknown values are kept as they are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SystemValue(pub u32);

impl SystemValue {
    /// Not a system value (also what compilers store for pixel shader outputs; see the module documentation).
    pub const UNDEFINED: Self = Self(0);
    /// `SV_Position`.
    pub const POSITION: Self = Self(1);
    /// `SV_ClipDistance`.
    pub const CLIP_DISTANCE: Self = Self(2);
    /// `SV_CullDistance`.
    pub const CULL_DISTANCE: Self = Self(3);
    /// `SV_RenderTargetArrayIndex`.
    pub const RENDER_TARGET_ARRAY_INDEX: Self = Self(4);
    /// `SV_ViewportArrayIndex`.
    pub const VIEWPORT_ARRAY_INDEX: Self = Self(5);
    /// `SV_VertexID`.
    pub const VERTEX_ID: Self = Self(6);
    /// `SV_PrimitiveID`.
    pub const PRIMITIVE_ID: Self = Self(7);
    /// `SV_InstanceID`.
    pub const INSTANCE_ID: Self = Self(8);
    /// `SV_IsFrontFace`.
    pub const IS_FRONT_FACE: Self = Self(9);
    /// `SV_SampleIndex`.
    pub const SAMPLE_INDEX: Self = Self(10);
    /// `SV_TessFactor` of a quad patch.
    pub const FINAL_QUAD_EDGE_TESSFACTOR: Self = Self(11);
    /// `SV_InsideTessFactor` of a quad patch.
    pub const FINAL_QUAD_INSIDE_TESSFACTOR: Self = Self(12);
    /// `SV_TessFactor` of a triangle patch.
    pub const FINAL_TRI_EDGE_TESSFACTOR: Self = Self(13);
    /// `SV_InsideTessFactor` of a triangle patch.
    pub const FINAL_TRI_INSIDE_TESSFACTOR: Self = Self(14);
    /// `SV_TessFactor` (detail) of an isoline patch.
    pub const FINAL_LINE_DETAIL_TESSFACTOR: Self = Self(15);
    /// `SV_TessFactor` (density) of an isoline patch.
    pub const FINAL_LINE_DENSITY_TESSFACTOR: Self = Self(16);
    /// `SV_Target`.
    pub const TARGET: Self = Self(64);
    /// `SV_Depth`.
    pub const DEPTH: Self = Self(65);
    /// `SV_Coverage`.
    pub const COVERAGE: Self = Self(66);
    /// `SV_DepthGreaterEqual`.
    pub const DEPTH_GREATER_EQUAL: Self = Self(67);
    /// `SV_DepthLessEqual`.
    pub const DEPTH_LESS_EQUAL: Self = Self(68);
    /// `SV_StencilRef`.
    pub const STENCIL_REF: Self = Self(69);
    /// `SV_InnerCoverage`.
    pub const INNER_COVERAGE: Self = Self(70);

    /// The `D3D_NAME_` constant's name without its prefix (`"POSITION"`, `"TARGET"`), or `None` for an unknown value.
    pub fn name(self) -> Option<&'static str> {
        Some(match self.0 {
            0 => "UNDEFINED",
            1 => "POSITION",
            2 => "CLIP_DISTANCE",
            3 => "CULL_DISTANCE",
            4 => "RENDER_TARGET_ARRAY_INDEX",
            5 => "VIEWPORT_ARRAY_INDEX",
            6 => "VERTEX_ID",
            7 => "PRIMITIVE_ID",
            8 => "INSTANCE_ID",
            9 => "IS_FRONT_FACE",
            10 => "SAMPLE_INDEX",
            11 => "FINAL_QUAD_EDGE_TESSFACTOR",
            12 => "FINAL_QUAD_INSIDE_TESSFACTOR",
            13 => "FINAL_TRI_EDGE_TESSFACTOR",
            14 => "FINAL_TRI_INSIDE_TESSFACTOR",
            15 => "FINAL_LINE_DETAIL_TESSFACTOR",
            16 => "FINAL_LINE_DENSITY_TESSFACTOR",
            64 => "TARGET",
            65 => "DEPTH",
            66 => "COVERAGE",
            67 => "DEPTH_GREATER_EQUAL",
            68 => "DEPTH_LESS_EQUAL",
            69 => "STENCIL_REF",
            70 => "INNER_COVERAGE",
            _ => return None,
        })
    }
}

/// The type of each component of a signature element (`D3D_REGISTER_COMPONENT_TYPE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ComponentType(pub u32);

impl ComponentType {
    /// Unknown (system values with no type).
    pub const UNKNOWN: Self = Self(0);
    /// 32-bit unsigned integer.
    pub const UINT32: Self = Self(1);
    /// 32-bit signed integer.
    pub const SINT32: Self = Self(2);
    /// 32-bit float.
    pub const FLOAT32: Self = Self(3);

    /// `"unknown"`, `"uint"`, `"sint"` or `"float"`, or `None` for a value D3D11 does not define.
    pub fn name(self) -> Option<&'static str> {
        Some(match self.0 {
            0 => "unknown",
            1 => "uint",
            2 => "sint",
            3 => "float",
            _ => return None,
        })
    }
}

/// The minimum precision a `ISG1`/`OSG1`/`PSG1` element may be computed at (`D3D_MIN_PRECISION`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct MinPrecision(pub u32);

impl MinPrecision {
    /// Full (32-bit) precision; also what the other chunk kinds imply.
    pub const DEFAULT: Self = Self(0);
    /// `min16float`.
    pub const FLOAT_16: Self = Self(1);
    /// `min10float` (2.8 fixed point).
    pub const FLOAT_2_8: Self = Self(2);
    /// `min16int`.
    pub const SINT_16: Self = Self(4);
    /// `min16uint`.
    pub const UINT_16: Self = Self(5);
    /// Any 16-bit type.
    pub const ANY_16: Self = Self(0xf0);
    /// Any 10-bit type.
    pub const ANY_10: Self = Self(0xf1);

    /// The `D3D_MIN_PRECISION_` constant's name without its prefix, or `None` for an unknown value.
    pub fn name(self) -> Option<&'static str> {
        Some(match self.0 {
            0 => "DEFAULT",
            1 => "FLOAT_16",
            2 => "FLOAT_2_8",
            3 => "RESERVED",
            4 => "SINT_16",
            5 => "UINT_16",
            0xf0 => "ANY_16",
            0xf1 => "ANY_10",
            _ => return None,
        })
    }
}

/// One element of a signature: a value the stage reads or writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignatureElement {
    /// The semantic name as stored (`"TEXCOORD"`, `"SV_Position"`; any case), decoded lossily as UTF-8.
    pub semantic_name: String,
    /// The semantic index (the 3 of `TEXCOORD3`).
    pub semantic_index: u32,
    /// The system value as stored (see [`SignatureElement::d3d_name`] for the one D3D11 reflection reports).
    pub system_value: SystemValue,
    /// The type of the components.
    pub component_type: ComponentType,
    /// The register (`v#`/`o#`), or `0xFFFFFFFF` for a value with none (`oDepth`, `oMask`).
    pub register: u32,
    /// The components of the register the element occupies: bit 0 = x ... bit 3 = w.
    pub mask: u8,
    /// For inputs the components the shader reads; for outputs (see [`SignatureKind::rw_mask_is_never_written`])
    /// the components of the register it never writes (bit 0 = x).
    pub rw_mask: u8,
    /// The geometry shader output stream (0 in chunks without streams).
    pub stream: u32,
    /// The minimum precision ([`MinPrecision::DEFAULT`] in chunks without it).
    pub min_precision: MinPrecision,
}

impl SignatureElement {
    /// The system value D3D11 reflection reports: the stored one, except that an undefined one on an element named
    /// `SV_Target`, `SV_Depth`, `SV_Coverage`, `SV_DepthGreaterEqual`, `SV_DepthLessEqual` or `SV_StencilRef` (any
    /// case) is that name's value, as compilers leave those undefined.
    pub fn d3d_name(&self) -> SystemValue {
        if self.system_value != SystemValue::UNDEFINED {
            return self.system_value;
        }
        const BY_NAME: [(&str, SystemValue); 6] = [
            ("SV_Target", SystemValue::TARGET),
            ("SV_Depth", SystemValue::DEPTH),
            ("SV_Coverage", SystemValue::COVERAGE),
            ("SV_DepthGreaterEqual", SystemValue::DEPTH_GREATER_EQUAL),
            ("SV_DepthLessEqual", SystemValue::DEPTH_LESS_EQUAL),
            ("SV_StencilRef", SystemValue::STENCIL_REF),
        ];
        BY_NAME
            .iter()
            .find(|(name, _)| self.semantic_name.eq_ignore_ascii_case(name))
            .map_or(SystemValue::UNDEFINED, |&(_, value)| value)
    }
}

/// A parsed signature chunk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    /// Which chunk it came from (or is to be written as).
    pub kind: SignatureKind,
    /// The elements in chunk order.
    pub elements: Vec<SignatureElement>,
}

/// How [`Signature::write`] lays out the semantic names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameTable {
    /// One string per element, in element order (vkd3d-shader's layout, which the fixtures check).
    PerElement,
    /// One string per distinct name, at its first use (a smaller table; not checked against any compiler).
    Shared,
}

impl Signature {
    /// Parses a signature chunk's data. Error offsets count from the start of `data`.
    pub fn parse(kind: SignatureKind, data: &[u8]) -> Result<Self> {
        Self::parse_in_container(kind, data, 0)
    }

    /// Parses a signature chunk's data that starts at byte `base` of its container (for error offsets).
    pub(crate) fn parse_in_container(kind: SignatureKind, data: &[u8], base: usize) -> Result<Self> {
        let copied = std::cell::Cell::new(0);
        let reader = ChunkReader {
            data,
            base,
            fourcc: kind.fourcc(),
            copied: &copied,
        };
        let count = reader.usize(0, "element count")?;
        let table = reader.usize(4, "element table offset")?;
        let size = kind.element_size();
        reader.table(table, count, size, "elements", 0)?;

        let mut elements = Vec::with_capacity(count);
        for index in 0..count {
            // Both products are within the table checked above.
            let mut at = table.saturating_add(index.saturating_mul(size));
            let mut next = |field: &str| -> Result<(usize, u32)> {
                let offset = at;
                at = at.saturating_add(4);
                Ok((offset, reader.u32(offset, field)?))
            };
            let stream = if kind.has_stream() { next("stream")?.1 } else { 0 };
            let (name_at, name_offset) = next("semantic name offset")?;
            let semantic_index = next("semantic index")?.1;
            let system_value = SystemValue(next("system value")?.1);
            let component_type = ComponentType(next("component type")?.1);
            let register = next("register")?.1;
            let masks = next("mask")?.1.to_le_bytes();
            let min_precision = MinPrecision(if kind.has_min_precision() {
                next("minimum precision")?.1
            } else {
                0
            });
            let name_offset = usize::try_from(name_offset).unwrap_or(usize::MAX);
            let semantic_name = reader.string(name_offset, &format!("semantic name of element {index}"), name_at)?;
            let [mask, rw_mask, _, _] = masks;
            elements.push(SignatureElement {
                semantic_name,
                semantic_index,
                system_value,
                component_type,
                register,
                mask,
                rw_mask,
                stream,
                min_precision,
            });
        }
        Ok(Self { kind, elements })
    }

    /// Writes the signature as its chunk's data (without the chunk's FourCC and size), names laid out by `names`.
    /// Fails when an element has a field its kind cannot hold (a stream or minimum precision the chunk has no room
    /// for) or a name with a NUL in it.
    pub fn write(&self, names: NameTable) -> Result<Vec<u8>> {
        let error = |index: usize, detail: String| {
            crate::Error::new(format!("DXBC {} writer", self.kind.fourcc()), detail).at(format!("element {index}"))
        };
        let too_big = || {
            crate::Error::new(
                format!("DXBC {} writer", self.kind.fourcc()),
                "the signature exceeds 4 GiB",
            )
        };
        let count = self.elements.len();
        let names_start = count
            .checked_mul(self.kind.element_size())
            .and_then(|t| t.checked_add(SIGNATURE_HEADER_SIZE))
            .ok_or_else(too_big)?;

        // Lay out the strings first: each element's name offset.
        let mut strings: Vec<u8> = Vec::new();
        let mut placed: Vec<(&str, usize)> = Vec::new();
        let mut name_offsets = Vec::with_capacity(count);
        for (index, element) in self.elements.iter().enumerate() {
            let name = element.semantic_name.as_str();
            if name.as_bytes().contains(&0) {
                return Err(error(index, format!("the semantic name {name:?} contains a NUL")));
            }
            if !self.kind.has_stream() && element.stream != 0 {
                return Err(error(
                    index,
                    format!(
                        "stream {} cannot be stored in a {} chunk",
                        element.stream,
                        self.kind.fourcc()
                    ),
                ));
            }
            if !self.kind.has_min_precision() && element.min_precision != MinPrecision::DEFAULT {
                return Err(error(
                    index,
                    format!(
                        "minimum precision {} cannot be stored in a {} chunk",
                        element.min_precision.0,
                        self.kind.fourcc()
                    ),
                ));
            }
            let shared = match names {
                NameTable::Shared => placed.iter().find(|(n, _)| *n == name).map(|&(_, at)| at),
                NameTable::PerElement => None,
            };
            let at = match shared {
                Some(at) => at,
                None => {
                    let at = names_start.checked_add(strings.len()).ok_or_else(too_big)?;
                    strings.extend_from_slice(name.as_bytes());
                    strings.push(0);
                    strings.resize(strings.len().next_multiple_of(4), STRING_PADDING);
                    placed.push((name, at));
                    at
                }
            };
            name_offsets.push(u32::try_from(at).map_err(|_| too_big())?);
        }

        let total = names_start.checked_add(strings.len()).ok_or_else(too_big)?;
        let mut out = Vec::with_capacity(total);
        out.extend_from_slice(&u32::try_from(count).map_err(|_| too_big())?.to_le_bytes());
        out.extend_from_slice(&(SIGNATURE_HEADER_SIZE as u32).to_le_bytes());
        for (element, name_offset) in self.elements.iter().zip(name_offsets) {
            let mut put = |v: u32| out.extend_from_slice(&v.to_le_bytes());
            if self.kind.has_stream() {
                put(element.stream);
            }
            put(name_offset);
            put(element.semantic_index);
            put(element.system_value.0);
            put(element.component_type.0);
            put(element.register);
            put(u32::from_le_bytes([element.mask, element.rw_mask, 0, 0]));
            if self.kind.has_min_precision() {
                put(element.min_precision.0);
            }
        }
        out.extend_from_slice(&strings);
        Ok(out)
    }
}

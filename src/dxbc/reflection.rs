//! Reflection chunks: `RDEF` (resource definitions: constant buffers with their variables and types, bound
//! resources, the target and the creator), `STAT` (instruction statistics) and `SFI0` (feature flags). None is
//! needed to run a shader — the program declares everything it uses — and stripped shaders have no `RDEF`; they
//! name things for people (a constant's name and offset, a texture's name). Read only; this module writes none.
//!
//! **`RDEF`** (offsets are from the chunk data's start, values DWORDs unless said):
//!
//! | bytes | what |
//! |---|---|
//! | 0, 4 | constant buffer count and offset of their table (24 bytes each) |
//! | 8, 12 | bound resource count and offset of their table (32 bytes each; 40 in SM5.1) |
//! | 16 | target: minor version in bits 0..8, major in 8..16, program type in 16..32 (`0xFFFF0500`: `ps_5_0`) |
//! | 20 | the compile flags |
//! | 24 | offset of the creator string |
//! | 28..60 | SM5 only: `RD11`, then record sizes (below) and a reserved DWORD |
//!
//! The SM5 record sizes, in order: the whole header (60), a constant buffer (24), a binding (32), a variable (40), a
//! type (36) and a member (12).
//!
//! A constant buffer record: name, variable count, variable table offset, size in bytes, flags, type. A variable:
//! name, offset in the buffer and size in bytes, flags, type offset, default value offset (0: none; else `size`
//! bytes), then in SM5 four DWORDs (first texture, texture count, first sampler, sampler count). A type: class and
//! base type (16 bits each), rows and columns, element count and member count, member table offset, then in SM5
//! four reserved DWORDs and the type's name. A member: name, type offset, offset within the struct in bytes. A
//! binding: name, input type, return type, dimension, sample count, bind point, bind count, flags (and in SM5.1
//! register space and ID). The values are d3dcommon.h's `D3D_*` enumerations, kept as numbers with their names.
//!
//! Types are shared between variables by offset and may nest; parsing expands them into trees, at most
//! [`MAX_TYPE_DEPTH`] deep and with no more type nodes in all than the chunk has bytes, so a cyclic or
//! self-multiplying type table from a bad file ends in an error, not a hang.
//!
//! **`STAT`** is 28, 29 (SM4) or 37 (SM5) DWORD counters. Wine's d3dcompiler names the slots it uses; the others are
//! named here after `D3D11_SHADER_DESC` / `ID3D11ShaderReflection` where the fixtures bear them out (see
//! [`Statistics`]), and left `unknown_N` otherwise.
//!
//! **`SFI0`** is a 64-bit mask of `D3D_SHADER_REQUIRES_*` flags.

use crate::Result;
use crate::dxbc::container::{ChunkReader, FourCc};

/// Declares a newtype over a d3dcommon.h enumeration: named constants and a `name()` giving the constant's name.
macro_rules! d3d_enum {
    ($(#[$meta:meta])* $name:ident($repr:ty) { $($(#[$cmeta:meta])* $konst:ident = $value:expr,)* }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub struct $name(pub $repr);

        impl $name {
            $($(#[$cmeta])* pub const $konst: Self = Self($value);)*

            /// The constant's name without its `D3D_` prefix, or `None` for a value d3dcommon.h does not define.
            pub fn name(self) -> Option<&'static str> {
                match self.0 {
                    $(v if v == $value => Some(stringify!($konst)),)*
                    _ => None,
                }
            }
        }
    };
}

d3d_enum! {
    /// The kind of shader a target is for (the high 16 bits of `RDEF`'s target DWORD).
    ProgramType(u16) {
        /// Pixel shader.
        PIXEL = 0xffff,
        /// Vertex shader.
        VERTEX = 0xfffe,
        /// Geometry shader (`'GS'`).
        GEOMETRY = 0x4753,
        /// Hull shader (`'HS'`).
        HULL = 0x4853,
        /// Domain shader (`'DS'`).
        DOMAIN = 0x4453,
        /// Compute shader (`'CS'`).
        COMPUTE = 0x4353,
    }
}

d3d_enum! {
    /// What a constant buffer record describes (`D3D_CBUFFER_TYPE`).
    CbufferType(u32) {
        /// A `cbuffer`.
        CT_CBUFFER = 0,
        /// A `tbuffer`.
        CT_TBUFFER = 1,
        /// Interface pointers.
        CT_INTERFACE_POINTERS = 2,
        /// Resource binding information.
        CT_RESOURCE_BIND_INFO = 3,
    }
}

d3d_enum! {
    /// The class of a type (`D3D_SHADER_VARIABLE_CLASS`).
    VariableClass(u16) {
        /// A scalar.
        SVC_SCALAR = 0,
        /// A vector.
        SVC_VECTOR = 1,
        /// A matrix stored row by row (`row_major`).
        SVC_MATRIX_ROWS = 2,
        /// A matrix stored column by column (`column_major`, HLSL's default).
        SVC_MATRIX_COLUMNS = 3,
        /// An object (texture, sampler, ...).
        SVC_OBJECT = 4,
        /// A struct.
        SVC_STRUCT = 5,
        /// An interface class.
        SVC_INTERFACE_CLASS = 6,
        /// An interface pointer.
        SVC_INTERFACE_POINTER = 7,
    }
}

d3d_enum! {
    /// The base type of a type (`D3D_SHADER_VARIABLE_TYPE`; the values D3D11 shaders use).
    VariableType(u16) {
        /// No base type (structs).
        SVT_VOID = 0,
        /// `bool`.
        SVT_BOOL = 1,
        /// `int`.
        SVT_INT = 2,
        /// `float`.
        SVT_FLOAT = 3,
        /// `string`.
        SVT_STRING = 4,
        /// `texture`.
        SVT_TEXTURE = 5,
        /// `Texture1D`.
        SVT_TEXTURE1D = 6,
        /// `Texture2D`.
        SVT_TEXTURE2D = 7,
        /// `Texture3D`.
        SVT_TEXTURE3D = 8,
        /// `TextureCube`.
        SVT_TEXTURECUBE = 9,
        /// `sampler`.
        SVT_SAMPLER = 10,
        /// `sampler1D`.
        SVT_SAMPLER1D = 11,
        /// `sampler2D`.
        SVT_SAMPLER2D = 12,
        /// `sampler3D`.
        SVT_SAMPLER3D = 13,
        /// `samplerCUBE`.
        SVT_SAMPLERCUBE = 14,
        /// A pixel shader object.
        SVT_PIXELSHADER = 15,
        /// A vertex shader object.
        SVT_VERTEXSHADER = 16,
        /// A pixel fragment.
        SVT_PIXELFRAGMENT = 17,
        /// A vertex fragment.
        SVT_VERTEXFRAGMENT = 18,
        /// `uint`.
        SVT_UINT = 19,
        /// `uint8`.
        SVT_UINT8 = 20,
        /// A geometry shader object.
        SVT_GEOMETRYSHADER = 21,
        /// A rasterizer state object.
        SVT_RASTERIZER = 22,
        /// A depth-stencil state object.
        SVT_DEPTHSTENCIL = 23,
        /// A blend state object.
        SVT_BLEND = 24,
        /// `Buffer`.
        SVT_BUFFER = 25,
        /// `cbuffer`.
        SVT_CBUFFER = 26,
        /// `tbuffer`.
        SVT_TBUFFER = 27,
        /// `Texture1DArray`.
        SVT_TEXTURE1DARRAY = 28,
        /// `Texture2DArray`.
        SVT_TEXTURE2DARRAY = 29,
        /// A render target view.
        SVT_RENDERTARGETVIEW = 30,
        /// A depth-stencil view.
        SVT_DEPTHSTENCILVIEW = 31,
        /// `Texture2DMS`.
        SVT_TEXTURE2DMS = 32,
        /// `Texture2DMSArray`.
        SVT_TEXTURE2DMSARRAY = 33,
        /// `TextureCubeArray`.
        SVT_TEXTURECUBEARRAY = 34,
        /// A hull shader object.
        SVT_HULLSHADER = 35,
        /// A domain shader object.
        SVT_DOMAINSHADER = 36,
        /// An interface pointer.
        SVT_INTERFACE_POINTER = 37,
        /// A compute shader object.
        SVT_COMPUTESHADER = 38,
        /// `double`.
        SVT_DOUBLE = 39,
        /// `RWTexture1D`.
        SVT_RWTEXTURE1D = 40,
        /// `RWTexture1DArray`.
        SVT_RWTEXTURE1DARRAY = 41,
        /// `RWTexture2D`.
        SVT_RWTEXTURE2D = 42,
        /// `RWTexture2DArray`.
        SVT_RWTEXTURE2DARRAY = 43,
        /// `RWTexture3D`.
        SVT_RWTEXTURE3D = 44,
        /// `RWBuffer`.
        SVT_RWBUFFER = 45,
        /// `ByteAddressBuffer`.
        SVT_BYTEADDRESS_BUFFER = 46,
        /// `RWByteAddressBuffer`.
        SVT_RWBYTEADDRESS_BUFFER = 47,
        /// `StructuredBuffer`.
        SVT_STRUCTURED_BUFFER = 48,
        /// `RWStructuredBuffer`.
        SVT_RWSTRUCTURED_BUFFER = 49,
        /// `AppendStructuredBuffer`.
        SVT_APPEND_STRUCTURED_BUFFER = 50,
        /// `ConsumeStructuredBuffer`.
        SVT_CONSUME_STRUCTURED_BUFFER = 51,
        /// `min8float`.
        SVT_MIN8FLOAT = 52,
        /// `min10float`.
        SVT_MIN10FLOAT = 53,
        /// `min16float`.
        SVT_MIN16FLOAT = 54,
        /// `min12int`.
        SVT_MIN12INT = 55,
        /// `min16int`.
        SVT_MIN16INT = 56,
        /// `min16uint`.
        SVT_MIN16UINT = 57,
    }
}

d3d_enum! {
    /// What a bound resource is (`D3D_SHADER_INPUT_TYPE`).
    InputType(u32) {
        /// A constant buffer.
        SIT_CBUFFER = 0,
        /// A texture buffer.
        SIT_TBUFFER = 1,
        /// A texture (or typed buffer) shader resource view.
        SIT_TEXTURE = 2,
        /// A sampler.
        SIT_SAMPLER = 3,
        /// A typed read-write view.
        SIT_UAV_RWTYPED = 4,
        /// A structured buffer.
        SIT_STRUCTURED = 5,
        /// A read-write structured buffer.
        SIT_UAV_RWSTRUCTURED = 6,
        /// A byte-address buffer.
        SIT_BYTEADDRESS = 7,
        /// A read-write byte-address buffer.
        SIT_UAV_RWBYTEADDRESS = 8,
        /// An append structured buffer.
        SIT_UAV_APPEND_STRUCTURED = 9,
        /// A consume structured buffer.
        SIT_UAV_CONSUME_STRUCTURED = 10,
        /// A read-write structured buffer with a counter.
        SIT_UAV_RWSTRUCTURED_WITH_COUNTER = 11,
    }
}

d3d_enum! {
    /// The type a texture read returns (`D3D_RESOURCE_RETURN_TYPE`); 0 for resources that return none.
    ReturnType(u32) {
        /// Not a typed resource (constant buffers, samplers).
        NONE = 0,
        /// Unsigned normalized.
        RETURN_TYPE_UNORM = 1,
        /// Signed normalized.
        RETURN_TYPE_SNORM = 2,
        /// Signed integer.
        RETURN_TYPE_SINT = 3,
        /// Unsigned integer.
        RETURN_TYPE_UINT = 4,
        /// Float.
        RETURN_TYPE_FLOAT = 5,
        /// Mixed.
        RETURN_TYPE_MIXED = 6,
        /// Double.
        RETURN_TYPE_DOUBLE = 7,
        /// Continuation of the previous double.
        RETURN_TYPE_CONTINUED = 8,
    }
}

d3d_enum! {
    /// The dimension of a bound resource (`D3D_SRV_DIMENSION`).
    SrvDimension(u32) {
        /// Not a view with a dimension (constant buffers, samplers).
        SRV_DIMENSION_UNKNOWN = 0,
        /// A typed buffer.
        SRV_DIMENSION_BUFFER = 1,
        /// `Texture1D`.
        SRV_DIMENSION_TEXTURE1D = 2,
        /// `Texture1DArray`.
        SRV_DIMENSION_TEXTURE1DARRAY = 3,
        /// `Texture2D`.
        SRV_DIMENSION_TEXTURE2D = 4,
        /// `Texture2DArray`.
        SRV_DIMENSION_TEXTURE2DARRAY = 5,
        /// `Texture2DMS`.
        SRV_DIMENSION_TEXTURE2DMS = 6,
        /// `Texture2DMSArray`.
        SRV_DIMENSION_TEXTURE2DMSARRAY = 7,
        /// `Texture3D`.
        SRV_DIMENSION_TEXTURE3D = 8,
        /// `TextureCube`.
        SRV_DIMENSION_TEXTURECUBE = 9,
        /// `TextureCubeArray`.
        SRV_DIMENSION_TEXTURECUBEARRAY = 10,
        /// A raw or structured buffer.
        SRV_DIMENSION_BUFFEREX = 11,
    }
}

/// The `D3D_SHADER_INPUT_FLAGS` of a binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InputFlags(pub u32);

impl InputFlags {
    /// The register was given explicitly (`register(t2)`).
    pub const USERPACKED: u32 = 0x1;
    /// A comparison sampler.
    pub const COMPARISON_SAMPLER: u32 = 0x2;
    /// Two bits: a texture's component count less one.
    pub const TEXTURE_COMPONENTS: u32 = 0xc;
    /// Declared but unused.
    pub const UNUSED: u32 = 0x10;

    /// Whether every bit of `flag` is set.
    pub fn contains(self, flag: u32) -> bool {
        self.0 & flag == flag
    }

    /// A texture's component count (1 to 4), from [`InputFlags::TEXTURE_COMPONENTS`].
    pub fn texture_components(self) -> u32 {
        ((self.0 & Self::TEXTURE_COMPONENTS) >> 2).saturating_add(1)
    }
}

/// The `D3D_SHADER_VARIABLE_FLAGS` of a variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VariableFlags(pub u32);

impl VariableFlags {
    /// Placed explicitly (`packoffset`).
    pub const USERPACKED: u32 = 0x1;
    /// Read by the shader.
    pub const USED: u32 = 0x2;
    /// An interface pointer.
    pub const INTERFACE_POINTER: u32 = 0x4;
    /// An interface parameter.
    pub const INTERFACE_PARAMETER: u32 = 0x8;

    /// Whether every bit of `flag` is set.
    pub fn contains(self, flag: u32) -> bool {
        self.0 & flag == flag
    }
}

/// `RDEF`'s target DWORD: shader kind and model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ShaderTarget(pub u32);

impl ShaderTarget {
    /// The shader kind (bits 16..32).
    pub fn program_type(self) -> ProgramType {
        ProgramType((self.0 >> 16) as u16)
    }

    /// The major shader model (bits 8..16).
    pub fn major(self) -> u32 {
        (self.0 >> 8) & 0xff
    }

    /// The minor shader model (bits 0..8).
    pub fn minor(self) -> u32 {
        self.0 & 0xff
    }
}

/// The sizes `RDEF`'s SM5 sub-header (`RD11`) gives for each record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rd11Header {
    /// Size of the whole `RDEF` header, this sub-header included (60).
    pub header_size: u32,
    /// Size of a constant buffer record (24).
    pub cbuffer_size: u32,
    /// Size of a binding record (32; 40 in SM5.1).
    pub binding_size: u32,
    /// Size of a variable record (40).
    pub variable_size: u32,
    /// Size of a type record (36).
    pub type_size: u32,
    /// Size of a struct member record (12).
    pub member_size: u32,
    /// The last DWORD (0 in every blob seen).
    pub reserved: u32,
}

/// A parsed `RDEF` chunk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reflection {
    /// Shader kind and model the shader was compiled for.
    pub target: ShaderTarget,
    /// The compile flags (`D3DCOMPILE_*`).
    pub flags: u32,
    /// The creator string (`"Microsoft (R) HLSL Shader Compiler 10.1"`, `"vkd3d-shader 1.14 ..."`).
    pub creator: String,
    /// The SM5 sub-header, present when the target's major model is 5 or more.
    pub rd11: Option<Rd11Header>,
    /// The constant buffers (and tbuffers), in chunk order.
    pub constant_buffers: Vec<ConstantBuffer>,
    /// The bound resources (constant buffers, textures, samplers, ...), in chunk order.
    pub bindings: Vec<ResourceBinding>,
}

/// A constant buffer and its variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConstantBuffer {
    /// The buffer's name.
    pub name: String,
    /// Size in bytes (a multiple of 16 for `cbuffer`s).
    pub size: u32,
    /// `D3D_SHADER_CBUFFER_FLAGS` (1: placed with `register()`).
    pub flags: u32,
    /// What kind of buffer.
    pub kind: CbufferType,
    /// The variables, in chunk order.
    pub variables: Vec<Variable>,
}

/// A variable of a constant buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variable {
    /// The variable's name.
    pub name: String,
    /// Offset from the buffer's start, in bytes.
    pub offset: u32,
    /// Size in bytes (up to the last component used: a `float` array of 3 is 2 * 16 + 4 = 36).
    pub size: u32,
    /// Flags.
    pub flags: VariableFlags,
    /// The variable's type.
    pub ty: ShaderType,
    /// The initial value's bytes (`size` of them), when the source gave one.
    pub default_value: Option<Vec<u8>>,
    /// SM5 only: first texture, texture count, first sampler, sampler count (fxc writes `0xFFFFFFFF, 0,
    /// 0xFFFFFFFF, 0` for plain data; vkd3d-shader zeros).
    pub sm5_resources: Option<[u32; 4]>,
}

/// A type of a variable or struct member.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShaderType {
    /// The class (scalar, vector, matrix, struct, ...).
    pub class: VariableClass,
    /// The base type (`float`, `int`, ...; void for structs).
    pub base: VariableType,
    /// Rows (1 for scalars and vectors; 1 for structs).
    pub rows: u16,
    /// Columns (for structs, the number of scalar components of all members).
    pub columns: u16,
    /// Array elements (0 when not an array).
    pub elements: u16,
    /// A struct's members, in order (their count is the type's member count).
    pub members: Vec<Member>,
    /// SM5 only: the type's name (`"float4x4"`, the struct's name), when its offset is not 0.
    pub name: Option<String>,
    /// SM5 only: the four DWORDs between the member table offset and the name (0 in every blob seen).
    pub sm5_reserved: Option<[u32; 4]>,
}

/// A member of a struct type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// The member's name.
    pub name: String,
    /// Offset from the struct's start, in bytes.
    pub offset: u32,
    /// The member's type.
    pub ty: ShaderType,
}

/// A resource the shader binds: constant buffer, texture, sampler, ...
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResourceBinding {
    /// The name (`"tex"`; an array element may be named `"texs[2]"`).
    pub name: String,
    /// What it is.
    pub input_type: InputType,
    /// What a read returns (textures).
    pub return_type: ReturnType,
    /// Its dimension (textures).
    pub dimension: SrvDimension,
    /// The sample count of a multisampled texture; `0xFFFFFFFF` for other textures, 0 for non-textures.
    pub sample_count: u32,
    /// The first register (`t2` → 2).
    pub bind_point: u32,
    /// The number of registers.
    pub bind_count: u32,
    /// Flags.
    pub flags: InputFlags,
    /// SM5.1 only: the register space and the range's ID.
    pub space_and_id: Option<(u32, u32)>,
}

/// The deepest type nesting parsed; deeper (or cyclic) type tables are an error.
pub const MAX_TYPE_DEPTH: usize = 64;

/// The fixed part of `RDEF`'s header.
const RDEF_HEADER_SIZE: usize = 28;
/// The `RD11` sub-header's size.
const RD11_SIZE: usize = 32;
/// Where the `RD11` sub-header's size fields start (after its magic).
const RD11_FIELDS: usize = RDEF_HEADER_SIZE + 4;
/// Record sizes: constant buffer, SM4/5.0 binding, SM5.1 binding, SM4 variable, SM5 variable, SM4 type, SM5 type,
/// member.
const CBUFFER_SIZE: usize = 24;
const BINDING_SIZE: usize = 32;
const BINDING_SIZE_51: usize = 40;
const VARIABLE_SIZE_4: usize = 24;
const VARIABLE_SIZE_5: usize = 40;
const TYPE_SIZE_4: usize = 16;
const TYPE_SIZE_5: usize = 36;
const MEMBER_SIZE: usize = 12;

/// The record layout of one `RDEF` chunk.
struct RdefReader<'a> {
    reader: ChunkReader<'a>,
    sm5: bool,
    /// Type nodes still allowed to be expanded.
    type_budget: usize,
}

impl Reflection {
    /// Parses an `RDEF` chunk's data. Error offsets count from the start of `data`.
    pub fn parse(data: &[u8]) -> Result<Self> {
        Self::parse_in_container(data, 0)
    }

    /// Parses an `RDEF` chunk's data that starts at byte `base` of its container (for error offsets).
    pub(crate) fn parse_in_container(data: &[u8], base: usize) -> Result<Self> {
        let copied = std::cell::Cell::new(0);
        let reader = ChunkReader {
            data,
            base,
            fourcc: FourCc::RDEF,
            copied: &copied,
        };
        let cbuffer_count = reader.usize(0, "constant buffer count")?;
        let cbuffer_offset = reader.usize(4, "constant buffer table offset")?;
        let binding_count = reader.usize(8, "bound resource count")?;
        let binding_offset = reader.usize(12, "bound resource table offset")?;
        let target = ShaderTarget(reader.u32(16, "target")?);
        let flags = reader.u32(20, "compile flags")?;
        let creator_offset = reader.usize(24, "creator string offset")?;
        let creator = reader.string(creator_offset, "creator string", 24)?;

        let sm5 = target.major() >= 5;
        let rd11 = if sm5 { Some(parse_rd11(&reader)?) } else { None };
        let binding_size = match rd11 {
            Some(h) if h.binding_size as usize == BINDING_SIZE_51 => BINDING_SIZE_51,
            _ => BINDING_SIZE,
        };

        reader.table(binding_offset, binding_count, binding_size, "bound resources", 8)?;
        let mut bindings = Vec::with_capacity(binding_count);
        for index in 0..binding_count {
            let at = binding_offset.saturating_add(index.saturating_mul(binding_size));
            let field = |n: usize, what: &str| reader.field(at, n, what);
            let name_offset = usize::try_from(field(0, "binding name offset")?).unwrap_or(usize::MAX);
            bindings.push(ResourceBinding {
                name: reader.string(name_offset, &format!("name of binding {index}"), at)?,
                input_type: InputType(field(1, "input type")?),
                return_type: ReturnType(field(2, "return type")?),
                dimension: SrvDimension(field(3, "dimension")?),
                sample_count: field(4, "sample count")?,
                bind_point: field(5, "bind point")?,
                bind_count: field(6, "bind count")?,
                flags: InputFlags(field(7, "flags")?),
                space_and_id: if binding_size == BINDING_SIZE_51 {
                    Some((field(8, "register space")?, field(9, "range ID")?))
                } else {
                    None
                },
            });
        }

        let mut rdef = RdefReader {
            reader,
            sm5,
            type_budget: data.len().max(1),
        };
        reader.table(cbuffer_offset, cbuffer_count, CBUFFER_SIZE, "constant buffers", 0)?;
        let mut constant_buffers = Vec::with_capacity(cbuffer_count);
        for index in 0..cbuffer_count {
            let at = cbuffer_offset.saturating_add(index.saturating_mul(CBUFFER_SIZE));
            constant_buffers.push(rdef.constant_buffer(index, at)?);
        }

        Ok(Self {
            target,
            flags,
            creator,
            rd11,
            constant_buffers,
            bindings,
        })
    }

    /// The constant buffer named `name`.
    pub fn constant_buffer(&self, name: &str) -> Option<&ConstantBuffer> {
        self.constant_buffers.iter().find(|c| c.name == name)
    }

    /// The binding named `name`.
    pub fn binding(&self, name: &str) -> Option<&ResourceBinding> {
        self.bindings.iter().find(|b| b.name == name)
    }
}

impl ConstantBuffer {
    /// The variable named `name`.
    pub fn variable(&self, name: &str) -> Option<&Variable> {
        self.variables.iter().find(|v| v.name == name)
    }
}

impl ShaderType {
    /// The member named `name`.
    pub fn member(&self, name: &str) -> Option<&Member> {
        self.members.iter().find(|m| m.name == name)
    }
}

/// Reads and checks the `RD11` sub-header at byte 28.
fn parse_rd11(reader: &ChunkReader<'_>) -> Result<Rd11Header> {
    let magic = FourCc(reader.u32(RDEF_HEADER_SIZE, "RD11 sub-header")?.to_le_bytes());
    if magic != FourCc(*b"RD11") {
        return Err(reader.error(
            RDEF_HEADER_SIZE,
            format!("an SM5 RDEF needs the 'RD11' sub-header here, found {magic:?}"),
        ));
    }
    let field = |n: usize, what: &str| reader.field(RD11_FIELDS, n, what);
    let header = Rd11Header {
        header_size: field(0, "header size")?,
        cbuffer_size: field(1, "constant buffer record size")?,
        binding_size: field(2, "binding record size")?,
        variable_size: field(3, "variable record size")?,
        type_size: field(4, "type record size")?,
        member_size: field(5, "member record size")?,
        reserved: field(6, "reserved DWORD")?,
    };
    let expect = |n: usize, what: &str, got: u32, allowed: &[usize]| -> Result<()> {
        if allowed.contains(&(got as usize)) {
            Ok(())
        } else {
            Err(reader.error(
                RD11_FIELDS.saturating_add(n.saturating_mul(4)),
                format!("the {what} is {got}; only {allowed:?} are known"),
            ))
        }
    };
    expect(0, "header size", header.header_size, &[RDEF_HEADER_SIZE + RD11_SIZE])?;
    expect(1, "constant buffer record size", header.cbuffer_size, &[CBUFFER_SIZE])?;
    expect(
        2,
        "binding record size",
        header.binding_size,
        &[BINDING_SIZE, BINDING_SIZE_51],
    )?;
    expect(3, "variable record size", header.variable_size, &[VARIABLE_SIZE_5])?;
    expect(4, "type record size", header.type_size, &[TYPE_SIZE_5])?;
    expect(5, "member record size", header.member_size, &[MEMBER_SIZE])?;
    Ok(header)
}

impl RdefReader<'_> {
    /// The constant buffer record `index` at byte `at`.
    fn constant_buffer(&mut self, index: usize, at: usize) -> Result<ConstantBuffer> {
        let reader = self.reader;
        let field = |n: usize, what: &str| reader.field(at, n, what);
        let name_offset = usize::try_from(field(0, "constant buffer name offset")?).unwrap_or(usize::MAX);
        let name = reader.string(name_offset, &format!("name of constant buffer {index}"), at)?;
        let variable_count = field(1, "variable count")? as usize;
        let variable_offset = field(2, "variable table offset")? as usize;
        let size = field(3, "constant buffer size")?;
        let flags = field(4, "constant buffer flags")?;
        let kind = CbufferType(field(5, "constant buffer type")?);

        let variable_size = if self.sm5 { VARIABLE_SIZE_5 } else { VARIABLE_SIZE_4 };
        reader.table(
            variable_offset,
            variable_count,
            variable_size,
            &format!("variables of constant buffer {name:?}"),
            at.saturating_add(4),
        )?;
        let mut variables = Vec::with_capacity(variable_count);
        for v in 0..variable_count {
            let vat = variable_offset.saturating_add(v.saturating_mul(variable_size));
            variables.push(self.variable(vat)?);
        }
        Ok(ConstantBuffer {
            name,
            size,
            flags,
            kind,
            variables,
        })
    }

    /// The variable record at byte `at`.
    fn variable(&mut self, at: usize) -> Result<Variable> {
        let reader = self.reader;
        let field = |n: usize, what: &str| reader.field(at, n, what);
        let name_offset = field(0, "variable name offset")? as usize;
        let name = reader.string(name_offset, "variable name", at)?;
        let offset = field(1, "variable offset")?;
        let size = field(2, "variable size")?;
        let flags = VariableFlags(field(3, "variable flags")?);
        let type_offset = field(4, "variable type offset")? as usize;
        let default_offset = field(5, "default value offset")? as usize;
        let default_value = if default_offset == 0 {
            None
        } else {
            Some(
                reader
                    .bytes(default_offset, size as usize, &format!("default value of {name:?}"))?
                    .to_vec(),
            )
        };
        let sm5_resources = if self.sm5 {
            Some([
                field(6, "first texture")?,
                field(7, "texture count")?,
                field(8, "first sampler")?,
                field(9, "sampler count")?,
            ])
        } else {
            None
        };
        let ty = self.shader_type(type_offset, at.saturating_add(16), 0)?;
        Ok(Variable {
            name,
            offset,
            size,
            flags,
            ty,
            default_value,
            sm5_resources,
        })
    }

    /// The type record at byte `offset` (whose offset was read at byte `from`), `depth` levels inside a variable.
    fn shader_type(&mut self, offset: usize, from: usize, depth: usize) -> Result<ShaderType> {
        let reader = self.reader;
        if depth >= MAX_TYPE_DEPTH {
            return Err(reader.error(
                from,
                format!("types nest more than {MAX_TYPE_DEPTH} deep (a cycle in the type table?)"),
            ));
        }
        self.type_budget = self.type_budget.checked_sub(1).ok_or_else(|| {
            reader.error(
                from,
                "the types expand to more nodes than the chunk has bytes (a type table that multiplies itself?)",
            )
        })?;
        let type_size = if self.sm5 { TYPE_SIZE_5 } else { TYPE_SIZE_4 };
        reader.bytes(offset, type_size, "type record")?;
        let half = |n: usize, what: &str| -> Result<(u16, u16)> {
            let v = reader.field(offset, n, what)?;
            Ok(((v & 0xffff) as u16, (v >> 16) as u16))
        };
        let (class, base) = half(0, "type class")?;
        let (rows, columns) = half(1, "type rows")?;
        let (elements, member_count) = half(2, "type elements")?;
        let member_offset = reader.u32(offset.saturating_add(12), "member table offset")? as usize;
        let (sm5_reserved, name) = if self.sm5 {
            let dword = |n: usize| reader.field(offset, n.saturating_add(4), "type record");
            let reserved = [dword(0)?, dword(1)?, dword(2)?, dword(3)?];
            let name_offset = dword(4)? as usize;
            let name = if name_offset == 0 {
                None
            } else {
                Some(reader.string(name_offset, "type name", offset.saturating_add(32))?)
            };
            (Some(reserved), name)
        } else {
            (None, None)
        };

        let member_count = usize::from(member_count);
        let mut members = Vec::new();
        if member_count > 0 {
            reader.table(
                member_offset,
                member_count,
                MEMBER_SIZE,
                "struct members",
                offset.saturating_add(12),
            )?;
            members.reserve_exact(member_count);
            for m in 0..member_count {
                let at = member_offset.saturating_add(m.saturating_mul(MEMBER_SIZE));
                let name_offset = reader.u32(at, "member name offset")? as usize;
                let name = reader.string(name_offset, "member name", at)?;
                let type_offset = reader.u32(at.saturating_add(4), "member type offset")? as usize;
                let member_offset_bytes = reader.u32(at.saturating_add(8), "member offset")?;
                let ty = self.shader_type(type_offset, at.saturating_add(4), depth.saturating_add(1))?;
                members.push(Member {
                    name,
                    offset: member_offset_bytes,
                    ty,
                });
            }
        }
        Ok(ShaderType {
            class: VariableClass(class),
            base: VariableType(base),
            rows,
            columns,
            elements,
            members,
            name,
            sm5_reserved,
        })
    }
}

/// A parsed `STAT` chunk: the compiler's counts. Slots 0..19, 21 and 23..25 and (SM5) 30..33 are the ones Wine's
/// d3dcompiler reads and names; 20 and 22 are the `movc` and bitwise counts `ID3D11ShaderReflection` reports (the
/// fixtures bear both out: one `?:` gives one at 20, one `&` one at 22); 29 and 34..36 are named after the
/// `D3D11_SHADER_DESC` fields in the same relative order, not checked against any blob (vkd3d-shader leaves them 0
/// for pixel and vertex shaders, as it should).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statistics {
    /// 0: `InstructionCount`.
    pub instruction_count: u32,
    /// 1: `TempRegisterCount`.
    pub temp_register_count: u32,
    /// 2: `DefCount`.
    pub def_count: u32,
    /// 3: `DclCount`.
    pub dcl_count: u32,
    /// 4: `FloatInstructionCount`.
    pub float_instruction_count: u32,
    /// 5: `IntInstructionCount`.
    pub int_instruction_count: u32,
    /// 6: `UintInstructionCount`.
    pub uint_instruction_count: u32,
    /// 7: `StaticFlowControlCount`.
    pub static_flow_control_count: u32,
    /// 8: `DynamicFlowControlCount`.
    pub dynamic_flow_control_count: u32,
    /// 9: `MacroInstructionCount`.
    pub macro_instruction_count: u32,
    /// 10: `TempArrayCount`.
    pub temp_array_count: u32,
    /// 11: `ArrayInstructionCount`.
    pub array_instruction_count: u32,
    /// 12: `CutInstructionCount`.
    pub cut_instruction_count: u32,
    /// 13: `EmitInstructionCount`.
    pub emit_instruction_count: u32,
    /// 14: `TextureNormalInstructions`.
    pub texture_normal_instructions: u32,
    /// 15: `TextureLoadInstructions`.
    pub texture_load_instructions: u32,
    /// 16: `TextureCompInstructions`.
    pub texture_comp_instructions: u32,
    /// 17: `TextureBiasInstructions`.
    pub texture_bias_instructions: u32,
    /// 18: `TextureGradientInstructions`.
    pub texture_gradient_instructions: u32,
    /// 19: `GetMovInstructionCount()`.
    pub mov_instruction_count: u32,
    /// 20: `GetMovcInstructionCount()`.
    pub movc_instruction_count: u32,
    /// 21: `GetConversionInstructionCount()`.
    pub conversion_instruction_count: u32,
    /// 22: `GetBitwiseInstructionCount()`.
    pub bitwise_instruction_count: u32,
    /// 23: `InputPrimitive` (geometry shaders).
    pub input_primitive: u32,
    /// 24: `GSOutputTopology`.
    pub gs_output_topology: u32,
    /// 25: `GSMaxOutputVertexCount`.
    pub gs_max_output_vertex_count: u32,
    /// 26: not known.
    pub unknown_26: u32,
    /// 27: not known.
    pub unknown_27: u32,
    /// 28: not known; absent from the oldest, 28-DWORD chunks.
    pub unknown_28: Option<u32>,
    /// 29..37: the SM5 counters, in 37-DWORD chunks.
    pub sm5: Option<Sm5Statistics>,
}

/// The counters an SM5 `STAT` chunk adds (DWORDs 29..37).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sm5Statistics {
    /// 29: `cGSInstanceCount` (by its place; unverified).
    pub gs_instance_count: u32,
    /// 30: `cControlPoints`.
    pub control_points: u32,
    /// 31: `HSOutputPrimitive`.
    pub hs_output_primitive: u32,
    /// 32: `HSPartitioning`.
    pub hs_partitioning: u32,
    /// 33: `TessellatorDomain`.
    pub tessellator_domain: u32,
    /// 34: `cBarrierInstructions` (by its place; unverified).
    pub barrier_instructions: u32,
    /// 35: `cInterlockedInstructions` (by its place; unverified).
    pub interlocked_instructions: u32,
    /// 36: `cTextureStoreInstructions` (by its place; unverified).
    pub texture_store_instructions: u32,
}

impl Statistics {
    /// Parses a `STAT` chunk's data (28, 29 or 37 DWORDs). Error offsets count from the start of `data`.
    pub fn parse(data: &[u8]) -> Result<Self> {
        Self::parse_in_container(data, 0)
    }

    /// Parses a `STAT` chunk's data that starts at byte `base` of its container (for error offsets).
    pub(crate) fn parse_in_container(data: &[u8], base: usize) -> Result<Self> {
        let copied = std::cell::Cell::new(0);
        let reader = ChunkReader {
            data,
            base,
            fourcc: FourCc::STAT,
            copied: &copied,
        };
        let words = data.len() / 4;
        if !data.len().is_multiple_of(4) || ![28, 29, 37].contains(&words) {
            return Err(reader.error(
                0,
                format!(
                    "a STAT chunk has 28, 29 or 37 DWORDs (112, 116 or 148 bytes), not {} bytes",
                    data.len()
                ),
            ));
        }
        let w = |n: usize| reader.field(0, n, "counter");
        Ok(Self {
            instruction_count: w(0)?,
            temp_register_count: w(1)?,
            def_count: w(2)?,
            dcl_count: w(3)?,
            float_instruction_count: w(4)?,
            int_instruction_count: w(5)?,
            uint_instruction_count: w(6)?,
            static_flow_control_count: w(7)?,
            dynamic_flow_control_count: w(8)?,
            macro_instruction_count: w(9)?,
            temp_array_count: w(10)?,
            array_instruction_count: w(11)?,
            cut_instruction_count: w(12)?,
            emit_instruction_count: w(13)?,
            texture_normal_instructions: w(14)?,
            texture_load_instructions: w(15)?,
            texture_comp_instructions: w(16)?,
            texture_bias_instructions: w(17)?,
            texture_gradient_instructions: w(18)?,
            mov_instruction_count: w(19)?,
            movc_instruction_count: w(20)?,
            conversion_instruction_count: w(21)?,
            bitwise_instruction_count: w(22)?,
            input_primitive: w(23)?,
            gs_output_topology: w(24)?,
            gs_max_output_vertex_count: w(25)?,
            unknown_26: w(26)?,
            unknown_27: w(27)?,
            unknown_28: if words > 28 { Some(w(28)?) } else { None },
            sm5: if words == 37 {
                Some(Sm5Statistics {
                    gs_instance_count: w(29)?,
                    control_points: w(30)?,
                    hs_output_primitive: w(31)?,
                    hs_partitioning: w(32)?,
                    tessellator_domain: w(33)?,
                    barrier_instructions: w(34)?,
                    interlocked_instructions: w(35)?,
                    texture_store_instructions: w(36)?,
                })
            } else {
                None
            },
        })
    }
}

/// A parsed `SFI0` chunk: the `D3D_SHADER_REQUIRES_*` features the shader needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FeatureFlags(pub u64);

impl FeatureFlags {
    /// Each known flag and its name without the `D3D_SHADER_REQUIRES_` prefix.
    pub const NAMES: [(u64, &'static str); 14] = [
        (0x1, "DOUBLES"),
        (0x2, "EARLY_DEPTH_STENCIL"),
        (0x4, "UAVS_AT_EVERY_STAGE"),
        (0x8, "64_UAVS"),
        (0x10, "MINIMUM_PRECISION"),
        (0x20, "11_1_DOUBLE_EXTENSIONS"),
        (0x40, "11_1_SHADER_EXTENSIONS"),
        (0x80, "LEVEL_9_COMPARISON_FILTERING"),
        (0x100, "TILED_RESOURCES"),
        (0x200, "STENCIL_REF"),
        (0x400, "INNER_COVERAGE"),
        (0x800, "TYPED_UAV_LOAD_ADDITIONAL_FORMATS"),
        (0x1000, "ROVS"),
        (0x2000, "VIEWPORT_AND_RT_ARRAY_INDEX_FROM_ANY_SHADER_FEEDING_RASTERIZER"),
    ];

    /// Parses an `SFI0` chunk's data (8 bytes: a little-endian 64-bit mask).
    pub fn parse(data: &[u8]) -> Result<Self> {
        Self::parse_in_container(data, 0)
    }

    /// Parses an `SFI0` chunk's data that starts at byte `base` of its container (for error offsets).
    pub(crate) fn parse_in_container(data: &[u8], base: usize) -> Result<Self> {
        let copied = std::cell::Cell::new(0);
        let reader = ChunkReader {
            data,
            base,
            fourcc: FourCc::SFI0,
            copied: &copied,
        };
        if data.len() != 8 {
            return Err(reader.error(0, format!("an SFI0 chunk has 8 bytes, not {}", data.len())));
        }
        let low = reader.u32(0, "flags")?;
        let high = reader.u32(4, "flags")?;
        Ok(Self(u64::from(low) | (u64::from(high) << 32)))
    }

    /// The names of the known flags that are set, in bit order; unknown set bits are left out (see
    /// [`FeatureFlags::unknown_bits`]).
    pub fn names(self) -> Vec<&'static str> {
        Self::NAMES
            .iter()
            .filter(|(bit, _)| self.0 & bit != 0)
            .map(|&(_, name)| name)
            .collect()
    }

    /// The set bits no known flag names.
    pub fn unknown_bits(self) -> u64 {
        Self::NAMES.iter().fold(self.0, |rest, (bit, _)| rest & !bit)
    }
}

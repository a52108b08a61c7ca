//! The listing syntax shared by the disassembler ([`super::disasm`]) and the assembler ([`super::asm`]): the names of
//! opcodes, registers, dimensions, return types, system values and the other enumerations, how many destinations an
//! opcode has, how literals print, and the rules that decide an operand's component form from its text.
//!
//! Both directions read these same tables, so a name printed is a name parsed. The names are Microsoft's `fxc`
//! (`D3DDisassemble`) spellings as public listings show them; where `fxc` has no spelling for something the token
//! format can hold, the name is ours and [`super::disasm`]'s module documentation lists it.

use super::program::{
    Components, InterpolationMode, MinPrecision, Opcode, Primitive, PrimitiveTopology, ProgramKind, RegisterType,
    ResourceDimension, ReturnType, SamplerMode, Selection, SystemName, TessDomain, TessOutputPrimitive,
    TessPartitioning,
};

/// Where an operand stands, which decides the component form its bare text stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Context {
    /// A destination (written): component letters are a write mask.
    Dest,
    /// A source (read): one letter selects a component, four are a swizzle.
    Source,
    /// A declaration's register: letters are a mask, and a bare `cb#[n]` stands for the identity swizzle compilers
    /// write there.
    Decl,
}

/// An explicit component form, written as an operand annotation when the text alone would give another one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FormOverride {
    /// `{mask}`: the letters are a write mask (none: the empty mask).
    Mask,
    /// `{swizzle}`: the four letters are a swizzle.
    Swizzle,
    /// `{select1}`: the one letter selects a component.
    Select1,
    /// `{comps=0}`: no components.
    Zero,
    /// `{comps=1}`: one component.
    One,
    /// `{comps=n}`: the reserved N-component form.
    N,
}

impl FormOverride {
    /// The annotation word.
    pub(crate) fn word(self) -> &'static str {
        match self {
            Self::Mask => "mask",
            Self::Swizzle => "swizzle",
            Self::Select1 => "select1",
            Self::Zero => "comps=0",
            Self::One => "comps=1",
            Self::N => "comps=n",
        }
    }

    /// The override an annotation word names.
    pub(crate) fn from_word(word: &str) -> Option<Self> {
        Some(match word {
            "mask" => Self::Mask,
            "swizzle" => Self::Swizzle,
            "select1" => Self::Select1,
            "comps=0" => Self::Zero,
            "comps=1" => Self::One,
            "comps=n" => Self::N,
            _ => return None,
        })
    }
}

/// The identity swizzle `.xyzw`.
pub(crate) const IDENTITY: [u8; 4] = [0, 1, 2, 3];
/// Component letters, x first.
pub(crate) const LETTERS: [char; 4] = ['x', 'y', 'z', 'w'];

/// The letter of component `c` (0 = x .. 3 = w); `?` for anything else.
pub(crate) fn letter(c: u8) -> char {
    LETTERS.get(usize::from(c)).copied().unwrap_or('?')
}

/// The component a letter names.
pub(crate) fn component(letter: char) -> Option<u8> {
    match letter {
        'x' => Some(0),
        'y' => Some(1),
        'z' => Some(2),
        'w' => Some(3),
        _ => None,
    }
}

/// The components of a register file an operand has when its text shows no component letters (and no annotation).
pub(crate) fn natural_components(register: RegisterType, context: Context) -> Components {
    use RegisterType as R;
    match register {
        R::InputPrimitiveId
        | R::OutputDepth
        | R::OutputDepthGreaterEqual
        | R::OutputDepthLessEqual
        | R::OutputCoverageMask
        | R::InputCoverageMask
        | R::OutputControlPointId
        | R::InputForkInstanceId
        | R::InputJoinInstanceId
        | R::InputThreadIdInGroupFlattened
        | R::InputGsInstanceId
        | R::CycleCounter
        | R::OutputStencilRef
        | R::InnerCoverage => Components::One,
        R::ConstantBuffer if context == Context::Decl => Components::Four(Selection::Swizzle(IDENTITY)),
        _ => Components::Zero,
    }
}

/// The components an operand's text stands for: its letters (`None` when it shows none), where it stands, and any
/// explicit form. `None` when the letters cannot have that form (an error for the assembler).
pub(crate) fn derive_components(
    register: RegisterType,
    context: Context,
    letters: Option<&[u8]>,
    form: Option<FormOverride>,
) -> Option<Components> {
    let as_mask = |letters: &[u8]| {
        letters
            .iter()
            .try_fold(0u8, |mask, &c| {
                let bit = 1u8.checked_shl(u32::from(c))?;
                (mask & bit == 0 && c < 4).then_some(mask | bit)
            })
            .map(|m| Components::Four(Selection::Mask(m)))
    };
    let ascending = |letters: &[u8]| letters.windows(2).all(|w| w.first() < w.get(1));
    match (form, letters) {
        (Some(FormOverride::Zero), None) => Some(Components::Zero),
        (Some(FormOverride::One), None) => Some(Components::One),
        (Some(FormOverride::N), None) => Some(Components::N),
        (Some(FormOverride::Zero | FormOverride::One | FormOverride::N), Some(_)) => None,
        (Some(FormOverride::Mask), letters) => as_mask(letters.unwrap_or(&[])),
        (Some(FormOverride::Swizzle), Some(&[x, y, z, w])) => Some(Components::Four(Selection::Swizzle([x, y, z, w]))),
        (Some(FormOverride::Select1), Some(&[c])) => Some(Components::Four(Selection::Select1(c))),
        (Some(FormOverride::Swizzle | FormOverride::Select1), _) => None,
        (None, None) => Some(natural_components(register, context)),
        (None, Some(letters)) => match context {
            Context::Source => match *letters {
                [c] => Some(Components::Four(Selection::Select1(c))),
                [x, y, z, w] => Some(Components::Four(Selection::Swizzle([x, y, z, w]))),
                _ if ascending(letters) => as_mask(letters),
                _ => None,
            },
            Context::Dest | Context::Decl => {
                if ascending(letters) {
                    as_mask(letters)
                } else if let [x, y, z, w] = *letters {
                    Some(Components::Four(Selection::Swizzle([x, y, z, w])))
                } else {
                    None
                }
            }
        },
    }
}

/// The prefix of a program kind's version line (`ps`, `vs`, ...).
pub(crate) fn program_prefix(kind: ProgramKind) -> &'static str {
    match kind {
        ProgramKind::Pixel => "ps",
        ProgramKind::Vertex => "vs",
        ProgramKind::Geometry => "gs",
        ProgramKind::Hull => "hs",
        ProgramKind::Domain => "ds",
        ProgramKind::Compute => "cs",
    }
}

/// The program kind a version line prefix names.
pub(crate) fn program_kind(prefix: &str) -> Option<ProgramKind> {
    [
        ProgramKind::Pixel,
        ProgramKind::Vertex,
        ProgramKind::Geometry,
        ProgramKind::Hull,
        ProgramKind::Domain,
        ProgramKind::Compute,
    ]
    .into_iter()
    .find(|&k| program_prefix(k) == prefix)
}

/// How a register file prints: its prefix, and whether an immediate first index is written as digits after the
/// prefix (`r3`, `cb0[4]`) rather than in brackets (`vicp[3][0]`, `icb[5]`).
pub(crate) fn register_name(register: RegisterType) -> (&'static str, bool) {
    use RegisterType as R;
    match register {
        R::Temp => ("r", true),
        R::Input => ("v", true),
        R::Output => ("o", true),
        R::IndexableTemp => ("x", true),
        R::Immediate32 => ("l", false),
        R::Immediate64 => ("d", false),
        R::Sampler => ("s", true),
        R::Resource => ("t", true),
        R::ConstantBuffer => ("cb", true),
        R::ImmediateConstantBuffer => ("icb", false),
        R::Label => ("l", true),
        R::InputPrimitiveId => ("vPrim", false),
        R::OutputDepth => ("oDepth", false),
        R::Null => ("null", false),
        R::Rasterizer => ("rasterizer", false),
        R::OutputCoverageMask => ("oMask", false),
        R::Stream => ("m", true),
        R::FunctionBody => ("fb", true),
        R::FunctionTable => ("ft", true),
        R::Interface => ("fp", true),
        R::FunctionInput => ("fi", true),
        R::FunctionOutput => ("fo", true),
        R::OutputControlPointId => ("vOutputControlPointID", false),
        R::InputForkInstanceId => ("vForkInstanceID", false),
        R::InputJoinInstanceId => ("vJoinInstanceID", false),
        R::InputControlPoint => ("vicp", false),
        R::OutputControlPoint => ("vocp", false),
        R::InputPatchConstant => ("vpc", true),
        R::InputDomainPoint => ("vDomain", false),
        R::ThisPointer => ("this", false),
        R::UnorderedAccessView => ("u", true),
        R::ThreadGroupSharedMemory => ("g", true),
        R::InputThreadId => ("vThreadID", false),
        R::InputThreadGroupId => ("vThreadGroupID", false),
        R::InputThreadIdInGroup => ("vThreadIDInGroup", false),
        R::InputCoverageMask => ("vCoverage", false),
        R::InputThreadIdInGroupFlattened => ("vThreadIDInGroupFlattened", false),
        R::InputGsInstanceId => ("vGSInstanceID", false),
        R::OutputDepthGreaterEqual => ("oDepthGE", false),
        R::OutputDepthLessEqual => ("oDepthLE", false),
        R::CycleCounter => ("vCycleCounter", false),
        R::OutputStencilRef => ("oStencilRef", false),
        R::InnerCoverage => ("vInnerCoverage", false),
    }
}

/// The register file a prefix names (literals, whose prefixes `l(` and `d(` are read apart, excluded). `CB` and
/// `ICB`, as older `fxc` versions write them in declarations, are accepted too.
pub(crate) fn register_from_name(name: &str) -> Option<RegisterType> {
    use RegisterType as R;
    match name {
        "CB" => return Some(R::ConstantBuffer),
        "ICB" => return Some(R::ImmediateConstantBuffer),
        _ => {}
    }
    (0..=42u32)
        .filter_map(RegisterType::from_raw)
        .filter(|r| !matches!(r, R::Immediate32 | R::Immediate64))
        .find(|&r| register_name(r).0 == name)
}

/// A resource dimension's name as declarations and `_indexable(...)` print it.
pub(crate) fn dimension_name(dimension: ResourceDimension) -> &'static str {
    use ResourceDimension as D;
    match dimension {
        D::Unknown => "unknown",
        D::Buffer => "buffer",
        D::Texture1D => "texture1d",
        D::Texture2D => "texture2d",
        D::Texture2DMs => "texture2dms",
        D::Texture3D => "texture3d",
        D::TextureCube => "texturecube",
        D::Texture1DArray => "texture1darray",
        D::Texture2DArray => "texture2darray",
        D::Texture2DMsArray => "texture2dmsarray",
        D::TextureCubeArray => "texturecubearray",
        D::RawBuffer => "raw_buffer",
        D::StructuredBuffer => "structured_buffer",
    }
}

/// The dimension a name stands for.
pub(crate) fn dimension_from_name(name: &str) -> Option<ResourceDimension> {
    (0..=12)
        .filter_map(ResourceDimension::from_raw)
        .find(|&d| dimension_name(d) == name)
}

/// A return type's name (`float`, `<continued>`).
pub(crate) fn return_type_name(t: ReturnType) -> &'static str {
    match t {
        ReturnType::Unorm => "unorm",
        ReturnType::Snorm => "snorm",
        ReturnType::Sint => "sint",
        ReturnType::Uint => "uint",
        ReturnType::Float => "float",
        ReturnType::Mixed => "mixed",
        ReturnType::Double => "double",
        ReturnType::Continued => "<continued>",
        ReturnType::Unused => "<unused>",
    }
}

/// The return type a name stands for (`continued` and `unused` also without their angle brackets).
pub(crate) fn return_type_from_name(name: &str) -> Option<ReturnType> {
    let bare = name.trim_start_matches('<').trim_end_matches('>');
    (1..=9)
        .filter_map(ReturnType::from_raw)
        .find(|&t| return_type_name(t).trim_start_matches('<').trim_end_matches('>') == bare)
}

/// Four return types as `(float,float,float,float)`.
pub(crate) fn return_types_text(types: [ReturnType; 4]) -> String {
    let names: Vec<&str> = types.iter().map(|&t| return_type_name(t)).collect();
    format!("({})", names.join(","))
}

/// A sampler mode's name.
pub(crate) fn sampler_mode_name(mode: SamplerMode) -> &'static str {
    match mode {
        SamplerMode::Default => "mode_default",
        SamplerMode::Comparison => "mode_comparison",
        SamplerMode::Mono => "mode_mono",
    }
}

/// The sampler mode a name stands for.
pub(crate) fn sampler_mode_from_name(name: &str) -> Option<SamplerMode> {
    [SamplerMode::Default, SamplerMode::Comparison, SamplerMode::Mono]
        .into_iter()
        .find(|&m| sampler_mode_name(m) == name)
}

/// An interpolation mode's words (empty for undefined).
pub(crate) fn interpolation_words(mode: InterpolationMode) -> &'static str {
    use InterpolationMode as I;
    match mode {
        I::Undefined => "",
        I::Constant => "constant",
        I::Linear => "linear",
        I::LinearCentroid => "linear centroid",
        I::LinearNoPerspective => "linear noperspective",
        I::LinearNoPerspectiveCentroid => "linear noperspective centroid",
        I::LinearSample => "linear sample",
        I::LinearNoPerspectiveSample => "linear noperspective sample",
    }
}

/// The interpolation mode a run of words stands for.
pub(crate) fn interpolation_from_words(words: &[&str]) -> Option<InterpolationMode> {
    let joined = words.join(" ");
    (0..=7)
        .filter_map(InterpolationMode::from_raw)
        .find(|&m| interpolation_words(m) == joined)
}

/// Whether a word belongs to an interpolation mode.
pub(crate) fn is_interpolation_word(word: &str) -> bool {
    matches!(word, "constant" | "linear" | "centroid" | "noperspective" | "sample")
}

/// A system value's name in a declaration (`position`, `finalTriUeq0EdgeTessFactor`).
pub(crate) fn system_name(name: SystemName) -> &'static str {
    use SystemName as S;
    match name {
        S::Undefined => "undefined",
        S::Position => "position",
        S::ClipDistance => "clip_distance",
        S::CullDistance => "cull_distance",
        S::RenderTargetArrayIndex => "rendertarget_array_index",
        S::ViewportArrayIndex => "viewport_array_index",
        S::VertexId => "vertex_id",
        S::PrimitiveId => "primitive_id",
        S::InstanceId => "instance_id",
        S::IsFrontFace => "is_front_face",
        S::SampleIndex => "sampleIndex",
        S::FinalQuadUEq0EdgeTessFactor => "finalQuadUeq0EdgeTessFactor",
        S::FinalQuadVEq0EdgeTessFactor => "finalQuadVeq0EdgeTessFactor",
        S::FinalQuadUEq1EdgeTessFactor => "finalQuadUeq1EdgeTessFactor",
        S::FinalQuadVEq1EdgeTessFactor => "finalQuadVeq1EdgeTessFactor",
        S::FinalQuadUInsideTessFactor => "finalQuadUInsideTessFactor",
        S::FinalQuadVInsideTessFactor => "finalQuadVInsideTessFactor",
        S::FinalTriUEq0EdgeTessFactor => "finalTriUeq0EdgeTessFactor",
        S::FinalTriVEq0EdgeTessFactor => "finalTriVeq0EdgeTessFactor",
        S::FinalTriWEq0EdgeTessFactor => "finalTriWeq0EdgeTessFactor",
        S::FinalTriInsideTessFactor => "finalTriInsideTessFactor",
        S::FinalLineDetailTessFactor => "finalLineDetailTessFactor",
        S::FinalLineDensityTessFactor => "finalLineDensityTessFactor",
        S::Barycentrics => "barycentrics",
        S::ShadingRate => "shadingrate",
        S::CullPrimitive => "cullprimitive",
    }
}

/// The system value a declaration name stands for.
pub(crate) fn system_from_name(name: &str) -> Option<SystemName> {
    (0..=25)
        .filter_map(SystemName::from_raw)
        .find(|&s| system_name(s) == name)
}

/// A geometry shader output topology's name.
pub(crate) fn topology_name(t: PrimitiveTopology) -> &'static str {
    use PrimitiveTopology as T;
    match t {
        T::Undefined => "undefined",
        T::PointList => "pointlist",
        T::LineList => "linelist",
        T::LineStrip => "linestrip",
        T::TriangleList => "trianglelist",
        T::TriangleStrip => "trianglestrip",
        T::LineListAdj => "linelistadj",
        T::LineStripAdj => "linestripadj",
        T::TriangleListAdj => "trianglelistadj",
        T::TriangleStripAdj => "trianglestripadj",
    }
}

/// The output topology a name stands for.
pub(crate) fn topology_from_name(name: &str) -> Option<PrimitiveTopology> {
    (0..=13)
        .filter_map(PrimitiveTopology::from_raw)
        .find(|&t| topology_name(t) == name)
}

/// A geometry shader input primitive's name (`triangle`, `patch3`).
pub(crate) fn primitive_name(p: Primitive) -> String {
    match p {
        Primitive::Undefined => "undefined".into(),
        Primitive::Point => "point".into(),
        Primitive::Line => "line".into(),
        Primitive::Triangle => "triangle".into(),
        Primitive::LineAdj => "lineadj".into(),
        Primitive::TriangleAdj => "triangleadj".into(),
        // Patch1 = 8 .. Patch32 = 39.
        other => format!("patch{}", other.raw().saturating_sub(7)),
    }
}

/// The input primitive a name stands for.
pub(crate) fn primitive_from_name(name: &str) -> Option<Primitive> {
    (0..=39)
        .filter_map(Primitive::from_raw)
        .find(|&p| primitive_name(p) == name)
}

/// A tessellator domain's name.
pub(crate) fn domain_name(d: TessDomain) -> &'static str {
    match d {
        TessDomain::Undefined => "domain_undefined",
        TessDomain::Isoline => "domain_isoline",
        TessDomain::Tri => "domain_tri",
        TessDomain::Quad => "domain_quad",
    }
}

/// The tessellator domain a name stands for.
pub(crate) fn domain_from_name(name: &str) -> Option<TessDomain> {
    (0..=3)
        .filter_map(TessDomain::from_raw)
        .find(|&d| domain_name(d) == name)
}

/// A tessellator partitioning's name.
pub(crate) fn partitioning_name(p: TessPartitioning) -> &'static str {
    match p {
        TessPartitioning::Undefined => "partitioning_undefined",
        TessPartitioning::Integer => "partitioning_integer",
        TessPartitioning::Pow2 => "partitioning_pow2",
        TessPartitioning::FractionalOdd => "partitioning_fractional_odd",
        TessPartitioning::FractionalEven => "partitioning_fractional_even",
    }
}

/// The tessellator partitioning a name stands for.
pub(crate) fn partitioning_from_name(name: &str) -> Option<TessPartitioning> {
    (0..=4)
        .filter_map(TessPartitioning::from_raw)
        .find(|&p| partitioning_name(p) == name)
}

/// A tessellator output primitive's name.
pub(crate) fn output_primitive_name(p: TessOutputPrimitive) -> &'static str {
    match p {
        TessOutputPrimitive::Undefined => "output_undefined",
        TessOutputPrimitive::Point => "output_point",
        TessOutputPrimitive::Line => "output_line",
        TessOutputPrimitive::TriangleCw => "output_triangle_cw",
        TessOutputPrimitive::TriangleCcw => "output_triangle_ccw",
    }
}

/// The tessellator output primitive a name stands for.
pub(crate) fn output_primitive_from_name(name: &str) -> Option<TessOutputPrimitive> {
    (0..=4)
        .filter_map(TessOutputPrimitive::from_raw)
        .find(|&p| output_primitive_name(p) == name)
}

/// The global flags' names, by bit (`D3D10_SB_GLOBAL_FLAG_*` values in place).
pub(crate) const GLOBAL_FLAG_NAMES: [(u32, &str); 9] = [
    (1 << 11, "refactoringAllowed"),
    (1 << 12, "enableDoublePrecisionFloatOps"),
    (1 << 13, "forceEarlyDepthStencil"),
    (1 << 14, "enableRawAndStructuredBuffers"),
    (1 << 15, "skipOptimization"),
    (1 << 16, "enableMinimumPrecision"),
    (1 << 17, "enable11_1DoubleExtensions"),
    (1 << 18, "enable11_1ShaderExtensions"),
    (1 << 19, "allResourcesBound"),
];

/// An operand's minimum precision annotation word (`min16f`), or `None` for the default.
pub(crate) fn precision_word(p: MinPrecision) -> Option<&'static str> {
    match p {
        MinPrecision::Default => None,
        MinPrecision::Float16 => Some("min16f"),
        MinPrecision::Float2_8 => Some("min2_8f"),
        MinPrecision::Sint16 => Some("min16i"),
        MinPrecision::Uint16 => Some("min16u"),
    }
}

/// The minimum precision an annotation word names.
pub(crate) fn precision_from_word(word: &str) -> Option<MinPrecision> {
    [
        MinPrecision::Float16,
        MinPrecision::Float2_8,
        MinPrecision::Sint16,
        MinPrecision::Uint16,
    ]
    .into_iter()
    .find(|&p| precision_word(p) == Some(word))
}

/// The mnemonic of an instruction opcode without its controls (`ldms`, `sampleinfo`, `fcall`); declarations and
/// custom data are spelled by the disassembler itself. The feedback opcodes of tiled resources take the `_s` names.
pub(crate) fn mnemonic(opcode: Opcode) -> &'static str {
    use Opcode as O;
    match opcode {
        O::LdMs => "ldms",
        O::SampleInfo => "sampleinfo",
        O::SamplePos => "samplepos",
        O::Emitthencut => "emit_then_cut",
        O::EmitthencutStream => "emit_then_cut_stream",
        O::InterfaceCall => "fcall",
        O::Gather4Feedback => "gather4_s",
        O::Gather4CFeedback => "gather4_c_s",
        O::Gather4PoFeedback => "gather4_po_s",
        O::Gather4PoCFeedback => "gather4_po_c_s",
        O::LdFeedback => "ld_s",
        O::LdMsFeedback => "ldms_s",
        O::LdUavTypedFeedback => "ld_uav_typed_s",
        O::LdRawFeedback => "ld_raw_s",
        O::LdStructuredFeedback => "ld_structured_s",
        O::SampleLFeedback => "sample_l_s",
        O::SampleCLzFeedback => "sample_c_lz_s",
        O::SampleClampFeedback => "sample_cl_s",
        O::SampleBClampFeedback => "sample_b_cl_s",
        O::SampleDClampFeedback => "sample_d_cl_s",
        O::SampleCClampFeedback => "sample_c_cl_s",
        O::DclResource => "dcl_resource",
        O::DclConstantBuffer => "dcl_constantbuffer",
        O::DclSampler => "dcl_sampler",
        O::DclIndexRange => "dcl_indexrange",
        O::DclGsOutputPrimitiveTopology => "dcl_outputtopology",
        O::DclGsInputPrimitive => "dcl_inputprimitive",
        O::DclMaxOutputVertexCount => "dcl_maxout",
        O::DclIndexableTemp => "dcl_indexableTemp",
        O::DclGlobalFlags => "dcl_globalFlags",
        O::DclTessDomain => "dcl_tessellator_domain",
        O::DclTessPartitioning => "dcl_tessellator_partitioning",
        O::DclTessOutputPrimitive => "dcl_tessellator_output_primitive",
        O::DclUnorderedAccessViewTyped => "dcl_uav_typed",
        O::DclUnorderedAccessViewRaw => "dcl_uav_raw",
        O::DclUnorderedAccessViewStructured => "dcl_uav_structured",
        O::DclThreadGroupSharedMemoryRaw => "dcl_tgsm_raw",
        O::DclThreadGroupSharedMemoryStructured => "dcl_tgsm_structured",
        O::DclGsInstanceCount => "dcl_gsinstances",
        O::CustomData => "customdata",
        other => other.name(),
    }
}

/// The opcode whose mnemonic is `name` (declarations included: `dcl_resource`, `dcl_uav_typed`, ...).
pub(crate) fn opcode_from_mnemonic(name: &str) -> Option<Opcode> {
    Opcode::ALL.iter().copied().find(|&o| mnemonic(o) == name)
}

/// How many of an instruction's operands are destinations (written), the rest being sources.
pub(crate) fn destination_count(opcode: Opcode) -> usize {
    use Opcode as O;
    match opcode {
        o if o.is_flow_control() || o.is_geometry_emit() || o.is_hull_phase() => 0,
        O::InterfaceCall | O::Sync | O::Abort | O::DebugBreak => 0,
        O::Sincos | O::Udiv | O::Umul | O::Imul | O::Uaddc | O::Usubb | O::Swapc => 2,
        o if o.is_immediate_atomic() || o.is_feedback() => 2,
        _ => 1,
    }
}

/// How an instruction's 32-bit literals are best read, which decides only how they print (every printed form parses
/// back to the same bits, whatever the instruction).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LiteralKind {
    /// Floats (`1.000000`).
    Float,
    /// Signed integers (`-1`).
    Int,
    /// Unsigned integers (`4294967295`).
    Uint,
    /// Bit patterns (`0x0000ffff`), for the bitwise operations.
    Bits,
    /// No type: floats when the bits look like one, integers otherwise (`mov`, `movc`, the ICB).
    Untyped,
}

/// The literal kind of an opcode's sources.
pub(crate) fn literal_kind(opcode: Opcode) -> LiteralKind {
    use Opcode as O;
    match opcode {
        O::Add
        | O::Div
        | O::Dp2
        | O::Dp3
        | O::Dp4
        | O::Eq
        | O::Exp
        | O::Frc
        | O::Ftoi
        | O::Ftou
        | O::Ge
        | O::Log
        | O::Lt
        | O::Mad
        | O::Min
        | O::Max
        | O::Mul
        | O::Ne
        | O::RoundNe
        | O::RoundNi
        | O::RoundPi
        | O::RoundZ
        | O::Rsq
        | O::Rcp
        | O::Sqrt
        | O::Sincos
        | O::F32tof16
        | O::Ftod
        | O::Lod
        | O::Gather4
        | O::Gather4C => LiteralKind::Float,
        o if o.is_derivative() || o.is_sample() => LiteralKind::Float,
        O::Iadd
        | O::Ieq
        | O::Ige
        | O::Ilt
        | O::Imad
        | O::Imax
        | O::Imin
        | O::Imul
        | O::Ine
        | O::Ineg
        | O::Ishl
        | O::Ishr
        | O::Itof
        | O::Itod
        | O::Ibfe
        | O::FirstbitShi
        | O::Switch
        | O::Case
        | O::Ld
        | O::LdMs
        | O::Gather4Po
        | O::Gather4PoC
        | O::EvalSampleIndex
        | O::EvalSnapped => LiteralKind::Int,
        O::Udiv
        | O::Ult
        | O::Uge
        | O::Umul
        | O::Umad
        | O::Umax
        | O::Umin
        | O::Ushr
        | O::Utof
        | O::Utod
        | O::Uaddc
        | O::Usubb
        | O::Countbits
        | O::FirstbitHi
        | O::FirstbitLo
        | O::Ubfe
        | O::Bfi
        | O::Bfrev
        | O::F16tof32
        | O::Msad
        | O::Resinfo
        | O::Bufinfo
        | O::SampleInfo
        | O::SamplePos
        | O::LdRaw
        | O::LdStructured => LiteralKind::Uint,
        o if o.is_uav_operation() => LiteralKind::Uint,
        O::And | O::Or | O::Xor | O::Not => LiteralKind::Bits,
        _ => LiteralKind::Untyped,
    }
}

/// A 32-bit float's text that parses back to the same bits: `fxc`'s six decimals when they do (`1.000000`), else
/// the shortest round-trip form (`0.33333334`, `1e-7`), and the hex bits for infinities, NaNs and denormals (whose
/// payload or exact value decimals would hide).
pub(crate) fn float_text(bits: u32) -> String {
    let value = f32::from_bits(bits);
    if !value.is_finite() || value.is_subnormal() {
        return format!("0x{bits:08x}");
    }
    let six = format!("{value:.6}");
    if six.parse::<f32>().is_ok_and(|v| v.to_bits() == bits) {
        return six;
    }
    format!("{value:?}")
}

/// A 64-bit float's text that parses back to the same bits (as [`float_text`], hex with 16 digits where needed).
pub(crate) fn double_text(bits: u64) -> String {
    let value = f64::from_bits(bits);
    if !value.is_finite() || value.is_subnormal() {
        return format!("0x{bits:016x}");
    }
    let six = format!("{value:.6}");
    if six.parse::<f64>().is_ok_and(|v| v.to_bits() == bits) {
        return six;
    }
    format!("{value:?}")
}

/// A 32-bit literal's text for an instruction whose literals are of `kind`.
pub(crate) fn literal_text(bits: u32, kind: LiteralKind) -> String {
    match kind {
        LiteralKind::Float => float_text(bits),
        LiteralKind::Int => (bits as i32).to_string(),
        LiteralKind::Uint => bits.to_string(),
        LiteralKind::Bits => format!("0x{bits:08x}"),
        LiteralKind::Untyped => {
            let signed = bits as i32;
            let value = f32::from_bits(bits);
            if (-0x10000..=0x10000).contains(&signed) {
                signed.to_string()
            } else if value.is_normal() {
                float_text(bits)
            } else {
                format!("0x{bits:08x}")
            }
        }
    }
}

/// Parses a 32-bit literal: `0x` hex bits, a float (it has a `.`, an exponent, or is `inf`/`nan`), or a decimal
/// integer from -2^31 to 2^32-1. `None` when it is none of these.
pub(crate) fn parse_literal32(text: &str) -> Option<u32> {
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        return u32::from_str_radix(hex, 16).ok();
    }
    if let Some(hex) = text.strip_prefix("-0x") {
        return u32::from_str_radix(hex, 16).ok().map(u32::wrapping_neg);
    }
    if is_float_text(text) {
        return text.parse::<f32>().ok().map(f32::to_bits);
    }
    parse_integer32(text)
}

/// Parses a decimal integer from -2^31 to 2^32-1 as its 32 bits.
pub(crate) fn parse_integer32(text: &str) -> Option<u32> {
    if !text.trim_start_matches(['-', '+']).bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    match text.parse::<i64>().ok()? {
        v @ 0..=0xffff_ffff => u32::try_from(v).ok(),
        v @ -0x8000_0000..=-1 => i32::try_from(v).ok().map(|i| i as u32),
        _ => None,
    }
}

/// Whether a literal's text is written as a float.
fn is_float_text(text: &str) -> bool {
    let bare = text.trim_start_matches(['-', '+']);
    bare.contains('.') || bare.contains('e') || bare.contains('E') || bare == "inf" || bare == "nan"
}

/// Parses a 64-bit literal: `0x` hex bits, a float (an `fxc`-style trailing `l` allowed), or a decimal integer.
pub(crate) fn parse_literal64(text: &str) -> Option<u64> {
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        return u64::from_str_radix(hex, 16).ok();
    }
    let text = text.strip_suffix('l').unwrap_or(text);
    if is_float_text(text) {
        return text.parse::<f64>().ok().map(f64::to_bits);
    }
    if !text.trim_start_matches(['-', '+']).bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse::<u64>()
        .ok()
        .or_else(|| text.parse::<i64>().ok().map(|v| v as u64))
}

/// Parses an unsigned decimal or `0x` hex number.
pub(crate) fn parse_u32(text: &str) -> Option<u32> {
    match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u32::from_str_radix(hex, 16).ok(),
        None if text.bytes().all(|b| b.is_ascii_digit()) => text.parse().ok(),
        None => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_float_prints_back_to_its_bits() {
        // Six decimals where they are exact enough, the shortest round trip otherwise, hex for the special values.
        for bits in [
            0x3f80_0000u32, // 1.0
            0x3eaa_aaab,    // 1/3: 0.333333 is not it
            0x8000_0000,    // -0.0
            0x0000_0001,    // the smallest denormal
            0x7f80_0000,    // +inf
            0x7fc0_0001,    // a NaN with a payload
            0x7f7f_ffff,    // the largest float
            0x0080_0000,    // the smallest normal
            0x3380_0000,    // 2^-24
        ] {
            let text = float_text(bits);
            assert_eq!(parse_literal32(&text), Some(bits), "{bits:#x} printed as {text}");
        }
        assert_eq!(float_text(0x3f80_0000), "1.000000");
        assert_eq!(float_text(0x7fc0_0000), "0x7fc00000");
    }

    #[test]
    fn integers_parse_over_the_signed_and_unsigned_ranges() {
        assert_eq!(parse_literal32("-1"), Some(0xffff_ffff));
        assert_eq!(parse_literal32("4294967295"), Some(0xffff_ffff));
        assert_eq!(parse_literal32("4294967296"), None);
        assert_eq!(parse_literal32("-2147483649"), None);
        assert_eq!(parse_literal32("0x0000ffff"), Some(0xffff));
        assert_eq!(parse_literal32("1e-7"), Some(1e-7f32.to_bits()));
    }

    #[test]
    fn every_name_table_reads_back() {
        for raw in 0..=42 {
            if let Some(r) = RegisterType::from_raw(raw)
                && !matches!(r, RegisterType::Immediate32 | RegisterType::Immediate64)
            {
                assert_eq!(register_from_name(register_name(r).0), Some(r));
            }
        }
        for &op in &Opcode::ALL {
            assert_eq!(opcode_from_mnemonic(mnemonic(op)), Some(op), "{op:?}");
        }
        for raw in 0..=39 {
            if let Some(p) = Primitive::from_raw(raw) {
                assert_eq!(primitive_from_name(&primitive_name(p)), Some(p));
            }
        }
    }
}

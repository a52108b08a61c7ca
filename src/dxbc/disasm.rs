//! The disassembler: a shader as the text listing graphics programmers know from Microsoft's `fxc` (`D3DDisassemble`),
//! which [`super::asm`] reads back into the very same tokens.
//!
//! # The listing
//!
//! A comment header comes first: the constant buffers and resource bindings from `RDEF` when the blob has one (for
//! people; the assembler does not read them), then the input, output and patch-constant signature tables as `fxc`
//! lays them out (the assembler reads these), then a `// chunk SHEX` (or `SHDR`) line naming the program chunk. The
//! program follows: the version line (`ps_5_0`), then one line per instruction, indented two spaces per open
//! `if`/`loop`/`switch`, and a closing `// Approximately N instruction slots used` when the blob has statistics.
//!
//! Instructions use `fxc`'s spellings: `dcl_globalFlags refactoringAllowed`, `dcl_constantbuffer CB0[4],
//! immediateIndexed`, `dcl_resource_texture2d (float,float,float,float) t0`, `dcl_input_ps linear v1.xy`,
//! `sample_indexable(texture2d)(float,float,float,float) r0.xyzw, v1.xyxx, t0.xyzw, s0`, `mov_sat`, `if_nz r0.x`,
//! `ld_structured_indexable(structured_buffer, stride=16)(mixed,mixed,mixed,mixed)`, `resinfo_indexable(texture2d)
//! (float,float,float,float)_uint`, `sample_l_aoffimmi_indexable(-1,0,0)(texture2d)(...)`, `sync_uglobal_g_t`,
//! `dcl_uav_structured_opc u0, 16`, `dcl_interface fp0[1][2] = {ft0, ft1}`, `fcall fp0[0][1]`, `-|r0.x|`,
//! `x0[r1.x + 2].xyzw`, `r0.xy {min16f}`, `mul [precise(x)] r0.x, ...`. Where the opcode name alone does not say it:
//! `ldms`, `sampleinfo`, `samplepos`, `emit_then_cut`, `dcl_gsinstances`, `dcl_maxout`, and the tiled-resource
//! feedback opcodes take the `_s` names (`sample_l_s`, `ld_raw_s`).
//!
//! Literals print so that they parse back to the same bits: floats with `fxc`'s six decimals when those are exact
//! enough, else in their shortest round-trip form (`0.33333334`, `1e-7`), and as hex bits (`0x7fc00000`) when they are
//! infinite, NaN or denormal; integer instructions print signed or unsigned decimals, bitwise ones hex, untyped ones
//! (`mov`, `movc`, the immediate constant buffer) integers for small values and floats otherwise. 64-bit literals
//! print as `d(1.000000, 2.000000)`.
//!
//! Where `fxc` has no spelling the names are ours: `customdata comment { 0x00000001, ... }` for custom-data blocks
//! other than the immediate constant buffer (classes `comment`, `debuginfo`, `opaque`, `shader_message`,
//! `clip_plane_constant_mappings_for_dx9`, or a number), `fi#`/`fo#` for the function input/output registers,
//! `_rov` for rasterizer-ordered UAVs, mode names `undefined` where the header numbers one, `patchN` input
//! primitives. `sync`'s group-scope UAV flag prints `_ugroup` (`fxc` shows it as `_sat_ugroup`, which the assembler
//! also reads).
//!
//! # Annotations
//!
//! The token stream can hold things `fxc`'s syntax cannot say. So that the round trip stays exact, the listing says
//! them explicitly, in braces, only where they occur (an instruction a compiler wrote the ordinary way carries none):
//!
//! After the mnemonic, for the instruction (`endif {controls=0x40000}`):
//! - `controls=0xN` — opcode token bits in `[23:11]` that no field of the instruction reads (vkd3d sets bit 18 on
//!   `endif`, for example), in place.
//! - `ext=0xA,0xB` — the extended opcode tokens exactly, in order, as DWORDs without their bit 31, when they are not
//!   the ordinary sequence (at most one each of sample offsets, resource dimension and return types, in that order,
//!   with no ignored bits set). The mnemonic's `_aoffimmi(...)`/`_indexable(...)`/return types still print the first of
//!   each kind for reading, but the annotation is what is assembled.
//! - `lengthdword=N` — `dcl_function_body`, `dcl_function_table`, `dcl_interface` and `fcall` written in the form whose
//!   bit 31 announces a separate length DWORD; N is the 7-bit length field written beside it.
//! - `reserved=0xN` — the reserved bits `[31:16]` of a declaration's name or return type token, in place.
//! - `trailing=0xA,0xB` — DWORDs a declaration holds past its fields (a Shader Model 5.1 register space, say).
//! - `function=N` — `fcall`'s function index, when the interface operand cannot carry it as a last `[N]`.
//!
//! On the version line: `ps_5_0 {reserved=0xN}` — version token bits `[15:8]`.
//!
//! After an operand, inside its `|...|` (`r0.xy {mask}`, `-|cb0[1].xyzw {min16f ext=mod:0x0,empty:0x0}|`):
//! - `mask`, `swizzle`, `select1` — the component selection mode, when it is not the one the operand's place implies
//!   (destinations and declarations: a mask; sources: one letter selects, four letters swizzle). `mask` with no
//!   letters is the empty mask.
//! - `comps=0`, `comps=1`, `comps=n` — a component count other than the register's usual one (`r0` with no
//!   components, `vPrim` with four, the reserved N-component form).
//! - `ignored=0xN` — operand token bits the header marks ignored for the operand's form that were set, in place.
//! - `ext=K:0xN,...` — the extended operand tokens exactly, in order (`mod` for a modifier token, `empty` for an
//!   empty one, each with its ignored bits), when they are not just the one modifier token a modifier, precision or
//!   `nonuniform` needs.
//! - `min16f`, `min2_8f`, `min16i`, `min16u` (`fxc`'s; on literals `def32 as min16f`), `nonuniform` — the operand's
//!   minimum precision and non-uniform flag.
//!
//! Inside an index: `[5i64]`, `[r0.x + 5i64]` — a 64-bit immediate index (written high DWORD first).
//!
//! In a signature table row, after the columns: `stream=N` (the geometry shader stream), `minprec=N` (minimum
//! precision), `sysvalue=N` (the stored system value, when it is not the one the SysValue column implies: the
//! column shows what D3D11 reflection reports, so `TARGET` on an `SV_Target` row stands for the stored 0 compilers
//! write), `mask=0xN` (a mask byte with bits above the four components), `rw=0xN` (the stored read/write byte, when
//! the Used column cannot say it: the column shows the components read for inputs and, as `fxc` does, the
//! components written for outputs and patch constants, whose stored byte is the mask's components never written). A
//! table heading names its chunk when it is not the plain kind: `// Input signature (ISG1):`.
//!
//! The signature tables print `fxc`'s columns, except that registers outside any register file (`oDepth`, `oMask`)
//! show their mask letters where `fxc` shows `N/A`, and the Used column always shows letters where `fxc` shows
//! `YES`/`NO` for those. Semantic names that are not printable ASCII without spaces print quoted, with `\"`, `\\` and
//! `\u{N}` escapes.

use std::fmt::Write as _;

use super::program::{
    self, Components, CustomData, Declaration, ExtendedOpcode, ExtendedOpcodeKind, ExtendedOperandKind, Immediate,
    Index, Instruction, InstructionReturnType, Modifier, Opcode, Operand, Program, RegisterType, ResinfoReturnType,
    ResourceDimension, Selection, SyncFlags,
};
use super::reflection::{
    CbufferType, ConstantBuffer, InputFlags, InputType, Reflection, ReturnType as RdefReturnType, ShaderType,
    SrvDimension, VariableClass, VariableFlags, VariableType,
};
use super::shader::Shader;
use super::signature::{ComponentType, Signature, SignatureElement, SignatureKind, SystemValue};
use super::syntax::{
    self, Context, FormOverride, LiteralKind, derive_components, dimension_name, double_text, float_text,
    interpolation_words, literal_text, mnemonic, precision_word, register_name, return_types_text,
};
use crate::text::mask_letters;

/// The listing of a whole shader: comment header, program, statistics line.
pub fn disassemble(shader: &Shader) -> String {
    let mut out = String::new();
    out.push_str("//\n// Generated by Iridia ");
    out.push_str(env!("CARGO_PKG_VERSION"));
    out.push_str("\n//\n");
    if let Some(reflection) = &shader.reflection {
        write_reflection(reflection, &mut out);
    }
    for (signature, heading) in [
        (&shader.input_signature, "Input"),
        (&shader.output_signature, "Output"),
        (&shader.patch_constant_signature, "Patch Constant"),
    ] {
        if let Some(signature) = signature {
            write_signature(signature, heading, &mut out);
        }
    }
    let _ = writeln!(out, "//\n// chunk {}", shader.program_chunk);
    out.push_str(&disassemble_program(&shader.program));
    if let Some(stats) = &shader.statistics {
        let _ = writeln!(
            out,
            "// Approximately {} instruction slots used",
            stats.instruction_count
        );
    }
    out
}

/// The listing of a program alone: its version line and instructions.
pub fn disassemble_program(program: &Program) -> String {
    let mut out = String::new();
    out.push_str(&version_text(program));
    out.push('\n');
    for line in listing_lines(program) {
        for text in line.text.lines() {
            for _ in 0..line.indent {
                out.push_str("  ");
            }
            out.push_str(text);
            out.push('\n');
        }
    }
    out
}

/// One instruction of a program's listing, kept apart so that a viewer can put values beside it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListingLine {
    /// Its place in the program's instruction list, from 0 (declarations included): the index traces use.
    pub index: usize,
    /// Its opcode token's offset, in DWORDs from the program's version token.
    pub offset: u32,
    /// How many `if`/`loop`/`switch` blocks enclose it (the listing indents two spaces for each).
    pub indent: usize,
    /// Its text as [`disassemble_program`] prints it, without the indentation (a custom-data block spans lines).
    pub text: String,
    /// Whether it is a declaration (or custom data) rather than an executed instruction.
    pub declaration: bool,
}

/// Each instruction of `program` as [`disassemble_program`] lists it, in order (the version line aside).
pub fn listing_lines(program: &Program) -> Vec<ListingLine> {
    let mut lines = Vec::with_capacity(program.instructions.len());
    let mut depth: usize = 0;
    for (index, instruction) in program.instructions.iter().enumerate() {
        let (before, after) = match instruction.opcode {
            Opcode::If | Opcode::Loop | Opcode::Switch => (0, 1),
            Opcode::Else => (-1, 1),
            Opcode::Endif | Opcode::Endloop | Opcode::Endswitch => (-1, 0),
            opcode if opcode.is_hull_phase() => {
                depth = 0;
                (0, 0)
            }
            _ => (0, 0),
        };
        if before < 0 {
            depth = depth.saturating_sub(1);
        }
        lines.push(ListingLine {
            index,
            offset: instruction.offset,
            indent: depth,
            text: instruction_text(instruction),
            declaration: instruction.declaration.is_some(),
        });
        if after > 0 {
            depth = depth.saturating_add(1);
        }
    }
    lines
}

/// The operands of an instruction (not a declaration) as the listing spells them: its destinations, then its
/// sources, each with the kind of value it holds (float, signed, unsigned, bits) as the opcode reads it.
pub fn operand_texts(instruction: &Instruction) -> (Vec<String>, Vec<String>) {
    let destinations = syntax::destination_count(instruction.opcode);
    let kind = syntax::literal_kind(instruction.opcode);
    let mut written = Vec::new();
    let mut read = Vec::new();
    for (i, operand) in instruction.operands.iter().enumerate() {
        if i < destinations {
            written.push(operand_text(operand, Context::Dest, kind));
        } else {
            read.push(operand_text(operand, Context::Source, kind));
        }
    }
    (written, read)
}

/// How an instruction's values read as numbers, for showing them: the type its opcode works in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// 32-bit floats.
    Float,
    /// Signed integers.
    Int,
    /// Unsigned integers.
    Uint,
    /// Bit patterns (bitwise operations), best shown in hex.
    Bits,
    /// Untyped moves: floats when the bits look like one, integers otherwise.
    Untyped,
}

/// The kind of value `opcode` computes with (the kind the listing prints its literals in).
pub fn value_kind(opcode: Opcode) -> ValueKind {
    match syntax::literal_kind(opcode) {
        LiteralKind::Float => ValueKind::Float,
        LiteralKind::Int => ValueKind::Int,
        LiteralKind::Uint => ValueKind::Uint,
        LiteralKind::Bits => ValueKind::Bits,
        LiteralKind::Untyped => ValueKind::Untyped,
    }
}

/// The version line: `ps_5_0`, with the version token's unread bits as an annotation.
fn version_text(program: &Program) -> String {
    let mut text = format!(
        "{}_{}_{}",
        syntax::program_prefix(program.kind),
        program.major,
        program.minor
    );
    if program.version_reserved_bits != 0 {
        let _ = write!(text, " {{reserved={:#x}}}", program.version_reserved_bits);
    }
    text
}

/// Instruction-level annotations, in the order the module documentation lists them.
#[derive(Default)]
struct Annotations(Vec<String>);

impl Annotations {
    fn push(&mut self, item: String) {
        self.0.push(item);
    }

    /// ` {a b}`, or nothing when there are none.
    fn text(&self) -> String {
        if self.0.is_empty() {
            String::new()
        } else {
            format!(" {{{}}}", self.0.join(" "))
        }
    }
}

/// A list of DWORDs as `0xA,0xB`.
fn hex_list(words: &[u32]) -> String {
    words.iter().map(|w| format!("{w:#x}")).collect::<Vec<_>>().join(",")
}

/// One instruction's text (several lines for an immediate constant buffer), without indentation.
pub(crate) fn instruction_text(instruction: &Instruction) -> String {
    let mut annotations = Annotations::default();
    if instruction.raw.control_bits != 0 {
        annotations.push(format!("controls={:#x}", instruction.raw.control_bits));
    }
    // a declaration's text spells no extended opcode token, so any it carries goes in the annotation
    let spelled = instruction.declaration.is_none() && extended_is_ordinary(&instruction.extended);
    if !instruction.extended.is_empty() && !spelled {
        annotations.push(format!("ext={}", hex_list(&extended_tokens(&instruction.extended))));
    }
    if let Some(field) = instruction.raw.length_dword_field {
        annotations.push(format!("lengthdword={field}"));
    }
    if instruction.raw.reserved_bits != 0 {
        annotations.push(format!("reserved={:#x}", instruction.raw.reserved_bits));
    }
    if !instruction.raw.trailing.is_empty() {
        annotations.push(format!("trailing={}", hex_list(&instruction.raw.trailing)));
    }
    match &instruction.declaration {
        Some(declaration) => declaration_text(instruction.opcode, declaration, &mut annotations),
        None => operation_text(instruction, &mut annotations),
    }
}

/// Whether extended opcode tokens are the ordinary sequence the mnemonic spells: at most one of each kind, in the
/// order offsets, dimension, return types, with no ignored bits and no empty token.
fn extended_is_ordinary(extended: &[ExtendedOpcode]) -> bool {
    let rank = |e: &ExtendedOpcode| match e.kind {
        ExtendedOpcodeKind::Empty => None,
        ExtendedOpcodeKind::SampleControls { .. } => Some(0),
        ExtendedOpcodeKind::ResourceDimension { .. } => Some(1),
        ExtendedOpcodeKind::ResourceReturnType { .. } => Some(2),
    };
    let mut last = None;
    for e in extended {
        let Some(r) = rank(e) else {
            return false;
        };
        if e.ignored_bits != 0 || last.is_some_and(|l| l >= r) {
            return false;
        }
        last = Some(r);
    }
    true
}

/// The extended opcode tokens as written, without their chain bit, by encoding a `nop` that carries them.
fn extended_tokens(extended: &[ExtendedOpcode]) -> Vec<u32> {
    let mut nop = Instruction::new(Opcode::Nop);
    nop.extended = extended.to_vec();
    let probe = Program {
        kind: program::ProgramKind::Pixel,
        major: 5,
        minor: 0,
        version_reserved_bits: 0,
        instructions: vec![nop],
    };
    // The encoder accepts every list the decoder builds; an unencodable one (built by hand) shows as no tokens.
    program::encode(&probe)
        .map(|tokens| tokens.iter().skip(3).map(|t| t & 0x7fff_ffff).collect())
        .unwrap_or_default()
}

/// The text of an instruction that is not a declaration.
fn operation_text(instruction: &Instruction, annotations: &mut Annotations) -> String {
    let opcode = instruction.opcode;
    let mut name = mnemonic(opcode).to_string();
    if opcode.has_test_boolean() {
        name.push_str(if instruction.test_nonzero { "_nz" } else { "_z" });
    }
    if opcode == Opcode::Sync {
        name.push_str(&sync_suffix(instruction.sync_flags));
    }
    if instruction.saturate {
        name.push_str("_sat");
    }
    name.push_str(&extended_suffix(&instruction.extended));
    if opcode == Opcode::Resinfo {
        name.push_str(match instruction.resinfo_return {
            ResinfoReturnType::Float => "",
            ResinfoReturnType::RcpFloat => "_rcpFloat",
            ResinfoReturnType::Uint => "_uint",
        });
    }
    if opcode == Opcode::SampleInfo && instruction.sample_info_return == InstructionReturnType::Uint {
        name.push_str("_uint");
    }
    match instruction.precise_mask {
        0 => {}
        0xf => name.push_str(" [precise]"),
        mask => {
            let _ = write!(name, " [precise({})]", mask_letters(mask));
        }
    }

    let destinations = syntax::destination_count(opcode);
    let kind = syntax::literal_kind(opcode);
    let mut operands: Vec<String> = instruction
        .operands
        .iter()
        .enumerate()
        .map(|(i, operand)| {
            let context = if i < destinations {
                Context::Dest
            } else {
                Context::Source
            };
            operand_text(operand, context, kind)
        })
        .collect();
    if opcode == Opcode::InterfaceCall {
        // fxc appends the function index to the interface operand: `fcall fp0[0][1]`.
        match operands.last_mut() {
            Some(last) if instruction.operands.len() == 1 && last.ends_with(']') => {
                let _ = write!(last, "[{}]", instruction.function_index);
            }
            _ => annotations.push(format!("function={}", instruction.function_index)),
        }
    }
    let mut text = name;
    text.push_str(&annotations.text());
    if !operands.is_empty() {
        text.push(' ');
        text.push_str(&operands.join(", "));
    }
    text
}

/// `_uglobal_g_t` and so on.
fn sync_suffix(flags: SyncFlags) -> String {
    let mut text = String::new();
    for (bit, word) in [
        (SyncFlags::UAV_MEMORY_GLOBAL, "_uglobal"),
        (SyncFlags::UAV_MEMORY_GROUP, "_ugroup"),
        (SyncFlags::THREAD_GROUP_SHARED_MEMORY, "_g"),
        (SyncFlags::THREADS_IN_GROUP, "_t"),
    ] {
        if flags.contains(bit) {
            text.push_str(word);
        }
    }
    text
}

/// The mnemonic part the extended opcode tokens spell: `_aoffimmi_indexable(-1,0,0)(texture2d)(float,...)`, from the
/// first token of each kind.
fn extended_suffix(extended: &[ExtendedOpcode]) -> String {
    let mut offsets = None;
    let mut dimension = None;
    let mut types = None;
    for e in extended {
        match e.kind {
            ExtendedOpcodeKind::SampleControls { offsets: o } => {
                offsets.get_or_insert(o);
            }
            ExtendedOpcodeKind::ResourceDimension {
                dimension: d,
                structure_stride,
            } => {
                dimension.get_or_insert((d, structure_stride));
            }
            ExtendedOpcodeKind::ResourceReturnType { return_types } => {
                types.get_or_insert(return_types);
            }
            ExtendedOpcodeKind::Empty => {}
        }
    }
    let mut text = String::new();
    if offsets.is_some() {
        text.push_str("_aoffimmi");
    }
    if dimension.is_some() {
        text.push_str("_indexable");
    }
    if let Some([u, v, w]) = offsets {
        let _ = write!(text, "({u},{v},{w})");
    }
    if let Some((d, stride)) = dimension {
        if d == ResourceDimension::StructuredBuffer || stride != 0 {
            let _ = write!(text, "({}, stride={stride})", dimension_name(d));
        } else {
            let _ = write!(text, "({})", dimension_name(d));
        }
    }
    if let Some(t) = types {
        text.push_str(&return_types_text(t));
    }
    text
}

/// The components a literal with `count` values has when its text says nothing else: one for one value, and for
/// four the mask-mode form with an empty mask that compilers write.
pub(crate) fn literal_natural(count: usize) -> Components {
    if count == 1 {
        Components::One
    } else {
        Components::Four(Selection::Mask(0))
    }
}

/// The number of values a literal operand prints.
fn literal_count(operand: &Operand) -> usize {
    match operand.immediate {
        Some(Immediate::Scalar32(_) | Immediate::Scalar64(_)) | None => 1,
        Some(Immediate::Vector32(_)) => 4,
        Some(Immediate::Vector64(_)) => 2,
    }
}

/// The component letters an operand prints and the form annotation it needs, if any.
fn components_form(operand: &Operand, context: Context) -> (Option<Vec<u8>>, Option<FormOverride>) {
    let actual = operand.components;
    let is_literal = matches!(operand.register, RegisterType::Immediate32 | RegisterType::Immediate64);
    let natural = if is_literal {
        literal_natural(literal_count(operand))
    } else {
        syntax::natural_components(operand.register, context)
    };
    let letters: Option<Vec<u8>> = match actual {
        Components::Zero | Components::One | Components::N => None,
        _ if actual == natural => None,
        Components::Four(Selection::Mask(mask)) => {
            let letters: Vec<u8> = (0..4u8).filter(|c| mask & (1 << c) != 0).collect();
            (!letters.is_empty()).then_some(letters)
        }
        Components::Four(Selection::Swizzle(s)) => Some(s.to_vec()),
        Components::Four(Selection::Select1(c)) => Some(vec![c]),
    };
    let derived = if is_literal && letters.is_none() {
        Some(natural)
    } else {
        derive_components(operand.register, context, letters.as_deref(), None)
    };
    if derived == Some(actual) {
        return (letters, None);
    }
    let form = match actual {
        Components::Zero => FormOverride::Zero,
        Components::One => FormOverride::One,
        Components::N => FormOverride::N,
        Components::Four(Selection::Mask(_)) => FormOverride::Mask,
        Components::Four(Selection::Swizzle(_)) => FormOverride::Swizzle,
        Components::Four(Selection::Select1(_)) => FormOverride::Select1,
    };
    (letters, Some(form))
}

/// One operand's text, in `context`, its literals printed as `kind`.
pub(crate) fn operand_text(operand: &Operand, context: Context, kind: LiteralKind) -> String {
    let mut text = String::new();
    let (negate, absolute) = match operand.modifier {
        Modifier::None => (false, false),
        Modifier::Neg => (true, false),
        Modifier::Abs => (false, true),
        Modifier::AbsNeg => (true, true),
    };
    if negate {
        text.push('-');
    }
    if absolute {
        text.push('|');
    }
    let is_literal = match (operand.register, operand.immediate) {
        (RegisterType::Immediate32, Some(Immediate::Scalar32(v))) => {
            let _ = write!(text, "l({})", literal_text(v, kind));
            true
        }
        (RegisterType::Immediate32, Some(Immediate::Vector32(values))) => {
            let values: Vec<String> = values.iter().map(|&v| literal_text(v, kind)).collect();
            let _ = write!(text, "l({})", values.join(", "));
            true
        }
        (RegisterType::Immediate64, Some(Immediate::Scalar64(v))) => {
            let _ = write!(text, "d({})", double_text(v));
            true
        }
        (RegisterType::Immediate64, Some(Immediate::Vector64([a, b]))) => {
            let _ = write!(text, "d({}, {})", double_text(a), double_text(b));
            true
        }
        _ => false,
    };
    let (prefix, numbered) = register_name(operand.register);
    let mut indices = operand.indices.iter().peekable();
    if !is_literal {
        text.push_str(prefix);
        let bracket_all = operand.register == RegisterType::Input && operand.indices.len() > 1;
        if numbered
            && !bracket_all
            && let Some(Index::Immediate32(first)) = indices.peek()
        {
            let _ = write!(text, "{first}");
            indices.next();
        }
    }
    for index in indices {
        text.push('[');
        text.push_str(&index_text(index));
        text.push(']');
    }
    let (letters, form) = components_form(operand, context);
    if let Some(letters) = letters {
        text.push('.');
        text.extend(letters.into_iter().map(syntax::letter));
    }
    let mut notes: Vec<String> = Vec::new();
    if let Some(word) = precision_word(operand.min_precision) {
        notes.push(if is_literal {
            format!("def32 as {word}")
        } else {
            word.to_string()
        });
    }
    if operand.non_uniform {
        notes.push("nonuniform".into());
    }
    if let Some(form) = form {
        notes.push(form.word().into());
    }
    if operand.ignored_bits != 0 {
        notes.push(format!("ignored={:#x}", operand.ignored_bits));
    }
    let needs_modifier_token = operand.modifier != Modifier::None
        || operand.min_precision != program::MinPrecision::Default
        || operand.non_uniform;
    let ordinary_extended = match operand.extended.as_slice() {
        [] => !needs_modifier_token,
        [only] => needs_modifier_token && only.kind == ExtendedOperandKind::Modifier && only.ignored_bits == 0,
        _ => false,
    };
    if !ordinary_extended {
        let items: Vec<String> = operand
            .extended
            .iter()
            .map(|e| {
                let kind = match e.kind {
                    ExtendedOperandKind::Empty => "empty",
                    ExtendedOperandKind::Modifier => "mod",
                };
                format!("{kind}:{:#x}", e.ignored_bits)
            })
            .collect();
        notes.push(format!("ext={}", items.join(",")));
    }
    if !notes.is_empty() {
        let _ = write!(text, " {{{}}}", notes.join(" "));
    }
    if absolute {
        text.push('|');
    }
    text
}

/// An index's text (inside its brackets).
fn index_text(index: &Index) -> String {
    let relative = |operand: &Operand| operand_text(operand, Context::Source, LiteralKind::Int);
    match index {
        Index::Immediate32(v) => v.to_string(),
        Index::Immediate64(v) => format!("{v}i64"),
        Index::Relative(operand) => relative(operand),
        Index::Immediate32PlusRelative(v, operand) => format!("{} + {v}", relative(operand)),
        Index::Immediate64PlusRelative(v, operand) => format!("{} + {v}i64", relative(operand)),
    }
}

/// A declaration's register operand text.
fn decl_operand(operand: &Operand) -> String {
    operand_text(operand, Context::Decl, LiteralKind::Untyped)
}

/// A declaration's text (several lines for an immediate constant buffer).
fn declaration_text(opcode: Opcode, declaration: &Declaration, annotations: &mut Annotations) -> String {
    let name = mnemonic(opcode);
    let notes = annotations.text();
    let flag = |set: bool, word: &'static str| if set { word } else { "" };
    match declaration {
        Declaration::GlobalFlags(flags) => {
            let mut terms: Vec<String> = Vec::new();
            let mut rest = flags.0;
            for (bit, word) in syntax::GLOBAL_FLAG_NAMES {
                if rest & bit != 0 {
                    terms.push(word.into());
                    rest &= !bit;
                }
            }
            if rest != 0 {
                terms.push(format!("{rest:#x}"));
            }
            if terms.is_empty() {
                format!("{name}{notes}")
            } else {
                format!("{name}{notes} {}", terms.join(" | "))
            }
        }
        Declaration::Resource {
            register,
            dimension,
            sample_count,
            return_types,
        } => {
            let samples = if matches!(
                dimension,
                ResourceDimension::Texture2DMs | ResourceDimension::Texture2DMsArray
            ) || *sample_count != 0
            {
                format!("({sample_count})")
            } else {
                String::new()
            };
            format!(
                "{name}_{}{samples}{notes} {} {}",
                dimension_name(*dimension),
                return_types_text(*return_types),
                decl_operand(register)
            )
        }
        Declaration::ConstantBuffer {
            register,
            dynamic_indexed,
        } => {
            let mut operand = decl_operand(register);
            if let Some(rest) = operand.strip_prefix("cb") {
                operand = format!("CB{rest}");
            }
            let access = if *dynamic_indexed {
                "dynamicIndexed"
            } else {
                "immediateIndexed"
            };
            format!("{name}{notes} {operand}, {access}")
        }
        Declaration::Sampler { register, mode } => format!(
            "{name}{notes} {}, {}",
            decl_operand(register),
            syntax::sampler_mode_name(*mode)
        ),
        Declaration::IndexRange { register, count } => format!("{name}{notes} {} {count}", decl_operand(register)),
        Declaration::GsOutputTopology(t) => format!("{name}{notes} {}", syntax::topology_name(*t)),
        Declaration::GsInputPrimitive(p) => format!("{name}{notes} {}", syntax::primitive_name(*p)),
        Declaration::MaxOutputVertexCount(n) => format!("{name}{notes} {n}"),
        Declaration::Register {
            register,
            name: system,
            interpolation,
        } => {
            let mut text = format!("{name}{notes} ");
            if let Some(mode) = interpolation {
                let words = interpolation_words(*mode);
                if !words.is_empty() {
                    text.push_str(words);
                    text.push(' ');
                }
            }
            text.push_str(&decl_operand(register));
            if let Some(system) = system {
                text.push_str(", ");
                text.push_str(syntax::system_name(*system));
            }
            text
        }
        Declaration::Temps(n) => format!("{name}{notes} {n}"),
        Declaration::IndexableTemp {
            register,
            size,
            components,
        } => format!("{name}{notes} x{register}[{size}], {components}"),
        Declaration::Stream(register) => format!("{name}{notes} {}", decl_operand(register)),
        Declaration::FunctionBody(id) => format!("{name}{notes} fb{id}"),
        Declaration::FunctionTable { id, bodies } => {
            let list: Vec<String> = bodies.iter().map(|b| format!("fb{b}")).collect();
            format!("{name}{notes} ft{id} = {{{}}}", list.join(", "))
        }
        Declaration::Interface {
            id,
            dynamic_indexed,
            expected_table_length,
            array_length,
            tables,
        } => {
            let list: Vec<String> = tables.iter().map(|t| format!("ft{t}")).collect();
            format!(
                "{name}{}{notes} fp{id}[{array_length}][{expected_table_length}] = {{{}}}",
                flag(*dynamic_indexed, "_dynamicindexed"),
                list.join(", ")
            )
        }
        Declaration::InputControlPointCount(n) | Declaration::OutputControlPointCount(n) => {
            format!("{name}{notes} {n}")
        }
        Declaration::TessDomain(d) => format!("{name}{notes} {}", syntax::domain_name(*d)),
        Declaration::TessPartitioning(p) => format!("{name}{notes} {}", syntax::partitioning_name(*p)),
        Declaration::TessOutputPrimitive(p) => format!("{name}{notes} {}", syntax::output_primitive_name(*p)),
        Declaration::HsMaxTessFactor(f) => format!("{name}{notes} l({})", float_text(f.to_bits())),
        Declaration::HsForkPhaseInstanceCount(n)
        | Declaration::HsJoinPhaseInstanceCount(n)
        | Declaration::GsInstanceCount(n) => format!("{name}{notes} {n}"),
        Declaration::ThreadGroup([x, y, z]) => format!("{name}{notes} {x}, {y}, {z}"),
        Declaration::UavTyped {
            register,
            dimension,
            return_types,
            globally_coherent,
            rasterizer_ordered,
        } => format!(
            "{name}_{}{}{}{notes} {} {}",
            dimension_name(*dimension),
            flag(*globally_coherent, "_glc"),
            flag(*rasterizer_ordered, "_rov"),
            return_types_text(*return_types),
            decl_operand(register)
        ),
        Declaration::UavRaw {
            register,
            globally_coherent,
            rasterizer_ordered,
        } => format!(
            "{name}{}{}{notes} {}",
            flag(*globally_coherent, "_glc"),
            flag(*rasterizer_ordered, "_rov"),
            decl_operand(register)
        ),
        Declaration::UavStructured {
            register,
            stride,
            globally_coherent,
            rasterizer_ordered,
            has_counter,
        } => format!(
            "{name}{}{}{}{notes} {}, {stride}",
            flag(*globally_coherent, "_glc"),
            flag(*rasterizer_ordered, "_rov"),
            flag(*has_counter, "_opc"),
            decl_operand(register)
        ),
        Declaration::TgsmRaw { register, byte_count } => {
            format!("{name}{notes} {}, {byte_count}", decl_operand(register))
        }
        Declaration::TgsmStructured {
            register,
            stride,
            count,
        } => format!("{name}{notes} {}, {stride}, {count}", decl_operand(register)),
        Declaration::ResourceRaw(register) => format!("{name}{notes} {}", decl_operand(register)),
        Declaration::ResourceStructured { register, stride } => {
            format!("{name}{notes} {}, {stride}", decl_operand(register))
        }
        Declaration::CustomData(data) => custom_data_text(data),
    }
}

/// The name of a custom-data class other than the immediate constant buffer.
pub(crate) fn custom_data_class_name(class: u32) -> String {
    match class {
        CustomData::COMMENT => "comment".into(),
        CustomData::DEBUG_INFO => "debuginfo".into(),
        CustomData::OPAQUE => "opaque".into(),
        CustomData::SHADER_MESSAGE => "shader_message".into(),
        CustomData::CLIP_PLANE_CONSTANT_MAPPINGS_FOR_DX9 => "clip_plane_constant_mappings_for_dx9".into(),
        other => other.to_string(),
    }
}

/// A custom-data block: `dcl_immediateConstantBuffer { { 1.000000, 0, 0, 0}, ... }` as `fxc` lays it out, one
/// vector a line, or `customdata CLASS { 0x..., ... }`.
fn custom_data_text(data: &CustomData) -> String {
    match data {
        CustomData::ImmediateConstantBuffer(vectors) => {
            const OPEN: &str = "dcl_immediateConstantBuffer { ";
            if vectors.is_empty() {
                return format!("{OPEN}}}");
            }
            let rows: Vec<String> = vectors
                .iter()
                .map(|v| {
                    let values: Vec<String> = v.iter().map(|&x| literal_text(x, LiteralKind::Untyped)).collect();
                    format!("{{ {}}}", values.join(", "))
                })
                .collect();
            let separator = format!(",\n{}", " ".repeat(OPEN.len()));
            format!("{OPEN}{} }}", rows.join(&separator))
        }
        CustomData::Comment(words)
        | CustomData::DebugInfo(words)
        | CustomData::Opaque(words)
        | CustomData::ShaderMessage(words)
        | CustomData::ClipPlaneConstantMappingsForDx9(words)
        | CustomData::Other { data: words, .. } => {
            let values: Vec<String> = words.iter().map(|w| format!("0x{w:08x}")).collect();
            let body = if values.is_empty() {
                String::new()
            } else {
                format!("{} ", values.join(", "))
            };
            format!("customdata {} {{ {body}}}", custom_data_class_name(data.class()))
        }
    }
}

// ---- Signatures ----

/// The SysValue column's abbreviation of a `D3D_NAME`, as `fxc` prints it.
pub(crate) fn system_value_abbreviation(value: SystemValue) -> Option<&'static str> {
    Some(match value.0 {
        0 => "NONE",
        1 => "POS",
        2 => "CLIPDST",
        3 => "CULLDST",
        4 => "RTINDEX",
        5 => "VPINDEX",
        6 => "VERTID",
        7 => "PRIMID",
        8 => "INSTID",
        9 => "FFACE",
        10 => "SAMPLE",
        11 => "QUADEDGE",
        12 => "QUADINT",
        13 => "TRIEDGE",
        14 => "TRIINT",
        15 => "LINEDET",
        16 => "LINEDEN",
        64 => "TARGET",
        65 => "DEPTH",
        66 => "COVERAGE",
        67 => "DEPTHGE",
        68 => "DEPTHLE",
        69 => "STENCILREF",
        70 => "INNERCOV",
        _ => return None,
    })
}

/// The system value a row stores, given the one its SysValue column shows: the shown one, except that a
/// pixel-shader output value shown on the element of that name stands for the 0 compilers store.
pub(crate) fn stored_system_value(shown: SystemValue, semantic_name: &str) -> SystemValue {
    let probe = SignatureElement {
        semantic_name: semantic_name.to_string(),
        semantic_index: 0,
        system_value: SystemValue::UNDEFINED,
        component_type: ComponentType::UNKNOWN,
        register: 0,
        mask: 0,
        rw_mask: 0,
        stream: 0,
        min_precision: super::signature::MinPrecision::DEFAULT,
    };
    if shown != SystemValue::UNDEFINED && probe.d3d_name() == shown {
        SystemValue::UNDEFINED
    } else {
        shown
    }
}

/// The register column's name for an element with no register (`0xFFFFFFFF`).
pub(crate) fn registerless_name(value: SystemValue) -> &'static str {
    match value {
        SystemValue::DEPTH => "oDepth",
        SystemValue::COVERAGE => "oMask",
        SystemValue::DEPTH_GREATER_EQUAL => "oDepthGE",
        SystemValue::DEPTH_LESS_EQUAL => "oDepthLE",
        SystemValue::STENCIL_REF => "oStencilRef",
        _ => "-1",
    }
}

/// A semantic name as a table cell: bare when it is printable ASCII without spaces or quotes, else quoted with
/// `\"`, `\\` and `\u{N}` escapes.
pub(crate) fn name_cell(name: &str) -> String {
    // "no" alone would read as the `// no Input` line of an empty table.
    if !name.is_empty() && name != "no" && name.chars().all(|c| c.is_ascii_graphic() && c != '"' && c != '\\') {
        return name.to_string();
    }
    let mut text = String::from("\"");
    for c in name.chars() {
        match c {
            '"' => text.push_str("\\\""),
            '\\' => text.push_str("\\\\"),
            c if c.is_ascii_graphic() || c == ' ' => text.push(c),
            c => {
                let _ = write!(text, "\\u{{{:x}}}", u32::from(c));
            }
        }
    }
    text.push('"');
    text
}

/// A mask as the four positional characters `fxc` prints (`xy  `, ` yzw`).
fn positional_mask(mask: u8) -> String {
    (0..4u8)
        .map(|c| if mask & (1 << c) != 0 { syntax::letter(c) } else { ' ' })
        .collect()
}

/// The Used column of a row: the components read (inputs: the stored byte) or written (outputs and patch constants,
/// whose stored byte is the components never written, so the column shows the mask's others), as `fxc` shows them.
pub(crate) fn used_column(kind: SignatureKind, mask: u8, rw_mask: u8) -> u8 {
    if kind.rw_mask_is_never_written() {
        mask & !rw_mask & 0xf
    } else {
        rw_mask & 0xf
    }
}

/// The stored read/write byte a Used column stands for (the inverse of [`used_column`] where there is one).
pub(crate) fn rw_from_used(kind: SignatureKind, mask: u8, used: u8) -> u8 {
    if kind.rw_mask_is_never_written() {
        mask & !used & 0xf
    } else {
        used
    }
}

/// The heading word for a signature chunk kind: nothing for the plain kinds, ` (ISG1)` and so on for the others.
fn kind_note(kind: SignatureKind) -> String {
    match kind {
        SignatureKind::Isgn | SignatureKind::Osgn | SignatureKind::Pcsg => String::new(),
        other => format!(" ({})", other.fourcc()),
    }
}

/// A signature table as `fxc` lays it out.
fn write_signature(signature: &Signature, heading: &str, out: &mut String) {
    let _ = writeln!(out, "//\n// {heading} signature{}:\n//", kind_note(signature.kind));
    out.push_str("// Name                 Index   Mask Register SysValue  Format   Used\n");
    out.push_str("// -------------------- ----- ------ -------- -------- ------- ------\n");
    if signature.elements.is_empty() {
        let _ = writeln!(out, "// no {heading}");
    }
    for element in &signature.elements {
        let shown = element.d3d_name();
        let sysvalue = system_value_abbreviation(shown).map_or_else(|| shown.0.to_string(), str::to_string);
        let register = if element.register == u32::MAX {
            registerless_name(shown).to_string()
        } else {
            element.register.to_string()
        };
        let format = element.component_type.name().map_or_else(
            || element.component_type.0.to_string(),
            |n| if n == "sint" { "int".into() } else { n.into() },
        );
        let used = used_column(signature.kind, element.mask, element.rw_mask);
        let mut row = format!(
            "// {:<20} {:>5}   {} {:>8} {:>8} {:>7}   {}",
            name_cell(&element.semantic_name),
            element.semantic_index,
            positional_mask(element.mask),
            register,
            sysvalue,
            format,
            positional_mask(used),
        );
        let row_trimmed_len = row.trim_end().len();
        row.truncate(row_trimmed_len);
        if element.mask > 0xf {
            let _ = write!(row, " mask={:#x}", element.mask);
        }
        if rw_from_used(signature.kind, element.mask & 0xf, used) != element.rw_mask {
            let _ = write!(row, " rw={:#x}", element.rw_mask);
        }
        if element.stream != 0 {
            let _ = write!(row, " stream={}", element.stream);
        }
        if element.min_precision.0 != 0 {
            let _ = write!(row, " minprec={}", element.min_precision.0);
        }
        if stored_system_value(shown, &element.semantic_name) != element.system_value {
            let _ = write!(row, " sysvalue={}", element.system_value.0);
        }
        out.push_str(&row);
        out.push('\n');
    }
}

// ---- Reflection (for people; not read back) ----

/// The constant buffers and resource bindings of `RDEF`, as `fxc`'s header shows them.
fn write_reflection(reflection: &Reflection, out: &mut String) {
    if !reflection.constant_buffers.is_empty() {
        out.push_str("//\n// Buffer Definitions: \n");
        for buffer in &reflection.constant_buffers {
            write_constant_buffer(buffer, out);
        }
        out.push_str("//\n");
    }
    if !reflection.bindings.is_empty() {
        out.push_str("//\n// Resource Bindings:\n//\n");
        out.push_str("// Name                                 Type  Format         Dim      HLSL Bind  Count\n");
        out.push_str("// ------------------------------ ---------- ------- ----------- -------------- ------\n");
        for binding in &reflection.bindings {
            let (kind, bind_prefix) = match binding.input_type {
                InputType::SIT_CBUFFER => ("cbuffer", "cb"),
                InputType::SIT_TBUFFER => ("tbuffer", "t"),
                InputType::SIT_TEXTURE | InputType::SIT_STRUCTURED | InputType::SIT_BYTEADDRESS => ("texture", "t"),
                InputType::SIT_SAMPLER => {
                    if binding.flags.contains(InputFlags::COMPARISON_SAMPLER) {
                        ("sampler_c", "s")
                    } else {
                        ("sampler", "s")
                    }
                }
                _ => ("UAV", "u"),
            };
            let format = match binding.input_type {
                InputType::SIT_CBUFFER | InputType::SIT_SAMPLER => "NA".to_string(),
                InputType::SIT_STRUCTURED
                | InputType::SIT_UAV_RWSTRUCTURED
                | InputType::SIT_UAV_APPEND_STRUCTURED
                | InputType::SIT_UAV_CONSUME_STRUCTURED
                | InputType::SIT_UAV_RWSTRUCTURED_WITH_COUNTER => "struct".into(),
                InputType::SIT_BYTEADDRESS | InputType::SIT_UAV_RWBYTEADDRESS => "byte".into(),
                _ => {
                    let base = match binding.return_type {
                        RdefReturnType::RETURN_TYPE_UNORM => "unorm",
                        RdefReturnType::RETURN_TYPE_SNORM => "snorm",
                        RdefReturnType::RETURN_TYPE_SINT => "sint",
                        RdefReturnType::RETURN_TYPE_UINT => "uint",
                        RdefReturnType::RETURN_TYPE_FLOAT => "float",
                        RdefReturnType::RETURN_TYPE_DOUBLE => "double",
                        _ => "mixed",
                    };
                    match binding.flags.texture_components() {
                        1 => base.to_string(),
                        n => format!("{base}{n}"),
                    }
                }
            };
            let dim = match binding.input_type {
                InputType::SIT_CBUFFER | InputType::SIT_SAMPLER => "NA".to_string(),
                InputType::SIT_TEXTURE | InputType::SIT_TBUFFER | InputType::SIT_UAV_RWTYPED => {
                    let d = match binding.dimension {
                        SrvDimension::SRV_DIMENSION_BUFFER => "buf",
                        SrvDimension::SRV_DIMENSION_TEXTURE1D => "1d",
                        SrvDimension::SRV_DIMENSION_TEXTURE1DARRAY => "1darray",
                        SrvDimension::SRV_DIMENSION_TEXTURE2D => "2d",
                        SrvDimension::SRV_DIMENSION_TEXTURE2DARRAY => "2darray",
                        SrvDimension::SRV_DIMENSION_TEXTURE2DMS => "2dMS",
                        SrvDimension::SRV_DIMENSION_TEXTURE2DMSARRAY => "2darrayMS",
                        SrvDimension::SRV_DIMENSION_TEXTURE3D => "3d",
                        SrvDimension::SRV_DIMENSION_TEXTURECUBE => "cube",
                        SrvDimension::SRV_DIMENSION_TEXTURECUBEARRAY => "cubearray",
                        _ => "NA",
                    };
                    if binding.input_type == InputType::SIT_UAV_RWTYPED {
                        "r/w".into()
                    } else if matches!(
                        binding.dimension,
                        SrvDimension::SRV_DIMENSION_TEXTURE2DMS | SrvDimension::SRV_DIMENSION_TEXTURE2DMSARRAY
                    ) && binding.sample_count != 0
                        && binding.sample_count != u32::MAX
                    {
                        format!("{d}{}", binding.sample_count)
                    } else {
                        d.into()
                    }
                }
                InputType::SIT_STRUCTURED | InputType::SIT_BYTEADDRESS => "r/o".into(),
                _ => "r/w".into(),
            };
            let bind = format!("{bind_prefix}{}", binding.bind_point);
            let line = format!(
                "// {:<30} {:>10} {:>7} {:>11} {:>14} {:>6}",
                name_cell(&binding.name),
                kind,
                format,
                dim,
                bind,
                binding.bind_count
            );
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out.push_str("//\n");
    }
}

/// One constant buffer's definition block, its variables as `fxc` lists them (struct members spelled out).
fn write_constant_buffer(buffer: &ConstantBuffer, out: &mut String) {
    let keyword = match buffer.kind {
        CbufferType::CT_TBUFFER => "tbuffer",
        CbufferType::CT_INTERFACE_POINTERS => "interfaces",
        CbufferType::CT_RESOURCE_BIND_INFO => "Resource bind info for",
        _ => "cbuffer",
    };
    let _ = writeln!(out, "//\n// {keyword} {}\n// {{\n//", name_cell(&buffer.name));
    for variable in &buffer.variables {
        let unused = if variable.flags.contains(VariableFlags::USED) {
            ""
        } else {
            " [unused]"
        };
        let head = write_struct_body(&variable.ty, &variable.name, variable.offset, 0, out);
        let _ = writeln!(
            out,
            "//   {head:<35}// Offset:{:>5} Size:{:>6}{unused}",
            variable.offset, variable.size
        );
    }
    out.push_str("//\n// }\n");
}

/// For a struct type, writes `struct Name {` and its members (offsets from the buffer's start, `base` being the
/// struct's) and returns the closing `} name;` line's text; for other types returns `type name;`. `depth` counts the
/// structs around it.
fn write_struct_body(ty: &ShaderType, name: &str, base: u32, depth: usize, out: &mut String) -> String {
    let pad = "    ".repeat(depth);
    let array = if ty.elements > 0 {
        format!("[{}]", ty.elements)
    } else {
        String::new()
    };
    if ty.class != VariableClass::SVC_STRUCT || depth >= 8 {
        return format!("{pad}{};", declaration_head(ty, name));
    }
    let _ = writeln!(
        out,
        "//   {pad}struct {}\n//   {pad}{{\n//   {pad}    ",
        ty.name.as_deref().map(name_cell).unwrap_or_default()
    );
    for member in &ty.members {
        let offset = base.saturating_add(member.offset);
        let head = write_struct_body(&member.ty, &member.name, offset, depth.saturating_add(1), out);
        let _ = writeln!(out, "//   {head:<35}// Offset:{offset:>5}");
    }
    let _ = writeln!(out, "//");
    format!("{pad}}} {}{array};", name_cell(name))
}

/// `float4x4 World` / `float Weights[8]` / `struct Light L`.
fn declaration_head(ty: &ShaderType, name: &str) -> String {
    let array = if ty.elements > 0 {
        format!("[{}]", ty.elements)
    } else {
        String::new()
    };
    format!("{} {}{array}", type_name(ty), name_cell(name))
}

/// A type's HLSL name: its SM5 name when the chunk gives one, else built from its class, base, rows and columns.
fn type_name(ty: &ShaderType) -> String {
    if let Some(name) = &ty.name {
        return name_cell(name);
    }
    let base = match ty.base {
        VariableType::SVT_BOOL => "bool",
        VariableType::SVT_INT => "int",
        VariableType::SVT_FLOAT => "float",
        VariableType::SVT_UINT => "uint",
        VariableType::SVT_DOUBLE => "double",
        VariableType::SVT_MIN16FLOAT => "min16float",
        VariableType::SVT_MIN10FLOAT => "min10float",
        VariableType::SVT_MIN16INT => "min16int",
        VariableType::SVT_MIN12INT => "min12int",
        VariableType::SVT_MIN16UINT => "min16uint",
        VariableType::SVT_VOID => "struct",
        other => other.name().unwrap_or("unknown"),
    };
    match ty.class {
        VariableClass::SVC_VECTOR => format!("{base}{}", ty.columns),
        VariableClass::SVC_MATRIX_ROWS => format!("row_major {base}{}x{}", ty.rows, ty.columns),
        VariableClass::SVC_MATRIX_COLUMNS => format!("{base}{}x{}", ty.rows, ty.columns),
        _ => base.to_string(),
    }
}

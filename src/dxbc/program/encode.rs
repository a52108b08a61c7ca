//! Encoding a [`Program`] into SM4/SM5 tokens, the inverse of [`super::decode`]: every length is computed here, and
//! the raw fields a decoded program carries are written back in place, so `encode(&decode(t)?)? == t` for every `t`
//! that decodes.
//!
//! A program built by hand can hold what no token can (a texel offset of 9, an instruction longer than the 127
//! DWORDs its length field counts, a `sync` flag on an `add`, a declaration under the wrong opcode); those are
//! errors naming the instruction, never silently dropped bits.

use super::{
    Components, CustomData, Declaration, ExtendedOpcode, ExtendedOpcodeKind, ExtendedOperand, ExtendedOperandKind,
    GlobalFlags, Immediate, Index, Instruction, InstructionReturnType, MAX_RELATIVE_DEPTH, MinPrecision, Modifier,
    Opcode, Operand, Program, RegisterType, ResinfoReturnType, ReturnType, Selection, SyncFlags,
};
use crate::{Error, Result};

/// What errors name as the input.
const WHAT: &str = "SM4/5 program encoder";
/// Bit 31: another token follows.
const EXTENDED_BIT: u32 = 0x8000_0000;
/// The opcode token's opcode-specific control range, `[23:11]`.
const CONTROL_MASK: u32 = 0x00ff_f800;
/// The longest instruction the 7-bit length field counts.
const MAX_SHORT_LENGTH: usize = 127;

/// Encodes `program` into tokens, version token first.
pub fn encode(program: &Program) -> Result<Vec<u32>> {
    if program.major > 0xf || program.minor > 0xf {
        return Err(Error::new(
            WHAT,
            format!(
                "version {}.{} does not fit the 4-bit version fields",
                program.major, program.minor
            ),
        )
        .at("version token"));
    }
    if program.version_reserved_bits & !0x0000_ff00 != 0 {
        return Err(Error::new(
            WHAT,
            format!(
                "version_reserved_bits {:#x} lie outside [15:8]",
                program.version_reserved_bits
            ),
        )
        .at("version token"));
    }
    let mut out = vec![
        program.kind.raw() << 16
            | program.version_reserved_bits
            | u32::from(program.major) << 4
            | u32::from(program.minor),
        0,
    ];
    for (number, instruction) in program.instructions.iter().enumerate() {
        encode_instruction(instruction, &mut out).map_err(|detail| {
            Error::new(WHAT, format!("{}: {detail}", instruction.opcode.name())).at(format!("instruction {number}"))
        })?;
    }
    let length = u32::try_from(out.len())
        .map_err(|_| Error::new(WHAT, format!("{} DWORDs overflow the length token", out.len())))?;
    if let Some(slot) = out.get_mut(1) {
        *slot = length;
    }
    Ok(out)
}

/// The result of encoding one part: a problem is a sentence fragment, placed by [`encode`].
type Part<T = ()> = std::result::Result<T, String>;

/// Appends one instruction's tokens to `out`.
fn encode_instruction(instruction: &Instruction, out: &mut Vec<u32>) -> Part {
    let opcode = instruction.opcode;
    if opcode == Opcode::CustomData {
        return encode_custom_data(instruction, out);
    }
    let long_form_opcode = opcode.has_length_dword_form();
    if long_form_opcode && !instruction.extended.is_empty() {
        return Err("has extended opcode tokens, but its bit 31 announces a length DWORD".into());
    }
    let mut body = Vec::new();
    for (i, ext) in instruction.extended.iter().enumerate() {
        let more = if i.saturating_add(1) < instruction.extended.len() {
            EXTENDED_BIT
        } else {
            0
        };
        body.push(encode_extended_opcode(ext)? | more);
    }
    let (typed_controls, known_controls);
    if opcode.is_declaration() {
        check_no_instruction_fields(instruction)?;
        let declaration = instruction
            .declaration
            .as_ref()
            .ok_or("is a declaration but has no Declaration")?;
        (typed_controls, known_controls) = encode_declaration(opcode, declaration, instruction, &mut body)?;
        for &dword in &instruction.raw.trailing {
            body.push(dword);
        }
    } else {
        if instruction.declaration.is_some() {
            return Err("is not a declaration but carries a Declaration".into());
        }
        if instruction.raw.reserved_bits != 0 || !instruction.raw.trailing.is_empty() {
            return Err("is not a declaration but has declaration raw fields".into());
        }
        (typed_controls, known_controls) = instruction_controls(instruction)?;
        if opcode == Opcode::InterfaceCall {
            body.push(instruction.function_index);
        } else if instruction.function_index != 0 {
            return Err("has a function index, which only interface_call takes".into());
        }
        for operand in &instruction.operands {
            encode_operand(operand, &mut body, 0)?;
        }
    }
    let raw_controls = instruction.raw.control_bits;
    if raw_controls & !CONTROL_MASK != 0 || raw_controls & known_controls != 0 {
        return Err(format!(
            "raw control bits {raw_controls:#x} lie outside [23:11] or overlap the typed controls"
        ));
    }
    let mut token = opcode.raw() | typed_controls | raw_controls;
    let long_form =
        long_form_opcode && (instruction.raw.length_dword_field.is_some() || body.len() >= MAX_SHORT_LENGTH);
    if long_form {
        let field = instruction.raw.length_dword_field.unwrap_or(0);
        if field > 0x7f {
            return Err(format!("length field {field} does not fit 7 bits"));
        }
        let length = body.len().saturating_add(2);
        let length = u32::try_from(length).map_err(|_| format!("length {length} overflows a DWORD"))?;
        token |= EXTENDED_BIT | u32::from(field) << 24;
        out.push(token);
        out.push(length);
    } else {
        if instruction.raw.length_dword_field.is_some() {
            return Err("has a length DWORD field but its opcode has no length DWORD form".into());
        }
        let length = body.len().saturating_add(1);
        if length > MAX_SHORT_LENGTH {
            return Err(format!(
                "is {length} DWORDs long, more than the 127 its length field counts"
            ));
        }
        token |= u32::try_from(length).unwrap_or(0) << 24;
        if !instruction.extended.is_empty() {
            token |= EXTENDED_BIT;
        }
        out.push(token);
    }
    out.extend_from_slice(&body);
    Ok(())
}

/// Fails when a declaration has fields only instructions use.
fn check_no_instruction_fields(instruction: &Instruction) -> Part {
    if instruction.saturate
        || instruction.test_nonzero
        || instruction.precise_mask != 0
        || instruction.resinfo_return != ResinfoReturnType::Float
        || instruction.sample_info_return != InstructionReturnType::Float
        || instruction.sync_flags != SyncFlags(0)
        || instruction.function_index != 0
    {
        return Err("is a declaration but has instruction controls set".into());
    }
    if !instruction.operands.is_empty() {
        return Err("is a declaration but has operands outside its Declaration".into());
    }
    Ok(())
}

/// The opcode token bits an instruction's typed controls give, and the mask of bits they own.
fn instruction_controls(instruction: &Instruction) -> Part<(u32, u32)> {
    let opcode = instruction.opcode;
    if instruction.precise_mask > 0xf {
        return Err(format!(
            "precise mask {:#x} has more than 4 bits",
            instruction.precise_mask
        ));
    }
    let mut bits = u32::from(instruction.precise_mask) << 19;
    let mut known = 0x0078_0000;
    if opcode == Opcode::Sync {
        if instruction.sync_flags.0 & !SyncFlags::MASK != 0 {
            return Err(format!(
                "sync flags {:#x} lie outside [14:11]",
                instruction.sync_flags.0
            ));
        }
        if instruction.saturate {
            return Err("sync cannot saturate: bit 13 is one of its flags".into());
        }
        bits |= instruction.sync_flags.0;
        known |= SyncFlags::MASK;
    } else {
        if instruction.sync_flags != SyncFlags(0) {
            return Err("has sync flags, which only sync takes".into());
        }
        if instruction.saturate {
            bits |= 0x2000;
        }
        known |= 0x2000;
    }
    if opcode.has_test_boolean() {
        if instruction.test_nonzero {
            bits |= 0x0004_0000;
        }
        known |= 0x0004_0000;
    } else if instruction.test_nonzero {
        return Err("has a zero/non-zero test, which it does not take".into());
    }
    if opcode == Opcode::Resinfo {
        bits |= instruction.resinfo_return.raw() << 11;
        known |= 0x1800;
    } else if instruction.resinfo_return != ResinfoReturnType::Float {
        return Err("has a resinfo return type, which only resinfo takes".into());
    }
    if opcode == Opcode::SampleInfo {
        bits |= instruction.sample_info_return.raw() << 11;
        known |= 0x1800;
    } else if instruction.sample_info_return != InstructionReturnType::Float {
        return Err("has a sample_info return type, which only sample_info takes".into());
    }
    Ok((bits, known))
}

/// Encodes an extended opcode token, without its chain bit.
fn encode_extended_opcode(ext: &ExtendedOpcode) -> Part<u32> {
    let (token, owned) = match ext.kind {
        ExtendedOpcodeKind::Empty => (0, 0x3f),
        ExtendedOpcodeKind::SampleControls { offsets } => {
            let mut token = 1;
            for (&offset, shift) in offsets.iter().zip([9, 13, 17]) {
                if !(-8..=7).contains(&offset) {
                    return Err(format!("texel offset {offset} does not fit 4 bits (-8 to 7)"));
                }
                token |= (u32::from(offset.cast_unsigned()) & 0xf) << shift;
            }
            (token, 0x001f_fe3f)
        }
        ExtendedOpcodeKind::ResourceDimension {
            dimension,
            structure_stride,
        } => {
            if structure_stride > 0xfff {
                return Err(format!("structure stride {structure_stride} does not fit 12 bits"));
            }
            (
                2 | dimension.raw() << 6 | u32::from(structure_stride) << 11,
                0x007f_ffff,
            )
        }
        ExtendedOpcodeKind::ResourceReturnType { return_types } => {
            (3 | pack_return_types(return_types) << 6, 0x003f_ffff)
        }
    };
    if ext.ignored_bits & (owned | EXTENDED_BIT) != 0 {
        return Err(format!(
            "extended opcode ignored bits {:#x} overlap the token's fields",
            ext.ignored_bits
        ));
    }
    Ok(token | ext.ignored_bits)
}

/// Four return types as 4-bit fields, x lowest.
fn pack_return_types(types: [ReturnType; 4]) -> u32 {
    types
        .iter()
        .zip([0, 4, 8, 12])
        .fold(0, |bits, (t, shift)| bits | t.raw() << shift)
}

/// Appends an operand (and the operands nested in its indices) to `out`; `depth` counts relative addresses around
/// it.
fn encode_operand(operand: &Operand, out: &mut Vec<u32>, depth: u32) -> Part {
    let (mut token, mut ignorable) = match operand.components {
        Components::Zero => (0, 0xffc),
        Components::One => (1, 0xffc),
        Components::N => (3, 0xffc),
        Components::Four(Selection::Mask(mask)) => {
            if mask > 0xf {
                return Err(format!("write mask {mask:#x} has more than 4 bits"));
            }
            (2 | u32::from(mask) << 4, 0xf00)
        }
        Components::Four(Selection::Swizzle(swizzle)) => {
            let mut token = 2 | 1 << 2;
            for (&source, shift) in swizzle.iter().zip([4, 6, 8, 10]) {
                if source > 3 {
                    return Err(format!("swizzle component {source} is not 0 to 3"));
                }
                token |= u32::from(source) << shift;
            }
            (token, 0)
        }
        Components::Four(Selection::Select1(component)) => {
            if component > 3 {
                return Err(format!("selected component {component} is not 0 to 3"));
            }
            (2 | 2 << 2 | u32::from(component) << 4, 0xfc0)
        }
    };
    if operand.indices.len() > 3 {
        return Err(format!(
            "an operand has {} indices; at most 3 fit",
            operand.indices.len()
        ));
    }
    let dimension = u32::try_from(operand.indices.len()).unwrap_or(3);
    token |= operand.register.raw() << 12 | dimension << 20;
    for (axis, index) in (0..).zip(&operand.indices) {
        let representation = match index {
            Index::Immediate32(_) => 0,
            Index::Immediate64(_) => 1,
            Index::Relative(_) => 2,
            Index::Immediate32PlusRelative(..) => 3,
            Index::Immediate64PlusRelative(..) => 4,
        };
        token |= representation << super::index_representation_shift(axis);
    }
    for unused in dimension..3 {
        ignorable |= 7 << super::index_representation_shift(unused);
    }
    if operand.ignored_bits & !ignorable != 0 {
        return Err(format!(
            "operand ignored bits {:#x} overlap fields the operand uses",
            operand.ignored_bits
        ));
    }
    token |= operand.ignored_bits;

    let mut extended: Vec<ExtendedOperand> = operand.extended.clone();
    let modifier_tokens = extended
        .iter()
        .filter(|e| e.kind == ExtendedOperandKind::Modifier)
        .count();
    if modifier_tokens > 1 {
        return Err("an operand has two modifier tokens".into());
    }
    let needs_modifier =
        operand.modifier != Modifier::None || operand.min_precision != MinPrecision::Default || operand.non_uniform;
    if needs_modifier && modifier_tokens == 0 {
        extended.push(ExtendedOperand {
            kind: ExtendedOperandKind::Modifier,
            ignored_bits: 0,
        });
    }
    if !extended.is_empty() {
        token |= EXTENDED_BIT;
    }
    out.push(token);
    for (i, ext) in extended.iter().enumerate() {
        let (mut ext_token, ignorable) = match ext.kind {
            ExtendedOperandKind::Empty => (0, 0x7fff_ffc0),
            ExtendedOperandKind::Modifier => (
                1 | operand.modifier.raw() << 6
                    | operand.min_precision.raw() << 14
                    | u32::from(operand.non_uniform) << 17,
                0x7ffc_0000,
            ),
        };
        if ext.ignored_bits & !ignorable != 0 {
            return Err(format!(
                "extended operand ignored bits {:#x} overlap the token's fields",
                ext.ignored_bits
            ));
        }
        ext_token |= ext.ignored_bits;
        if i.saturating_add(1) < extended.len() {
            ext_token |= EXTENDED_BIT;
        }
        out.push(ext_token);
    }

    for index in &operand.indices {
        match index {
            Index::Immediate32(value) => out.push(*value),
            Index::Immediate64(value) => push_index64(*value, out),
            Index::Relative(relative) => encode_relative(relative, out, depth)?,
            Index::Immediate32PlusRelative(value, relative) => {
                out.push(*value);
                encode_relative(relative, out, depth)?;
            }
            Index::Immediate64PlusRelative(value, relative) => {
                push_index64(*value, out);
                encode_relative(relative, out, depth)?;
            }
        }
    }

    match (operand.register, operand.components, operand.immediate) {
        (RegisterType::Immediate32, Components::One, Some(Immediate::Scalar32(value))) => out.push(value),
        (RegisterType::Immediate32, Components::Four(_), Some(Immediate::Vector32(values))) => {
            out.extend_from_slice(&values);
        }
        (RegisterType::Immediate64, Components::One, Some(Immediate::Scalar64(value))) => push_literal64(value, out),
        (RegisterType::Immediate64, Components::Four(_), Some(Immediate::Vector64(values))) => {
            for value in values {
                push_literal64(value, out);
            }
        }
        (RegisterType::Immediate32 | RegisterType::Immediate64, _, _) => {
            return Err("a literal operand's values do not match its register type and component count".into());
        }
        (_, _, Some(_)) => return Err("an operand that is not a literal has literal values".into()),
        (_, _, None) => {}
    }
    Ok(())
}

/// Appends the operand of a relative index inside an operand nested `depth` deep.
fn encode_relative(operand: &Operand, out: &mut Vec<u32>, depth: u32) -> Part {
    let depth = depth.saturating_add(1);
    if depth > MAX_RELATIVE_DEPTH {
        return Err(format!("relative addresses nest more than {MAX_RELATIVE_DEPTH} deep"));
    }
    encode_operand(operand, out, depth)
}

/// A 64-bit index: high DWORD first.
fn push_index64(value: u64, out: &mut Vec<u32>) {
    out.push((value >> 32) as u32);
    out.push(value as u32);
}

/// A 64-bit literal: low DWORD first.
fn push_literal64(value: u64, out: &mut Vec<u32>) {
    out.push(value as u32);
    out.push((value >> 32) as u32);
}

/// Appends a custom-data block.
fn encode_custom_data(instruction: &Instruction, out: &mut Vec<u32>) -> Part {
    let Some(Declaration::CustomData(data)) = &instruction.declaration else {
        return Err("is a custom-data block without CustomData".into());
    };
    let untouched = Instruction {
        offset: instruction.offset,
        declaration: None,
        ..Instruction::new(Opcode::CustomData)
    };
    let bare = Instruction {
        declaration: None,
        ..instruction.clone()
    };
    if bare != untouched {
        return Err("is a custom-data block but has instruction fields set".into());
    }
    let class = data.class();
    if class > 0x001f_ffff {
        return Err(format!("custom-data class {class} does not fit 21 bits"));
    }
    let words: Vec<u32> = match data {
        CustomData::ImmediateConstantBuffer(vectors) => vectors.iter().flatten().copied().collect(),
        CustomData::Comment(words)
        | CustomData::DebugInfo(words)
        | CustomData::Opaque(words)
        | CustomData::ShaderMessage(words)
        | CustomData::ClipPlaneConstantMappingsForDx9(words)
        | CustomData::Other { data: words, .. } => words.clone(),
    };
    let length = words.len().saturating_add(2);
    let length = u32::try_from(length).map_err(|_| format!("custom-data length {length} overflows a DWORD"))?;
    out.push(Opcode::CustomData.raw() | class << 11);
    out.push(length);
    out.extend_from_slice(&words);
    Ok(())
}

/// Pushes a name or return type token's reserved bits check: they must lie in `[31:16]`.
fn reserved(instruction: &Instruction) -> Part<u32> {
    let bits = instruction.raw.reserved_bits;
    if bits & 0x0000_ffff != 0 {
        return Err(format!("reserved bits {bits:#x} lie outside [31:16]"));
    }
    Ok(bits)
}

/// Encodes a declaration's fields into `body`; returns its opcode token control bits and the mask they own.
fn encode_declaration(
    opcode: Opcode,
    declaration: &Declaration,
    instruction: &Instruction,
    body: &mut Vec<u32>,
) -> Part<(u32, u32)> {
    use Opcode as O;
    let mismatch = || format!("carries a {declaration:?} declaration, which belongs to another opcode");
    if !matches!(
        declaration,
        Declaration::Resource { .. } | Declaration::UavTyped { .. } | Declaration::Register { name: Some(_), .. }
    ) && instruction.raw.reserved_bits != 0
    {
        return Err("has reserved bits but no name or return type token to hold them".into());
    }
    let flag = |set: bool, bit: u32| if set { bit } else { 0 };
    let (controls, known) = match (opcode, declaration) {
        (O::DclGlobalFlags, Declaration::GlobalFlags(flags)) => {
            if flags.0 & !GlobalFlags::MASK != 0 {
                return Err(format!("global flags {:#x} lie outside [23:11]", flags.0));
            }
            (flags.0, GlobalFlags::MASK)
        }
        (
            O::DclResource,
            Declaration::Resource {
                register,
                dimension,
                sample_count,
                return_types,
            },
        ) => {
            if *sample_count > 0x7f {
                return Err(format!("sample count {sample_count} does not fit 7 bits"));
            }
            encode_operand(register, body, 0)?;
            body.push(pack_return_types(*return_types) | reserved(instruction)?);
            (dimension.raw() << 11 | u32::from(*sample_count) << 16, 0x007f_f800)
        }
        (
            O::DclConstantBuffer,
            Declaration::ConstantBuffer {
                register,
                dynamic_indexed,
            },
        ) => {
            encode_operand(register, body, 0)?;
            (flag(*dynamic_indexed, 0x800), 0x800)
        }
        (O::DclSampler, Declaration::Sampler { register, mode }) => {
            encode_operand(register, body, 0)?;
            (mode.raw() << 11, 0x7800)
        }
        (O::DclIndexRange, Declaration::IndexRange { register, count }) => {
            encode_operand(register, body, 0)?;
            body.push(*count);
            (0, 0)
        }
        (O::DclGsOutputPrimitiveTopology, Declaration::GsOutputTopology(topology)) => {
            (topology.raw() << 11, 0x0001_f800)
        }
        (O::DclGsInputPrimitive, Declaration::GsInputPrimitive(primitive)) => (primitive.raw() << 11, 0x0001_f800),
        (O::DclMaxOutputVertexCount, Declaration::MaxOutputVertexCount(count)) => {
            body.push(*count);
            (0, 0)
        }
        (
            O::DclInput
            | O::DclInputSgv
            | O::DclInputSiv
            | O::DclInputPs
            | O::DclInputPsSgv
            | O::DclInputPsSiv
            | O::DclOutput
            | O::DclOutputSgv
            | O::DclOutputSiv,
            Declaration::Register {
                register,
                name,
                interpolation,
            },
        ) => {
            let wants_name = !matches!(opcode, O::DclInput | O::DclInputPs | O::DclOutput);
            let wants_interpolation = matches!(opcode, O::DclInputPs | O::DclInputPsSgv | O::DclInputPsSiv);
            if name.is_some() != wants_name || interpolation.is_some() != wants_interpolation {
                return Err(format!(
                    "{} {} a system value name and {} an interpolation mode",
                    opcode.name(),
                    if wants_name { "needs" } else { "takes no" },
                    if wants_interpolation { "needs" } else { "takes no" }
                ));
            }
            encode_operand(register, body, 0)?;
            if let Some(name) = name {
                body.push(name.raw() | reserved(instruction)?);
            }
            match interpolation {
                Some(mode) => (mode.raw() << 11, 0x7800),
                None => (0, 0),
            }
        }
        (O::DclTemps, Declaration::Temps(count)) => {
            body.push(*count);
            (0, 0)
        }
        (
            O::DclIndexableTemp,
            Declaration::IndexableTemp {
                register,
                size,
                components,
            },
        ) => {
            body.extend_from_slice(&[*register, *size, *components]);
            (0, 0)
        }
        (O::DclStream, Declaration::Stream(register)) => {
            encode_operand(register, body, 0)?;
            (0, 0)
        }
        (O::DclFunctionBody, Declaration::FunctionBody(id)) => {
            body.push(*id);
            (0, 0)
        }
        (O::DclFunctionTable, Declaration::FunctionTable { id, bodies }) => {
            let count = u32::try_from(bodies.len()).map_err(|_| "too many function bodies".to_string())?;
            body.push(*id);
            body.push(count);
            body.extend_from_slice(bodies);
            (0, 0)
        }
        (
            O::DclInterface,
            Declaration::Interface {
                id,
                dynamic_indexed,
                expected_table_length,
                array_length,
                tables,
            },
        ) => {
            let count = u16::try_from(tables.len())
                .map_err(|_| format!("{} function tables do not fit 16 bits", tables.len()))?;
            body.push(*id);
            body.push(*expected_table_length);
            body.push(u32::from(count) | u32::from(*array_length) << 16);
            body.extend_from_slice(tables);
            (flag(*dynamic_indexed, 0x800), 0x800)
        }
        (O::DclInputControlPointCount, Declaration::InputControlPointCount(count))
        | (O::DclOutputControlPointCount, Declaration::OutputControlPointCount(count)) => {
            if *count > 0x3f {
                return Err(format!("control point count {count} does not fit 6 bits"));
            }
            (u32::from(*count) << 11, 0x0001_f800)
        }
        (O::DclTessDomain, Declaration::TessDomain(domain)) => (domain.raw() << 11, 0x1800),
        (O::DclTessPartitioning, Declaration::TessPartitioning(partitioning)) => (partitioning.raw() << 11, 0x3800),
        (O::DclTessOutputPrimitive, Declaration::TessOutputPrimitive(primitive)) => (primitive.raw() << 11, 0x3800),
        (O::DclHsMaxTessfactor, Declaration::HsMaxTessFactor(factor)) => {
            body.push(factor.to_bits());
            (0, 0)
        }
        (O::DclHsForkPhaseInstanceCount, Declaration::HsForkPhaseInstanceCount(count))
        | (O::DclHsJoinPhaseInstanceCount, Declaration::HsJoinPhaseInstanceCount(count))
        | (O::DclGsInstanceCount, Declaration::GsInstanceCount(count)) => {
            body.push(*count);
            (0, 0)
        }
        (O::DclThreadGroup, Declaration::ThreadGroup(size)) => {
            body.extend_from_slice(size);
            (0, 0)
        }
        (
            O::DclUnorderedAccessViewTyped,
            Declaration::UavTyped {
                register,
                dimension,
                return_types,
                globally_coherent,
                rasterizer_ordered,
            },
        ) => {
            encode_operand(register, body, 0)?;
            body.push(pack_return_types(*return_types) | reserved(instruction)?);
            (
                dimension.raw() << 11 | flag(*globally_coherent, 0x0001_0000) | flag(*rasterizer_ordered, 0x0002_0000),
                0x0003_f800,
            )
        }
        (
            O::DclUnorderedAccessViewRaw,
            Declaration::UavRaw {
                register,
                globally_coherent,
                rasterizer_ordered,
            },
        ) => {
            encode_operand(register, body, 0)?;
            (
                flag(*globally_coherent, 0x0001_0000) | flag(*rasterizer_ordered, 0x0002_0000),
                0x0003_0000,
            )
        }
        (
            O::DclUnorderedAccessViewStructured,
            Declaration::UavStructured {
                register,
                stride,
                globally_coherent,
                rasterizer_ordered,
                has_counter,
            },
        ) => {
            encode_operand(register, body, 0)?;
            body.push(*stride);
            (
                flag(*globally_coherent, 0x0001_0000)
                    | flag(*rasterizer_ordered, 0x0002_0000)
                    | flag(*has_counter, 0x0080_0000),
                0x0083_0000,
            )
        }
        (O::DclThreadGroupSharedMemoryRaw, Declaration::TgsmRaw { register, byte_count }) => {
            encode_operand(register, body, 0)?;
            body.push(*byte_count);
            (0, 0)
        }
        (
            O::DclThreadGroupSharedMemoryStructured,
            Declaration::TgsmStructured {
                register,
                stride,
                count,
            },
        ) => {
            encode_operand(register, body, 0)?;
            body.push(*stride);
            body.push(*count);
            (0, 0)
        }
        (O::DclResourceRaw, Declaration::ResourceRaw(register)) => {
            encode_operand(register, body, 0)?;
            (0, 0)
        }
        (O::DclResourceStructured, Declaration::ResourceStructured { register, stride }) => {
            encode_operand(register, body, 0)?;
            body.push(*stride);
            (0, 0)
        }
        _ => return Err(mismatch()),
    };
    Ok((controls, known))
}

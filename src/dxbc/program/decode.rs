//! Decoding an SM4/SM5 token stream into a [`Program`], following the header's layouts (see the module docs).
//!
//! The input is untrusted. Every read is bounds-checked against the enclosing instruction, every length is checked
//! against what remains, relative addressing nests at most [`MAX_RELATIVE_DEPTH`] deep, and nothing is allocated
//! beyond what the input's own DWORDs fill. Every failure names the DWORD it was found at.

use super::{
    Components, CustomData, Declaration, ExtendedOpcode, ExtendedOpcodeKind, ExtendedOperand, ExtendedOperandKind,
    GlobalFlags, Immediate, Index, Instruction, InstructionReturnType, InterpolationMode, MAX_RELATIVE_DEPTH,
    MinPrecision, Modifier, Opcode, Operand, Primitive, PrimitiveTopology, Program, ProgramKind, RegisterType,
    ResinfoReturnType, ResourceDimension, ReturnType, SamplerMode, Selection, SyncFlags, SystemName, TessDomain,
    TessOutputPrimitive, TessPartitioning,
};
use crate::{Error, Result};

/// What errors name as the input.
const WHAT: &str = "SM4/5 program";

/// The opcode token's opcode-specific control range, `[23:11]`.
const CONTROL_MASK: u32 = 0x00ff_f800;
/// Bit 31 of opcode, extended opcode, operand and extended operand tokens: another token follows.
const EXTENDED_BIT: u32 = 0x8000_0000;

/// Decodes a program from its tokens, the first being the version token. DWORDs past the length the length token
/// gives are not part of the program and are ignored.
pub fn decode(tokens: &[u32]) -> Result<Program> {
    let version = *tokens
        .first()
        .ok_or_else(|| Error::new(WHAT, "there is no version token").at("token 0"))?;
    let length = *tokens
        .get(1)
        .ok_or_else(|| Error::new(WHAT, "there is no length token").at("token 1"))?;
    let length = usize::try_from(length).unwrap_or(usize::MAX);
    if length < 2 {
        return Err(Error::new(
            WHAT,
            format!("the length token gives {length} DWORDs, fewer than the 2 of the version and length tokens"),
        )
        .at("token 1"));
    }
    let tokens = tokens.get(..length).ok_or_else(|| {
        Error::new(
            WHAT,
            format!(
                "the length token gives {length} DWORDs but only {} are there",
                tokens.len()
            ),
        )
        .at("token 1")
    })?;
    let kind_number = version >> 16;
    let kind = ProgramKind::from_raw(kind_number).ok_or_else(|| {
        Error::new(
            WHAT,
            format!("program type {kind_number:#x} is not an SM4/SM5 program type"),
        )
        .at("token 0")
    })?;
    let mut program = Program {
        kind,
        major: field_u8(version, 4, 0xf),
        minor: field_u8(version, 0, 0xf),
        version_reserved_bits: version & 0x0000_ff00,
        instructions: Vec::new(),
    };
    let mut position = 2;
    while position < tokens.len() {
        let (instruction, next) = decode_instruction(tokens, position)?;
        program.instructions.push(instruction);
        position = next;
    }
    Ok(program)
}

/// Decodes a program from its bytes (little-endian DWORDs), as an `SHDR`/`SHEX` chunk holds it.
pub fn decode_bytes(bytes: &[u8]) -> Result<Program> {
    if !bytes.len().is_multiple_of(4) {
        return Err(Error::new(
            WHAT,
            format!("{} bytes is not a whole number of DWORDs", bytes.len()),
        ));
    }
    let tokens: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap_or([0; 4])))
        .collect();
    decode(&tokens)
}

/// `(word >> shift) & mask` as a `u8`; `mask` is at most 0xff.
fn field_u8(word: u32, shift: u32, mask: u32) -> u8 {
    u8::try_from((word >> shift) & mask & 0xff).unwrap_or(0)
}

/// An error at DWORD `position` of the program.
fn error_at(position: usize, detail: impl Into<String>) -> Error {
    Error::new(WHAT, detail).at(format!("token {position}"))
}

/// A cursor over one instruction's DWORDs: reads past the instruction's end are errors.
struct Reader<'a> {
    /// The whole program, so that positions are program offsets.
    tokens: &'a [u32],
    /// The next DWORD to read.
    position: usize,
    /// One past the instruction's last DWORD.
    end: usize,
    /// The instruction's opcode, for messages.
    opcode: Opcode,
    /// Where the instruction's opcode token is.
    start: usize,
}

impl Reader<'_> {
    /// Reads the next DWORD, naming `what` it should have been if the instruction has ended.
    fn next(&mut self, what: &str) -> Result<u32> {
        if self.position >= self.end {
            return Err(error_at(
                self.position,
                format!("{} ends before its {what}", self.opcode.name()),
            ));
        }
        let value = *self
            .tokens
            .get(self.position)
            .ok_or_else(|| error_at(self.position, format!("the program ends before {what}")))?;
        self.position = self.position.saturating_add(1);
        Ok(value)
    }

    /// Whether the instruction's DWORDs are all read.
    fn at_end(&self) -> bool {
        self.position >= self.end
    }

    /// The DWORDs not yet read, which the reader then counts as read.
    fn rest(&mut self) -> Vec<u32> {
        let rest = self
            .tokens
            .get(self.position..self.end)
            .map(<[u32]>::to_vec)
            .unwrap_or_default();
        self.position = self.end;
        rest
    }

    /// An error at the DWORD last read.
    fn error(&self, detail: impl Into<String>) -> Error {
        error_at(
            self.position.saturating_sub(1),
            format!("{}: {}", self.opcode.name(), detail.into()),
        )
    }
}

/// Decodes the instruction whose opcode token is at `position`; returns it and where the next one starts.
fn decode_instruction(tokens: &[u32], position: usize) -> Result<(Instruction, usize)> {
    let token = *tokens
        .get(position)
        .ok_or_else(|| error_at(position, "the program ends before this instruction"))?;
    let opcode_number = token & 0x7ff;
    let opcode = Opcode::from_raw(opcode_number).ok_or_else(|| {
        error_at(
            position,
            format!("opcode {opcode_number} (token {token:#010x}) is not one the token format defines"),
        )
    })?;
    let remaining = tokens.len().saturating_sub(position);
    let mut instruction = Instruction::new(opcode);
    instruction.offset = u32::try_from(position).unwrap_or(u32::MAX);

    if opcode == Opcode::CustomData {
        let length = tokens
            .get(position.saturating_add(1))
            .map(|&l| usize::try_from(l).unwrap_or(usize::MAX))
            .ok_or_else(|| error_at(position, "the program ends before the custom-data block's length"))?;
        if length < 2 {
            return Err(error_at(
                position.saturating_add(1),
                format!("custom-data length {length} is less than the 2 DWORDs of its own header"),
            ));
        }
        if length > remaining {
            return Err(error_at(
                position.saturating_add(1),
                format!("custom-data length {length} runs past the program's end ({remaining} DWORDs remain)"),
            ));
        }
        let data = tokens
            .get(position.saturating_add(2)..position.saturating_add(length))
            .unwrap_or_default();
        let data = decode_custom_data(token >> 11, data, position)?;
        instruction.declaration = Some(Declaration::CustomData(data));
        return Ok((instruction, position.saturating_add(length)));
    }

    let length_field = field_u8(token, 24, 0x7f);
    let extended = token & EXTENDED_BIT != 0;
    let (length, body) = if extended && opcode.has_length_dword_form() {
        let length = tokens
            .get(position.saturating_add(1))
            .map(|&l| usize::try_from(l).unwrap_or(usize::MAX))
            .ok_or_else(|| error_at(position, "the program ends before the instruction's length DWORD"))?;
        instruction.raw.length_dword_field = Some(length_field);
        if length < 2 {
            return Err(error_at(
                position.saturating_add(1),
                format!(
                    "{} gives length {length}, less than its opcode and length DWORDs",
                    opcode.name()
                ),
            ));
        }
        (length, position.saturating_add(2))
    } else {
        (usize::from(length_field), position.saturating_add(1))
    };
    if length == 0 {
        return Err(error_at(
            position,
            format!("{} has length 0 (token {token:#010x})", opcode.name()),
        ));
    }
    if length > remaining {
        return Err(error_at(
            position,
            format!(
                "{} has length {length}, past the program's end ({remaining} DWORDs remain)",
                opcode.name()
            ),
        ));
    }
    let mut reader = Reader {
        tokens,
        position: body,
        end: position.saturating_add(length),
        opcode,
        start: position,
    };

    if extended && !opcode.has_length_dword_form() {
        loop {
            let ext = reader.next("extended opcode token")?;
            instruction.extended.push(decode_extended_opcode(ext, &reader)?);
            if ext & EXTENDED_BIT == 0 {
                break;
            }
        }
    }

    if opcode.is_declaration() {
        decode_declaration(token, &mut reader, &mut instruction)?;
    } else {
        decode_controls(token, &reader, &mut instruction)?;
        if opcode == Opcode::InterfaceCall {
            instruction.function_index = reader.next("function index")?;
        }
        while !reader.at_end() {
            instruction.operands.push(decode_operand(&mut reader, 0)?);
        }
    }
    Ok((instruction, reader.end))
}

/// Reads the opcode-specific controls of an instruction that is not a declaration.
fn decode_controls(token: u32, reader: &Reader, instruction: &mut Instruction) -> Result<()> {
    let opcode = instruction.opcode;
    let mut known = 0x0078_0000; // precise mask [22:19]
    instruction.precise_mask = field_u8(token, 19, 0xf);
    if opcode == Opcode::Sync {
        instruction.sync_flags = SyncFlags(token & SyncFlags::MASK);
        known |= SyncFlags::MASK;
    } else {
        instruction.saturate = token & 0x2000 != 0;
        known |= 0x2000;
    }
    if opcode.has_test_boolean() {
        instruction.test_nonzero = token & 0x0004_0000 != 0;
        known |= 0x0004_0000;
    }
    let return_type = (token >> 11) & 3;
    if opcode == Opcode::Resinfo {
        instruction.resinfo_return = ResinfoReturnType::from_raw(return_type).ok_or_else(|| {
            error_at(
                reader.start,
                format!("resinfo return type {return_type} is not defined"),
            )
        })?;
        known |= 0x1800;
    } else if opcode == Opcode::SampleInfo {
        instruction.sample_info_return = InstructionReturnType::from_raw(return_type).ok_or_else(|| {
            error_at(
                reader.start,
                format!("sample_info return type {return_type} is not defined"),
            )
        })?;
        known |= 0x1800;
    }
    instruction.raw.control_bits = token & CONTROL_MASK & !known;
    Ok(())
}

/// Sign-extends a 4-bit two's complement field.
fn signed_nibble(value: u32) -> i8 {
    let nibble = i8::try_from(value & 0xf).unwrap_or(0);
    if nibble >= 8 { nibble.wrapping_sub(16) } else { nibble }
}

/// Decodes one extended opcode token.
fn decode_extended_opcode(token: u32, reader: &Reader) -> Result<ExtendedOpcode> {
    let kind_number = token & 0x3f;
    let (kind, known) = match kind_number {
        0 => (ExtendedOpcodeKind::Empty, 0x3f),
        1 => (
            ExtendedOpcodeKind::SampleControls {
                offsets: [
                    signed_nibble(token >> 9),
                    signed_nibble(token >> 13),
                    signed_nibble(token >> 17),
                ],
            },
            0x001f_fe3f,
        ),
        2 => {
            let dimension = (token >> 6) & 0x1f;
            (
                ExtendedOpcodeKind::ResourceDimension {
                    dimension: ResourceDimension::from_raw(dimension)
                        .ok_or_else(|| reader.error(format!("resource dimension {dimension} is not defined")))?,
                    structure_stride: u16::try_from((token >> 11) & 0xfff).unwrap_or(0),
                },
                0x007f_ffff,
            )
        }
        3 => (
            ExtendedOpcodeKind::ResourceReturnType {
                return_types: return_types(token >> 6, reader)?,
            },
            0x003f_ffff,
        ),
        _ => {
            return Err(reader.error(format!(
                "extended opcode type {kind_number} is not defined (token {token:#010x})"
            )));
        }
    };
    Ok(ExtendedOpcode {
        kind,
        ignored_bits: token & !known & !EXTENDED_BIT,
    })
}

/// Four 4-bit return types, x in the low bits.
fn return_types(bits: u32, reader: &Reader) -> Result<[ReturnType; 4]> {
    let mut types = [ReturnType::Float; 4];
    for (slot, shift) in types.iter_mut().zip([0, 4, 8, 12]) {
        let value = (bits >> shift) & 0xf;
        *slot = ReturnType::from_raw(value)
            .ok_or_else(|| reader.error(format!("resource return type {value} is not defined")))?;
    }
    Ok(types)
}

/// Decodes one operand and what nests in it; `depth` counts the relative addresses around it.
fn decode_operand(reader: &mut Reader, depth: u32) -> Result<Operand> {
    let token = reader.next("operand")?;
    let register_number = (token >> 12) & 0xff;
    let register = RegisterType::from_raw(register_number)
        .ok_or_else(|| reader.error(format!("operand register type {register_number} is not defined")))?;
    let mut ignored = 0;
    let components = match token & 3 {
        0 => {
            ignored |= token & 0xffc;
            Components::Zero
        }
        1 => {
            ignored |= token & 0xffc;
            Components::One
        }
        2 => match (token >> 2) & 3 {
            0 => {
                ignored |= token & 0xf00;
                Components::Four(Selection::Mask(field_u8(token, 4, 0xf)))
            }
            1 => Components::Four(Selection::Swizzle([
                field_u8(token, 4, 3),
                field_u8(token, 6, 3),
                field_u8(token, 8, 3),
                field_u8(token, 10, 3),
            ])),
            2 => {
                ignored |= token & 0xfc0;
                Components::Four(Selection::Select1(field_u8(token, 4, 3)))
            }
            mode => return Err(reader.error(format!("component selection mode {mode} is not defined"))),
        },
        _ => {
            ignored |= token & 0xffc;
            Components::N
        }
    };
    let dimension = (token >> 20) & 3;
    for unused in dimension..3 {
        ignored |= token & (7 << super::index_representation_shift(unused));
    }
    let mut operand = Operand::new(register, components, Vec::new());
    operand.ignored_bits = ignored;

    let mut more = token & EXTENDED_BIT != 0;
    while more {
        let ext = reader.next("extended operand token")?;
        more = ext & EXTENDED_BIT != 0;
        let kind = match ext & 0x3f {
            0 => {
                operand.extended.push(ExtendedOperand {
                    kind: ExtendedOperandKind::Empty,
                    ignored_bits: ext & 0x7fff_ffc0,
                });
                continue;
            }
            1 => ExtendedOperandKind::Modifier,
            other => {
                return Err(reader.error(format!(
                    "extended operand type {other} is not defined (token {ext:#010x})"
                )));
            }
        };
        if operand.extended.iter().any(|e| e.kind == ExtendedOperandKind::Modifier) {
            return Err(reader.error("an operand has two modifier tokens"));
        }
        let modifier = (ext >> 6) & 0xff;
        operand.modifier = Modifier::from_raw(modifier)
            .ok_or_else(|| reader.error(format!("operand modifier {modifier} is not defined")))?;
        let precision = (ext >> 14) & 7;
        operand.min_precision = MinPrecision::from_raw(precision)
            .ok_or_else(|| reader.error(format!("minimum precision {precision} is not defined")))?;
        operand.non_uniform = ext & 0x0002_0000 != 0;
        operand.extended.push(ExtendedOperand {
            kind,
            ignored_bits: ext & 0x7ffc_0000,
        });
    }

    for axis in 0..dimension {
        let representation = (token >> super::index_representation_shift(axis)) & 7;
        let index = match representation {
            0 => Index::Immediate32(reader.next("immediate index")?),
            1 => Index::Immediate64(read_index64(reader)?),
            2 => Index::Relative(Box::new(decode_relative(reader, depth)?)),
            3 => {
                let base = reader.next("immediate index")?;
                Index::Immediate32PlusRelative(base, Box::new(decode_relative(reader, depth)?))
            }
            4 => {
                let base = read_index64(reader)?;
                Index::Immediate64PlusRelative(base, Box::new(decode_relative(reader, depth)?))
            }
            other => return Err(reader.error(format!("index representation {other} is not defined"))),
        };
        operand.indices.push(index);
    }

    operand.immediate = match register {
        RegisterType::Immediate32 => Some(match components {
            Components::One => Immediate::Scalar32(reader.next("literal")?),
            Components::Four(_) => Immediate::Vector32([
                reader.next("literal")?,
                reader.next("literal")?,
                reader.next("literal")?,
                reader.next("literal")?,
            ]),
            Components::Zero | Components::N => {
                return Err(reader.error("a 32-bit literal operand has neither 1 nor 4 components"));
            }
        }),
        RegisterType::Immediate64 => Some(match components {
            Components::One => Immediate::Scalar64(read_literal64(reader)?),
            Components::Four(_) => Immediate::Vector64([read_literal64(reader)?, read_literal64(reader)?]),
            Components::Zero | Components::N => {
                return Err(reader.error("a 64-bit literal operand has neither 1 nor 4 components"));
            }
        }),
        _ => None,
    };
    Ok(operand)
}

/// Decodes the operand of a relative index inside an operand nested `depth` deep.
fn decode_relative(reader: &mut Reader, depth: u32) -> Result<Operand> {
    let depth = depth.saturating_add(1);
    if depth > MAX_RELATIVE_DEPTH {
        return Err(error_at(
            reader.position,
            format!(
                "{}: relative addresses nest more than {MAX_RELATIVE_DEPTH} deep",
                reader.opcode.name()
            ),
        ));
    }
    decode_operand(reader, depth)
}

/// A 64-bit index: high DWORD first (the header's "HI32:LO32").
fn read_index64(reader: &mut Reader) -> Result<u64> {
    let high = reader.next("64-bit index")?;
    let low = reader.next("64-bit index")?;
    Ok(u64::from(high) << 32 | u64::from(low))
}

/// A 64-bit literal: low DWORD first, as a little-endian double is stored.
fn read_literal64(reader: &mut Reader) -> Result<u64> {
    let low = reader.next("64-bit literal")?;
    let high = reader.next("64-bit literal")?;
    Ok(u64::from(high) << 32 | u64::from(low))
}

/// Decodes a custom-data block of `class` whose content (after the length DWORD) is `data`.
fn decode_custom_data(class: u32, data: &[u32], position: usize) -> Result<CustomData> {
    Ok(match class {
        CustomData::COMMENT => CustomData::Comment(data.to_vec()),
        CustomData::DEBUG_INFO => CustomData::DebugInfo(data.to_vec()),
        CustomData::OPAQUE => CustomData::Opaque(data.to_vec()),
        CustomData::IMMEDIATE_CONSTANT_BUFFER => {
            let vectors = data.chunks_exact(4);
            if !vectors.remainder().is_empty() {
                return Err(error_at(
                    position,
                    format!(
                        "the immediate constant buffer holds {} DWORDs, not a whole number of 4-component vectors",
                        data.len()
                    ),
                ));
            }
            CustomData::ImmediateConstantBuffer(vectors.map(|v| v.try_into().unwrap_or_default()).collect())
        }
        CustomData::SHADER_MESSAGE => CustomData::ShaderMessage(data.to_vec()),
        CustomData::CLIP_PLANE_CONSTANT_MAPPINGS_FOR_DX9 => CustomData::ClipPlaneConstantMappingsForDx9(data.to_vec()),
        class => CustomData::Other {
            class,
            data: data.to_vec(),
        },
    })
}

/// A declaration field of the opcode token: `(token >> shift) & mask`, checked by `from_raw`.
fn control<T>(
    token: u32,
    shift: u32,
    mask: u32,
    from_raw: fn(u32) -> Option<T>,
    what: &str,
    reader: &Reader,
) -> Result<T> {
    let value = (token >> shift) & mask;
    from_raw(value).ok_or_else(|| {
        error_at(
            reader.start,
            format!("{}: {what} {value} is not defined", reader.opcode.name()),
        )
    })
}

/// Decodes a declaration's fields into `instruction.declaration`, and what they leave into `instruction.raw`.
fn decode_declaration(token: u32, reader: &mut Reader, instruction: &mut Instruction) -> Result<()> {
    use Opcode as O;
    let opcode = instruction.opcode;
    // The control bits each declaration reads; the rest are kept raw.
    let mut known: u32 = 0;
    let declaration = match opcode {
        O::DclGlobalFlags => {
            known = GlobalFlags::MASK;
            Declaration::GlobalFlags(GlobalFlags(token & GlobalFlags::MASK))
        }
        O::DclResource => {
            known = 0x007f_f800;
            let dimension = control(
                token,
                11,
                0x1f,
                ResourceDimension::from_raw,
                "resource dimension",
                reader,
            )?;
            let register = decode_operand(reader, 0)?;
            let return_token = reader.next("return type token")?;
            instruction.raw.reserved_bits = return_token & 0xffff_0000;
            Declaration::Resource {
                register,
                dimension,
                sample_count: field_u8(token, 16, 0x7f),
                return_types: return_types(return_token, reader)?,
            }
        }
        O::DclConstantBuffer => {
            known = 0x800;
            Declaration::ConstantBuffer {
                register: decode_operand(reader, 0)?,
                dynamic_indexed: token & 0x800 != 0,
            }
        }
        O::DclSampler => {
            known = 0x7800;
            let mode = control(token, 11, 0xf, SamplerMode::from_raw, "sampler mode", reader)?;
            Declaration::Sampler {
                register: decode_operand(reader, 0)?,
                mode,
            }
        }
        O::DclIndexRange => Declaration::IndexRange {
            register: decode_operand(reader, 0)?,
            count: reader.next("register count")?,
        },
        O::DclGsOutputPrimitiveTopology => {
            known = 0x0001_f800;
            Declaration::GsOutputTopology(control(
                token,
                11,
                0x3f,
                PrimitiveTopology::from_raw,
                "output topology",
                reader,
            )?)
        }
        O::DclGsInputPrimitive => {
            known = 0x0001_f800;
            Declaration::GsInputPrimitive(control(
                token,
                11,
                0x3f,
                Primitive::from_raw,
                "input primitive",
                reader,
            )?)
        }
        O::DclMaxOutputVertexCount => Declaration::MaxOutputVertexCount(reader.next("vertex count")?),
        O::DclInput | O::DclOutput => Declaration::Register {
            register: decode_operand(reader, 0)?,
            name: None,
            interpolation: None,
        },
        O::DclInputSgv | O::DclInputSiv | O::DclOutputSgv | O::DclOutputSiv => {
            let register = decode_operand(reader, 0)?;
            let name = read_name(reader, instruction)?;
            Declaration::Register {
                register,
                name: Some(name),
                interpolation: None,
            }
        }
        O::DclInputPs | O::DclInputPsSgv | O::DclInputPsSiv => {
            known = 0x7800;
            let interpolation = control(
                token,
                11,
                0xf,
                InterpolationMode::from_raw,
                "interpolation mode",
                reader,
            )?;
            let register = decode_operand(reader, 0)?;
            let name = if opcode == O::DclInputPs {
                None
            } else {
                Some(read_name(reader, instruction)?)
            };
            Declaration::Register {
                register,
                name,
                interpolation: Some(interpolation),
            }
        }
        O::DclTemps => Declaration::Temps(reader.next("temp count")?),
        O::DclIndexableTemp => Declaration::IndexableTemp {
            register: reader.next("register number")?,
            size: reader.next("register count")?,
            components: reader.next("component count")?,
        },
        O::DclStream => Declaration::Stream(decode_operand(reader, 0)?),
        O::DclFunctionBody => Declaration::FunctionBody(reader.next("function body number")?),
        O::DclFunctionTable => {
            let id = reader.next("function table number")?;
            let count = reader.next("table length")?;
            let bodies = read_list(reader, count, "function body")?;
            Declaration::FunctionTable { id, bodies }
        }
        O::DclInterface => {
            known = 0x800;
            let id = reader.next("interface number")?;
            let expected_table_length = reader.next("expected table length")?;
            let lengths = reader.next("table and array lengths")?;
            let tables = read_list(reader, lengths & 0xffff, "function table")?;
            Declaration::Interface {
                id,
                dynamic_indexed: token & 0x800 != 0,
                expected_table_length,
                array_length: u16::try_from(lengths >> 16).unwrap_or(0),
                tables,
            }
        }
        O::DclInputControlPointCount => {
            known = 0x0001_f800;
            Declaration::InputControlPointCount(field_u8(token, 11, 0x3f))
        }
        O::DclOutputControlPointCount => {
            known = 0x0001_f800;
            Declaration::OutputControlPointCount(field_u8(token, 11, 0x3f))
        }
        O::DclTessDomain => {
            known = 0x1800;
            Declaration::TessDomain(control(
                token,
                11,
                3,
                TessDomain::from_raw,
                "tessellator domain",
                reader,
            )?)
        }
        O::DclTessPartitioning => {
            known = 0x3800;
            Declaration::TessPartitioning(control(
                token,
                11,
                7,
                TessPartitioning::from_raw,
                "tessellator partitioning",
                reader,
            )?)
        }
        O::DclTessOutputPrimitive => {
            known = 0x3800;
            Declaration::TessOutputPrimitive(control(
                token,
                11,
                7,
                TessOutputPrimitive::from_raw,
                "tessellator output primitive",
                reader,
            )?)
        }
        O::DclHsMaxTessfactor => Declaration::HsMaxTessFactor(f32::from_bits(reader.next("max tess factor")?)),
        O::DclHsForkPhaseInstanceCount => Declaration::HsForkPhaseInstanceCount(reader.next("instance count")?),
        O::DclHsJoinPhaseInstanceCount => Declaration::HsJoinPhaseInstanceCount(reader.next("instance count")?),
        O::DclThreadGroup => Declaration::ThreadGroup([
            reader.next("thread group x")?,
            reader.next("thread group y")?,
            reader.next("thread group z")?,
        ]),
        O::DclUnorderedAccessViewTyped => {
            known = 0x0003_f800;
            let dimension = control(
                token,
                11,
                0x1f,
                ResourceDimension::from_raw,
                "resource dimension",
                reader,
            )?;
            let register = decode_operand(reader, 0)?;
            let return_token = reader.next("return type token")?;
            instruction.raw.reserved_bits = return_token & 0xffff_0000;
            Declaration::UavTyped {
                register,
                dimension,
                return_types: return_types(return_token, reader)?,
                globally_coherent: token & 0x0001_0000 != 0,
                rasterizer_ordered: token & 0x0002_0000 != 0,
            }
        }
        O::DclUnorderedAccessViewRaw => {
            known = 0x0003_0000;
            Declaration::UavRaw {
                register: decode_operand(reader, 0)?,
                globally_coherent: token & 0x0001_0000 != 0,
                rasterizer_ordered: token & 0x0002_0000 != 0,
            }
        }
        O::DclUnorderedAccessViewStructured => {
            known = 0x0083_0000;
            Declaration::UavStructured {
                register: decode_operand(reader, 0)?,
                stride: reader.next("structure stride")?,
                globally_coherent: token & 0x0001_0000 != 0,
                rasterizer_ordered: token & 0x0002_0000 != 0,
                has_counter: token & 0x0080_0000 != 0,
            }
        }
        O::DclThreadGroupSharedMemoryRaw => Declaration::TgsmRaw {
            register: decode_operand(reader, 0)?,
            byte_count: reader.next("byte count")?,
        },
        O::DclThreadGroupSharedMemoryStructured => Declaration::TgsmStructured {
            register: decode_operand(reader, 0)?,
            stride: reader.next("structure stride")?,
            count: reader.next("structure count")?,
        },
        O::DclResourceRaw => Declaration::ResourceRaw(decode_operand(reader, 0)?),
        O::DclResourceStructured => Declaration::ResourceStructured {
            register: decode_operand(reader, 0)?,
            stride: reader.next("structure stride")?,
        },
        O::DclGsInstanceCount => Declaration::GsInstanceCount(reader.next("instance count")?),
        other => {
            return Err(error_at(
                reader.start,
                format!("{} is not a declaration this decoder reads", other.name()),
            ));
        }
    };
    instruction.raw.control_bits = token & CONTROL_MASK & !known;
    instruction.raw.trailing = reader.rest();
    instruction.declaration = Some(declaration);
    Ok(())
}

/// Reads a name token (`D3D10_SB_NAME` in `[15:0]`), keeping its reserved bits.
fn read_name(reader: &mut Reader, instruction: &mut Instruction) -> Result<SystemName> {
    let token = reader.next("system value name")?;
    instruction.raw.reserved_bits = token & 0xffff_0000;
    let value = token & 0xffff;
    SystemName::from_raw(value).ok_or_else(|| reader.error(format!("system value name {value} is not defined")))
}

/// Reads `count` DWORDs, which must lie within the instruction (so a hostile count allocates nothing).
fn read_list(reader: &mut Reader, count: u32, what: &str) -> Result<Vec<u32>> {
    let available = reader.end.saturating_sub(reader.position);
    let count = usize::try_from(count).unwrap_or(usize::MAX);
    if count > available {
        return Err(reader.error(format!(
            "the list of {count} {what} entries is longer than the {available} DWORDs left in the instruction"
        )));
    }
    (0..count).map(|_| reader.next(what)).collect()
}

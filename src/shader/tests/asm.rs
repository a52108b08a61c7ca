//! A small assembler for tests: the listing syntax (`mov_sat r0.xy, -|v1.yxxx|`) of a subset of SM4/SM5, built into
//! the program IR with its constructors, then encoded and decoded with the crate's own token code so every test
//! program has real tokens and offsets. Not a product: it panics on what it does not understand.

use crate::dxbc::program::{
    Components, CustomData, Declaration, ExtendedOpcode, ExtendedOpcodeKind, Immediate, Index, Instruction,
    InstructionReturnType, InterpolationMode, Modifier, Opcode, Operand, Program, ProgramKind, RegisterType,
    ResinfoReturnType, ResourceDimension, ReturnType, SamplerMode, Selection, SystemName, decode, encode,
};

/// Assembles `text` and puts it through the encoder and decoder.
pub fn assemble(text: &str) -> Program {
    let program = build(text);
    let tokens = encode(&program).unwrap_or_else(|e| panic!("encode: {e}"));
    decode(&tokens).unwrap_or_else(|e| panic!("decode: {e}"))
}

/// Assembles `text` into the IR without the token round trip.
pub fn build(text: &str) -> Program {
    let mut lines = text
        .lines()
        .map(|l| l.split("//").next().unwrap_or("").trim())
        .filter(|l| !l.is_empty());
    let version = lines.next().expect("a version line");
    let (kind, rest) = version.split_once('_').expect("vs_5_0 or ps_5_0");
    let kind = match kind {
        "vs" => ProgramKind::Vertex,
        "ps" => ProgramKind::Pixel,
        "gs" => ProgramKind::Geometry,
        "cs" => ProgramKind::Compute,
        _ => panic!("unknown program kind {kind}"),
    };
    let (major, minor) = rest.split_once('_').expect("major_minor");
    let mut program = Program {
        kind,
        major: major.parse().unwrap(),
        minor: minor.parse().unwrap(),
        version_reserved_bits: 0,
        instructions: Vec::new(),
    };
    for line in lines {
        program.instructions.push(line_to_instruction(line));
    }
    program
}

fn split_operands(text: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut current = String::new();
    for ch in text.chars() {
        match ch {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            _ => {}
        }
        if ch == ',' && depth == 0 {
            parts.push(current.trim().to_string());
            current.clear();
        } else {
            current.push(ch);
        }
    }
    if !current.trim().is_empty() {
        parts.push(current.trim().to_string());
    }
    parts
}

fn destinations(opcode: Opcode) -> usize {
    use Opcode as O;
    match opcode {
        O::If
        | O::Else
        | O::Endif
        | O::Loop
        | O::Endloop
        | O::Break
        | O::Breakc
        | O::Continue
        | O::Continuec
        | O::Switch
        | O::Case
        | O::Default
        | O::Endswitch
        | O::Call
        | O::Callc
        | O::Ret
        | O::Retc
        | O::Label
        | O::Discard
        | O::Nop
        | O::Emit
        | O::Cut => 0,
        O::Sincos | O::Swapc | O::Imul | O::Umul | O::Udiv | O::Uaddc | O::Usubb => 2,
        _ => 1,
    }
}

fn find_opcode(name: &str) -> Option<Opcode> {
    Opcode::ALL.into_iter().find(|o| o.name() == name)
}

fn line_to_instruction(line: &str) -> Instruction {
    let (mnemonic, rest) = match line.find(|c: char| c.is_whitespace()) {
        Some(at) => (&line[..at], line[at..].trim()),
        None => (line, ""),
    };
    if mnemonic.starts_with("dcl_") {
        return declaration(mnemonic, rest);
    }
    // Offsets `(u,v,w)` attached to the mnemonic.
    let (mnemonic, offsets) = match mnemonic.split_once('(') {
        Some((m, o)) => {
            let values: Vec<i8> = o
                .trim_end_matches(')')
                .split(',')
                .map(|v| v.trim().parse().unwrap())
                .collect();
            (m, Some([values[0], values[1], *values.get(2).unwrap_or(&0)]))
        }
        None => (mnemonic, None),
    };
    let mut name = mnemonic.to_string();
    let mut saturate = false;
    let mut test_nonzero = None;
    let mut resinfo = ResinfoReturnType::Float;
    let mut info = InstructionReturnType::Float;
    let opcode = loop {
        if let Some(op) = find_opcode(&name) {
            break op;
        }
        if let Some(n) = name.strip_suffix("_sat") {
            saturate = true;
            name = n.to_string();
        } else if let Some(n) = name.strip_suffix("_nz") {
            test_nonzero = Some(true);
            name = n.to_string();
        } else if let Some(n) = name.strip_suffix("_z") {
            test_nonzero = Some(false);
            name = n.to_string();
        } else if let Some(n) = name.strip_suffix("_uint") {
            resinfo = ResinfoReturnType::Uint;
            info = InstructionReturnType::Uint;
            name = n.to_string();
        } else if let Some(n) = name.strip_suffix("_rcpfloat") {
            resinfo = ResinfoReturnType::RcpFloat;
            name = n.to_string();
        } else {
            panic!("unknown instruction {mnemonic}");
        }
    };
    let mut instruction = Instruction::new(opcode);
    instruction.saturate = saturate;
    instruction.test_nonzero = test_nonzero.unwrap_or(opcode.has_test_boolean());
    if opcode == Opcode::Resinfo {
        instruction.resinfo_return = resinfo;
    }
    if opcode == Opcode::SampleInfo {
        instruction.sample_info_return = info;
    }
    if let Some(offsets) = offsets {
        instruction.extended.push(ExtendedOpcode {
            kind: ExtendedOpcodeKind::SampleControls { offsets },
            ignored_bits: 0,
        });
    }
    let count = destinations(opcode);
    for (i, text) in split_operands(rest).iter().enumerate() {
        instruction.operands.push(operand(text, i < count));
    }
    instruction
}

fn parse_number(text: &str) -> u32 {
    let t = text.trim();
    if let Some(hex) = t.strip_prefix("0x") {
        return u32::from_str_radix(hex, 16).unwrap();
    }
    if t.contains('.') || t.contains('e') || t.contains("inf") || t.contains("nan") {
        return t.parse::<f32>().unwrap().to_bits();
    }
    if let Some(negative) = t.strip_prefix('-') {
        return (negative.parse::<u32>().unwrap() as i32).wrapping_neg() as u32;
    }
    t.parse::<u32>().unwrap()
}

fn component_letters(text: &str) -> Vec<u8> {
    text.chars()
        .map(|c| match c {
            'x' | 'r' => 0,
            'y' | 'g' => 1,
            'z' | 'b' => 2,
            'w' | 'a' => 3,
            _ => panic!("component {c}"),
        })
        .collect()
}

/// Parses one operand; `destination` decides whether a component suffix is a mask or a swizzle.
pub fn operand(text: &str, destination: bool) -> Operand {
    let mut text = text.trim();
    let mut neg = false;
    let mut abs = false;
    if let Some(t) = text.strip_prefix('-') {
        neg = true;
        text = t;
    }
    if let Some(t) = text.strip_prefix('|') {
        abs = true;
        text = t.trim_end_matches('|');
    }
    let mut op = if let Some(values) = text.strip_prefix("l(") {
        let values: Vec<u32> = split_operands(values.trim_end_matches(')'))
            .iter()
            .map(|v| parse_number(v))
            .collect();
        let (components, immediate) = match values.as_slice() {
            [v] => (Components::One, Immediate::Scalar32(*v)),
            [a, b, c, d] => (
                Components::Four(Selection::Mask(0b1111)),
                Immediate::Vector32([*a, *b, *c, *d]),
            ),
            _ => panic!("a literal has 1 or 4 values"),
        };
        let mut op = Operand::new(RegisterType::Immediate32, components, Vec::new());
        op.immediate = Some(immediate);
        op
    } else if let Some(values) = text.strip_prefix("d(") {
        let values: Vec<u64> = split_operands(values.trim_end_matches(')'))
            .iter()
            .map(|v| v.parse::<f64>().unwrap().to_bits())
            .collect();
        let (components, immediate) = match values.as_slice() {
            [v] => (Components::One, Immediate::Scalar64(*v)),
            [a, b] => (Components::Four(Selection::Mask(0b1111)), Immediate::Vector64([*a, *b])),
            _ => panic!("a double literal has 1 or 2 values"),
        };
        let mut op = Operand::new(RegisterType::Immediate64, components, Vec::new());
        op.immediate = Some(immediate);
        op
    } else {
        register(text, destination)
    };
    op.modifier = match (neg, abs) {
        (false, false) => Modifier::None,
        (true, false) => Modifier::Neg,
        (false, true) => Modifier::Abs,
        (true, true) => Modifier::AbsNeg,
    };
    op
}

fn register(text: &str, destination: bool) -> Operand {
    // Split off the component suffix (after the last '.' outside brackets).
    let mut depth = 0;
    let mut suffix_at = None;
    for (i, ch) in text.char_indices() {
        match ch {
            '[' => depth += 1,
            ']' => depth -= 1,
            '.' if depth == 0 => suffix_at = Some(i),
            _ => {}
        }
    }
    let (base, suffix) = match suffix_at {
        Some(at) => (&text[..at], Some(&text[at + 1..])),
        None => (text, None),
    };
    let named: &[(&str, RegisterType)] = &[
        ("null", RegisterType::Null),
        ("oDepthGE", RegisterType::OutputDepthGreaterEqual),
        ("oDepthLE", RegisterType::OutputDepthLessEqual),
        ("oDepth", RegisterType::OutputDepth),
        ("oMask", RegisterType::OutputCoverageMask),
        ("oStencilRef", RegisterType::OutputStencilRef),
        ("vCoverage", RegisterType::InputCoverageMask),
        ("vInnerCoverage", RegisterType::InnerCoverage),
        ("vPrim", RegisterType::InputPrimitiveId),
        ("rasterizer", RegisterType::Rasterizer),
    ];
    let (register, indices) = if let Some((_, r)) = named.iter().find(|(n, _)| *n == base) {
        (*r, Vec::new())
    } else {
        let prefixes: &[(&str, RegisterType)] = &[
            ("icb", RegisterType::ImmediateConstantBuffer),
            ("cb", RegisterType::ConstantBuffer),
            ("r", RegisterType::Temp),
            ("v", RegisterType::Input),
            ("o", RegisterType::Output),
            ("x", RegisterType::IndexableTemp),
            ("t", RegisterType::Resource),
            ("s", RegisterType::Sampler),
            ("l", RegisterType::Label),
            ("u", RegisterType::UnorderedAccessView),
        ];
        let (prefix, register) = prefixes
            .iter()
            .find(|(p, _)| base.starts_with(p))
            .unwrap_or_else(|| panic!("unknown register {base}"));
        let rest = &base[prefix.len()..];
        let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
        let mut indices = Vec::new();
        if !digits.is_empty() {
            indices.push(Index::Immediate32(digits.parse().unwrap()));
        }
        let mut brackets = &rest[digits.len()..];
        while let Some(open) = brackets.strip_prefix('[') {
            let mut depth = 0;
            let close = open
                .char_indices()
                .find(|(_, c)| {
                    match c {
                        '[' => depth += 1,
                        ']' if depth == 0 => return true,
                        ']' => depth -= 1,
                        _ => {}
                    }
                    false
                })
                .map(|(i, _)| i)
                .unwrap();
            indices.push(index(&open[..close]));
            brackets = &open[close + 1..];
        }
        (*register, indices)
    };
    let scalar = matches!(
        register,
        RegisterType::OutputDepth
            | RegisterType::OutputDepthGreaterEqual
            | RegisterType::OutputDepthLessEqual
            | RegisterType::OutputCoverageMask
            | RegisterType::OutputStencilRef
            | RegisterType::InputCoverageMask
            | RegisterType::InnerCoverage
            | RegisterType::InputPrimitiveId
    );
    let none = matches!(
        register,
        RegisterType::Null | RegisterType::Sampler | RegisterType::Label
    );
    let components = match suffix {
        _ if scalar => Components::One,
        None if none => Components::Zero,
        None if destination => Components::Four(Selection::Mask(0b1111)),
        None => Components::Four(Selection::Swizzle([0, 1, 2, 3])),
        Some(letters) => {
            let letters = component_letters(letters);
            if destination {
                Components::Four(Selection::Mask(letters.iter().fold(0, |m, c| m | (1 << c))))
            } else if letters.len() == 1 {
                Components::Four(Selection::Select1(letters[0]))
            } else {
                let last = *letters.last().unwrap();
                let mut s = [last; 4];
                s[..letters.len()].copy_from_slice(&letters);
                Components::Four(Selection::Swizzle(s))
            }
        }
    };
    Operand::new(register, components, indices)
}

fn index(text: &str) -> Index {
    let text = text.trim();
    // The last '+' outside brackets separates the register from the immediate.
    let mut depth = 0;
    let mut plus = None;
    for (i, ch) in text.char_indices() {
        match ch {
            '[' => depth += 1,
            ']' => depth -= 1,
            '+' if depth == 0 => plus = Some(i),
            _ => {}
        }
    }
    match plus.map(|at| (&text[..at], &text[at + 1..])) {
        Some((reg, imm)) => Index::Immediate32PlusRelative(parse_number(imm), Box::new(register(reg.trim(), false))),
        None if text.chars().next().is_some_and(|c| c.is_ascii_digit()) => Index::Immediate32(parse_number(text)),
        None => Index::Relative(Box::new(register(text, false))),
    }
}

fn dimension(name: &str) -> ResourceDimension {
    match name {
        "buffer" => ResourceDimension::Buffer,
        "texture1d" => ResourceDimension::Texture1D,
        "texture1darray" => ResourceDimension::Texture1DArray,
        "texture2d" => ResourceDimension::Texture2D,
        "texture2darray" => ResourceDimension::Texture2DArray,
        "texture2dms" => ResourceDimension::Texture2DMs,
        "texture2dmsarray" => ResourceDimension::Texture2DMsArray,
        "texture3d" => ResourceDimension::Texture3D,
        "texturecube" => ResourceDimension::TextureCube,
        "texturecubearray" => ResourceDimension::TextureCubeArray,
        _ => panic!("dimension {name}"),
    }
}

fn system_name(name: &str) -> SystemName {
    match name {
        "position" => SystemName::Position,
        "vertex_id" => SystemName::VertexId,
        "instance_id" => SystemName::InstanceId,
        "primitive_id" => SystemName::PrimitiveId,
        "is_front_face" => SystemName::IsFrontFace,
        "sample_index" => SystemName::SampleIndex,
        "clip_distance" => SystemName::ClipDistance,
        _ => panic!("system value {name}"),
    }
}

fn declaration(mnemonic: &str, rest: &str) -> Instruction {
    let parts = split_operands(rest);
    let part = |i: usize| parts.get(i).map(String::as_str).unwrap_or("");
    let (opcode, declaration) = match mnemonic {
        "dcl_temps" => (Opcode::DclTemps, Declaration::Temps(parse_number(part(0)))),
        "dcl_globalFlags" => (
            Opcode::DclGlobalFlags,
            Declaration::GlobalFlags(crate::dxbc::program::GlobalFlags(0)),
        ),
        "dcl_indexableTemp" => {
            let text = part(0).trim_start_matches('x');
            let (number, size) = text.split_once('[').unwrap();
            (
                Opcode::DclIndexableTemp,
                Declaration::IndexableTemp {
                    register: number.parse().unwrap(),
                    size: size.trim_end_matches(']').parse().unwrap(),
                    components: parse_number(part(1)),
                },
            )
        }
        "dcl_constantBuffer" => (
            Opcode::DclConstantBuffer,
            Declaration::ConstantBuffer {
                register: register(part(0), true),
                dynamic_indexed: part(1) == "dynamicIndexed",
            },
        ),
        "dcl_immediateConstantBuffer" => {
            let inner = rest.trim().trim_start_matches('{').trim_end_matches('}');
            let vectors = split_operands(inner)
                .iter()
                .map(|v| {
                    let values: Vec<u32> = split_operands(v.trim().trim_start_matches('{').trim_end_matches('}'))
                        .iter()
                        .map(|n| parse_number(n))
                        .collect();
                    [values[0], values[1], values[2], values[3]]
                })
                .collect();
            (
                Opcode::CustomData,
                Declaration::CustomData(CustomData::ImmediateConstantBuffer(vectors)),
            )
        }
        "dcl_sampler" => (
            Opcode::DclSampler,
            Declaration::Sampler {
                register: register(part(0), true),
                mode: if part(1) == "comparisonMode" {
                    SamplerMode::Comparison
                } else {
                    SamplerMode::Default
                },
            },
        ),
        "dcl_resource_raw" => (
            Opcode::DclResourceRaw,
            Declaration::ResourceRaw(register(part(0), true)),
        ),
        "dcl_resource_structured" => (
            Opcode::DclResourceStructured,
            Declaration::ResourceStructured {
                register: register(part(0), true),
                stride: parse_number(part(1)),
            },
        ),
        name if name.starts_with("dcl_resource_") => {
            // `texture2dms(4)`: the dimension and, for multisampled textures, the declared sample count.
            let (name, samples) = match name["dcl_resource_".len()..].split_once('(') {
                Some((name, count)) => (name, parse_number(count.trim_end_matches(')'))),
                None => (&name["dcl_resource_".len()..], 0),
            };
            let dim = dimension(name);
            let ret = if rest.contains("uint") {
                ReturnType::Uint
            } else if rest.contains("sint") {
                ReturnType::Sint
            } else {
                ReturnType::Float
            };
            let target = parts.last().map(String::as_str).unwrap_or("");
            let target = target.rsplit(' ').next().unwrap_or(target);
            (
                Opcode::DclResource,
                Declaration::Resource {
                    register: register(target, true),
                    dimension: dim,
                    sample_count: u8::try_from(samples).unwrap(),
                    return_types: [ret; 4],
                },
            )
        }
        "dcl_input" | "dcl_output" => (
            if mnemonic == "dcl_input" {
                Opcode::DclInput
            } else {
                Opcode::DclOutput
            },
            Declaration::Register {
                register: register(part(0), true),
                name: None,
                interpolation: None,
            },
        ),
        "dcl_input_sgv" | "dcl_input_siv" | "dcl_output_siv" | "dcl_output_sgv" => (
            match mnemonic {
                "dcl_input_sgv" => Opcode::DclInputSgv,
                "dcl_input_siv" => Opcode::DclInputSiv,
                "dcl_output_sgv" => Opcode::DclOutputSgv,
                _ => Opcode::DclOutputSiv,
            },
            Declaration::Register {
                register: register(part(0), true),
                name: Some(system_name(part(1))),
                interpolation: None,
            },
        ),
        "dcl_input_ps" | "dcl_input_ps_siv" | "dcl_input_ps_sgv" => {
            let words: Vec<&str> = part(0).split_whitespace().collect();
            let interpolation = if words.contains(&"constant") {
                InterpolationMode::Constant
            } else if words.contains(&"noperspective") {
                InterpolationMode::LinearNoPerspective
            } else {
                InterpolationMode::Linear
            };
            let target = words.last().copied().unwrap_or("");
            (
                match mnemonic {
                    "dcl_input_ps" => Opcode::DclInputPs,
                    "dcl_input_ps_siv" => Opcode::DclInputPsSiv,
                    _ => Opcode::DclInputPsSgv,
                },
                Declaration::Register {
                    register: register(target, true),
                    name: (mnemonic != "dcl_input_ps").then(|| system_name(part(1))),
                    interpolation: Some(interpolation),
                },
            )
        }
        _ => panic!("unknown declaration {mnemonic}"),
    };
    let mut instruction = Instruction::new(opcode);
    instruction.declaration = Some(declaration);
    instruction
}

//! The assembler: a listing in the syntax [`super::disasm`] writes (Microsoft `fxc`'s, with the annotations that
//! module documents) back into a program and a DXBC container.
//!
//! The signatures come from the header's comment tables (`// Input signature:` and the rest); the program chunk's
//! code from a `// chunk SHEX` or `// chunk SHDR` line, else `SHEX` for shader model 5 and `SHDR` before. Other
//! comments are ignored, as are `RDEF` tables (reflection is not rebuilt). Then comes the version line (`ps_5_0`) and
//! one instruction per line; a `dcl_immediateConstantBuffer` or `customdata` block may run over several lines until
//! its braces close.
//!
//! Besides what the disassembler writes, the assembler reads a few spellings of other listings: vkd3d's offsets
//! without `_aoffimmi` (`sample(1,0,-1)`), `dcl_sampler s0` without a mode, `CB0[4]` and `cb0[4]`, return types
//! with or without angle brackets, `fxc`'s `sync_sat_ugroup`, and `_rcpfloat`.
//!
//! Input is untrusted: every error is an [`Error`] naming the line (and column where it helps) and what is wrong,
//! nothing panics, and work and memory stay in proportion to the text (relative addresses nest at most
//! [`MAX_RELATIVE_DEPTH`] deep, literals hold at most four values, numbers must fit their fields).

use super::container::FourCc;
use super::disasm::{literal_natural, registerless_name, rw_from_used, stored_system_value, system_value_abbreviation};
use super::program::{
    self, CustomData, Declaration, ExtendedOpcode, ExtendedOpcodeKind, ExtendedOperand, ExtendedOperandKind,
    GlobalFlags, Immediate, Index, Instruction, InstructionReturnType, MAX_RELATIVE_DEPTH, MinPrecision, Modifier,
    Opcode, Operand, Program, RegisterType, ResinfoReturnType, ResourceDimension, ReturnType, SyncFlags,
};
use super::shader::Shader;
use super::signature::{
    ComponentType, MinPrecision as SignaturePrecision, Signature, SignatureElement, SignatureKind, SystemValue,
};
use super::syntax::{
    self, Context, FormOverride, component, derive_components, dimension_from_name, mnemonic, opcode_from_mnemonic,
    parse_literal32, parse_literal64, parse_u32, precision_from_word, register_from_name, return_type_from_name,
};
use crate::{Error, Result};

/// What errors name as the input.
const WHAT: &str = "assembly";
/// The most indices an operand's text may carry (three, and `fcall`'s function index).
const MAX_INDICES: usize = 4;

/// Assembles a listing into a DXBC container: signature chunks and the program chunk, checksummed.
pub fn assemble(text: &str) -> Result<Vec<u8>> {
    assemble_shader(text)?.write()
}

/// Assembles a listing into a [`Shader`] (no reflection, statistics or feature flags).
pub fn assemble_shader(text: &str) -> Result<Shader> {
    let lines: Vec<&str> = text.lines().collect();
    let header = read_header(&lines)?;
    let (program, _) = read_program(&lines)?;
    let program_chunk = header
        .chunk
        .unwrap_or(if program.major >= 5 { FourCc::SHEX } else { FourCc::SHDR });
    Ok(Shader {
        program_chunk,
        program,
        input_signature: header.input,
        output_signature: header.output,
        patch_constant_signature: header.patch_constant,
        reflection: None,
        statistics: None,
        feature_flags: None,
    })
}

/// Assembles the program of a listing alone (its comment header is not read).
pub fn assemble_program(text: &str) -> Result<Program> {
    let lines: Vec<&str> = text.lines().collect();
    read_program(&lines).map(|(program, _)| program)
}

/// An error at a line (1-based) and, when `column` is not 0, a column (1-based).
fn error(line: usize, column: usize, detail: impl Into<String>) -> Error {
    let at = if column == 0 {
        format!("line {line}")
    } else {
        format!("line {line}, column {column}")
    };
    Error::new(WHAT, detail).at(at)
}

/// A line's text before its `//` comment.
fn code_part(line: &str) -> &str {
    line.find("//").map_or(line, |at| line.get(..at).unwrap_or(line))
}

// ---- Header: signatures and the program chunk ----

/// What the comment header says.
struct Header {
    input: Option<Signature>,
    output: Option<Signature>,
    patch_constant: Option<Signature>,
    chunk: Option<FourCc>,
}

/// Reads the signature tables and the `// chunk` line from the comments before the version line.
fn read_header(lines: &[&str]) -> Result<Header> {
    let mut header = Header {
        input: None,
        output: None,
        patch_constant: None,
        chunk: None,
    };
    // The table being read (0 input, 1 output, 2 patch constant), and whether its dashed rule has passed.
    let mut table: Option<(usize, Signature)> = None;
    let mut rows = false;
    for (number, line) in (1usize..).zip(lines) {
        let trimmed = line.trim();
        if !trimmed.is_empty() && !trimmed.starts_with("//") {
            break; // the version line: the header is over
        }
        let body = trimmed.trim_start_matches('/').trim();
        let heading = [
            ("Input signature", 0usize),
            ("Output signature", 1),
            ("Patch Constant signature", 2),
        ]
        .into_iter()
        .find(|(h, _)| body.starts_with(h));
        if let Some((heading, slot)) = heading {
            finish_table(&mut header, table.take());
            let rest = body.get(heading.len()..).unwrap_or("").trim();
            let kind = signature_kind(slot, rest).ok_or_else(|| {
                error(
                    number,
                    0,
                    format!("the signature heading {body:?} names no signature chunk kind"),
                )
            })?;
            table = Some((
                slot,
                Signature {
                    kind,
                    elements: Vec::new(),
                },
            ));
            rows = false;
            continue;
        }
        // `// chunk SHEX`: exactly one word after `chunk` (a longer line is some other comment, like a binding row
        // for a resource named "chunk").
        if let Some(code) = body
            .strip_prefix("chunk ")
            .map(str::trim)
            .filter(|c| !c.contains(char::is_whitespace))
        {
            header.chunk = Some(match code {
                "SHEX" => FourCc::SHEX,
                "SHDR" => FourCc::SHDR,
                other => {
                    return Err(error(
                        number,
                        0,
                        format!("the program chunk must be SHEX or SHDR, not {other:?}"),
                    ));
                }
            });
            continue;
        }
        let Some((_, signature)) = table.as_mut() else {
            continue;
        };
        if !rows {
            rows = body.starts_with("---");
            continue;
        }
        if body.is_empty() {
            finish_table(&mut header, table.take());
            continue;
        }
        if ["no Input", "no Output", "no Patch Constant"].contains(&body) {
            continue;
        }
        let element = signature_row(body, number, signature.kind)?;
        signature.elements.push(element);
    }
    finish_table(&mut header, table.take());
    Ok(header)
}

/// Stores a finished table in its slot.
fn finish_table(header: &mut Header, table: Option<(usize, Signature)>) {
    match table {
        Some((0, s)) => header.input = Some(s),
        Some((1, s)) => header.output = Some(s),
        Some((_, s)) => header.patch_constant = Some(s),
        None => {}
    }
}

/// The chunk kind a heading's remainder (`:` or `(ISG1):`) names for table `slot`.
fn signature_kind(slot: usize, rest: &str) -> Option<SignatureKind> {
    let rest = rest.trim_end_matches(':').trim();
    let code = rest.strip_prefix('(').and_then(|r| r.strip_suffix(')'));
    let kind = match code {
        None if rest.is_empty() => [SignatureKind::Isgn, SignatureKind::Osgn, SignatureKind::Pcsg]
            .get(slot)
            .copied()?,
        None => return None,
        Some(code) => {
            let bytes: [u8; 4] = code.as_bytes().try_into().ok()?;
            SignatureKind::from_fourcc(FourCc(bytes))?
        }
    };
    let fits = match slot {
        0 => matches!(kind, SignatureKind::Isgn | SignatureKind::Isg1),
        1 => matches!(kind, SignatureKind::Osgn | SignatureKind::Osg5 | SignatureKind::Osg1),
        _ => matches!(kind, SignatureKind::Pcsg | SignatureKind::Psg1),
    };
    fits.then_some(kind)
}

/// Splits a table row into cells: whitespace-separated, a leading quoted name kept whole.
fn row_cells(body: &str, line: usize) -> Result<(String, Vec<&str>)> {
    if let Some(quoted) = body.strip_prefix('"') {
        let mut name = String::new();
        let mut chars = quoted.char_indices();
        while let Some((at, c)) = chars.next() {
            match c {
                '"' => {
                    let rest = quoted.get(at.saturating_add(1)..).unwrap_or("");
                    return Ok((name, rest.split_whitespace().collect()));
                }
                '\\' => match chars.next() {
                    Some((_, '"')) => name.push('"'),
                    Some((_, '\\')) => name.push('\\'),
                    Some((start, 'u')) => {
                        let tail = quoted.get(start.saturating_add(1)..).unwrap_or("");
                        let close = tail.find('}').filter(|_| tail.starts_with('{'));
                        let value = close
                            .and_then(|end| tail.get(1..end))
                            .and_then(|hex| u32::from_str_radix(hex, 16).ok())
                            .and_then(char::from_u32)
                            .ok_or_else(|| error(line, 0, "a \\u escape in a semantic name is not \\u{HEX}"))?;
                        name.push(value);
                        // Skip `{HEX}`: the brace, the digits and the closing brace (all ASCII, a byte each).
                        for _ in 0..=close.unwrap_or(0) {
                            chars.next();
                        }
                    }
                    _ => return Err(error(line, 0, "a semantic name has an unknown escape")),
                },
                c => name.push(c),
            }
        }
        return Err(error(line, 0, "a quoted semantic name has no closing quote"));
    }
    let mut cells = body.split_whitespace();
    let name = cells.next().unwrap_or("").to_string();
    Ok((name, cells.collect()))
}

/// Whether a cell holds only component letters.
fn is_letters(cell: &str) -> bool {
    !cell.is_empty() && cell.chars().all(|c| component(c).is_some())
}

/// A mask from letter cells (`x`, `zw`).
fn mask_of(cells: &[&str]) -> u8 {
    cells
        .iter()
        .flat_map(|c| c.chars())
        .filter_map(component)
        .fold(0, |m, c| m | (1 << c))
}

/// One signature table row: `NAME INDEX MASK REGISTER SYSVALUE FORMAT USED [key=value ...]`.
fn signature_row(body: &str, line: usize, kind: SignatureKind) -> Result<SignatureElement> {
    let (semantic_name, cells) = row_cells(body, line)?;
    let bad = |what: &str| error(line, 0, format!("signature row {body:?}: {what}"));
    let mut cells = cells.into_iter().peekable();
    let semantic_index = cells
        .next()
        .and_then(parse_u32)
        .ok_or_else(|| bad("the Index column is not a number"))?;
    let mut mask_cells = Vec::new();
    while let Some(cell) = cells.next_if(|c| is_letters(c)) {
        mask_cells.push(cell);
    }
    let register_cell = cells.next().ok_or_else(|| bad("it has no Register column"))?;
    let register = if register_cell == "-1" || register_cell.starts_with('o') {
        u32::MAX
    } else {
        parse_u32(register_cell).ok_or_else(|| bad("the Register column is not a number"))?
    };
    let sysvalue_cell = cells.next().ok_or_else(|| bad("it has no SysValue column"))?;
    let shown = (0..=70u32)
        .map(SystemValue)
        .find(|&v| system_value_abbreviation(v) == Some(sysvalue_cell))
        .or_else(|| parse_u32(sysvalue_cell).map(SystemValue))
        .ok_or_else(|| bad("the SysValue column is not a system value"))?;
    let format_cell = cells.next().ok_or_else(|| bad("it has no Format column"))?;
    let component_type = match format_cell {
        "unknown" => ComponentType::UNKNOWN,
        "uint" => ComponentType::UINT32,
        "int" | "sint" => ComponentType::SINT32,
        "float" => ComponentType::FLOAT32,
        other => ComponentType(parse_u32(other).ok_or_else(|| bad("the Format column is not a component type"))?),
    };
    let mut used_cells = Vec::new();
    while let Some(cell) = cells.next_if(|c| is_letters(c)) {
        used_cells.push(cell);
    }
    let mut element = SignatureElement {
        system_value: stored_system_value(shown, &semantic_name),
        semantic_name,
        semantic_index,
        component_type,
        register,
        mask: mask_of(&mask_cells),
        rw_mask: rw_from_used(kind, mask_of(&mask_cells), mask_of(&used_cells)),
        stream: 0,
        min_precision: SignaturePrecision::DEFAULT,
    };
    if register == u32::MAX && registerless_name(shown) != register_cell && register_cell != "-1" {
        return Err(bad("the Register column names no register"));
    }
    for cell in cells {
        let (key, value) = cell
            .split_once('=')
            .ok_or_else(|| bad(&format!("unexpected {cell:?}")))?;
        let value = parse_u32(value).ok_or_else(|| bad(&format!("{key}= needs a number")))?;
        match key {
            "stream" => element.stream = value,
            "minprec" => element.min_precision = SignaturePrecision(value),
            "sysvalue" => element.system_value = SystemValue(value),
            "mask" => {
                element.mask = u8::try_from(value).map_err(|_| bad("mask= must fit a byte"))?;
                element.rw_mask = rw_from_used(kind, element.mask & 0xf, mask_of(&used_cells));
            }
            "rw" => element.rw_mask = u8::try_from(value).map_err(|_| bad("rw= must fit a byte"))?,
            other => return Err(bad(&format!("unknown annotation {other:?}"))),
        }
    }
    Ok(element)
}

// ---- Program ----

/// A logical line of code: its text (comments removed; several physical lines joined for a block) and where it
/// starts.
struct CodeLine {
    text: String,
    number: usize,
}

/// The code lines of a listing: comments and blank lines dropped, blocks whose braces are open joined with the lines
/// that close them.
fn code_lines(lines: &[&str]) -> Result<Vec<CodeLine>> {
    let mut out: Vec<CodeLine> = Vec::new();
    let mut open: Option<(CodeLine, i64)> = None;
    for (number, line) in (1usize..).zip(lines) {
        let code = code_part(line);
        let balance = |text: &str| {
            text.chars().fold(0i64, |depth, c| match c {
                '{' => depth.saturating_add(1),
                '}' => depth.saturating_sub(1),
                _ => depth,
            })
        };
        if let Some((mut block, depth)) = open.take() {
            block.text.push(' ');
            block.text.push_str(code.trim());
            let depth = depth.saturating_add(balance(code));
            if depth > 0 {
                open = Some((block, depth));
            } else {
                out.push(block);
            }
            continue;
        }
        let trimmed = code.trim();
        if trimmed.is_empty() {
            continue;
        }
        let line = CodeLine {
            text: trimmed.to_string(),
            number,
        };
        let depth = balance(trimmed);
        if depth > 0 {
            open = Some((line, depth));
        } else {
            out.push(line);
        }
    }
    if let Some((block, _)) = open {
        return Err(error(block.number, 0, "a block's braces are never closed"));
    }
    Ok(out)
}

/// Reads the version line and the instructions; also returns each instruction's line number.
fn read_program(lines: &[&str]) -> Result<(Program, Vec<usize>)> {
    let code = code_lines(lines)?;
    let mut code = code.into_iter();
    let version = code
        .next()
        .ok_or_else(|| Error::new(WHAT, "there is no version line (ps_5_0, vs_4_0, ...)"))?;
    let mut program = parse_version(&version)?;
    let mut numbers = Vec::new();
    for line in code {
        let instruction = parse_any(&line)?;
        // Encode it alone now, so that what the encoder refuses is reported at its line.
        let probe = Program {
            kind: program.kind,
            major: program.major,
            minor: program.minor,
            version_reserved_bits: program.version_reserved_bits,
            instructions: vec![instruction],
        };
        program::encode(&probe).map_err(|e| error(line.number, 0, e.detail))?;
        program.instructions.extend(probe.instructions);
        numbers.push(line.number);
    }
    Ok((program, numbers))
}

/// Parses the version line: `ps_5_0`, optionally `{reserved=0xN}`.
fn parse_version(line: &CodeLine) -> Result<Program> {
    let mut cursor = Cursor::new(&line.text, line.number);
    let word = cursor.take_while(|c| c.is_ascii_alphanumeric() || c == '_');
    let bad = || {
        error(
            line.number,
            1,
            format!("{:?} is not a version line (ps_5_0, vs_4_1, cs_5_0, ...)", line.text),
        )
    };
    let mut parts = word.split('_');
    let kind = parts.next().and_then(syntax::program_kind).ok_or_else(bad)?;
    let major = parts
        .next()
        .and_then(|d| d.parse::<u8>().ok())
        .filter(|&d| d <= 15)
        .ok_or_else(bad)?;
    let minor = parts
        .next()
        .and_then(|d| d.parse::<u8>().ok())
        .filter(|&d| d <= 15)
        .ok_or_else(bad)?;
    if parts.next().is_some() {
        return Err(bad());
    }
    let mut reserved = 0;
    for note in cursor.annotations()? {
        match note.split_once('=') {
            Some(("reserved", value)) => {
                reserved = parse_u32(value)
                    .filter(|v| v & !0x0000_ff00 == 0)
                    .ok_or_else(|| error(line.number, 0, "reserved= must be bits within 0xff00"))?;
            }
            _ => return Err(error(line.number, 0, format!("unknown version annotation {note:?}"))),
        }
    }
    cursor.expect_end()?;
    Ok(Program {
        kind,
        major,
        minor,
        version_reserved_bits: reserved,
        instructions: Vec::new(),
    })
}

/// A character cursor over a line's text; positions are byte offsets into it, reported as columns.
struct Cursor<'a> {
    text: &'a str,
    at: usize,
    end: usize,
    line: usize,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str, line: usize) -> Self {
        Self {
            text,
            at: 0,
            end: text.len(),
            line,
        }
    }

    /// A cursor over `start..end` of the same text.
    fn span(text: &'a str, start: usize, end: usize, line: usize) -> Self {
        Self {
            text,
            at: start,
            end,
            line,
        }
    }

    /// The column (1-based, in characters) of byte `at`.
    fn column(&self, at: usize) -> usize {
        self.text.get(..at).map_or(at, |t| t.chars().count()).saturating_add(1)
    }

    fn error(&self, detail: impl Into<String>) -> Error {
        error(self.line, self.column(self.at), detail)
    }

    fn rest(&self) -> &'a str {
        self.text.get(self.at..self.end).unwrap_or("")
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at = self.at.saturating_add(c.len_utf8());
        Some(c)
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn eat_str(&mut self, s: &str) -> bool {
        if self.rest().starts_with(s) {
            self.at = self.at.saturating_add(s.len());
            true
        } else {
            false
        }
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }

    fn take_while(&mut self, keep: impl Fn(char) -> bool) -> &'a str {
        let start = self.at;
        while self.peek().is_some_and(&keep) {
            self.bump();
        }
        self.text.get(start..self.at).unwrap_or("")
    }

    fn expect(&mut self, c: char, what: &str) -> Result<()> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.error(format!("expected {c:?} {what}, found {:?}", self.rest())))
        }
    }

    fn expect_end(&mut self) -> Result<()> {
        self.skip_ws();
        if self.at >= self.end {
            Ok(())
        } else {
            Err(self.error(format!("unexpected {:?}", self.rest())))
        }
    }

    /// Reads `{...}` annotation groups (whitespace before each allowed), returning their words. `def32 as X` stays
    /// one word.
    fn annotations(&mut self) -> Result<Vec<String>> {
        let mut words = Vec::new();
        loop {
            let save = self.at;
            self.skip_ws();
            if !self.eat('{') {
                self.at = save;
                return Ok(words);
            }
            let start = self.at;
            while self.peek().is_some_and(|c| c != '}' && c != '{') {
                self.bump();
            }
            let inside = self.text.get(start..self.at).unwrap_or("");
            self.expect('}', "to close an annotation")?;
            let mut parts = inside.split_whitespace().peekable();
            while let Some(word) = parts.next() {
                if word == "def32" && parts.peek() == Some(&"as") {
                    parts.next();
                    let precision = parts.next().unwrap_or("");
                    words.push(precision.to_string());
                } else {
                    words.push(word.to_string());
                }
            }
        }
    }
}

/// Splits `start..end` of `text` at the commas outside any brackets, parentheses or braces; returns the pieces'
/// byte ranges, trimmed.
fn split_top_level(text: &str, start: usize, end: usize) -> Vec<(usize, usize)> {
    let mut pieces = Vec::new();
    let mut depth: usize = 0;
    let mut piece_start = start;
    let slice = text.get(start..end).unwrap_or("");
    for (offset, c) in slice.char_indices() {
        let at = start.saturating_add(offset);
        match c {
            '(' | '[' | '{' => depth = depth.saturating_add(1),
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                pieces.push((piece_start, at));
                piece_start = at.saturating_add(1);
            }
            _ => {}
        }
    }
    pieces.push((piece_start, end));
    pieces
        .into_iter()
        .map(|(s, e)| {
            let piece = text.get(s..e).unwrap_or("");
            let lead = piece.len().saturating_sub(piece.trim_start().len());
            let trail = piece.len().saturating_sub(piece.trim_end().len());
            (
                s.saturating_add(lead),
                e.saturating_sub(trail).max(s.saturating_add(lead)),
            )
        })
        .filter(|(s, e)| s < e)
        .collect()
}

/// A mnemonic taken apart: its words joined (`resinfo_indexable_uint`) and its parenthesized groups in order.
struct Mnemonic {
    word: String,
    groups: Vec<String>,
}

/// Reads a mnemonic: characters up to whitespace outside parentheses.
fn take_mnemonic(cursor: &mut Cursor) -> Result<Mnemonic> {
    let mut word = String::new();
    let mut groups = Vec::new();
    while let Some(c) = cursor.peek() {
        if c.is_whitespace() {
            break;
        }
        if c == '(' {
            cursor.bump();
            let start = cursor.at;
            while cursor.peek().is_some_and(|c| c != ')' && c != '(') {
                cursor.bump();
            }
            let inside = cursor.text.get(start..cursor.at).unwrap_or("").to_string();
            cursor.expect(')', "to close the mnemonic's parenthesis")?;
            groups.push(inside);
        } else if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
            cursor.bump();
        } else {
            return Err(cursor.error(format!("unexpected {c:?} in the mnemonic")));
        }
    }
    if word.is_empty() {
        return Err(cursor.error("expected a mnemonic"));
    }
    Ok(Mnemonic { word, groups })
}

/// Instruction annotations read from `{...}`.
#[derive(Default)]
struct InstructionNotes {
    controls: u32,
    ext: Option<Vec<u32>>,
    length_dword: Option<u8>,
    reserved: u32,
    trailing: Vec<u32>,
    function: Option<u32>,
}

/// Parses instruction annotation words.
fn instruction_notes(words: &[String], line: usize) -> Result<InstructionNotes> {
    let mut notes = InstructionNotes::default();
    let list = |value: &str, key: &str| -> Result<Vec<u32>> {
        value
            .split(',')
            .filter(|v| !v.is_empty())
            .map(|v| parse_u32(v).ok_or_else(|| error(line, 0, format!("{key}= lists {v:?}, not a number"))))
            .collect()
    };
    for word in words {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| error(line, 0, format!("unknown instruction annotation {word:?}")))?;
        let number = || parse_u32(value).ok_or_else(|| error(line, 0, format!("{key}= needs a number, not {value:?}")));
        match key {
            "controls" => notes.controls = number()?,
            "ext" => notes.ext = Some(list(value, key)?),
            "lengthdword" => {
                notes.length_dword = Some(
                    u8::try_from(number()?)
                        .ok()
                        .filter(|&v| v <= 0x7f)
                        .ok_or_else(|| error(line, 0, "lengthdword= must fit 7 bits"))?,
                );
            }
            "reserved" => notes.reserved = number()?,
            "trailing" => notes.trailing = list(value, key)?,
            "function" => notes.function = Some(number()?),
            other => return Err(error(line, 0, format!("unknown instruction annotation {other:?}"))),
        }
    }
    Ok(notes)
}

/// Decodes a list of extended opcode tokens (as `ext=` gives them, without bit 31) by decoding a `nop` carrying
/// them.
fn decode_extended(tokens: &[u32], line: usize) -> Result<Vec<ExtendedOpcode>> {
    if tokens.is_empty() || tokens.len() > 64 {
        return Err(error(line, 0, "ext= must list 1 to 64 extended opcode tokens"));
    }
    let length = u32::try_from(tokens.len().saturating_add(1)).unwrap_or(0);
    let mut stream = vec![0x0000_0050, 0, Opcode::Nop.raw() | 0x8000_0000 | length << 24];
    for (i, &t) in tokens.iter().enumerate() {
        let chain = if i.saturating_add(1) < tokens.len() {
            0x8000_0000
        } else {
            0
        };
        stream.push((t & 0x7fff_ffff) | chain);
    }
    let total = u32::try_from(stream.len()).unwrap_or(0);
    if let Some(slot) = stream.get_mut(1) {
        *slot = total;
    }
    let program = program::decode(&stream).map_err(|e| error(line, 0, format!("ext=: {}", e.detail)))?;
    Ok(program
        .instructions
        .into_iter()
        .next()
        .map(|i| i.extended)
        .unwrap_or_default())
}

/// Parses one instruction line.
fn parse_instruction(line: &CodeLine) -> Result<Instruction> {
    let mut cursor = Cursor::new(&line.text, line.number);
    let mnemonic = take_mnemonic(&mut cursor)?;
    cursor.skip_ws();
    let mut precise = 0u8;
    if cursor.eat_str("[precise") {
        precise = if cursor.eat('(') {
            let letters = cursor.take_while(|c| c.is_ascii_alphabetic());
            cursor.expect(')', "after the precise components")?;
            letters
                .chars()
                .try_fold(0u8, |m, c| component(c).map(|c| m | (1 << c)))
                .ok_or_else(|| cursor.error("precise components must be x, y, z, w"))?
        } else {
            0xf
        };
        cursor.expect(']', "to close [precise]")?;
    }
    let words = cursor.annotations()?;
    let notes = instruction_notes(&words, line.number)?;
    cursor.skip_ws();
    let args = split_top_level(&line.text, cursor.at, line.text.len());

    let is_declaration = mnemonic.word.starts_with("dcl_") || mnemonic.word == "customdata";
    let mut instruction = if is_declaration {
        if precise != 0 {
            return Err(error(line.number, 0, "a declaration cannot be precise"));
        }
        parse_declaration(&mnemonic, &args, line, &notes)?
    } else {
        let mut i = parse_operation(&mnemonic, &args, line, &notes)?;
        i.precise_mask = precise;
        i
    };
    instruction.raw.control_bits = notes.controls;
    instruction.raw.length_dword_field = notes.length_dword;
    instruction.raw.reserved_bits = notes.reserved;
    instruction.raw.trailing = notes.trailing;
    if let Some(tokens) = &notes.ext {
        instruction.extended = decode_extended(tokens, line.number)?;
    }
    Ok(instruction)
}

/// The opcode candidates of a word, longest mnemonic first: `(opcode, the rest of the word)`.
fn opcode_candidates(word: &str, declaration: bool) -> Vec<(Opcode, &str)> {
    let mut cuts: Vec<usize> = word.match_indices('_').map(|(i, _)| i).collect();
    cuts.push(word.len());
    cuts.iter()
        .rev()
        .filter_map(|&cut| {
            let (head, rest) = word.split_at_checked(cut)?;
            let opcode = opcode_from_mnemonic(head)?;
            (opcode.is_declaration() == declaration || (opcode == Opcode::CustomData && declaration))
                .then_some((opcode, rest))
        })
        .collect()
}

/// The controls a non-declaration mnemonic's suffix words give.
#[derive(Default)]
struct Suffix {
    saturate: bool,
    test: Option<bool>,
    aoffimmi: bool,
    indexable: bool,
    resinfo: Option<ResinfoReturnType>,
    sample_info_uint: bool,
    sync: u32,
}

/// Reads a suffix (`_sat_indexable_uint`) for `opcode`, or `None` when a word does not belong to it.
fn read_suffix(opcode: Opcode, rest: &str) -> Option<Suffix> {
    let mut suffix = Suffix::default();
    for word in rest.split('_').skip(1) {
        match word {
            "sat" if opcode == Opcode::Sync => suffix.sync |= SyncFlags::UAV_MEMORY_GROUP,
            "sat" => suffix.saturate = true,
            "z" | "nz" if opcode.has_test_boolean() && suffix.test.is_none() => suffix.test = Some(word == "nz"),
            "aoffimmi" => suffix.aoffimmi = true,
            "indexable" => suffix.indexable = true,
            "uint" if opcode == Opcode::Resinfo => suffix.resinfo = Some(ResinfoReturnType::Uint),
            "rcpFloat" | "rcpfloat" if opcode == Opcode::Resinfo => suffix.resinfo = Some(ResinfoReturnType::RcpFloat),
            "uint" if opcode == Opcode::SampleInfo => suffix.sample_info_uint = true,
            "uglobal" if opcode == Opcode::Sync => suffix.sync |= SyncFlags::UAV_MEMORY_GLOBAL,
            "ugroup" if opcode == Opcode::Sync => suffix.sync |= SyncFlags::UAV_MEMORY_GROUP,
            "g" if opcode == Opcode::Sync => suffix.sync |= SyncFlags::THREAD_GROUP_SHARED_MEMORY,
            "t" if opcode == Opcode::Sync => suffix.sync |= SyncFlags::THREADS_IN_GROUP,
            _ => return None,
        }
    }
    if opcode.has_test_boolean() && suffix.test.is_none() {
        return None;
    }
    Some(suffix)
}

/// Parses an instruction that is not a declaration.
fn parse_operation(
    mnemonic: &Mnemonic,
    args: &[(usize, usize)],
    line: &CodeLine,
    notes: &InstructionNotes,
) -> Result<Instruction> {
    let (opcode, suffix) = opcode_candidates(&mnemonic.word, false)
        .into_iter()
        .find_map(|(opcode, rest)| read_suffix(opcode, rest).map(|s| (opcode, s)))
        .ok_or_else(|| {
            error(
                line.number,
                1,
                format!("{:?} is not a known instruction mnemonic", mnemonic.word),
            )
        })?;
    let mut instruction = Instruction::new(opcode);
    instruction.saturate = suffix.saturate;
    instruction.test_nonzero = suffix.test.unwrap_or(false);
    instruction.resinfo_return = suffix.resinfo.unwrap_or(ResinfoReturnType::Float);
    if suffix.sample_info_uint {
        instruction.sample_info_return = InstructionReturnType::Uint;
    }
    instruction.sync_flags = SyncFlags(suffix.sync);
    if notes.ext.is_none() {
        instruction.extended = mnemonic_extended(mnemonic, &suffix, line.number)?;
    }

    let destinations = syntax::destination_count(opcode);
    for (i, &(start, end)) in args.iter().enumerate() {
        let context = if i < destinations {
            Context::Dest
        } else {
            Context::Source
        };
        let mut cursor = Cursor::span(&line.text, start, end, line.number);
        let operand = parse_operand(&mut cursor, context, 0)?;
        cursor.expect_end()?;
        instruction.operands.push(operand);
    }
    if opcode == Opcode::InterfaceCall {
        instruction.function_index = match notes.function {
            Some(index) => index,
            None => {
                let last = instruction
                    .operands
                    .last_mut()
                    .filter(|_| args.len() == 1)
                    .ok_or_else(|| error(line.number, 0, "fcall takes one interface operand, fp#[i][function]"))?;
                match last.indices.pop() {
                    Some(Index::Immediate32(index)) => index,
                    _ => {
                        return Err(error(
                            line.number,
                            0,
                            "fcall's last index must be the function index, an immediate",
                        ));
                    }
                }
            }
        };
    } else if notes.function.is_some() {
        return Err(error(line.number, 0, "function= belongs to fcall only"));
    }
    Ok(instruction)
}

/// The extended opcode tokens a mnemonic's groups spell: offsets, dimension (with stride), return types.
fn mnemonic_extended(mnemonic: &Mnemonic, suffix: &Suffix, line: usize) -> Result<Vec<ExtendedOpcode>> {
    let mut offsets = None;
    let mut dimension = None;
    let mut types = None;
    for group in &mnemonic.groups {
        let items: Vec<&str> = group.split(',').map(str::trim).collect();
        let first = items.first().copied().unwrap_or("");
        if first.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
            let values = items
                .iter()
                .map(|v| v.parse::<i8>().ok().filter(|o| (-8..=7).contains(o)))
                .collect::<Option<Vec<i8>>>()
                .and_then(|v| <[i8; 3]>::try_from(v).ok())
                .ok_or_else(|| {
                    error(
                        line,
                        1,
                        format!("texel offsets ({group}) must be three integers from -8 to 7"),
                    )
                })?;
            offsets = Some(values);
        } else if let Some(d) = dimension_from_name(first) {
            let stride = match items.get(1) {
                None => 0,
                Some(item) => item
                    .strip_prefix("stride=")
                    .and_then(|s| s.parse::<u16>().ok())
                    .filter(|&s| s <= 0xfff)
                    .ok_or_else(|| error(line, 1, format!("({group}): the stride must be stride=N, N below 4096")))?,
            };
            if items.len() > 2 {
                return Err(error(
                    line,
                    1,
                    format!("({group}) has more than a dimension and a stride"),
                ));
            }
            dimension = Some((d, stride));
        } else {
            let values = items
                .iter()
                .map(|t| return_type_from_name(t))
                .collect::<Option<Vec<ReturnType>>>()
                .and_then(|v| <[ReturnType; 4]>::try_from(v).ok())
                .ok_or_else(|| {
                    error(
                        line,
                        1,
                        format!("({group}) is neither texel offsets, a resource dimension nor four return types"),
                    )
                })?;
            types = Some(values);
        }
    }
    if suffix.aoffimmi && offsets.is_none() {
        return Err(error(line, 1, "_aoffimmi needs its offsets: _aoffimmi(u,v,w)"));
    }
    if suffix.indexable && dimension.is_none() {
        return Err(error(line, 1, "_indexable needs its dimension: _indexable(texture2d)"));
    }
    let mut extended = Vec::new();
    let mut push = |kind| extended.push(ExtendedOpcode { kind, ignored_bits: 0 });
    if let Some(offsets) = offsets {
        push(ExtendedOpcodeKind::SampleControls { offsets });
    }
    if let Some((dimension, structure_stride)) = dimension {
        push(ExtendedOpcodeKind::ResourceDimension {
            dimension,
            structure_stride,
        });
    }
    if let Some(return_types) = types {
        push(ExtendedOpcodeKind::ResourceReturnType { return_types });
    }
    Ok(extended)
}

/// Operand annotations read from `{...}`.
#[derive(Default)]
struct OperandNotes {
    precision: Option<MinPrecision>,
    non_uniform: bool,
    form: Option<FormOverride>,
    ignored: u32,
    ext: Option<Vec<ExtendedOperand>>,
}

/// Parses operand annotation words.
fn operand_notes(words: &[String], cursor: &Cursor) -> Result<OperandNotes> {
    let mut notes = OperandNotes::default();
    for word in words {
        if let Some(p) = precision_from_word(word) {
            notes.precision = Some(p);
        } else if word == "nonuniform" {
            notes.non_uniform = true;
        } else if let Some(form) = FormOverride::from_word(word) {
            notes.form = Some(form);
        } else if let Some(value) = word.strip_prefix("ignored=") {
            notes.ignored = parse_u32(value).ok_or_else(|| cursor.error("ignored= needs a number"))?;
        } else if let Some(value) = word.strip_prefix("ext=") {
            let mut list = Vec::new();
            for item in value.split(',').filter(|i| !i.is_empty()) {
                let (kind, bits) = item.split_once(':').unwrap_or((item, "0"));
                let kind = match kind {
                    "mod" => ExtendedOperandKind::Modifier,
                    "empty" => ExtendedOperandKind::Empty,
                    other => return Err(cursor.error(format!("ext= item {other:?} is neither mod nor empty"))),
                };
                let ignored_bits = parse_u32(bits).ok_or_else(|| cursor.error("ext= bits must be a number"))?;
                if list.len() >= 16 {
                    return Err(cursor.error("ext= lists more than 16 extended operand tokens"));
                }
                list.push(ExtendedOperand { kind, ignored_bits });
            }
            notes.ext = Some(list);
        } else {
            return Err(cursor.error(format!("unknown operand annotation {word:?}")));
        }
    }
    Ok(notes)
}

/// Parses one operand at the cursor; `depth` counts the relative addresses around it.
fn parse_operand(cursor: &mut Cursor, context: Context, depth: u32) -> Result<Operand> {
    cursor.skip_ws();
    let start = cursor.at;
    let negate = cursor.eat('-');
    let absolute = cursor.eat('|');
    let (register, immediate, mut indices) = if cursor.eat_str("l(") {
        let values = literal_values(cursor)?;
        let immediate = match values
            .iter()
            .map(|v| parse_literal32(v))
            .collect::<Option<Vec<u32>>>()
            .as_deref()
        {
            Some(&[v]) => Immediate::Scalar32(v),
            Some(&[a, b, c, d]) => Immediate::Vector32([a, b, c, d]),
            Some(_) => return Err(cursor.error("a 32-bit literal l(...) holds 1 or 4 values")),
            None => return Err(cursor.error(format!("l({}) holds a value that is not a number", values.join(", ")))),
        };
        (RegisterType::Immediate32, Some(immediate), Vec::new())
    } else if cursor.eat_str("d(") {
        let values = literal_values(cursor)?;
        let immediate = match values
            .iter()
            .map(|v| parse_literal64(v))
            .collect::<Option<Vec<u64>>>()
            .as_deref()
        {
            Some(&[v]) => Immediate::Scalar64(v),
            Some(&[a, b]) => Immediate::Vector64([a, b]),
            Some(_) => return Err(cursor.error("a 64-bit literal d(...) holds 1 or 2 values")),
            None => return Err(cursor.error(format!("d({}) holds a value that is not a number", values.join(", ")))),
        };
        (RegisterType::Immediate64, Some(immediate), Vec::new())
    } else {
        let name_at = cursor.at;
        let name = cursor.take_while(|c| c.is_ascii_alphabetic());
        let register = register_from_name(name).ok_or_else(|| {
            error(
                cursor.line,
                cursor.column(name_at),
                format!("{:?} is not a register (r#, v#, o#, cb#[], t#, l(...), ...)", {
                    let rest = cursor.text.get(name_at..cursor.end).unwrap_or("");
                    rest.chars().take(24).collect::<String>()
                }),
            )
        })?;
        let digits = cursor.take_while(|c| c.is_ascii_digit());
        let mut indices = Vec::new();
        if !digits.is_empty() {
            let value = digits
                .parse::<u32>()
                .map_err(|_| cursor.error(format!("register number {digits} does not fit 32 bits")))?;
            indices.push(Index::Immediate32(value));
        }
        (register, None, indices)
    };
    while cursor.peek() == Some('[') {
        if indices.len() >= MAX_INDICES {
            return Err(cursor.error(format!("an operand has at most {MAX_INDICES} indices")));
        }
        cursor.bump();
        indices.push(parse_index(cursor, depth)?);
        cursor.skip_ws();
        cursor.expect(']', "to close the index")?;
    }
    let letters: Option<Vec<u8>> = if cursor.eat('.') {
        let text = cursor.take_while(|c| c.is_ascii_alphabetic());
        let letters: Option<Vec<u8>> = text.chars().map(component).collect();
        match letters {
            Some(l) if (1..=4).contains(&l.len()) => Some(l),
            _ => return Err(cursor.error(format!(".{text} is not 1 to 4 of the components x, y, z, w"))),
        }
    } else {
        None
    };
    let mut words = cursor.annotations()?;
    if absolute {
        cursor.skip_ws();
        cursor.expect('|', "to close the absolute value")?;
        words.extend(cursor.annotations()?);
    }
    let notes = operand_notes(&words, cursor)?;

    let components = match (immediate, &letters, notes.form) {
        (Some(imm), None, None) => literal_natural(match imm {
            Immediate::Scalar32(_) | Immediate::Scalar64(_) => 1,
            Immediate::Vector32(_) => 4,
            Immediate::Vector64(_) => 2,
        }),
        _ => derive_components(register, context, letters.as_deref(), notes.form).ok_or_else(|| {
            error(
                cursor.line,
                cursor.column(start),
                "the component letters do not fit the operand's place (a mask must list components in order, a \
                 source takes one letter or four) or its form annotation",
            )
        })?,
    };
    let mut operand = Operand::new(register, components, Vec::new());
    operand.indices = std::mem::take(&mut indices);
    operand.immediate = immediate;
    operand.modifier = match (negate, absolute) {
        (false, false) => Modifier::None,
        (true, false) => Modifier::Neg,
        (false, true) => Modifier::Abs,
        (true, true) => Modifier::AbsNeg,
    };
    operand.min_precision = notes.precision.unwrap_or(MinPrecision::Default);
    operand.non_uniform = notes.non_uniform;
    operand.ignored_bits = notes.ignored;
    let needs_modifier =
        operand.modifier != Modifier::None || operand.min_precision != MinPrecision::Default || operand.non_uniform;
    operand.extended = match notes.ext {
        Some(list) => list,
        None if needs_modifier => vec![ExtendedOperand {
            kind: ExtendedOperandKind::Modifier,
            ignored_bits: 0,
        }],
        None => Vec::new(),
    };
    Ok(operand)
}

/// The comma-separated values of a literal up to its `)` (at most five, so a hostile list stops early).
fn literal_values(cursor: &mut Cursor) -> Result<Vec<String>> {
    let mut values = Vec::new();
    loop {
        cursor.skip_ws();
        let value = cursor.take_while(|c| !c.is_whitespace() && c != ',' && c != ')');
        if value.is_empty() {
            return Err(cursor.error("expected a literal value"));
        }
        values.push(value.to_string());
        if values.len() > 4 {
            return Err(cursor.error("a literal holds at most 4 values"));
        }
        cursor.skip_ws();
        if cursor.eat(')') {
            return Ok(values);
        }
        cursor.expect(',', "between literal values")?;
    }
}

/// Parses an index inside brackets: `5`, `5i64`, `r0.x`, `r0.x + 5`, `r0.x + 5i64`.
fn parse_index(cursor: &mut Cursor, depth: u32) -> Result<Index> {
    cursor.skip_ws();
    let number = |cursor: &mut Cursor| -> Result<(u64, bool)> {
        let digits = cursor.take_while(|c| c.is_ascii_digit());
        let wide = cursor.eat_str("i64");
        let value = digits
            .parse::<u64>()
            .ok()
            .filter(|&v| wide || v <= u64::from(u32::MAX))
            .ok_or_else(|| {
                cursor.error(format!(
                    "index {digits} does not fit {} bits",
                    if wide { 64 } else { 32 }
                ))
            })?;
        Ok((value, wide))
    };
    if cursor.peek().is_some_and(|c| c.is_ascii_digit()) {
        let (value, wide) = number(cursor)?;
        return Ok(if wide {
            Index::Immediate64(value)
        } else {
            Index::Immediate32(u32::try_from(value).unwrap_or(0))
        });
    }
    let depth = depth.saturating_add(1);
    if depth > MAX_RELATIVE_DEPTH {
        return Err(cursor.error(format!("relative addresses nest more than {MAX_RELATIVE_DEPTH} deep")));
    }
    let relative = Box::new(parse_operand(cursor, Context::Source, depth)?);
    cursor.skip_ws();
    if !cursor.eat('+') {
        return Ok(Index::Relative(relative));
    }
    cursor.skip_ws();
    let (value, wide) = number(cursor)?;
    Ok(if wide {
        Index::Immediate64PlusRelative(value, relative)
    } else {
        Index::Immediate32PlusRelative(u32::try_from(value).unwrap_or(0), relative)
    })
}

// ---- Declarations ----

/// The arguments of a declaration line, with the line for errors.
struct Args<'a> {
    line: &'a CodeLine,
    pieces: &'a [(usize, usize)],
}

impl<'a> Args<'a> {
    fn count(&self, expected: usize, usage: &str) -> Result<()> {
        if self.pieces.len() == expected {
            Ok(())
        } else {
            Err(error(
                self.line.number,
                0,
                format!("expected {expected} argument(s): {usage}; found {}", self.pieces.len()),
            ))
        }
    }

    fn text(&self, i: usize) -> &'a str {
        self.pieces
            .get(i)
            .and_then(|&(s, e)| self.line.text.get(s..e))
            .unwrap_or("")
    }

    fn cursor(&self, i: usize) -> Cursor<'a> {
        let (s, e) = self.pieces.get(i).copied().unwrap_or((0, 0));
        Cursor::span(&self.line.text, s, e, self.line.number)
    }

    fn error(&self, i: usize, detail: impl Into<String>) -> Error {
        let cursor = self.cursor(i);
        error(self.line.number, cursor.column(cursor.at), detail)
    }

    fn number(&self, i: usize, what: &str) -> Result<u32> {
        parse_u32(self.text(i))
            .ok_or_else(|| self.error(i, format!("the {what} {:?} is not a 32-bit number", self.text(i))))
    }

    /// Argument `i` as a whole declaration operand.
    fn operand(&self, i: usize) -> Result<Operand> {
        let mut cursor = self.cursor(i);
        let operand = parse_operand(&mut cursor, Context::Decl, 0)?;
        cursor.expect_end()?;
        Ok(operand)
    }
}

/// A number that must fit `bits` bits.
fn fit(value: u32, bits: u32, what: &str, args: &Args, i: usize) -> Result<u32> {
    if bits < 32 && value >> bits != 0 {
        return Err(args.error(i, format!("the {what} {value} does not fit {bits} bits")));
    }
    Ok(value)
}

/// Reads a leading `(t,t,t,t)` return type group off a cursor.
fn leading_return_types(cursor: &mut Cursor) -> Result<[ReturnType; 4]> {
    cursor.skip_ws();
    cursor.expect('(', "to open the return types")?;
    let inside = cursor.take_while(|c| c != ')');
    cursor.expect(')', "to close the return types")?;
    inside
        .split(',')
        .map(|t| return_type_from_name(t.trim()))
        .collect::<Option<Vec<ReturnType>>>()
        .and_then(|v| <[ReturnType; 4]>::try_from(v).ok())
        .ok_or_else(|| cursor.error(format!("({inside}) is not four return types")))
}

/// Splits a declaration's flag suffix (`_glc_rov_opc`) into words, checking each is allowed.
fn flag_words<'s>(rest: &'s str, allowed: &[&str]) -> Option<Vec<&'s str>> {
    let words: Vec<&str> = rest.split('_').skip(1).collect();
    words.iter().all(|w| allowed.contains(w)).then_some(words)
}

/// Parses a declaration or custom-data line.
fn parse_declaration(
    mnemonic: &Mnemonic,
    pieces: &[(usize, usize)],
    line: &CodeLine,
    notes: &InstructionNotes,
) -> Result<Instruction> {
    if notes.function.is_some() {
        return Err(error(line.number, 0, "function= belongs to fcall only"));
    }
    let args = Args { line, pieces };
    let unknown = || {
        error(
            line.number,
            1,
            format!("{:?} is not a known declaration", mnemonic.word),
        )
    };
    let candidates = opcode_candidates(&mnemonic.word, true);
    let mut last_error = None;
    for (opcode, rest) in candidates {
        match parse_declaration_as(opcode, rest, mnemonic, &args) {
            Ok(Some(declaration)) => {
                let mut instruction = Instruction::new(opcode);
                instruction.declaration = Some(declaration);
                return Ok(instruction);
            }
            Ok(None) => {}
            Err(e) => {
                last_error.get_or_insert(e);
            }
        }
    }
    Err(last_error.unwrap_or_else(unknown))
}

/// Parses a declaration as `opcode` with mnemonic suffix `rest`; `Ok(None)` when the suffix does not belong to it.
fn parse_declaration_as(opcode: Opcode, rest: &str, mnemonic: &Mnemonic, args: &Args) -> Result<Option<Declaration>> {
    use Opcode as O;
    let groups = &mnemonic.groups;
    let plain = rest.is_empty() && groups.is_empty();
    let declaration = match opcode {
        O::DclResource => {
            let Some(dimension) = rest.strip_prefix('_').and_then(dimension_from_name) else {
                return Ok(None);
            };
            let sample_count = match groups.as_slice() {
                [] => 0,
                [count] => count
                    .trim()
                    .parse::<u8>()
                    .ok()
                    .filter(|&c| c <= 0x7f)
                    .ok_or_else(|| args.error(0, format!("sample count ({count}) must be 0 to 127")))?,
                _ => return Ok(None),
            };
            args.count(1, "(types) t#")?;
            let mut cursor = args.cursor(0);
            let return_types = leading_return_types(&mut cursor)?;
            let register = parse_operand(&mut cursor, Context::Decl, 0)?;
            cursor.expect_end()?;
            Declaration::Resource {
                register,
                dimension,
                sample_count,
                return_types,
            }
        }
        O::DclUnorderedAccessViewTyped => {
            let Some(tail) = rest.strip_prefix('_') else {
                return Ok(None);
            };
            // The longest dimension name that starts the tail, then flags.
            let Some((dimension, flags)) = (0..=12)
                .filter_map(ResourceDimension::from_raw)
                .filter_map(|d| tail.strip_prefix(syntax::dimension_name(d)).map(|f| (d, f)))
                .filter(|(_, f)| f.is_empty() || f.starts_with('_'))
                .min_by_key(|(_, f)| f.len())
            else {
                return Ok(None);
            };
            let Some(words) = flag_words(flags, &["glc", "rov"]) else {
                return Ok(None);
            };
            if !groups.is_empty() {
                return Ok(None);
            }
            args.count(1, "(types) u#")?;
            let mut cursor = args.cursor(0);
            let return_types = leading_return_types(&mut cursor)?;
            let register = parse_operand(&mut cursor, Context::Decl, 0)?;
            cursor.expect_end()?;
            Declaration::UavTyped {
                register,
                dimension,
                return_types,
                globally_coherent: words.contains(&"glc"),
                rasterizer_ordered: words.contains(&"rov"),
            }
        }
        O::DclUnorderedAccessViewRaw => {
            let Some(words) = flag_words(rest, &["glc", "rov"]).filter(|_| groups.is_empty()) else {
                return Ok(None);
            };
            args.count(1, "u#")?;
            Declaration::UavRaw {
                register: args.operand(0)?,
                globally_coherent: words.contains(&"glc"),
                rasterizer_ordered: words.contains(&"rov"),
            }
        }
        O::DclUnorderedAccessViewStructured => {
            let Some(words) = flag_words(rest, &["glc", "rov", "opc"]).filter(|_| groups.is_empty()) else {
                return Ok(None);
            };
            args.count(2, "u#, stride")?;
            Declaration::UavStructured {
                register: args.operand(0)?,
                stride: args.number(1, "stride")?,
                globally_coherent: words.contains(&"glc"),
                rasterizer_ordered: words.contains(&"rov"),
                has_counter: words.contains(&"opc"),
            }
        }
        O::DclInterface => {
            let dynamic_indexed = match rest {
                "" => false,
                "_dynamicindexed" => true,
                _ => return Ok(None),
            };
            if !groups.is_empty() {
                return Ok(None);
            }
            args.count(1, "fp#[array][table length] = {ft#, ...}")?;
            let mut cursor = args.cursor(0);
            cursor.expect('f', "to start fp#")?;
            cursor.expect('p', "to start fp#")?;
            let id = decimal(&mut cursor, "interface number")?;
            let bracketed = |cursor: &mut Cursor, what: &str| -> Result<u32> {
                cursor.expect('[', what)?;
                let value = decimal(cursor, what)?;
                cursor.expect(']', what)?;
                Ok(value)
            };
            let array_length = bracketed(&mut cursor, "for the array length")?;
            let array_length = u16::try_from(array_length)
                .map_err(|_| cursor.error(format!("the array length {array_length} does not fit 16 bits")))?;
            let expected_table_length = bracketed(&mut cursor, "for the table length")?;
            let tables = braced_list(&mut cursor, "ft")?;
            Declaration::Interface {
                id,
                dynamic_indexed,
                expected_table_length,
                array_length,
                tables,
            }
        }
        O::CustomData => {
            if !plain {
                return Ok(None);
            }
            args.count(1, "CLASS { values }")?;
            let mut cursor = args.cursor(0);
            let class_word = cursor.take_while(|c| !c.is_whitespace() && c != '{');
            let class = match class_word {
                "comment" => CustomData::COMMENT,
                "debuginfo" => CustomData::DEBUG_INFO,
                "opaque" => CustomData::OPAQUE,
                "shader_message" => CustomData::SHADER_MESSAGE,
                "clip_plane_constant_mappings_for_dx9" => CustomData::CLIP_PLANE_CONSTANT_MAPPINGS_FOR_DX9,
                other => parse_u32(other)
                    .filter(|&c| c != CustomData::IMMEDIATE_CONSTANT_BUFFER && c <= 0x1f_ffff)
                    .ok_or_else(|| cursor.error(format!("{other:?} is not a custom-data class")))?,
            };
            cursor.skip_ws();
            let words = braced_numbers(&mut cursor)?;
            cursor.expect_end()?;
            Declaration::CustomData(match class {
                CustomData::COMMENT => CustomData::Comment(words),
                CustomData::DEBUG_INFO => CustomData::DebugInfo(words),
                CustomData::OPAQUE => CustomData::Opaque(words),
                CustomData::SHADER_MESSAGE => CustomData::ShaderMessage(words),
                CustomData::CLIP_PLANE_CONSTANT_MAPPINGS_FOR_DX9 => CustomData::ClipPlaneConstantMappingsForDx9(words),
                class => CustomData::Other { class, data: words },
            })
        }
        _ if !plain => return Ok(None),
        _ => plain_declaration(opcode, args)?,
    };
    Ok(Some(declaration))
}

/// A decimal number at the cursor.
fn decimal(cursor: &mut Cursor, what: &str) -> Result<u32> {
    let digits = cursor.take_while(|c| c.is_ascii_digit());
    digits
        .parse::<u32>()
        .map_err(|_| cursor.error(format!("expected the {what} as a 32-bit number, found {digits:?}")))
}

/// `= {pfx0, pfx1}`: a braced list of prefixed numbers.
fn braced_list(cursor: &mut Cursor, prefix: &str) -> Result<Vec<u32>> {
    cursor.skip_ws();
    cursor.expect('=', "before the list")?;
    cursor.skip_ws();
    cursor.expect('{', "to open the list")?;
    let mut items = Vec::new();
    loop {
        cursor.skip_ws();
        if cursor.eat('}') {
            break;
        }
        if !items.is_empty() {
            cursor.expect(',', "between list items")?;
            cursor.skip_ws();
        }
        if !cursor.eat_str(prefix) {
            return Err(cursor.error(format!("expected {prefix}# in the list")));
        }
        items.push(decimal(cursor, "list item")?);
    }
    cursor.expect_end()?;
    Ok(items)
}

/// `{ 0x1, 2, ... }`: a braced list of 32-bit values.
fn braced_numbers(cursor: &mut Cursor) -> Result<Vec<u32>> {
    cursor.expect('{', "to open the values")?;
    let mut values = Vec::new();
    loop {
        cursor.skip_ws();
        if cursor.eat('}') {
            return Ok(values);
        }
        if !values.is_empty() {
            cursor.expect(',', "between values")?;
            cursor.skip_ws();
        }
        let text = cursor.take_while(|c| !c.is_whitespace() && c != ',' && c != '}');
        values.push(parse_literal32(text).ok_or_else(|| cursor.error(format!("{text:?} is not a 32-bit value")))?);
    }
}

/// The immediate constant buffer's `{ { a, b, c, d}, ... }`.
fn immediate_constant_buffer(cursor: &mut Cursor) -> Result<Vec<[u32; 4]>> {
    cursor.skip_ws();
    cursor.expect('{', "to open the immediate constant buffer")?;
    let mut vectors = Vec::new();
    loop {
        cursor.skip_ws();
        if cursor.eat('}') {
            break;
        }
        if !vectors.is_empty() {
            cursor.expect(',', "between vectors")?;
            cursor.skip_ws();
        }
        let values = braced_numbers(cursor)?;
        let vector: [u32; 4] = values.try_into().map_err(|v: Vec<u32>| {
            cursor.error(format!(
                "an immediate constant buffer vector has 4 values, not {}",
                v.len()
            ))
        })?;
        vectors.push(vector);
    }
    cursor.expect_end()?;
    Ok(vectors)
}

/// A register declaration's argument: interpolation words, then the operand.
fn interpolated_operand(args: &Args, i: usize) -> Result<(program::InterpolationMode, Operand)> {
    let mut cursor = args.cursor(i);
    let mut words = Vec::new();
    loop {
        cursor.skip_ws();
        let save = cursor.at;
        let word = cursor.take_while(|c| c.is_ascii_alphabetic());
        if syntax::is_interpolation_word(word) && cursor.peek().is_some_and(char::is_whitespace) {
            words.push(word);
        } else {
            cursor.at = save;
            break;
        }
    }
    let mode = syntax::interpolation_from_words(&words)
        .ok_or_else(|| args.error(i, format!("{:?} is not an interpolation mode", words.join(" "))))?;
    let operand = parse_operand(&mut cursor, Context::Decl, 0)?;
    cursor.expect_end()?;
    Ok((mode, operand))
}

/// Parses the declarations whose mnemonic has no suffix.
fn plain_declaration(opcode: Opcode, args: &Args) -> Result<Declaration> {
    use Opcode as O;
    let one_word = |what: &str| -> Result<&str> {
        args.count(1, what)?;
        Ok(args.text(0))
    };
    let unknown = |what: &str, value: &str| args.error(0, format!("{value:?} is not a {what}"));
    Ok(match opcode {
        O::DclGlobalFlags => {
            let mut flags = 0u32;
            if !args.pieces.is_empty() {
                args.count(1, "flag | flag ...")?;
                for term in args.text(0).split('|').map(str::trim).filter(|t| !t.is_empty()) {
                    flags |= syntax::GLOBAL_FLAG_NAMES
                        .iter()
                        .find(|(_, name)| *name == term)
                        .map(|&(bit, _)| bit)
                        .or_else(|| parse_u32(term).filter(|v| v & !GlobalFlags::MASK == 0))
                        .ok_or_else(|| unknown("global flag", term))?;
                }
            }
            Declaration::GlobalFlags(GlobalFlags(flags))
        }
        O::DclConstantBuffer => {
            if args.pieces.is_empty() || args.pieces.len() > 2 {
                return Err(args.error(0, "expected CB#[size], immediateIndexed|dynamicIndexed"));
            }
            let dynamic_indexed = match args.text(1) {
                "" | "immediateIndexed" => false,
                "dynamicIndexed" => true,
                other => return Err(args.error(1, format!("{other:?} is neither immediateIndexed nor dynamicIndexed"))),
            };
            Declaration::ConstantBuffer {
                register: args.operand(0)?,
                dynamic_indexed,
            }
        }
        O::DclSampler => {
            if args.pieces.is_empty() || args.pieces.len() > 2 {
                return Err(args.error(0, "expected s#, mode_default|mode_comparison|mode_mono"));
            }
            let mode = match args.text(1) {
                "" => program::SamplerMode::Default,
                other => syntax::sampler_mode_from_name(other)
                    .ok_or_else(|| args.error(1, format!("{other:?} is not a sampler mode")))?,
            };
            Declaration::Sampler {
                register: args.operand(0)?,
                mode,
            }
        }
        O::DclIndexRange => {
            // fxc writes `dcl_indexrange v1.xyzw 2`; a comma is accepted too.
            let (register, count) = if args.pieces.len() == 2 {
                (args.operand(0)?, args.number(1, "register count")?)
            } else {
                args.count(1, "register count")?;
                let text = args.text(0);
                let split = text
                    .rfind(char::is_whitespace)
                    .ok_or_else(|| args.error(0, "expected REGISTER COUNT"))?;
                let (start, _) = args.pieces.first().copied().unwrap_or((0, 0));
                let mut cursor = Cursor::span(&args.line.text, start, start.saturating_add(split), args.line.number);
                let register = parse_operand(&mut cursor, Context::Decl, 0)?;
                cursor.expect_end()?;
                let count_text = text.get(split..).unwrap_or("").trim();
                let count = parse_u32(count_text)
                    .ok_or_else(|| args.error(0, format!("the register count {count_text:?} is not a number")))?;
                (register, count)
            };
            Declaration::IndexRange { register, count }
        }
        O::DclGsOutputPrimitiveTopology => {
            let word = one_word("topology")?;
            Declaration::GsOutputTopology(syntax::topology_from_name(word).ok_or_else(|| unknown("topology", word))?)
        }
        O::DclGsInputPrimitive => {
            let word = one_word("primitive")?;
            Declaration::GsInputPrimitive(syntax::primitive_from_name(word).ok_or_else(|| unknown("primitive", word))?)
        }
        O::DclMaxOutputVertexCount => {
            args.count(1, "count")?;
            Declaration::MaxOutputVertexCount(args.number(0, "vertex count")?)
        }
        O::DclInput | O::DclOutput => {
            args.count(1, "register")?;
            Declaration::Register {
                register: args.operand(0)?,
                name: None,
                interpolation: None,
            }
        }
        O::DclInputSgv | O::DclInputSiv | O::DclOutputSgv | O::DclOutputSiv => {
            args.count(2, "register, system value")?;
            Declaration::Register {
                register: args.operand(0)?,
                name: Some(system_value(args, 1)?),
                interpolation: None,
            }
        }
        O::DclInputPs => {
            args.count(1, "[interpolation] register")?;
            let (mode, register) = interpolated_operand(args, 0)?;
            Declaration::Register {
                register,
                name: None,
                interpolation: Some(mode),
            }
        }
        O::DclInputPsSgv | O::DclInputPsSiv => {
            args.count(2, "[interpolation] register, system value")?;
            let (mode, register) = interpolated_operand(args, 0)?;
            Declaration::Register {
                register,
                name: Some(system_value(args, 1)?),
                interpolation: Some(mode),
            }
        }
        O::DclTemps => {
            args.count(1, "count")?;
            Declaration::Temps(args.number(0, "temp count")?)
        }
        O::DclIndexableTemp => {
            args.count(2, "x#[size], components")?;
            let mut cursor = args.cursor(0);
            cursor.expect('x', "to start x#[size]")?;
            let register = decimal(&mut cursor, "register number")?;
            cursor.expect('[', "before the size")?;
            let size = decimal(&mut cursor, "size")?;
            cursor.expect(']', "after the size")?;
            cursor.expect_end()?;
            Declaration::IndexableTemp {
                register,
                size,
                components: args.number(1, "component count")?,
            }
        }
        O::DclStream => {
            args.count(1, "m#")?;
            Declaration::Stream(args.operand(0)?)
        }
        O::DclFunctionBody => {
            args.count(1, "fb#")?;
            let mut cursor = args.cursor(0);
            if !cursor.eat_str("fb") {
                return Err(args.error(0, "expected fb#"));
            }
            let id = decimal(&mut cursor, "function body number")?;
            cursor.expect_end()?;
            Declaration::FunctionBody(id)
        }
        O::DclFunctionTable => {
            args.count(1, "ft# = {fb#, ...}")?;
            let mut cursor = args.cursor(0);
            if !cursor.eat_str("ft") {
                return Err(args.error(0, "expected ft# = {fb#, ...}"));
            }
            let id = decimal(&mut cursor, "function table number")?;
            Declaration::FunctionTable {
                id,
                bodies: braced_list(&mut cursor, "fb")?,
            }
        }
        O::DclInputControlPointCount | O::DclOutputControlPointCount => {
            args.count(1, "count")?;
            let count = fit(
                args.number(0, "control point count")?,
                6,
                "control point count",
                args,
                0,
            )?;
            let count = u8::try_from(count).unwrap_or(0);
            if opcode == O::DclInputControlPointCount {
                Declaration::InputControlPointCount(count)
            } else {
                Declaration::OutputControlPointCount(count)
            }
        }
        O::DclTessDomain => {
            let word = one_word("domain")?;
            Declaration::TessDomain(syntax::domain_from_name(word).ok_or_else(|| unknown("tessellator domain", word))?)
        }
        O::DclTessPartitioning => {
            let word = one_word("partitioning")?;
            Declaration::TessPartitioning(
                syntax::partitioning_from_name(word).ok_or_else(|| unknown("tessellator partitioning", word))?,
            )
        }
        O::DclTessOutputPrimitive => {
            let word = one_word("output primitive")?;
            Declaration::TessOutputPrimitive(
                syntax::output_primitive_from_name(word)
                    .ok_or_else(|| unknown("tessellator output primitive", word))?,
            )
        }
        O::DclHsMaxTessfactor => {
            let word = one_word("l(factor)")?;
            let inner = word
                .strip_prefix("l(")
                .and_then(|w| w.strip_suffix(')'))
                .unwrap_or(word)
                .trim();
            let bits = parse_literal32(inner).ok_or_else(|| unknown("float", inner))?;
            Declaration::HsMaxTessFactor(f32::from_bits(bits))
        }
        O::DclHsForkPhaseInstanceCount => {
            args.count(1, "count")?;
            Declaration::HsForkPhaseInstanceCount(args.number(0, "instance count")?)
        }
        O::DclHsJoinPhaseInstanceCount => {
            args.count(1, "count")?;
            Declaration::HsJoinPhaseInstanceCount(args.number(0, "instance count")?)
        }
        O::DclGsInstanceCount => {
            args.count(1, "count")?;
            Declaration::GsInstanceCount(args.number(0, "instance count")?)
        }
        O::DclThreadGroup => {
            args.count(3, "x, y, z")?;
            Declaration::ThreadGroup([
                args.number(0, "thread group x")?,
                args.number(1, "thread group y")?,
                args.number(2, "thread group z")?,
            ])
        }
        O::DclThreadGroupSharedMemoryRaw => {
            args.count(2, "g#, bytes")?;
            Declaration::TgsmRaw {
                register: args.operand(0)?,
                byte_count: args.number(1, "byte count")?,
            }
        }
        O::DclThreadGroupSharedMemoryStructured => {
            args.count(3, "g#, stride, count")?;
            Declaration::TgsmStructured {
                register: args.operand(0)?,
                stride: args.number(1, "stride")?,
                count: args.number(2, "structure count")?,
            }
        }
        O::DclResourceRaw => {
            args.count(1, "t#")?;
            Declaration::ResourceRaw(args.operand(0)?)
        }
        O::DclResourceStructured => {
            args.count(2, "t#, stride")?;
            Declaration::ResourceStructured {
                register: args.operand(0)?,
                stride: args.number(1, "stride")?,
            }
        }
        other => {
            return Err(args.error(0, format!("{} is not written this way", mnemonic(other))));
        }
    })
}

/// A system value name argument.
fn system_value(args: &Args, i: usize) -> Result<program::SystemName> {
    let word = args.text(i);
    syntax::system_from_name(word).ok_or_else(|| args.error(i, format!("{word:?} is not a system value name")))
}

/// Parses `dcl_immediateConstantBuffer { ... }` (a declaration whose mnemonic is not `dcl_*` of an opcode).
fn parse_icb(line: &CodeLine, start: usize) -> Result<Instruction> {
    let mut cursor = Cursor::span(&line.text, start, line.text.len(), line.number);
    let vectors = immediate_constant_buffer(&mut cursor)?;
    let mut instruction = Instruction::new(Opcode::CustomData);
    instruction.declaration = Some(Declaration::CustomData(CustomData::ImmediateConstantBuffer(vectors)));
    Ok(instruction)
}

impl Mnemonic {
    /// Whether this is the immediate constant buffer's mnemonic.
    fn is_icb(&self) -> bool {
        self.word == "dcl_immediateConstantBuffer" && self.groups.is_empty()
    }
}

/// Parses one instruction line, the immediate constant buffer included.
fn parse_any(line: &CodeLine) -> Result<Instruction> {
    let mut cursor = Cursor::new(&line.text, line.number);
    let mnemonic = take_mnemonic(&mut cursor)?;
    if mnemonic.is_icb() {
        return parse_icb(line, cursor.at);
    }
    parse_instruction(line)
}

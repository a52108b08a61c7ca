//! Malformed SM4/SM5 programs: each must give an error naming the DWORD at fault, never a panic, an endless loop
//! or an allocation the input does not justify. Token layouts are the header's (see `dxbc_program_tokens.rs`).
//! Beyond the hand-made cases, real programs are truncated at every DWORD and have bits flipped at random; whatever
//! still decodes must encode back to exactly the tokens it came from.

// Test code: token arithmetic, and unwrap/index/panic as assertions, are what a test is for.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use iridia::dxbc::program::{self, MAX_RELATIVE_DEPTH};
use std::path::{Path, PathBuf};

/// Opcode token: opcode in [10:00], length in [30:24].
fn op(opcode: u32, length: u32) -> u32 {
    (opcode & 0x7ff) | ((length << 24) & 0x7f00_0000)
}
const EXTENDED: u32 = 0x8000_0000;
/// `r#.xyzw` destination (4 components, mask mode, register type 0, 1D immediate index): 0x001000f2.
const TEMP_XYZW: u32 = 2 | 0xf << 4 | 1 << 20;
/// `r#.x` source (4 components, select-1 mode x, register type 0, 1D).
const TEMP_X: u32 = 2 | 2 << 2 | 1 << 20;
const MOV: u32 = 54;
const RET: u32 = 62;

fn ps50(body: &[u32]) -> Vec<u32> {
    let mut tokens = vec![0x50, body.len() as u32 + 2];
    tokens.extend_from_slice(body);
    tokens
}

/// Decodes `tokens`, expecting an error placed at `token {at}` whose detail contains `says`.
fn rejects(tokens: &[u32], at: usize, says: &str) {
    let e = match program::decode(tokens) {
        Ok(p) => panic!("decoded: {p:?}"),
        Err(e) => e,
    };
    assert_eq!(e.at, format!("token {at}"), "{e}");
    assert!(e.detail.contains(says), "{e}");
}

#[test]
fn an_instruction_of_length_zero_is_an_error() {
    rejects(&ps50(&[op(RET, 1), op(MOV, 0)]), 3, "length 0");
}

#[test]
fn an_instruction_running_past_the_program_is_an_error() {
    rejects(&ps50(&[op(MOV, 5), TEMP_XYZW, 0]), 2, "past the program's end");
}

#[test]
fn an_operand_overrunning_its_instruction_is_an_error() {
    // mov r0.xyzw, r1.x with a length of 4 that leaves out the source's index: the error names token 6, where the
    // index would have been (tokens 2 to 5 are the instruction).
    rejects(
        &ps50(&[op(MOV, 4), TEMP_XYZW, 0, TEMP_X, 1]),
        6,
        "ends before its immediate index",
    );
}

#[test]
fn undefined_operand_fields_are_errors() {
    // Index representations 5, 6, 7; register type 43; N-component literals; selection mode 3.
    for representation in 5..8 {
        rejects(
            &ps50(&[op(MOV, 3), TEMP_XYZW | representation << 22, 0]),
            3,
            "index representation",
        );
    }
    rejects(&ps50(&[op(MOV, 3), TEMP_XYZW | 43 << 12, 0]), 3, "register type 43");
    // An N-component literal (the header defines no N-component layout, so no literal count).
    rejects(&ps50(&[op(MOV, 3), 3 | 4 << 12, 0]), 3, "neither 1 nor 4 components");
    rejects(&ps50(&[op(MOV, 3), 2 | 3 << 2 | 1 << 20, 0]), 3, "selection mode 3");
    // Extended operand type 2, modifier 4, minimum precision 3.
    rejects(
        &ps50(&[op(MOV, 4), TEMP_XYZW | EXTENDED, 2, 0]),
        4,
        "extended operand type 2",
    );
    rejects(
        &ps50(&[op(MOV, 4), TEMP_XYZW | EXTENDED, 1 | 4 << 6, 0]),
        4,
        "modifier 4",
    );
    rejects(
        &ps50(&[op(MOV, 4), TEMP_XYZW | EXTENDED, 1 | 3 << 14, 0]),
        4,
        "precision 3",
    );
}

/// `mov r0.x, x0[x0[...[0]]]`: an indexable temp indexed by one indexed by one ... `depth` deep, innermost `x0[0]`.
fn nested(depth: u32) -> Vec<u32> {
    // A relative x0[...] operand: 4 components select-1, register type 3 (indexable temp), 2D, first index
    // immediate, second index relative (representation 2 in [27:25]).
    let relative = 2 | 2 << 2 | 3 << 12 | 2 << 20 | 2 << 25;
    let innermost = 2 | 2 << 2 | 3 << 12 | 2 << 20;
    let mut body = vec![0, TEMP_XYZW, 0, relative, 0];
    for _ in 1..depth {
        body.extend_from_slice(&[relative, 0]);
    }
    body.extend_from_slice(&[innermost, 0, 0]);
    body[0] = op(MOV, body.len() as u32);
    ps50(&body)
}

#[test]
fn relative_addresses_nest_at_most_the_bound_deep() {
    // The outer operand holds `depth` nested relative operands.
    let deepest = nested(MAX_RELATIVE_DEPTH);
    let program = program::decode(&deepest).unwrap();
    assert_eq!(program::encode(&program).unwrap(), deepest);
    let e = program::decode(&nested(MAX_RELATIVE_DEPTH + 1)).unwrap_err();
    assert!(e.detail.contains("nest more than"), "{e}");
    // Far deeper (as deep as a full 127-DWORD instruction allows) is the same error, not a stack overflow.
    assert!(program::decode(&nested(60)).is_err());
}

#[test]
fn absurd_custom_data_lengths_are_errors() {
    // customdata class 0 (comment) with lengths 0, 1 (less than its own 2 DWORDs) and 2^32-1.
    rejects(&ps50(&[53, 0]), 3, "less than the 2");
    rejects(&ps50(&[53, 1]), 3, "less than the 2");
    rejects(&ps50(&[53, u32::MAX, 0, 0]), 3, "runs past");
    rejects(
        &ps50(&[op(RET, 1), 53]),
        3,
        "ends before the custom-data block's length",
    );
}

#[test]
fn absurd_program_lengths_are_errors() {
    rejects(&[0x50, 0], 1, "fewer than the 2");
    rejects(&[0x50, 1], 1, "fewer than the 2");
    rejects(&[0x50, u32::MAX, 0x0100_003e], 1, "only 3 are there");
    rejects(&[0x50], 1, "no length token");
    rejects(&[], 0, "no version token");
}

#[test]
fn absurd_table_counts_are_errors_not_allocations() {
    // dcl_function_table ft0 with a count of 2^32-1 and dcl_interface with 65535 tables, in 4 and 5 DWORDs; the
    // error names the DWORD holding the count.
    rejects(&ps50(&[op(145, 4), 0, u32::MAX, 0]), 4, "longer than the 1 DWORDs left");
    rejects(
        &ps50(&[op(146, 5), 0, 1, 0xffff, 0]),
        5,
        "longer than the 1 DWORDs left",
    );
    // The length-DWORD form with lengths 0, 1 and 2^32-1.
    rejects(
        &ps50(&[op(144, 0) | EXTENDED, 0, 0]),
        3,
        "less than its opcode and length",
    );
    rejects(
        &ps50(&[op(144, 0) | EXTENDED, 1, 0]),
        3,
        "less than its opcode and length",
    );
    rejects(
        &ps50(&[op(144, 0) | EXTENDED, u32::MAX, 0]),
        2,
        "past the program's end",
    );
}

#[test]
fn a_declaration_missing_its_fields_is_an_error() {
    // dcl_thread_group with 2 of its 3 sizes; dcl_resource without its return type token.
    rejects(&ps50(&[op(155, 3), 8, 8]), 5, "ends before its thread group z");
    rejects(
        &ps50(&[op(88, 3) | 3 << 11, 7 << 12 | 1 << 20, 0]),
        5,
        "ends before its return type token",
    );
}

// ---- Corruption of real programs ----

fn dxbc_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            dxbc_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "dxbc") {
            found.push(path);
        }
    }
}

/// The program chunk of every compiled fixture (container layout as in `dxbc_program_fixtures.rs`).
fn real_programs() -> Vec<Vec<u32>> {
    let mut files = Vec::new();
    dxbc_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures"), &mut files);
    files.sort();
    let mut programs = Vec::new();
    for file in files {
        let bytes = std::fs::read(&file).unwrap();
        let dword = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        for i in 0..dword(28) {
            let offset = dword(32 + 4 * i);
            if &bytes[offset..offset + 4] == b"SHDR" || &bytes[offset..offset + 4] == b"SHEX" {
                let payload = &bytes[offset + 8..offset + 8 + dword(offset + 4)];
                programs.push(
                    payload
                        .chunks_exact(4)
                        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
                        .collect(),
                );
            }
        }
    }
    assert!(programs.len() >= 7);
    programs
}

/// Decodes `tokens`; whatever decodes must encode back to the tokens the length token covers.
fn decode_survives(tokens: &[u32]) {
    if let Ok(program) = program::decode(tokens) {
        let length = tokens[1] as usize;
        assert_eq!(
            program::encode(&program).unwrap(),
            tokens[..length],
            "a decodable input did not round-trip"
        );
    }
}

#[test]
fn truncating_a_real_program_at_every_dword_never_panics() {
    // Every DWORD of programs up to 1500 DWORDs long; 1500 spread cut points and the last 64 of longer ones.
    for tokens in real_programs() {
        for length in spread(tokens.len(), 1500) {
            // As cut (the length token still claims the whole program) ...
            decode_survives_or_errs(&tokens[..length]);
            // ... and with the length token saying the cut length, so that the cut falls inside an instruction.
            if length >= 2 {
                let mut cut = tokens[..length].to_vec();
                cut[1] = length as u32;
                decode_survives(&cut);
            }
        }
    }
}

/// At most about `most` of the numbers `0..n`: all of them when there are few, else an even spread with the last 64
/// (the program's end) in full, so that a large corpus keeps the quadratic work bounded.
fn spread(n: usize, most: usize) -> Vec<usize> {
    let step = n.div_ceil(most).max(1);
    (0..n).filter(|i| i % step == 0 || i + 64 >= n).collect()
}

/// Like [`decode_survives`], for inputs that may be too short to hold a length token.
fn decode_survives_or_errs(tokens: &[u32]) {
    if tokens.len() >= 2 {
        decode_survives(tokens);
    } else {
        assert!(program::decode(tokens).is_err());
    }
}

/// xorshift32 (Marsaglia): a small deterministic generator, so failures reproduce.
struct Xorshift(u32);

impl Xorshift {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        self.next() as usize % n
    }
}

#[test]
fn flipping_random_bits_of_real_programs_never_panics() {
    let mut random = Xorshift(0x2545_f491);
    let mut decoded = 0;
    let mut rejected = 0;
    for tokens in real_programs() {
        for _ in 0..600 {
            let mut corrupt = tokens.clone();
            for _ in 0..1 + random.below(3) {
                // Leave the length token alone half the time so that most flips land in instructions.
                let at = 2 + random.below(corrupt.len() - 2);
                corrupt[at] ^= 1 << random.below(32);
            }
            match program::decode(&corrupt) {
                Ok(_) => decoded += 1,
                Err(_) => rejected += 1,
            }
            decode_survives(&corrupt);
        }
    }
    // Both outcomes occur: the flips reach fields the decoder checks and fields it keeps raw.
    assert!(decoded > 0 && rejected > 0, "{decoded} decoded, {rejected} rejected");
}

#[test]
fn absurd_lengths_and_counts_in_real_programs_never_panic() {
    for tokens in real_programs() {
        // Walk the instructions of the intact program (up to 300 of them, spread) and, one at a time, set each one's
        // length field to 0, 1 and 127, its extended bit, and the DWORD after its opcode token to 0 and 2^32-1.
        let program = program::decode(&tokens).unwrap();
        for i in spread(program.instructions.len(), 300) {
            let at = program.instructions[i].offset as usize;
            for mutate in [
                |t: u32| t & !0x7f00_0000,
                |t: u32| (t & !0x7f00_0000) | 1 << 24,
                |t: u32| t | 0x7f00_0000,
                |t: u32| t | EXTENDED,
            ] {
                let mut corrupt = tokens.clone();
                corrupt[at] = mutate(corrupt[at]);
                decode_survives(&corrupt);
            }
            if at + 1 < tokens.len() {
                for value in [0, u32::MAX] {
                    let mut corrupt = tokens.clone();
                    corrupt[at + 1] = value;
                    decode_survives(&corrupt);
                }
            }
        }
    }
}

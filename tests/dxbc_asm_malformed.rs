//! Broken listings: every one is an error naming its line (and column where it helps), never a panic, and work stays
//! in proportion to the text.

#![allow(
    clippy::arithmetic_side_effects,
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use iridia::dxbc::asm;

fn fixture(name: &str) -> String {
    std::fs::read_to_string(format!("{}/fixtures/asm/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// Assembles `text`; an error must place itself at a line of the text.
fn assemble_or_place(text: &str) -> Option<iridia::Error> {
    match asm::assemble(text) {
        Ok(_) => None,
        Err(e) => {
            let lines = text.lines().count().max(1);
            if e.at.is_empty() {
                // Only whole-text errors have no place: no version line.
                assert!(e.detail.contains("version line"), "unplaced error: {e}");
            } else {
                let number: usize =
                    e.at.strip_prefix("line ")
                        .and_then(|r| r.split(',').next())
                        .and_then(|n| n.parse().ok())
                        .unwrap_or_else(|| panic!("error not at a line: {e}"));
                assert!((1..=lines).contains(&number), "line {number} of {lines}: {e}");
            }
            Some(e)
        }
    }
}

#[test]
fn every_line_truncated_at_every_character_fails_at_a_line_or_assembles() {
    for name in ["ps_sampling.asm", "annotations.asm", "interfaces.asm", "hs_phases.asm"] {
        let text = fixture(name);
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            for (cut, _) in line.char_indices() {
                let mut broken = lines.clone();
                broken[i] = &line[..cut];
                assemble_or_place(&broken.join("\n"));
            }
        }
    }
}

#[test]
fn random_characters_anywhere_fail_at_a_line_or_assemble() {
    // A fixed xorshift sequence, so a failure reproduces.
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    const ALPHABET: &[u8] = b" ,.[](){}|-+=_#/0123456789abcdefxyzwlrvotsuimgcdpqnA\n\t\"\\";
    for name in ["ps_sampling.asm", "annotations.asm", "cs_atomics.asm"] {
        let text = fixture(name);
        for _ in 0..400 {
            let mut bytes = text.clone().into_bytes();
            for _ in 0..(1 + next() % 4) {
                let at = (next() as usize) % bytes.len();
                bytes[at] = ALPHABET[(next() as usize) % ALPHABET.len()];
            }
            // The alphabet is ASCII, so the mutated text is still UTF-8.
            assemble_or_place(&String::from_utf8(bytes).unwrap());
        }
    }
}

/// Assembles `body` after a version line and returns the error, which must exist.
fn error_of(body: &str) -> iridia::Error {
    let text = format!("ps_5_0\n{body}\nret\n");
    assemble_or_place(&text).unwrap_or_else(|| panic!("{body:?} assembled"))
}

#[test]
fn an_unknown_opcode_names_its_line_and_column() {
    let e = error_of("dcl_temps 1\nfrobnicate r0.x, r0.x");
    assert_eq!(e.at, "line 3, column 1");
    assert!(e.detail.contains("\"frobnicate\" is not a known instruction"), "{e}");
    let e = error_of("dcl_frobnicate 3");
    assert_eq!(e.at, "line 2, column 1");
}

#[test]
fn a_bad_register_names_its_column() {
    let e = error_of("mov r0.x, q1.x");
    assert_eq!(e.at, "line 2, column 11");
    assert!(e.detail.contains("\"q1.x\" is not a register"), "{e}");
    let e = error_of("mov r0.q, r1.x");
    assert!(e.detail.contains("is not 1 to 4 of the components"), "{e}");
    // A source with three letters out of order fits no component form.
    let e = error_of("mov r0.x, r1.zyx");
    assert!(e.detail.contains("component letters"), "{e}");
}

#[test]
fn huge_numbers_are_errors_not_wraps() {
    for (body, says) in [
        ("dcl_temps 99999999999999999999", "not a 32-bit number"),
        ("mov r4294967296.x, r0.x", "does not fit 32 bits"),
        ("mov r0.x, cb0[4294967296].x", "does not fit 32 bits"),
        ("mov r0.x, cb0[99999999999999999999999i64].x", "does not fit 64 bits"),
        ("mov r0.x, l(4294967296)", "not a number"),
        ("mov r0.x, l(-2147483649)", "not a number"),
        ("dcl_input_control_point_count 64", "does not fit 6 bits"),
        ("sample_aoffimmi(8,0,0) r0.xyzw, r1.xyxx, t0.xyzw, s0", "from -8 to 7"),
        (
            "ld_structured_indexable(structured_buffer, stride=4096)(mixed,mixed,mixed,mixed) r0.x, l(0), l(0), t0.x",
            "below 4096",
        ),
        ("dcl_resource_texture2dms(200) (float,float,float,float) t0", "0 to 127"),
        ("dcl_interface fp0[65536][1] = {ft0}", "does not fit 16 bits"),
    ] {
        let e = error_of(body);
        assert!(e.detail.contains(says), "{body}: {e}");
        assert_eq!(e.at.split(',').next(), Some("line 2"), "{body}: {e}");
    }
}

#[test]
fn a_literal_with_a_huge_value_count_stops_at_five() {
    let values = vec!["1"; 100_000].join(", ");
    let e = error_of(&format!("mov r0, l({values})"));
    assert!(e.detail.contains("at most 4 values"), "{e}");
    // The error points near the start, where the fifth value began, not at the end of the line.
    let column: usize = e.at.rsplit(' ').next().unwrap().parse().unwrap();
    assert!(column < 40, "{e}");
}

#[test]
fn deep_relative_addressing_is_an_error() {
    let mut operand = "r0.x".to_string();
    for _ in 0..6 {
        operand = format!("x0[{operand}].x");
    }
    let e = error_of(&format!("mov r0.x, {operand}"));
    assert!(e.detail.contains("nest more than 4 deep"), "{e}");
    // Brackets nested far deeper than any parser stack: an error at the first bracket that holds no register.
    let brackets = format!("mov r0.x, x0{}", "[".repeat(200_000));
    assert!(error_of(&brackets).detail.contains("is not a register"));
    let nested = format!("mov r0.x, {}r0.x{}", "x0[".repeat(200_000), "].x".repeat(200_000));
    assert!(error_of(&nested).detail.contains("nest more than 4 deep"));
}

#[test]
fn a_very_long_line_is_an_error_at_its_line() {
    let long = format!("mov r0.x, {}", "r1.x + ".repeat(200_000));
    let e = error_of(&long);
    assert_eq!(e.at.split(',').next(), Some("line 2"));
}

#[test]
fn what_the_encoder_refuses_is_reported_at_its_line() {
    // 200 operands: more than the 127 DWORDs an instruction's 7-bit length field counts.
    let operands = vec!["r0.x"; 200].join(", ");
    let e = error_of(&format!("dcl_temps 1\nadd r0.x, {operands}"));
    assert_eq!(e.at, "line 3");
    assert!(e.detail.contains("127"), "{e}");
}

#[test]
fn an_unclosed_block_names_the_line_it_opened_at() {
    let e = error_of("dcl_temps 1\ndcl_immediateConstantBuffer { { 1, 2, 3, 4},\n{ 5, 6, 7, 8}");
    assert_eq!(e.at, "line 3");
    assert!(e.detail.contains("never closed"), "{e}");
    let e = error_of("dcl_immediateConstantBuffer { { 1, 2, 3} }");
    assert!(e.detail.contains("4 values, not 3"), "{e}");
}

#[test]
fn listings_without_a_version_or_with_a_bad_one_are_errors() {
    let e = asm::assemble("// only comments\n\n").unwrap_err();
    assert!(e.detail.contains("no version line"), "{e}");
    let e = asm::assemble("xs_5_0\nret\n").unwrap_err();
    assert_eq!(e.at, "line 1, column 1");
    let e = asm::assemble("ps_16_0\nret\n").unwrap_err();
    assert_eq!(e.at, "line 1, column 1");
}

#[test]
fn bad_signature_rows_name_their_line() {
    let text = "//\n// Input signature:\n//\n// Name Index Mask Register SysValue Format Used\n\
                // ---- ----- ---- -------- -------- ------ ----\n// TEXCOORD zero xy 1 NONE float xy\n//\nps_5_0\nret\n";
    let e = asm::assemble(text).unwrap_err();
    assert_eq!(e.at, "line 6");
    assert!(e.detail.contains("Index column"), "{e}");
    let unknown = text.replace("zero", "0").replace("NONE", "BOGUS");
    let e = asm::assemble(&unknown).unwrap_err();
    assert!(e.detail.contains("SysValue"), "{e}");
}

#[test]
fn non_ascii_text_is_an_error_with_a_character_column() {
    let e = error_of("mov r0.x, ŕ1.x");
    assert_eq!(e.at, "line 2, column 11");
}

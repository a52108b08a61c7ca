//! Every compiled blob under `fixtures/` through the disassembler and back through the assembler: the program tokens
//! and the signatures must come back exactly.

#![allow(
    clippy::arithmetic_side_effects,
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use iridia::dxbc::{Container, FourCc, Shader, Verify, asm, disasm};
use std::path::{Path, PathBuf};

/// Every `*.dxbc` under `dir`, recursively.
fn dxbc_files(dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            dxbc_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "dxbc") {
            found.push(path);
        }
    }
}

fn all_fixtures() -> Vec<PathBuf> {
    let mut found = Vec::new();
    dxbc_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures"), &mut found);
    found.sort();
    found
}

/// The program chunk's code and bytes.
fn program_chunk(bytes: &[u8]) -> (FourCc, Vec<u8>) {
    let container = Container::parse(bytes, Verify::Checksum).unwrap();
    let (code, data) = container.program_chunk().unwrap();
    (code, data.to_vec())
}

#[test]
fn every_fixture_blob_assembles_back_from_its_listing() {
    let fixtures = all_fixtures();
    assert!(fixtures.len() >= 30, "only {} fixtures", fixtures.len());
    for path in &fixtures {
        let bytes = std::fs::read(path).unwrap();
        let shader = Shader::parse(&bytes, Verify::Checksum).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let listing = disasm::disassemble(&shader);
        let rebuilt = asm::assemble(&listing).unwrap_or_else(|e| panic!("{}: {e}\n{listing}", path.display()));
        assert_eq!(
            program_chunk(&rebuilt),
            program_chunk(&bytes),
            "{}\n{listing}",
            path.display()
        );
        let again = Shader::parse(&rebuilt, Verify::Checksum).unwrap();
        assert_eq!(again.input_signature, shader.input_signature, "{}", path.display());
        assert_eq!(again.output_signature, shader.output_signature, "{}", path.display());
        assert_eq!(
            again.patch_constant_signature,
            shader.patch_constant_signature,
            "{}",
            path.display()
        );
    }
}

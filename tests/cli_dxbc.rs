//! The built `iridia` binary's `disasm` and `asm` subcommands: success and failure exit codes and messages.

#![allow(
    clippy::arithmetic_side_effects,
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::path::{Path, PathBuf};
use std::process::Command;

fn iridia() -> Command {
    Command::new(env!("CARGO_BIN_EXE_iridia"))
}

fn fixture(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(path)
}

/// A scratch directory for this test binary, emptied first.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("iridia-cli-dxbc-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The program chunk (SHDR/SHEX) bytes of a blob.
fn program_chunk(blob: &[u8]) -> Vec<u8> {
    let container = iridia::dxbc::Container::parse(blob, iridia::dxbc::Verify::Checksum).unwrap();
    container.program_chunk().unwrap().1.to_vec()
}

#[test]
fn disasm_then_asm_gives_back_the_program() {
    let dir = scratch("roundtrip");
    let blob_path = fixture("dxbc-program/ps50_resources.dxbc");
    let out = iridia().arg("disasm").arg(&blob_path).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let listing = String::from_utf8(out.stdout).unwrap();
    assert!(listing.lines().any(|l| l == "ps_5_0"), "{listing}");

    let listing_path = dir.join("ps50_resources.asm");
    std::fs::write(&listing_path, &listing).unwrap();
    let rebuilt_path = dir.join("rebuilt.dxbc");
    let out = iridia()
        .arg("asm")
        .arg(&listing_path)
        .arg("-o")
        .arg(&rebuilt_path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let original = std::fs::read(&blob_path).unwrap();
    let rebuilt = std::fs::read(&rebuilt_path).unwrap();
    assert_eq!(program_chunk(&rebuilt), program_chunk(&original));
}

#[test]
fn disasm_of_a_file_that_is_not_a_shader_exits_2_naming_the_file_and_byte() {
    let path = fixture("asm/bitops.asm");
    let out = iridia().arg("disasm").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("bitops.asm"), "{stderr}");
    assert!(stderr.contains("byte 0x0") && stderr.contains("bad magic"), "{stderr}");
    assert!(out.stdout.is_empty());
}

#[test]
fn asm_of_a_broken_listing_exits_2_naming_the_file_and_line() {
    let dir = scratch("broken");
    let path = dir.join("broken.asm");
    std::fs::write(&path, "ps_5_0\ndcl_temps 1\nmov r0.x, q7.x\nret\n").unwrap();
    let output = dir.join("never.dxbc");
    let out = iridia().arg("asm").arg(&path).arg("-o").arg(&output).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("broken.asm"), "{stderr}");
    assert!(stderr.contains("line 3, column 11"), "{stderr}");
    assert!(!output.exists(), "nothing is written on error");
}

#[test]
fn a_missing_file_exits_2() {
    let out = iridia().arg("disasm").arg("/nonexistent/shader.dxbc").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/shader.dxbc"));
}

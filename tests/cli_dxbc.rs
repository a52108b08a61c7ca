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

#[test]
fn asm_then_disasm_keeps_the_multisample_instructions() {
    // ld2dms (22.4.7, fxc's `ldms`), sampleinfo (22.4.21) and samplepos (22.4.22) on t# and on the rasterizer, with
    // the declared sample counts (22.3.12): assembled by `iridia asm`, disassembled by `iridia disasm`, the listing
    // keeps every one of them and assembles again to the same program.
    let dir = scratch("multisample");
    let instructions = [
        "dcl_resource_texture2dms(4) (float,float,float,float) t0",
        "dcl_resource_texture2dmsarray(8) (uint,uint,uint,uint) t1",
        "ldms r0.xyzw, v0.xyzw, t0.xyzw, v1.x",
        "ldms_aoffimmi(1,-1,0) r1.xyzw, v0.xyzw, t0.yxzw, l(3)",
        "ldms_indexable(texture2dmsarray)(uint,uint,uint,uint) r2.xyzw, v0.xyzw, t1.xyzw, v1.x",
        "sampleinfo r3.x, t0.x",
        "sampleinfo_uint r3.y, rasterizer.x",
        "samplepos r4.xy, t1.xyxx, v1.x",
        "samplepos r4.zw, rasterizer.xxxy, l(7)",
    ];
    let (declarations, code) = instructions.split_at(2);
    let listing = format!(
        "ps_5_0\n{}\ndcl_input_ps constant v0.xyzw\ndcl_input_ps constant v1.x\ndcl_output o0.xyzw\ndcl_temps 5\n{}\n\
         mov o0.xyzw, r0.xyzw\nret\n",
        declarations.join("\n"),
        code.join("\n")
    );
    let listing_path = dir.join("multisample.asm");
    std::fs::write(&listing_path, &listing).unwrap();
    let blob_path = dir.join("multisample.dxbc");
    let out = iridia()
        .arg("asm")
        .arg(&listing_path)
        .arg("-o")
        .arg(&blob_path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let out = iridia().arg("disasm").arg(&blob_path).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let disassembly = String::from_utf8(out.stdout).unwrap();
    for line in instructions {
        assert!(disassembly.lines().any(|l| l.trim() == line), "{line}\n{disassembly}");
    }
    let again_path = dir.join("again.asm");
    std::fs::write(&again_path, &disassembly).unwrap();
    let rebuilt_path = dir.join("again.dxbc");
    let out = iridia()
        .arg("asm")
        .arg(&again_path)
        .arg("-o")
        .arg(&rebuilt_path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(
        program_chunk(&std::fs::read(&rebuilt_path).unwrap()),
        program_chunk(&std::fs::read(&blob_path).unwrap())
    );
}

//! Running the built `iridia` binary and reading what it printed. Shared by the command-line tests, which include
//! this file with `#[path]` so that tests not using it do not compile it.

#![allow(dead_code)] // not every test binary uses every helper

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

/// The built binary, run in the crate's folder (so sample paths are relative to it).
pub fn iridia() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_iridia"));
    command.current_dir(env!("CARGO_MANIFEST_DIR"));
    command
}

/// The binary run with `args` to its end.
pub fn run(args: &[&str]) -> Output {
    iridia().args(args).output().unwrap()
}

/// What a run printed to standard output.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// What a run printed to standard error.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A run's standard output read as JSON.
pub fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", stdout(out)))
}

/// A scratch directory `iridia-{binary}-{pid}-{name}` in the temporary folder, emptied first.
pub fn scratch(binary: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("iridia-{binary}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

//! The viewer, the command line and the benchmark replay through one path, `replay::ReplaySession`: none of them
//! prepares or runs a draw, or compares targets, on its own. Read from the sources, so that a second path cannot
//! come back unnoticed.

#![allow(clippy::unwrap_used, clippy::panic)]

use std::fs;
use std::path::{Path, PathBuf};

/// Every `.rs` file below `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// The code of `text` without comments (`//` to the end of a line), so that documentation may name what code may
/// not call.
fn code(text: &str) -> String {
    text.lines()
        .map(|line| line.find("//").map_or(line, |at| &line[..at]))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Where a file of `paths` (relative to the crate) uses one of `forbidden`, as `file: word` lines.
fn uses(paths: &[&str], forbidden: &[&str]) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for relative in paths {
        let path = root.join(relative);
        let files = if path.is_dir() { rust_files(&path) } else { vec![path] };
        // unit tests may build what they check against by other means
        for file in files.into_iter().filter(|f| !f.ends_with("tests.rs")) {
            let text = code(&fs::read_to_string(&file).unwrap());
            for word in forbidden {
                if text.contains(word) {
                    found.push(format!("{}: {word}", file.strip_prefix(root).unwrap().display()));
                }
            }
        }
    }
    found
}

#[test]
fn the_viewer_api_replays_and_compares_only_through_the_replay_session() {
    let found = uses(
        &["src/viewer_api", "src/wasm.rs"],
        &[
            "PreparedDraw::new",
            "PreparedDraw::shared",
            "run_draw",
            "run_sequence",
            ".start()",
            "compare::compare",
            "CompareOptions",
            "DrawOptions",
        ],
    );
    assert!(found.is_empty(), "a second replay path:\n{}", found.join("\n"));
}

#[test]
fn the_command_line_inspect_and_the_benchmark_replay_only_through_the_replay_session() {
    let found = uses(
        &["src/cli", "src/inspect", "benches"],
        &["PreparedDraw::new", "PreparedDraw::shared", "run_draw(", ".start()"],
    );
    // `iridia draw` runs a draw description, not a capture: it is the draw module's own front door
    let found: Vec<String> = found
        .into_iter()
        .filter(|f| !f.starts_with("src/cli/draw.rs"))
        .collect();
    assert!(found.is_empty(), "a second replay path:\n{}", found.join("\n"));
}

//! A frame's markers (capture format 1.5 `events`) through the built binary: `iridia info` prints the frame's outline
//! (regions, point markers, clears and copies among the draws) and `iridia replay` gives each draw's marker path (the
//! table's headings, the JSON's `markers`). The capture is a sample capture whose manifest gets the events a program's
//! `BeginEvent`/`EndEvent`/`SetMarker` and clears would make.

#![allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

#[path = "common/capture_edit.rs"]
mod capture_edit;

use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::Command;

fn iridia(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_iridia"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
}

/// 02-alpha-blend (6 draws) with a "Background" region around draw 0, a clear before it, a "Discs" region holding
/// draws 1 to 3 with a point marker after draw 1, and draws 4 and 5 outside any region.
fn marked_capture() -> PathBuf {
    let path = std::env::temp_dir().join(format!("iridia-cli-outline-{}.iridia", std::process::id()));
    let original = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/captures/02-alpha-blend.iridia"
    ))
    .unwrap();
    let edited = capture_edit::with_manifest(&original, |manifest| {
        manifest["version"] = json!("1.5");
        manifest["events"] = json!([
            {"kind": "begin", "name": "Background", "before_draw": 0},
            {"kind": "clear", "name": "ClearRenderTargetView(rt0, 0, 0, 0, 1)", "before_draw": 0},
            {"kind": "end", "before_draw": 1},
            {"kind": "begin", "name": "Discs", "before_draw": 1},
            {"kind": "marker", "name": "red done", "before_draw": 2},
            {"kind": "end", "before_draw": 4},
        ]);
    });
    std::fs::write(&path, edited).unwrap();
    path
}

#[test]
fn info_prints_the_frames_outline_and_replay_each_draws_marker_path() {
    let path = marked_capture();
    let file = path.to_str().unwrap();
    let (code, text) = iridia(&["info", file]);
    assert_eq!(code, Some(0), "{text}");
    let outline = &text[text.find("frame outline:\n").unwrap()..];
    let lines: Vec<&str> = outline.lines().collect();
    assert_eq!(lines[1], "  Background/");
    assert_eq!(lines[2], "    clear: ClearRenderTargetView(rt0, 0, 0, 0, 1)");
    assert_eq!(lines[3], "    draw 0  checker background");
    assert_eq!(lines[4], "  Discs/");
    assert_eq!(lines[5], "    draw 1  red disc, alpha 0.6");
    assert_eq!(lines[6], "    * red done");
    assert_eq!(lines[7], "    draw 2  green disc, alpha 0.5");
    assert_eq!(lines[9], "  draw 4  frosted bar with border");
    let (_, json_text) = iridia(&["info", "--json", file]);
    let info: Value = serde_json::from_str(&json_text).unwrap();
    assert_eq!(
        info["outline"][0],
        json!({"depth": 0, "kind": "group", "index": {"end": 3}, "text": "Background"})
    );
    assert_eq!(info["outline"][2]["text"], "checker background");

    let (_, replay_text) = iridia(&["replay", "--json", file]);
    let report: Value = serde_json::from_str(&replay_text).unwrap();
    let paths: Vec<Value> = report["draws"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["markers"].clone())
        .collect();
    assert_eq!(
        paths,
        [
            json!(["Background"]),
            json!(["Discs"]),
            json!(["Discs"]),
            json!(["Discs"]),
            json!([]),
            json!([])
        ]
    );
    let (_, table) = iridia(&["replay", file]);
    let headings: Vec<&str> = table.lines().filter(|l| l.starts_with("  ── ")).collect();
    assert_eq!(
        headings,
        ["  ── Background", "  ── Discs", "  ── (no marker)"],
        "{table}"
    );
    // the same capture without events: no outline, no headings, as before
    let (_, plain) = iridia(&["info", "fixtures/captures/02-alpha-blend.iridia"]);
    assert!(!plain.contains("frame outline"));
    let _ = std::fs::remove_file(path);
}

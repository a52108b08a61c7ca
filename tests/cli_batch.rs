//! `iridia replay` over many captures for CI, through the built binary on the sample captures: folders, `--shard
//! K/N` (the shards split the work, each (capture, event) pair in exactly one), `iridia merge` of the shards' JSON
//! reports (equal to the unsharded run's report, table and exit code), `--junit` (read back by an XML parser); and
//! `iridia disasm CAPTURE --draw N` with `iridia replay --program ps=FILE` (a listing edited by hand, its
//! difference count worked out from the GPU's recorded bytes).

#![allow(
    clippy::arithmetic_side_effects,
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::expect_used
)]

#[path = "common/cli.rs"]
mod cli;
use cli::{json, run, scratch, stdout};
use serde_json::Value;
use std::path::Path;

/// Small sample captures: matching ones, differing ones (05's thin triangles, 01's depth), one with resolves and
/// dispatches would do as well; these replay in well under a second together.
const CAPTURES: [&str; 4] = [
    "fixtures/captures/01-lit-mesh.iridia",
    "fixtures/captures/02-alpha-blend.iridia",
    "fixtures/captures/03-post-process.iridia",
    "fixtures/captures/05-thin-triangles.iridia",
];

/// A report without what changes from run to run (each entry's time).
fn without_times(mut report: Value) -> Value {
    fn strip(value: &mut Value) {
        match value {
            Value::Object(map) => {
                map.remove("seconds");
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut report);
    report
}

/// The (capture, position) pairs a report holds.
fn pairs(report: &Value) -> Vec<(String, u64)> {
    let mut out = Vec::new();
    for capture in report["captures"].as_array().unwrap() {
        for list in ["draws", "resolves", "dispatches"] {
            for entry in capture[list].as_array().unwrap() {
                out.push((
                    capture["capture"].as_str().unwrap().to_owned(),
                    entry["position"].as_u64().unwrap(),
                ));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn shards_split_the_work_and_merged_equal_the_unsharded_run() {
    let dir = scratch("cli-batch", "shards");
    let mut whole_args = vec!["replay", "--json"];
    whole_args.extend(CAPTURES);
    let whole = run(&whole_args);
    let whole_report = json(&whole);
    assert_eq!(whole_report["summary"]["captures"], 4);
    // 05's thin triangles differ: exit 1 for the whole run
    assert_eq!(whole.status.code(), Some(1), "{}", stdout(&whole));
    let all_pairs = pairs(&whole_report);
    let draws: u64 = CAPTURES
        .iter()
        .map(|c| {
            let info = json(&run(&["info", "--json", c]));
            info["draws"].as_array().unwrap().len() as u64
        })
        .sum();
    assert_eq!(whole_report["summary"]["draws"].as_u64(), Some(draws));
    assert_eq!(all_pairs.len() as u64, draws, "these captures hold draws only");

    // three shards: every pair in exactly one, none empty
    let mut shard_files = Vec::new();
    let mut seen = Vec::new();
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let mut args = vec!["replay", "--json", "--shard", &shard];
        args.extend(CAPTURES);
        let out = run(&args);
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "shard {shard}: {}",
            stdout(&out)
        );
        let report = json(&out);
        assert_eq!(report["shard"]["index"], k);
        let mine = pairs(&report);
        assert!(!mine.is_empty(), "shard {shard} got no work");
        seen.extend(mine);
        let file = dir.join(format!("shard{k}.json"));
        std::fs::write(&file, &out.stdout).unwrap();
        shard_files.push(file);
        // the same shard twice is the same share
        assert_eq!(pairs(&json(&run(&args))), pairs(&report), "shard {shard} is stable");
    }
    seen.sort();
    assert_eq!(seen, all_pairs, "the shards together are the whole run, each pair once");

    // merged: the same report (but times), table and exit code as the unsharded run
    let files: Vec<&str> = shard_files.iter().map(|f| f.to_str().unwrap()).collect();
    let mut merge_args = vec!["merge", "--json"];
    merge_args.extend(files.iter().copied());
    let merged = run(&merge_args);
    assert_eq!(merged.status.code(), whole.status.code());
    assert_eq!(without_times(json(&merged)), without_times(whole_report));
    let mut text_args = vec!["merge"];
    text_args.extend(files.iter().copied());
    let merged_text = run(&text_args);
    let mut whole_text_args = vec!["replay"];
    whole_text_args.extend(CAPTURES);
    let whole_text = run(&whole_text_args);
    assert_eq!(stdout(&merged_text), stdout(&whole_text));
    assert!(
        stdout(&whole_text).contains("total (4 captures)"),
        "{}",
        stdout(&whole_text)
    );

    // a shard given twice overlaps: refused
    let twice = run(&["merge", files[0], files[0]]);
    assert_eq!(twice.status.code(), Some(2));
}

#[test]
fn a_folder_is_its_captures_and_one_capture_reports_as_before() {
    let dir = scratch("cli-batch", "folder");
    for capture in &CAPTURES[1..3] {
        let name = Path::new(capture).file_name().unwrap();
        std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join(capture), dir.join(name)).unwrap();
    }
    std::fs::write(dir.join("notes.txt"), "not a capture").unwrap();
    let report = json(&run(&["replay", "--json", dir.to_str().unwrap()]));
    let names: Vec<&str> = report["captures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["capture"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(names[0].ends_with("02-alpha-blend.iridia") && names[1].ends_with("03-post-process.iridia"));
    // one capture: the report is that capture's, as before (no "captures" list)
    let one = json(&run(&["replay", "--json", CAPTURES[1]]));
    assert!(one.get("captures").is_none());
    assert_eq!(one["summary"]["draws"], 6);
    // --draw with several captures is refused
    let out = run(&["replay", "--draw", "0", CAPTURES[0], CAPTURES[1]]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_junit_file_has_a_test_case_per_draw_with_its_difference_as_the_failure() {
    let dir = scratch("cli-batch", "junit");
    let file = dir.join("replay.xml");
    let out_dir = dir.join("out");
    let mut args = vec![
        "replay",
        "--json",
        "--junit",
        file.to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
    ];
    args.extend(&CAPTURES[1..]);
    let out = run(&args);
    let report = json(&out);
    let xml = std::fs::read_to_string(&file).unwrap();
    let document = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("not XML: {e}\n{xml}"));
    let root = document.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    let suites: Vec<_> = root.children().filter(|n| n.has_tag_name("testsuite")).collect();
    assert_eq!(suites.len(), 3);
    for (suite, capture) in suites.iter().zip(report["captures"].as_array().unwrap()) {
        let cases: Vec<_> = suite.children().filter(|n| n.has_tag_name("testcase")).collect();
        let draws = capture["draws"].as_array().unwrap();
        assert_eq!(cases.len(), draws.len());
        assert_eq!(suite.attribute("tests").unwrap(), draws.len().to_string());
        let failures: Vec<_> = cases
            .iter()
            .filter_map(|c| c.children().find(|n| n.has_tag_name("failure")))
            .collect();
        let differing = capture["summary"]["differing"].as_u64().unwrap();
        assert_eq!(failures.len() as u64, differing);
        assert_eq!(suite.attribute("failures").unwrap(), differing.to_string());
        for (case, draw) in cases.iter().zip(draws) {
            assert!(
                case.attribute("name")
                    .unwrap()
                    .starts_with(&format!("draw {}", draw["index"]))
            );
            assert!(case.attribute("time").unwrap().parse::<f64>().unwrap() >= 0.0);
            // the written pictures are named, and exist
            let files = case
                .children()
                .find(|n| n.has_tag_name("system-out"))
                .unwrap()
                .text()
                .unwrap();
            for path in files.lines() {
                assert!(Path::new(path).exists(), "{path}");
            }
        }
        for failure in failures {
            let message = failure.attribute("message").unwrap();
            assert!(
                message.contains("pixels differ") || message.starts_with("differs:"),
                "{message}"
            );
        }
    }
    // 05's draws differ: some failures there
    assert!(xml.contains("<failure message=\""), "{xml}");
}

/// The recorded texels of draw `index`'s render target 0 in a capture.
fn recorded_rt0(capture: &str, index: usize) -> Vec<u8> {
    let file = std::fs::File::open(Path::new(env!("CARGO_MANIFEST_DIR")).join(capture)).unwrap();
    let mut capture = iridia::capture::Capture::from_reader(std::io::BufReader::new(file)).unwrap();
    let draw = capture.draw(index).unwrap();
    draw.targets[0].after.clone().unwrap().to_vec()
}

#[test]
fn a_program_edited_as_its_listing_replays_with_the_new_difference() {
    let dir = scratch("cli-batch", "edit");
    let capture = CAPTURES[1];
    let listing = run(&["disasm", capture, "--draw", "0", "--stage", "ps"]);
    assert_eq!(listing.status.code(), Some(0));
    let text = stdout(&listing);
    assert!(text.contains("ps_5_0"), "{text}");
    // the edit: the program's last write is pure red
    let edited = text.replace(
        "mov o0.xyzw, r0.xyzw",
        "mov o0.xyzw, l(1.000000, 0.000000, 0.000000, 1.000000)",
    );
    assert_ne!(edited, text, "the listing writes o0 from r0");
    let file = dir.join("red.asm");
    std::fs::write(&file, &edited).unwrap();
    let program = format!("ps={}", file.display());
    let out = run(&["replay", capture, "--draw", "0", "--json", "--program", &program]);
    let report = json(&out);
    let draw = &report["draws"][0];
    // draw 0 covers the whole 128x128 target (a full-screen triangle): every texel the GPU did not write within
    // one code of (255, 0, 0, 255) now differs (the R8G8B8A8_UNORM default tolerance)
    let recorded = recorded_rt0(capture, 0);
    let expected = recorded
        .chunks(4)
        .filter(|t| t.iter().zip([255u8, 0, 0, 255]).any(|(a, b)| a.abs_diff(b) > 1))
        .count() as u64;
    assert!(expected > 1000, "the checker has few red texels");
    assert_eq!(draw["compared_pixels"], 128 * 128);
    assert_eq!(draw["differing_pixels"].as_u64(), Some(expected));
    assert_eq!(out.status.code(), Some(1));
    // and as recorded it matches (as `iridia replay` says without the edit)
    assert_eq!(draw["original"]["differing_pixels"], 0);
    // what the edit changed from the recorded program's replay: at least every texel that now differs from the GPU's
    // (one within a code of red there may already have been red in the replay)
    let changed = &draw["changed_by_edit"][0];
    assert_eq!(
        (changed["target"].as_str(), changed["texels"].as_u64()),
        (Some("rt0"), Some(128 * 128))
    );
    assert!(changed["changed_texels"].as_u64().unwrap() >= expected);
    let plain = json(&run(&["replay", capture, "--draw", "0", "--json"]));
    assert_eq!(plain["draws"][0]["differing_pixels"], 0);
    // the table says both
    let table = stdout(&run(&["replay", capture, "--draw", "0", "--program", &program]));
    assert!(
        table.contains("as recorded 0 of 16384 pixels differ; the edit changed "),
        "{table}"
    );
    // a listing that does not assemble: exit 2 naming its line
    std::fs::write(&file, edited.replace("mov o0.xyzw", "mvo o0.xyzw")).unwrap();
    let bad = run(&["replay", capture, "--draw", "0", "--program", &program]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("line"),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );
}

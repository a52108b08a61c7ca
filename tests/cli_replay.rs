//! `iridia replay` and `iridia inspect` through the built binary, on the sample captures in `fixtures/captures/`
//! (rendered by the real D3D11 of `d3d11-ref`, whose after-contents are the GPU's bytes) and on corrupt copies of
//! one: exit codes (0 every compared draw matches, 1 some differ, 2 an error, 3 unrecorded draws or nothing compared), the JSON report's shape, the files
//! `--out` writes, the depth of differing pixels worked out by hand from the inspected triangle, and the example in
//! `README.md`, which is run here so that its figures stay those of a real run.

#![allow(
    clippy::arithmetic_side_effects,
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::cast_possible_truncation,
    clippy::float_cmp,
    clippy::expect_used,
    clippy::type_complexity
)]

#[path = "common/cli.rs"]
mod cli;
use cli::{iridia, json, run, scratch, stderr, stdout};
#[path = "common/capture_edit.rs"]
mod capture_edit;
use capture_edit::{rezip, with_manifest};
use serde_json::Value;
use std::io::{Cursor, Read};
use std::path::{Path, PathBuf};

/// A sample capture's path relative to the crate (the binary runs there).
fn sample(name: &str) -> String {
    format!("fixtures/captures/{name}.iridia")
}

const SAMPLES: [&str; 7] = [
    "01-lit-mesh",
    "02-alpha-blend",
    "03-post-process",
    "04-frame",
    "05-thin-triangles",
    "20-recorded",
    "21-imgui",
];

// Whether a sample matches is the reference renderer's bytes against ours: 02 and 03 draw 2D shapes and a
// full-screen pass whose vertices lie on the 1/256 grid, where llvmpipe and the spec interpolate the same; every
// other sample has perspective-projected, off-grid vertices, whose depth llvmpipe interpolates from the unsnapped
// positions (fixtures/captures/README.md), so their depth targets differ.
#[test]
fn replay_exits_0_when_every_draw_matches_and_1_when_some_differ() {
    let out = run(&["replay", &sample("02-alpha-blend"), "--all"]);
    assert_eq!(out.status.code(), Some(0), "{}{}", stdout(&out), stderr(&out));
    assert!(
        stdout(&out).ends_with("6 compared: 6 match, 0 differ\n"),
        "{}",
        stdout(&out)
    );
    let out = run(&["replay", &sample("05-thin-triangles"), "--all"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stdout(&out).ends_with("1 compared: 0 match, 1 differ\n"),
        "{}",
        stdout(&out)
    );
    // one draw of a capture that differs elsewhere: draw 0 of 04 (the sky, a full-screen triangle) matches
    let out = run(&["replay", &sample("04-frame"), "--draw", "0"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(stdout(&out).contains("1 of 26 draws"), "{}", stdout(&out));
}

#[test]
fn every_sample_capture_replays_with_a_json_report_of_each_draw_and_target() {
    for name in SAMPLES {
        let out = run(&["replay", &sample(name), "--all", "--json"]);
        let code = out.status.code();
        assert!(code == Some(0) || code == Some(1), "{name}: {code:?} {}", stderr(&out));
        let report = json(&out);
        let draws = report["draws"].as_array().unwrap();
        assert_eq!(
            report["summary"]["draws"].as_u64().unwrap() as usize,
            draws.len(),
            "{name}"
        );
        assert_eq!(report["summary"]["errors"], 0, "{name}");
        let mut differing_draws = 0;
        for (index, draw) in draws.iter().enumerate() {
            assert_eq!(draw["index"], index, "{name}");
            let targets = draw["targets"].as_array().unwrap();
            assert!(!targets.is_empty(), "{name} draw {index}");
            let (mut compared, mut differing) = (0, 0);
            for target in targets {
                let (width, height) = (target["width"].as_u64().unwrap(), target["height"].as_u64().unwrap());
                let report = &target["report"];
                // every pixel of a recorded target is compared
                assert_eq!(
                    report["compared_pixels"].as_u64().unwrap(),
                    width * height,
                    "{name} {index}"
                );
                let target_differing = report["differing_pixels"].as_u64().unwrap();
                for channel in report["channels"].as_array().unwrap() {
                    for key in ["max_abs_error", "mean_abs_error", "max_ulp_error", "precision_bits"] {
                        assert!(channel[key].is_number(), "{name} {index}: {key} in {channel}");
                    }
                    // a channel's differing pixels are among the target's
                    assert!(channel["differing_pixels"].as_u64().unwrap() <= target_differing);
                }
                assert_eq!(report["matches"], target_differing == 0);
                compared += report["compared_pixels"].as_u64().unwrap();
                differing += target_differing;
            }
            assert_eq!(draw["compared_pixels"].as_u64().unwrap(), compared, "{name} {index}");
            assert_eq!(draw["differing_pixels"].as_u64().unwrap(), differing, "{name} {index}");
            assert_eq!(draw["matches"], differing == 0, "{name} {index}");
            if differing > 0 {
                differing_draws += 1;
            }
        }
        assert_eq!(report["summary"]["differing"], differing_draws, "{name}");
        assert_eq!(code == Some(1), differing_draws > 0, "{name}");
    }
}

#[test]
fn the_thin_triangles_differ_in_both_targets() {
    // 05 is built to show the reference's unsnapped interpolation: 42 off-grid slivers with steep gradients into a
    // float target and D32_FLOAT, both of which keep the difference
    let report = json(&run(&["replay", &sample("05-thin-triangles"), "--json"]));
    let draw = &report["draws"][0];
    let targets = draw["targets"].as_array().unwrap();
    let slots: Vec<&str> = targets.iter().map(|t| t["slot"].as_str().unwrap()).collect();
    assert_eq!(slots, ["rt0", "depth"]);
    for target in targets {
        let differing = target["report"]["differing_pixels"].as_u64().unwrap();
        assert!(differing > 100, "{}: {differing}", target["slot"]);
    }
}

#[test]
fn out_writes_the_replayed_texels_and_the_pictures() {
    let dir = scratch("cli-replay", "out");
    let out = iridia()
        .args(["replay", &sample("05-thin-triangles"), "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    // 96x96 R32G32B32A32_FLOAT is 16 bytes a texel, D32_FLOAT 4
    for (file, size) in [("draw0.rt0.bin", 96 * 96 * 16), ("draw0.depth.bin", 96 * 96 * 4)] {
        let bytes = std::fs::read(dir.join(file)).unwrap();
        assert_eq!(bytes.len(), size, "{file}");
    }
    // the replayed depth is the replay's own: the JSON's first difference lists it
    let report = json(&run(&["replay", &sample("05-thin-triangles"), "--json"]));
    let first = &report["draws"][0]["targets"][1]["report"]["first_differences"][0];
    let (x, y) = (
        first["x"].as_u64().unwrap() as usize,
        first["y"].as_u64().unwrap() as usize,
    );
    let depth = std::fs::read(dir.join("draw0.depth.bin")).unwrap();
    let at = (y * 96 + x) * 4;
    let bits = u32::from_le_bytes(depth[at..at + 4].try_into().unwrap());
    assert_eq!(u64::from(bits), first["channels"][0]["result_bits"].as_u64().unwrap());
    for target in ["rt0", "depth"] {
        for picture in ["replayed", "recorded", "diff", "heatmap"] {
            let bytes = std::fs::read(dir.join(format!("draw0.{target}.{picture}.png"))).unwrap();
            assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{target} {picture}");
        }
    }
}

#[test]
fn replay_errors_exit_2_with_a_message() {
    let cases: [(&[&str], &str); 4] = [
        (
            &["replay", "fixtures/captures/no-such.iridia"],
            "fixtures/captures/no-such.iridia: cannot read",
        ),
        (
            &["replay", "fixtures/captures/02-alpha-blend.iridia", "--draw", "6"],
            "there is no draw 6; the capture has 6 (0 to 5)",
        ),
        (
            &[
                "replay",
                "fixtures/captures/02-alpha-blend.iridia",
                "--tolerance",
                "nonsense",
            ],
            "--tolerance",
        ),
        (&["replay", "fixtures/captures/README.md"], "not a ZIP archive"),
    ];
    for (args, message) in cases {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn corrupt_captures_make_replay_and_inspect_exit_2_naming_what_is_wrong() {
    // tests/capture_format.rs runs these kinds of damage through `iridia info --check`; here the commands that
    // replay run through them, on a real capture (02, six draws that replay and match)
    let dir = scratch("cli-replay", "corrupt");
    let good = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(sample("02-alpha-blend"))).unwrap();
    let manifest: Value = {
        let mut zip = zip::ZipArchive::new(Cursor::new(&good)).unwrap();
        let mut text = String::new();
        zip.by_name("manifest.json").unwrap().read_to_string(&mut text).unwrap();
        serde_json::from_str(&text).unwrap()
    };
    let ps_blob = format!(
        "blobs/{}",
        manifest["draws"][0]["ps"]["dxbc"]["sha256"].as_str().unwrap()
    );
    let ps_size = manifest["draws"][0]["ps"]["dxbc"]["size"].as_u64().unwrap();
    let vs_hash = manifest["draws"][0]["vs"]["dxbc"]["sha256"]
        .as_str()
        .unwrap()
        .to_owned();
    let vs_size = manifest["draws"][0]["vs"]["dxbc"]["size"].as_u64().unwrap();
    let wrong_ps_size = format!("is {} bytes in the manifest but {ps_size} in the archive", ps_size + 1);
    let wrong_target_size = format!("has {vs_size} bytes where a 128x128 surface of R8G8B8A8_UNORM takes 65536");
    let cases: Vec<(&str, Vec<u8>, Vec<&str>)> = vec![
        ("truncated", good[..good.len() / 2].to_vec(), vec!["not a ZIP archive"]),
        (
            "bad zip",
            b"PK\x03\x04 this is not a zip archive at all".to_vec(),
            vec!["not a ZIP archive"],
        ),
        (
            "bad JSON",
            rezip(&good, |name, data| {
                Some(if name == "manifest.json" {
                    b"{\"format\": \"iridia-capture\", \"version\": \"1.0\", \"draws\": [".to_vec()
                } else {
                    data.to_vec()
                })
            }),
            vec!["the manifest is not JSON"],
        ),
        (
            "missing blob",
            rezip(&good, |name, data| (name != ps_blob).then(|| data.to_vec())),
            vec!["draw 0 ps dxbc", "is missing from the archive"],
        ),
        (
            "wrong blob size",
            with_manifest(&good, |m| m["draws"][0]["ps"]["dxbc"]["size"] = (ps_size + 1).into()),
            vec!["draw 0 ps dxbc", &wrong_ps_size],
        ),
        (
            "target of the wrong size",
            with_manifest(&good, |m| {
                m["draws"][0]["render_targets"][0]["after"] = serde_json::json!({"sha256": vs_hash, "size": vs_size});
            }),
            vec!["draw 0 render_targets[0] after", &wrong_target_size],
        ),
        (
            "unknown major version",
            with_manifest(&good, |m| m["version"] = "2.0".into()),
            vec!["format version 2.0 is not one this reader reads: it reads versions 1.x"],
        ),
        (
            "draw referencing nothing",
            with_manifest(&good, |m| {
                m["draws"][0]["render_targets"] = Value::Array(Vec::new());
                m["draws"][0]["depth_stencil_view"] = Value::Null;
            }),
            vec!["draw 0", "no render target and no depth-stencil target"],
        ),
    ];
    for (name, bytes, expected) in cases {
        let path = dir.join(format!("{}.iridia", name.replace(' ', "-")));
        std::fs::write(&path, &bytes).unwrap();
        let path_text = path.display().to_string();
        let commands: [&[&str]; 3] = [
            &["replay", &path_text, "--all"],
            &["replay", &path_text, "--all", "--json"],
            &["inspect", &path_text, "--draw", "0", "--pixel", "0,0"],
        ];
        for args in commands {
            let out = run(args);
            let message = stderr(&out);
            assert_eq!(out.status.code(), Some(2), "{name} {args:?}: {message}");
            assert!(message.contains(&path_text), "{name} {args:?}: {message}");
            for fragment in &expected {
                assert!(
                    message.contains(fragment),
                    "{name} {args:?}: {message:?} lacks {fragment:?}"
                );
            }
        }
    }
}

/// A float32 value as the binary rounds it.
fn f32_of(value: &Value) -> f32 {
    value.as_f64().unwrap() as f32
}

/// The depth at pixel (`x`, `y`)'s centre of the plane through a fragment's three vertices in an inspection's JSON,
/// on a `width` x `height` viewport at (0, 0) with depths 0 to 1, from the screen positions snapped to 1/256 px or
/// not. Snapped, the viewport transform is done in float32 as the spec's ((x/w + 1) * width/2, (1 - y/w) *
/// height/2) and snapped as 3.2.4.1 says, to the nearest 1/256 with ties to even; unsnapped (the reference's
/// way, whose arithmetic we do not know) it is done in f64. The plane is evaluated in f64.
fn plane_depth(fragment: &Value, x: u64, y: u64, (width, height): (f32, f32), snapped: bool) -> f64 {
    let screen: Vec<[f64; 3]> = fragment["vertices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            let p: Vec<f32> = v["position"].as_array().unwrap().iter().map(f32_of).collect();
            let z = f64::from(p[2] / p[3]);
            if snapped {
                let (sx, sy) = ((p[0] / p[3] + 1.) * (width * 0.5), (1. - p[1] / p[3]) * (height * 0.5));
                let fix = |c: f32| (f64::from(c) * 256.).round_ties_even() / 256.;
                [fix(sx), fix(sy), z]
            } else {
                let [x, y, w] = [p[0], p[1], p[3]].map(f64::from);
                [
                    (x / w + 1.) * f64::from(width) * 0.5,
                    (1. - y / w) * f64::from(height) * 0.5,
                    z,
                ]
            }
        })
        .collect();
    let (px, py) = (x as f64 + 0.5, y as f64 + 0.5);
    let [a, b, c] = [screen[0], screen[1], screen[2]];
    let area = (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]);
    let wb = ((px - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (py - a[1])) / area;
    let wc = ((b[0] - a[0]) * (py - a[1]) - (px - a[0]) * (b[1] - a[1])) / area;
    a[2] + wb * (b[2] - a[2]) + wc * (c[2] - a[2])
}

#[test]
fn a_differing_depth_is_the_reference_interpolating_from_unsnapped_positions() {
    // The depth of a differing pixel, worked out from the three vertices `iridia inspect` shows: the GPU's
    // (llvmpipe's) depth is the plane through the unsnapped screen positions, the replay's the plane through the
    // positions snapped to 1/256 px, as 3.2.4.1 and 15.6 require; each within `ulps` of its plane, where the two
    // planes lie 30 to 1400 ULPs apart. 20 was recorded by the recorder from a program run under Wine on the same
    // llvmpipe, and differs the same way. In 04's draw 1 vertex 0's y is 60.412109375 in float32, exactly halfway
    // between two 1/256 steps, and snaps to the even one.
    let cases: [(&str, &str, u64, u64, (f32, f32), f64); 5] = [
        ("01-lit-mesh", "0", 16, 122, (256., 256.), 2.),
        ("20-recorded", "0", 49, 42, (64., 64.), 2.),
        ("04-frame", "5", 146, 39, (192., 128.), 2.),
        ("04-frame", "9", 120, 67, (192., 128.), 2.),
        ("04-frame", "1", 45, 60, (192., 128.), 2.),
    ];
    for (name, draw, x, y, viewport, ulps) in cases {
        let pixel = format!("{x},{y}");
        let out = run(&[
            "inspect",
            &sample(name),
            "--draw",
            draw,
            "--pixel",
            &pixel,
            "--target",
            "depth",
            "--json",
        ]);
        assert_eq!(out.status.code(), Some(1), "{name} {draw}: {}", stderr(&out));
        let inspection = json(&out);
        assert_eq!(inspection["verdict"]["kind"], "depth_value", "{name} {draw}");
        let fragments = inspection["history"]["fragments"].as_array().unwrap();
        assert_eq!(fragments.len(), 1);
        let value = |which: &str| inspection[which]["channels"][0]["value"].as_f64().unwrap();
        let (recorded, replayed) = (value("recorded"), value("replayed"));
        // one ULP of the target: the float32 step above the recorded value for D32_FLOAT, 1/(2^24 - 1) for D24_UNORM
        let ulp = if inspection["format"] == "D32_FLOAT" {
            let bits = (recorded as f32).to_bits();
            f64::from(f32::from_bits(bits + 1)) - f64::from(f32::from_bits(bits))
        } else {
            1. / 16_777_215.
        };
        let unsnapped = plane_depth(&fragments[0], x, y, viewport, false);
        let snapped = plane_depth(&fragments[0], x, y, viewport, true);
        assert!(
            (recorded - unsnapped).abs() <= ulps * ulp,
            "{name} {draw}: {recorded} {unsnapped}"
        );
        assert!(
            (replayed - snapped).abs() <= ulps * ulp,
            "{name} {draw}: {replayed} {snapped}"
        );
        assert!(
            (snapped - unsnapped).abs() > 30. * ulp,
            "{name} {draw}: {snapped} {unsnapped}"
        );
    }
}

#[test]
fn inspect_exits_0_on_a_matching_pixel_and_2_on_a_bad_request() {
    // 02 draw 0 is a checkerboard from a full-screen triangle: every pixel matches, (5, 5) among them
    let out = run(&["inspect", &sample("02-alpha-blend"), "--draw", "0", "--pixel", "5,5"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("\nverdict: matches\n"), "{}", stdout(&out));
    let cases: [(&[&str], &str); 4] = [
        (
            &["--draw", "0", "--pixel", "128,0"],
            "pixel (128, 0) is outside the 128x128 target",
        ),
        (
            &["--draw", "0", "--pixel", "5;5"],
            "--pixel X,Y: '5;5' is not two whole numbers",
        ),
        (
            &["--draw", "6", "--pixel", "5,5"],
            "there is no draw 6; the capture has 6",
        ),
        (
            &["--draw", "0", "--pixel", "5,5", "--target", "depth"],
            "the draw does not write depth",
        ),
    ];
    for (args, message) in cases {
        let out = iridia()
            .args(["inspect", &sample("02-alpha-blend")])
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
    }
}

/// The `console` blocks of README.md's "Example" section: each a command (`$ iridia ...`) and the lines it prints,
/// where a line `...` stands for any number of lines.
fn readme_examples() -> Vec<(Vec<String>, Vec<String>)> {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let section = readme
        .split("\n## Example\n")
        .nth(1)
        .expect("README.md has an Example section");
    let section = section.split("\n## ").next().unwrap();
    let mut examples = Vec::new();
    let mut lines = section.lines();
    while let Some(line) = lines.next() {
        if line != "```console" {
            continue;
        }
        let command = lines.next().unwrap();
        let args = command
            .strip_prefix("$ iridia ")
            .expect("a block starts with `$ iridia `");
        let output: Vec<String> = lines.by_ref().take_while(|l| *l != "```").map(str::to_owned).collect();
        examples.push((args.split_whitespace().map(str::to_owned).collect(), output));
    }
    examples
}

#[test]
fn the_readme_example_is_what_the_commands_print() {
    let examples = readme_examples();
    assert!(examples.len() >= 2, "{examples:?}");
    for (args, expected) in examples {
        let out = iridia().args(&args).output().unwrap();
        assert!(out.status.code() != Some(2), "{args:?}: {}", stderr(&out));
        let printed = stdout(&out);
        let mut printed_lines = printed.lines();
        let mut skipping = false;
        for line in &expected {
            if line == "..." {
                skipping = true;
                continue;
            }
            let found = if skipping {
                printed_lines.any(|p| p == line)
            } else {
                printed_lines.next() == Some(line.as_str())
            };
            assert!(
                found,
                "README: `iridia {}` no longer prints\n{line}\nit prints:\n{printed}",
                args.join(" ")
            );
            skipping = false;
        }
    }
}

/// Per target slot, the differing and compared pixels summed over a report's draws.
fn target_totals(report: &Value) -> Vec<(String, u64, u64)> {
    let mut totals: Vec<(String, u64, u64)> = Vec::new();
    for draw in report["draws"].as_array().unwrap() {
        for target in draw["targets"].as_array().unwrap() {
            let slot = target["slot"].as_str().unwrap().to_owned();
            let (differing, compared) = (
                target["report"]["differing_pixels"].as_u64().unwrap(),
                target["report"]["compared_pixels"].as_u64().unwrap(),
            );
            match totals.iter_mut().find(|(s, _, _)| *s == slot) {
                Some(entry) => {
                    entry.1 += differing;
                    entry.2 += compared;
                }
                None => totals.push((slot, differing, compared)),
            }
        }
    }
    totals
}

/// The first whole number in `text` after `marker`.
fn number_after(text: &str, marker: &str) -> u64 {
    let rest = &text[text
        .find(marker)
        .unwrap_or_else(|| panic!("{marker:?} not in {text:?}"))
        + marker.len()..];
    let digits: String = rest.trim_start().chars().take_while(char::is_ascii_digit).collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("no number after {marker:?} in {text:?}"))
}

/// The rows of the Markdown table of `readme` whose header line starts with `header`, each split into its cells
/// (the first and last empty).
fn readme_table<'a>(readme: &'a str, header: &str) -> Vec<Vec<&'a str>> {
    readme
        .lines()
        .skip_while(|l| !l.starts_with(header))
        .skip(2)
        .take_while(|l| l.starts_with("| "))
        .map(|l| l.split('|').map(str::trim).collect())
        .collect()
}

/// The numbers `A -> B` of a README cell after `marker` (or at its start for an empty marker).
fn arrow_after(cell: &str, marker: &str) -> (u64, u64) {
    let at = cell
        .find(marker)
        .unwrap_or_else(|| panic!("{marker:?} not in {cell:?}"))
        + marker.len();
    let first = number_after(&cell[at..], "");
    (first, number_after(&cell[at..], "->"))
}

#[test]
fn the_sample_captures_llvmpipe_profile_table_is_what_replay_reports() {
    // fixtures/captures/README.md's second table: colour and depth pixels over the tolerance under the spec's rules
    // and under `--profile llvmpipe`, summed over the draws; `--exact` figures where the cell gives them
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/captures/README.md")).unwrap();
    let rows = readme_table(&readme, "| capture | colour: spec -> llvmpipe profile");
    assert_eq!(rows.len(), SAMPLES.len());
    let split = |totals: &[(String, u64, u64)]| -> (u64, u64) {
        let depth = totals.iter().filter(|(s, _, _)| s == "depth").map(|(_, d, _)| d).sum();
        let colour = totals.iter().filter(|(s, _, _)| s != "depth").map(|(_, d, _)| d).sum();
        (colour, depth)
    };
    for row in rows {
        let (name, colour, depth) = (row[1], row[2], row[3]);
        let totals = |extra: &[&str]| {
            let mut args = vec!["replay", name, "--json"];
            args.extend_from_slice(extra);
            let path = sample(name);
            args[1] = &path;
            split(&target_totals(&json(&run(&args))))
        };
        let spec = totals(&[]);
        let llvmpipe = totals(&["--profile", "llvmpipe"]);
        assert_eq!(arrow_after(colour, ""), (spec.0, llvmpipe.0), "{name} colour");
        if depth != "-" {
            assert_eq!(arrow_after(depth, ""), (spec.1, llvmpipe.1), "{name} depth");
        }
        if colour.contains("`--exact`:") {
            let exact = totals(&["--exact"]);
            let exact_llvmpipe = totals(&["--exact", "--profile", "llvmpipe"]);
            assert_eq!(
                arrow_after(colour, "`--exact`:"),
                (exact.0, exact_llvmpipe.0),
                "{name} exact colour"
            );
        }
    }
}

#[test]
fn the_sample_captures_readme_table_is_what_replay_reports() {
    // fixtures/captures/README.md's table: per capture, "M of N" draws matching, and per target "slot D of C"
    // (differing of compared pixels, summed over the draws), or "none (`--exact`: D ...)"
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/captures/README.md")).unwrap();
    let rows = readme_table(&readme, "| capture | draws matching");
    assert_eq!(rows.len(), SAMPLES.len());
    for row in rows {
        let (name, draws, pixels) = (row[1], row[2], row[3]);
        let report = json(&run(&["replay", &sample(name), "--json"]));
        let summary = &report["summary"];
        assert_eq!(
            draws,
            format!("{} of {}", summary["matching"], summary["draws"]),
            "{name}"
        );
        let totals = target_totals(&report);
        if pixels.starts_with("none") {
            assert!(totals.iter().all(|(_, d, _)| *d == 0), "{name}: {totals:?}");
            let exact = target_totals(&json(&run(&["replay", &sample(name), "--json", "--exact"])));
            let all: u64 = exact.iter().map(|(_, d, _)| d).sum();
            assert_eq!(all, number_after(pixels, "`--exact`:"), "{name}");
        } else {
            for (slot, differing, compared) in &totals {
                let cell = format!("{slot} {differing} of {compared}");
                assert!(pixels.contains(&cell), "{name}: {cell:?} not in {pixels:?}");
            }
        }
    }
}

#[test]
fn inspect_traces_the_vertex_program_of_a_corner_on_request() {
    // 02's background is a full-screen triangle from SV_VertexID alone (fixtures/captures/scenes/fullscreen_vs.hlsl):
    // uv = ((id << 1) & 2, id & 2), position = (uv.x * 2 - 1, uv.y * -2 + 1, 0, 1). Corner 1 of pixel (5, 5)'s
    // triangle is vertex 1: uv (2, 0), position (3, 1, 0, 1); its trace shows the shift (1 << 1 = 2) and the writes.
    let out = run(&[
        "inspect",
        &sample("02-alpha-blend"),
        "--draw",
        "0",
        "--pixel",
        "5,5",
        "--trace-vertex",
        "0,1",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let trace = &text[text.find("  vertex program trace:\n").expect("a vertex trace")..];
    let line = |opcode: &str| {
        trace
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(opcode))
            .unwrap_or_else(|| panic!("no {opcode} in\n{trace}"))
            .to_owned()
    };
    assert!(line("ishl").ends_with("y = 0x2"), "{}", line("ishl"));
    let writes: Vec<&str> = trace.lines().filter(|l| l.contains(" mov o")).collect();
    assert!(
        writes[0].contains("mov o0.xyzw") && writes[0].ends_with("xyzw = 3, 1, 0, 1"),
        "{writes:?}"
    );
    assert!(
        writes[1].contains("mov o1.xy") && writes[1].ends_with("xy = 2, 0"),
        "{writes:?}"
    );
    // a corner past the triangle's three is an error
    let out = run(&[
        "inspect",
        &sample("02-alpha-blend"),
        "--draw",
        "0",
        "--pixel",
        "5,5",
        "--trace-vertex",
        "0,3",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--trace-vertex: corner 3 is not 0, 1 or 2"));
}

/// 02-alpha-blend (6 draws, every one matching) with its manifest edited as `edit` says, in a scratch file.
fn edited_sample(name: &str, edit: impl Fn(&mut Value)) -> PathBuf {
    let bytes = std::fs::read(sample("02-alpha-blend")).unwrap();
    let path = scratch("cli-replay", name).join("edited.iridia");
    std::fs::write(&path, with_manifest(&bytes, edit)).unwrap();
    path
}

// Issue 11: a capture whose recorder skipped draws, or a run that compared nothing, is not a pass for CI.
#[test]
fn replay_exits_3_when_draws_were_not_recorded_or_nothing_was_compared() {
    // Two draws listed as not recorded (format 1.1), around the six recorded ones that all match.
    let path = edited_sample("unrecorded", |manifest| {
        manifest["version"] = "1.1".into();
        manifest["unrecorded_draws"] = serde_json::json!([
            {"before_draw": 0, "api_call": "DrawIndexed(36, 0, 0)", "reason": "a multisampled render target",
             "targets": [{"target": "rt0", "format": "R8G8B8A8_UNORM", "width": 1280, "height": 720, "sample_count": 4}]},
            {"before_draw": 6, "name": "resolve pass", "reason": "a geometry program is bound"}
        ]);
    });
    let path = path.to_str().unwrap();
    let out = run(&["replay", path]);
    assert_eq!(out.status.code(), Some(3), "{}{}", stdout(&out), stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("6 compared: 6 match, 0 differ\n"), "{text}");
    assert!(
        text.contains(
            "not recorded: before draw 0: DrawIndexed(36, 0, 0) [rt0 R8G8B8A8_UNORM 1280x720 4x]: a multisampled \
             render target\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("not recorded: before draw 6: resolve pass: a geometry program is bound\n"),
        "{text}"
    );
    assert!(
        text.contains("2 draws of the frame were not recorded: exit 3"),
        "{text}"
    );
    // accepted on request: the six recorded draws match
    let out = run(&["replay", path, "--allow-unrecorded"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    // the JSON report lists them and counts them in its summary
    let out = run(&["replay", path, "--json"]);
    assert_eq!(out.status.code(), Some(3));
    let report = json(&out);
    assert_eq!(report["summary"]["unrecorded"], 2);
    assert_eq!(report["unrecorded_draws"][1]["reason"], "a geometry program is bound");
    // info lists them too, and says how many
    let out = run(&["info", path]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("6 draws (2 more not recorded)"),
        "{}",
        stdout(&out)
    );
    assert!(
        stdout(&out).contains("not recorded: before draw 6: resolve pass"),
        "{}",
        stdout(&out)
    );

    // A capture of no draws at all (what the recorder wrote for a frame it could not record): nothing compared.
    let path = edited_sample("empty", |manifest| {
        manifest["draws"] = serde_json::json!([]);
    });
    let out = run(&["replay", path.to_str().unwrap(), "--all"]);
    assert_eq!(out.status.code(), Some(3), "{}{}", stdout(&out), stderr(&out));
    assert!(
        stdout(&out).contains("nothing was compared: exit 3"),
        "{}",
        stdout(&out)
    );
    let out = run(&["replay", path.to_str().unwrap(), "--allow-unrecorded"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    // Draws recorded without their after-contents: replayed, but nothing compared.
    let path = edited_sample("no-after", |manifest| {
        for draw in manifest["draws"].as_array_mut().unwrap() {
            for target in draw["render_targets"].as_array_mut().unwrap() {
                target["after"] = Value::Null;
            }
        }
    });
    let out = run(&["replay", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(3), "{}{}", stdout(&out), stderr(&out));
    assert!(
        stdout(&out).contains("0 compared: 0 match, 0 differ"),
        "{}",
        stdout(&out)
    );
}

/// 02-alpha-blend's six draws written again with two resolves of a 2x1, 4-sample `R8G8B8A8_UNORM` texture (format
/// 1.2): one before draw 2 whose recorded destination is the box average, and one after the last draw recorded
/// `last_after`.
fn with_resolves(name: &str, last_after: [u8; 8]) -> PathBuf {
    use iridia::api::enums::ResourceDimension;
    use iridia::api::resource::TextureShape;
    use iridia::capture::{Capture, CaptureWriter, DrawRecord, ResolveRecord};
    use iridia::format::Format;
    let mut capture = Capture::open(std::fs::read(sample("02-alpha-blend")).unwrap()).unwrap();
    let shape = |sample_count| TextureShape {
        dimension: ResourceDimension::Texture2D,
        format: Format::R8G8B8A8Unorm,
        width: 2,
        height: 1,
        depth: 1,
        array_size: 1,
        mip_levels: 1,
        sample_count,
    };
    // sample s of texel t: texel 0's red codes 0, 255, 255, 255 (mean 191.25 -> 191), green 10, 20, 30, 41 (25.25
    // -> 25), blue 1, 2, 2, 2 (1.75 -> 2), alpha 255; texel 1 the same codes every sample
    let samples: Vec<u8> = [[0, 10, 1, 255], [255, 20, 2, 255], [255, 30, 2, 255], [255, 41, 2, 255]]
        .iter()
        .flat_map(|texel0| texel0.iter().chain(&[7, 8, 9, 10]).copied().collect::<Vec<u8>>())
        .collect();
    let resolve = |after: [u8; 8]| ResolveRecord::<[u8]> {
        api_call: Some("ResolveSubresource(dst, 0, src, 0, R8G8B8A8_UNORM)".into()),
        format: Format::R8G8B8A8Unorm,
        source: shape(4),
        source_subresource: 0,
        source_data: samples.clone().into(),
        destination: shape(1),
        destination_subresource: 0,
        destination_before: vec![0; 8].into(),
        destination_after: Some(after.to_vec().into()),
    };
    let mut writer = CaptureWriter::in_memory();
    for index in 0..capture.draw_count() {
        if index == 2 {
            writer.add_resolve(&resolve([191, 25, 2, 255, 7, 8, 9, 10])).unwrap();
        }
        writer
            .add_draw(&DrawRecord::from(capture.draw(index).unwrap()))
            .unwrap();
    }
    writer.add_resolve(&resolve(last_after)).unwrap();
    let path = scratch("cli-replay", name).join("resolves.iridia");
    std::fs::write(&path, writer.finish_to_vec().unwrap()).unwrap();
    path
}

#[test]
fn replay_lists_resolves_in_the_frames_order_and_counts_a_differing_one() {
    // both resolves match: exit 0, each row where it came in the frame
    let path = with_resolves("resolves-match", [191, 25, 2, 255, 7, 8, 9, 10]);
    let path = path.to_str().unwrap();
    let out = run(&["replay", path]);
    assert_eq!(out.status.code(), Some(0), "{}{}", stdout(&out), stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    let row = |start: &str| lines.iter().position(|l| l.trim_start().starts_with(start)).unwrap();
    assert!(
        row("1 ") < row("r0 ") && row("r0 ") < row("2 ") && row("5 ") < row("r1 "),
        "{text}"
    );
    assert!(lines[row("r0 ")].contains("resolve before draw 2"), "{text}");
    assert!(lines[row("r1 ")].contains("resolve before draw 6"), "{text}");
    assert!(lines[row("r0 ")].ends_with("matches"), "{text}");
    assert!(text.contains("; 2 resolves, 2 compared: 2 match, 0 differ\n"), "{text}");

    // the last one three codes off in texel 1's green: exit 1, the row says so, the JSON counts it
    let path = with_resolves("resolves-differ", [191, 25, 2, 255, 7, 11, 9, 10]);
    let path = path.to_str().unwrap();
    let out = run(&["replay", path]);
    assert_eq!(out.status.code(), Some(1), "{}{}", stdout(&out), stderr(&out));
    let text = stdout(&out);
    let differing = text.lines().find(|l| l.trim_start().starts_with("r1 ")).unwrap();
    assert!(differing.contains("resolve before draw 6"), "{text}");
    assert!(differing.contains("dst.G 3 ULP"), "{text}");
    assert!(differing.ends_with("DIFFERS"), "{text}");
    let out = run(&["replay", path, "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let report = json(&out);
    let resolves = report["resolves"].as_array().unwrap();
    assert_eq!(resolves.len(), 2);
    assert_eq!(
        (resolves[0]["index"].as_u64(), resolves[0]["before_draw"].as_u64()),
        (Some(0), Some(2))
    );
    assert_eq!(resolves[0]["matches"], true);
    assert_eq!(resolves[1]["before_draw"], 6);
    assert_eq!(resolves[1]["matches"], false);
    assert_eq!(
        (
            resolves[1]["compared_pixels"].as_u64(),
            resolves[1]["differing_pixels"].as_u64()
        ),
        (Some(2), Some(1))
    );
    assert_eq!(resolves[1]["format"], "R8G8B8A8_UNORM");
    assert_eq!(resolves[1]["samples"], 4);
    assert_eq!(report["summary"]["resolves"], 2);
    assert_eq!(report["summary"]["resolves_differing"], 1);
    assert_eq!(report["summary"]["differing"], 0);
    // one draw alone: no resolve is replayed
    let out = run(&["replay", path, "--draw", "3", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(json(&out)["resolves"].as_array().unwrap().len(), 0);

    // info lists them in their place
    let out = run(&["info", path]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("iridia-capture 1.5, 6 draws, 2 resolves"), "{text}");
    let resolve_line = "resolve 0 before draw 2  ResolveSubresource(dst, 0, src, 0, R8G8B8A8_UNORM) [R8G8B8A8_UNORM \
                        2x1 4x]  subresource 0 -> subresource 0  after recorded";
    assert!(text.contains(resolve_line), "{text}");
    assert!(
        text.find(resolve_line).unwrap() < text.find("\ndraw 2").unwrap(),
        "{text}"
    );
    let out = run(&["info", path, "--json", "--check"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let info = json(&out);
    assert_eq!(info["resolves"][1]["before_draw"], 6);
    assert_eq!(info["resolves"][1]["problem"], Value::Null);
}

#[test]
fn a_draw_past_the_time_limit_is_stopped_with_an_error_naming_it() {
    // Issue 13: a draw's work had no bound on the command line. With a limit of a nanosecond the first progress
    // report stops 01-lit-mesh's one draw: exit 2 (a draw could not be replayed), the error naming the limit.
    let out = run(&["replay", &sample("01-lit-mesh"), "--time-limit", "0.000000001"]);
    assert_eq!(out.status.code(), Some(2), "{}{}", stdout(&out), stderr(&out));
    let text = format!("{}{}", stdout(&out), stderr(&out));
    assert!(text.contains("draw 0 ran longer than the time limit"), "{text}");
    // 0 is no limit, and the default (600 s) leaves the sample alone
    for args in [&["--time-limit", "0"][..], &[][..]] {
        let mut all = vec!["replay", "fixtures/captures/01-lit-mesh.iridia"];
        all.extend_from_slice(args);
        let out = run(&all);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn a_draw_past_its_work_or_memory_limit_fails_with_an_error_naming_the_limit() {
    // Issue 13: --max-work and --max-memory bound one draw; a draw past either fails (exit 2) with the limit named,
    // and the other draws of the frame go on. 04-frame's draw 0 (the sky) is two triangles over 192x128 pixels: some
    // hundred thousand lane-instructions; its blobs (targets of 96 KiB each, before and after) are some 200 KB.
    let frame = "fixtures/captures/04-frame.iridia";
    let out = run(&["replay", frame, "--draw", "0", "--max-work", "5000"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let text = format!("{}{}", stdout(&out), stderr(&out));
    assert!(text.contains("more than its work limit of 5000 units"), "{text}");
    let out = run(&["replay", frame, "--draw", "0", "--max-memory", "100KiB"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let text = format!("{}{}", stdout(&out), stderr(&out));
    assert!(text.contains("more than its memory limit of 102400 bytes"), "{text}");
    // the whole frame under the memory limit: every draw fails alone, the run finishes and counts them
    let out = run(&["replay", frame, "--max-memory", "100KiB"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).contains("26 failed"), "{}", stdout(&out));
    // generous limits change nothing; a limit that is not a size is refused before anything runs
    let out = run(&[
        "replay",
        frame,
        "--draw",
        "0",
        "--max-memory",
        "1GiB",
        "--max-work",
        "100000000000",
    ]);
    assert!(matches!(out.status.code(), Some(0 | 1)), "{}", stderr(&out));
    let out = run(&["replay", frame, "--max-memory", "12XB"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("'xb' is not a size unit"), "{}", stderr(&out));
    // inspect takes the same limits, for the work it does (a pixel alone: the draw's four vertices and its quad)
    let out = run(&["inspect", frame, "--draw", "0", "--pixel", "10,10", "--max-work", "10"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("work limit of 10 units"), "{}", stderr(&out));
    let out = run(&[
        "inspect",
        frame,
        "--draw",
        "0",
        "--pixel",
        "10,10",
        "--max-memory",
        "100KiB",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("memory limit of 102400 bytes"),
        "{}",
        stderr(&out)
    );
}

/// The `perceptual` figures of a target in the JSON report: (mean, p50, p95, p99, max).
fn perceptual(target: &Value) -> (f64, f64, f64, f64, f64) {
    let figure = |key: &str| {
        target["perceptual"][key]
            .as_f64()
            .unwrap_or_else(|| panic!("{key} in {}", target["perceptual"]))
    };
    (
        figure("mean"),
        figure("p50"),
        figure("p95"),
        figure("p99"),
        figure("max"),
    )
}

#[test]
fn flip_scores_each_render_target_by_how_visible_its_difference_is() {
    // --exact and --flip together: the ULPs of each channel and the perceptual figures from one run (the tolerance
    // does not change the FLIP map, which compares the pictures, not the tolerance's verdict)
    let out = run(&["replay", &sample("02-alpha-blend"), "--flip", "--exact", "--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let report = json(&out);
    let draws = report["draws"].as_array().unwrap();
    assert_eq!(draws.len(), 6);
    for draw in draws {
        let rt0 = &draw["targets"][0];
        assert_eq!(rt0["slot"], "rt0");
        // FLIP errors are in [0, 1]; percentiles by nearest rank grow with p, and the mean lies within the range
        let (mean, p50, p95, p99, max) = perceptual(rt0);
        assert!(
            0.0 <= p50 && p50 <= p95 && p95 <= p99 && p99 <= max && max <= 1.0,
            "draw {}: {}",
            draw["index"],
            rt0["perceptual"]
        );
        assert!(
            (0.0..=max).contains(&mean),
            "draw {}: {}",
            draw["index"],
            rt0["perceptual"]
        );
    }
    // Draw 0 (the checker background) matches bit for bit, so both pictures are the same and no pixel has any error.
    let checker = &draws[0]["targets"][0];
    assert_eq!(checker["report"]["differing_pixels"], 0);
    assert_eq!(perceptual(checker), (0.0, 0.0, 0.0, 0.0, 0.0));
    // Draw 1 (the red disc at alpha 0.6) differs from the GPU's by one code (1 ULP of R, G or B, alpha exact) in
    // 2481 of its 16384 pixels (and 38 ambiguous ones on the disc's edge): blending rounding. FLIP sees that, but
    // barely. Its colour pipeline takes the HyAB distance d of the two colours in Hunt-adjusted CIELAB (|dL| plus
    // the distance in a, b) to d^0.7 and maps that linearly to pt = 0.95 at the knee, pc = 0.4 of cmax (the largest
    // distance, linear green against blue: 203.3^0.7 = 41.28): an error of 0.95 * d^0.7 / 16.51 = 0.0575 * d^0.7,
    // up to 0.0575 for d = 1. One 8-bit code moves these greys and reds by d = 0.24 to 0.88, which would score
    // 0.021 to 0.053 over a whole area of them; but the differing pixels are scattered, and the eye's filters
    // (radius 10 pixels at 67 pixels per degree) average each one's difference with its neighbours', most of them
    // equal, so the largest error stays under 0.05 (0.043). A difference that shows scores near or past the knee's
    // 0.95: pure red for black is d = 108.9, an error of 0.97.
    let disc = &draws[1]["targets"][0];
    assert_eq!(disc["report"]["differing_pixels"], 2481);
    let ulps: Vec<u64> = disc["report"]["channels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["max_ulp_error"].as_u64().unwrap())
        .collect();
    assert_eq!(ulps, [1, 1, 1, 0]);
    let (mean, _, _, _, max) = perceptual(disc);
    assert!(max > 0.0 && max < 0.05, "{}", disc["perceptual"]);
    assert!(mean > 0.0 && mean < max, "{}", disc["perceptual"]);
    // without --flip the field is there but null, and the table is the same with or without it (no new column)
    let plain = json(&run(&["replay", &sample("02-alpha-blend"), "--exact", "--json"]));
    for draw in plain["draws"].as_array().unwrap() {
        let rt0 = &draw["targets"][0];
        assert!(rt0.get("perceptual").is_some_and(Value::is_null), "{rt0}");
    }
    let table = stdout(&run(&["replay", &sample("02-alpha-blend"), "--exact"]));
    assert_eq!(
        stdout(&run(&["replay", &sample("02-alpha-blend"), "--exact", "--flip"])),
        table
    );
    // a depth-stencil target has no picture to score: null even with --flip (05's rt0 is a float target: scored)
    let thin = json(&run(&["replay", &sample("05-thin-triangles"), "--flip", "--json"]));
    let targets = thin["draws"][0]["targets"].as_array().unwrap();
    let slots: Vec<&str> = targets.iter().map(|t| t["slot"].as_str().unwrap()).collect();
    assert_eq!(slots, ["rt0", "depth"]);
    let (_, _, _, _, max) = perceptual(&targets[0]);
    assert!(max > 0.0, "{}", targets[0]["perceptual"]);
    assert!(targets[1]["perceptual"].is_null(), "{}", targets[1]);
}

#[test]
fn flip_with_out_writes_each_render_targets_error_map_as_a_png() {
    let dir = scratch("cli-replay", "flip");
    let out = iridia()
        .args(["replay", &sample("02-alpha-blend"), "--flip", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    for draw in 0..6 {
        let bytes = std::fs::read(dir.join(format!("draw{draw}.rt0.flip.png"))).unwrap();
        let mut reader = png::Decoder::new(Cursor::new(bytes)).read_info().unwrap();
        let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut pixels).unwrap();
        pixels.truncate(info.buffer_size());
        // the target's size: 128x128 R8G8B8A8_UNORM, one sample
        assert_eq!((info.width, info.height), (128, 128), "draw {draw}");
        assert_eq!(info.color_type, png::ColorType::Rgba);
        // draw 0 matches bit for bit: every error 0, which magma shows as its first colour, (0, 0, 4)
        if draw == 0 {
            assert!(pixels.chunks_exact(4).all(|p| p == [0, 0, 4, 255]));
        }
    }
    // without --flip no error map is written (the other pictures are)
    let dir = scratch("cli-replay", "no-flip");
    let out = iridia()
        .args(["replay", &sample("02-alpha-blend"), "--draw", "1", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(dir.join("draw1.rt0.heatmap.png").exists());
    assert!(!dir.join("draw1.rt0.flip.png").exists());
}

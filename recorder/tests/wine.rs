//! The recorder end to end under Wine: `tests/wine/testapp.exe` (a mingw-built D3D11 program) draws a frame through
//! every path to a context, reading back each target before and after each draw itself; the recorder records the
//! same frame. Run by `scripts/test-recorder.sh`, which builds the proxy, the program and the `bcryptprimitives`
//! shim, makes a Wine prefix, starts an X server and sets:
//!
//! - `IRIDIA_WINE_BIN`: a folder holding `testapp.exe`, `d3d11.dll` (the recorder) and `bcryptprimitives.dll`;
//! - `IRIDIA_WINE_SHADERS`: `tests/wine/shaders`;
//! - `IRIDIA_WINE_OUT`: a scratch folder;
//! - `WINEPREFIX`, `DISPLAY`.
//!
//! Expected values come from the program's own readbacks through the real D3D11 (Wine's, on Mesa llvmpipe), never
//! from the recorder. The tests are ignored by a plain `cargo test`, which has no Wine.

// Test code: a failed step is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use iridia::capture::{Capture, TargetSlot};
use iridia::compare::{CompareOptions, Tolerance, compare};
use iridia::draw::{ShaderCache, run_draw};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The program's frames: three, the second (frame 1) read back and recorded.
const FRAMES: &str = "3";
const CHECKED_FRAME: &str = "1";

/// A path as Wine's `Z:` drive names it.
fn windows_path(path: &Path) -> String {
    format!("Z:{}", path.display()).replace('/', "\\")
}

/// An environment variable the script sets.
fn env_path(name: &str) -> PathBuf {
    PathBuf::from(std::env::var_os(name).unwrap_or_else(|| panic!("{name} is not set: run scripts/test-recorder.sh")))
}

/// One run of the program: its readbacks by file name, the captures it left, the recorder's log.
struct Run {
    dir: PathBuf,
    readbacks: BTreeMap<String, Vec<u8>>,
    listing: String,
    captures: Vec<PathBuf>,
    log: String,
}

/// One run of the program under Wine into `dir` (emptied first), the recorder's log at `log`.
fn launch(dir: &Path, log: &Path, recorder: bool, settings: &[(&str, &str)]) -> std::process::Output {
    let bin = env_path("IRIDIA_WINE_BIN");
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    let mut command = Command::new("timeout");
    command
        .arg("180")
        .arg("wine")
        .arg(bin.join("testapp.exe"))
        .arg(windows_path(&env_path("IRIDIA_WINE_SHADERS")))
        .arg(windows_path(dir))
        .args([FRAMES, CHECKED_FRAME])
        .env("WINEDEBUG", "-all")
        .env(
            "WINEDLLOVERRIDES",
            if recorder {
                "mscoree,mshtml=;d3d11,bcryptprimitives=n,b"
            } else {
                "mscoree,mshtml=;d3d11=b"
            },
        )
        .env("IRIDIA_OUTPUT_DIR", windows_path(dir))
        .env("IRIDIA_LOG_FILE", windows_path(log))
        .env("IRIDIA_CAPTURE_KEY", "none")
        .env("IRIDIA_TRIGGER_FILE", "none")
        .env_remove("IRIDIA_CAPTURE_FRAME");
    for (key, value) in settings {
        command.env(key, value);
    }
    command.output().expect("wine runs")
}

/// Runs the program into `IRIDIA_WINE_OUT/name`, with the recorder when `recorder` (and these settings). Wine 8
/// now and then crashes in a process's exit after the program's last line (seen with and without the recorder);
/// such a run is made once more, and a second failure fails the test.
fn run(name: &str, recorder: bool, settings: &[(&str, &str)]) -> Run {
    let dir = env_path("IRIDIA_WINE_OUT").join(name);
    let log = dir.join("recorder.log");
    let mut attempt = 0;
    loop {
        attempt += 1;
        let output = launch(&dir, &log, recorder, settings);
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            output.status.code() != Some(124),
            "{name}: testapp.exe under Wine did not finish within 180 s (Wine's first start can be slow; is the X \
             server up?):\n{stderr}"
        );
        if output.status.success() {
            break;
        }
        let finished = stdout.contains("frames drawn");
        assert!(
            finished && attempt == 1,
            "{name}: testapp.exe failed ({}, attempt {attempt}):\n{stdout}\n{stderr}",
            output.status
        );
        eprintln!(
            "{name}: testapp.exe drew every frame but exited with {}; running it again",
            output.status
        );
    }
    let listing = std::fs::read_to_string(dir.join("readbacks.txt")).unwrap();
    let mut readbacks = BTreeMap::new();
    let mut captures = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        if file.ends_with(".bin") {
            readbacks.insert(file, std::fs::read(&path).unwrap());
        } else if file.ends_with(".iridia") {
            captures.push(path);
        }
    }
    let log = std::fs::read_to_string(&log).unwrap_or_default();
    Run {
        dir,
        readbacks,
        listing,
        captures,
        log,
    }
}

/// The three runs, made once for all tests: without the recorder, with it and no trigger, with it recording
/// frame 1 (which starts at the second `Present` — the program presents twice a frame, on swap chains A and B —
/// and spans two).
struct Runs {
    plain: Run,
    idle: Run,
    recorded: Run,
}

fn runs() -> &'static Runs {
    static RUNS: OnceLock<Runs> = OnceLock::new();
    RUNS.get_or_init(|| Runs {
        plain: run("plain", false, &[]),
        idle: run("idle", true, &[]),
        recorded: run(
            "recorded",
            true,
            &[
                ("IRIDIA_CAPTURE_FRAME", "2"),
                ("IRIDIA_CAPTURE_FRAMES", "2"),
                ("IRIDIA_SNAPSHOT_DRAWS", "3"),
            ],
        ),
    })
}

/// The readback listing: (draw, target, width, height, before file, after file).
fn listing(run: &Run) -> Vec<(usize, String, u32, u32, String, String)> {
    run.listing
        .lines()
        .map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            (
                f[0].parse().unwrap(),
                f[1].to_owned(),
                f[2].parse().unwrap(),
                f[3].parse().unwrap(),
                f[5].to_owned(),
                f[6].to_owned(),
            )
        })
        .collect()
}

fn assert_same_readbacks(a: &Run, b: &Run) {
    assert_eq!(a.listing, b.listing);
    assert_eq!(
        a.readbacks.len(),
        24,
        "8 draws' targets, before and after: {:?}",
        a.readbacks.keys()
    );
    for (file, bytes) in &a.readbacks {
        let other = b
            .readbacks
            .get(file)
            .unwrap_or_else(|| panic!("{} lacks {file}", b.dir.display()));
        assert!(
            bytes == other,
            "{file} differs between {} and {}",
            a.dir.display(),
            b.dir.display()
        );
    }
}

#[test]
#[ignore = "needs Wine: scripts/test-recorder.sh runs it"]
fn without_a_trigger_the_recorder_changes_nothing_the_program_renders() {
    let runs = runs();
    // The recorder was loaded and hooked the draws (else this test would compare Wine with itself).
    assert!(runs.idle.log.contains("hooked DrawIndexed"), "{}", runs.idle.log);
    assert!(runs.idle.log.contains("hooked Present"), "{}", runs.idle.log);
    assert!(runs.idle.captures.is_empty());
    assert!(!runs.idle.log.contains("capture started"));
    assert_same_readbacks(&runs.plain, &runs.idle);
}

#[test]
#[ignore = "needs Wine: scripts/test-recorder.sh runs it"]
fn recording_changes_nothing_the_program_renders() {
    let runs = runs();
    assert!(runs.recorded.log.contains("capture started"), "{}", runs.recorded.log);
    assert_same_readbacks(&runs.plain, &runs.recorded);
}

/// The recorded capture, opened.
fn recorded_capture() -> Capture<std::io::Cursor<std::sync::Arc<[u8]>>> {
    let runs = runs();
    assert_eq!(runs.recorded.captures.len(), 1, "{}", runs.recorded.log);
    let bytes = std::fs::read(&runs.recorded.captures[0]).unwrap();
    Capture::open(bytes).unwrap()
}

#[test]
#[ignore = "needs Wine: scripts/test-recorder.sh runs it"]
fn the_recorded_frame_holds_every_draw_in_order() {
    let mut capture = recorded_capture();
    capture.check().unwrap();
    assert_eq!(capture.ignored_tail(), 0);
    let calls: Vec<String> = capture.draws().iter().map(|d| d.api_call.clone().unwrap()).collect();
    // The program's draws 0 to 7, as testapp.c makes them: the four immediate paths, the two deferred contexts
    // (recorded where their command lists run), the back buffer of swap chain A, then device B.
    assert_eq!(
        calls,
        [
            "DrawIndexed(3, 0, 0)",
            "Draw(3, 0)",
            "DrawInstanced(3, 2, 0, 0)",
            "DrawIndexedInstanced(6, 1, 0, 0, 0)",
            "Draw(3, 0)",
            "DrawIndexed(3, 0, 0)",
            "DrawIndexed(6, 0, 0)",
            "Draw(3, 0)",
        ]
    );
    let names: Vec<String> = capture.draws().iter().map(|d| d.name.clone().unwrap()).collect();
    assert_eq!(names[4], "deferred context");
    assert_eq!(names[5], "deferred context");
    assert_eq!(names[0], "immediate context");
    // Draw 2's constant buffer window (VSSetConstantBuffers1: constants 16 to 31 of a 32-constant buffer).
    let draw = capture.draw(2).unwrap();
    let cb = draw.state.vs.constant_buffer(0).unwrap();
    assert_eq!((cb.first_constant, cb.num_constants, cb.data.len()), (16, 16, 512));
    // Draw 3 samples an 8x8 texture through a point sampler.
    let draw = capture.draw(3).unwrap();
    let view = draw.state.ps.shader_resource(0).unwrap();
    match view.resource.as_ref() {
        iridia::api::resource::Resource::Texture(t) => assert_eq!((t.shape.width, t.shape.height), (8, 8)),
        other => panic!("draw 3's texture is {other:?}"),
    }
    assert_eq!(
        draw.state.ps.sampler(0).unwrap().filter,
        iridia::api::enums::Filter::MinMagMipPoint
    );
    // Draw 5 is scissored (5, 3)-(40, 33).
    let draw = capture.draw(5).unwrap();
    assert!(draw.state.rasterizer.scissor_enable);
    assert_eq!(draw.state.scissor_rects[0].right, 40);
}

#[test]
#[ignore = "needs Wine: scripts/test-recorder.sh runs it"]
fn every_recorded_target_is_what_the_program_read_back() {
    let runs = runs();
    let mut capture = recorded_capture();
    for (draw_index, target, width, height, before, after) in listing(&runs.recorded) {
        let draw = capture.draw(draw_index).unwrap();
        let slot = if target == "depth" {
            TargetSlot::DepthStencil
        } else {
            TargetSlot::RenderTarget(0)
        };
        let recorded = draw
            .target(slot)
            .unwrap_or_else(|| panic!("draw {draw_index} records no {target}"));
        assert_eq!(
            (recorded.width, recorded.height),
            (width, height),
            "draw {draw_index} {target}"
        );
        assert!(
            *recorded.before == runs.recorded.readbacks[&before][..],
            "draw {draw_index} {target}: the recorded surface before the draw is not what the program read"
        );
        assert!(
            recorded.after.as_deref() == Some(&runs.recorded.readbacks[&after][..]),
            "draw {draw_index} {target}: the recorded surface after the draw is not what the program read"
        );
    }
}

#[test]
#[ignore = "needs Wine: scripts/test-recorder.sh runs it"]
fn every_recorded_draw_replays_and_the_differences_are_reported() {
    let mut capture = recorded_capture();
    let mut cache = ShaderCache::new();
    let mut report = String::new();
    for index in 0..capture.draw_count() {
        let draw = capture.draw(index).unwrap();
        let output =
            run_draw(&draw.state, &mut cache, None).unwrap_or_else(|e| panic!("draw {index} does not replay: {e}"));
        for target in &draw.targets {
            let image = match target.target {
                TargetSlot::RenderTarget(slot) => output.render_targets[slot as usize].as_ref(),
                TargetSlot::DepthStencil => output.depth_stencil.as_ref(),
            }
            .unwrap_or_else(|| panic!("draw {index} {}: the replay wrote no such target", target.target));
            let after = target.after.as_ref().unwrap();
            let recorded = iridia::compare::Image::new(target.format, target.width, target.height, after).unwrap();
            let comparison = compare(
                &recorded,
                &image.image().unwrap(),
                &CompareOptions::new(Tolerance::for_format(target.format)),
            )
            .unwrap();
            let r = &comparison.report;
            report.push_str(&format!(
                "draw {index} {}: {} of {} pixels differ ({} ambiguous, {} shifted)\n",
                target.target, r.differing_pixels, r.compared_pixels, r.ambiguous_pixels, r.shifted_pixels
            ));
        }
    }
    println!("{report}");
    std::fs::write(env_path("IRIDIA_WINE_OUT").join("replay-report.txt"), &report).unwrap();
}

//! The recorder end to end under Wine: `tests/wine/testapp.exe` (a mingw-built D3D11 program) draws a frame through
//! every path to a context, reading back each target before and after each draw itself; the recorder records the
//! same frame. Run by `scripts/test-recorder.sh`, which builds the proxy, the program and the `bcryptprimitives`
//! shim, makes a Wine prefix, starts an X server and sets:
//!
//! - `IRIDIA_WINE_BIN`: a folder holding `testapp.exe`, `d3d11.dll` (the recorder) and `bcryptprimitives.dll`;
//! - `IRIDIA_WINE_SHADERS`: `tests/wine/shaders`;
//! - `IRIDIA_WINE_OUT`: a scratch folder;
//! - `IRIDIA_WINE_CLI`: the `iridia` command-line program (for `iridia info`);
//! - `WINEPREFIX`, `DISPLAY`.
//!
//! Expected values come from the program's own readbacks through the real D3D11 (Wine's, on Mesa llvmpipe), never
//! from the recorder. The tests are ignored by a plain `cargo test`, which has no Wine.

// Test code: a failed step is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use iridia::capture::{Capture, TargetSlot};
use iridia::compare::{CompareOptions, Tolerance, ToleranceSpec, compare};
use iridia::draw::{ShaderCache, run_draw};
use iridia::replay::replay_resolve;
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

/// One run of the program: its readbacks by file name, the captures it left, the recorder's log, what it printed.
struct Run {
    dir: PathBuf,
    readbacks: BTreeMap<String, Vec<u8>>,
    listing: String,
    captures: Vec<PathBuf>,
    log: String,
    stdout: String,
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
    let mut printed;
    loop {
        attempt += 1;
        let output = launch(&dir, &log, recorder, settings);
        printed = String::from_utf8_lossy(&output.stdout).into_owned();
        let stdout = &printed;
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
        // Wine (on llvmpipe) now and then kills the process with SIGKILL while it tears down, after the program has
        // written and closed every output and printed its last line - seen without the recorder loaded too, so not
        // the recorder's doing: the run's outputs are complete, and the checks below read them.
        if finished && killed_by_sigkill(&output.status) {
            eprintln!(
                "{name}: testapp.exe drew every frame and was killed (SIGKILL) as Wine tore it down; its outputs are complete"
            );
            break;
        }
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
        stdout: printed,
    }
}

/// The three runs, made once for all tests: without the recorder, with it and no trigger, with it recording
/// frame 1 (which starts at the second `Present` — the program presents twice a frame, on swap chains A and B —
/// and spans two).
struct Runs {
    plain: Run,
    idle: Run,
    recorded: Run,
    /// Recording frame 1 with two draws the recorder cannot record added (`TESTAPP_UNRECORDABLE`), and the writer
    /// made slow to finish (`IRIDIA_FAULT_WRITER_DELAY_MS`).
    unrecordable: Run,
    /// Recording frame 1 with a panic injected while recording its draw 3 (`IRIDIA_FAULT_PANIC_DRAW`).
    faulted: Run,
}

/// How long the unrecordable run's writer waits before finishing its file, in milliseconds: far longer than a
/// `Present` takes.
const WRITER_DELAY_MS: &str = "5000";

/// The settings that record frame 1.
const RECORD_FRAME_1: [(&str, &str); 3] = [
    ("IRIDIA_CAPTURE_FRAME", "2"),
    ("IRIDIA_CAPTURE_FRAMES", "2"),
    ("IRIDIA_SNAPSHOT_DRAWS", "3"),
];

fn runs() -> &'static Runs {
    static RUNS: OnceLock<Runs> = OnceLock::new();
    RUNS.get_or_init(|| Runs {
        plain: run("plain", false, &[]),
        idle: run("idle", true, &[]),
        recorded: run("recorded", true, &RECORD_FRAME_1),
        unrecordable: run(
            "unrecordable",
            true,
            &[
                RECORD_FRAME_1.as_slice(),
                &[
                    ("TESTAPP_UNRECORDABLE", "1"),
                    ("IRIDIA_FAULT_WRITER_DELAY_MS", WRITER_DELAY_MS),
                ],
            ]
            .concat(),
        ),
        faulted: run(
            "faulted",
            true,
            &[RECORD_FRAME_1.as_slice(), &[("IRIDIA_FAULT_PANIC_DRAW", "3")]].concat(),
        ),
    })
}

/// The capture's index of the program's draw `draw` (testapp.c's numbers): every draw is recorded.
fn capture_index(draw: usize) -> usize {
    draw
}

/// One line of the readback listing.
struct Listed {
    draw: usize,
    target: String,
    width: u32,
    height: u32,
    before: String,
    after: String,
    /// The render-target slot, or `None` for the depth-stencil target.
    slot: Option<u32>,
}

/// The readback listing.
fn listing(run: &Run) -> Vec<Listed> {
    run.listing
        .lines()
        .map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            Listed {
                draw: f[0].parse().unwrap(),
                target: f[1].to_owned(),
                width: f[2].parse().unwrap(),
                height: f[3].parse().unwrap(),
                before: f[5].to_owned(),
                after: f[6].to_owned(),
                slot: u32::try_from(f[7].parse::<i32>().unwrap()).ok(),
            }
        })
        .collect()
}

fn assert_same_readbacks(a: &Run, b: &Run) {
    assert_eq!(a.listing, b.listing);
    // 14 draws' 24 targets, before and after, and the resolved, mapped and updated textures.
    assert_eq!(a.listing.lines().count(), 24);
    assert_eq!(a.readbacks.len(), 2 * 24 + 3, "{:?}", a.readbacks.keys());
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
    // The program's draws 0 to 13 as testapp.c makes them: the four immediate paths, the two deferred contexts
    // (recorded where their command lists run), the back buffer of swap chain A, two render targets with a D24S8
    // target (twice), four kinds of sampled texture, the 4x multisampled pass (twice), the resolved target
    // sampled, then device B.
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
            "DrawIndexed(3, 0, 0)",
            "Draw(3, 0)",
            "DrawIndexed(6, 0, 0)",
            "DrawIndexed(3, 0, 0)",
            "Draw(3, 0)",
            "DrawIndexed(6, 0, 0)",
            "Draw(3, 0)",
        ]
    );
    // The recorder names no draw (the library names each by its call and state, the markers place it).
    assert!(capture.draws().iter().all(|d| d.name.is_none()));
    assert!(
        capture.draws()[0]
            .label()
            .starts_with("DrawIndexed(3, 0, 0) → rt0 64x64"),
        "{}",
        capture.draws()[0].label()
    );
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
    // Draw 7 writes two render targets and a D24S8 depth-stencil target, the stencil tested.
    let draw = capture.draw(7).unwrap();
    let slots: Vec<String> = draw.targets.iter().map(|t| t.target.to_string()).collect();
    assert_eq!(slots.len(), 3, "{slots:?}");
    assert!(draw.target(TargetSlot::RenderTarget(1)).is_some(), "{slots:?}");
    assert_eq!(
        draw.target(TargetSlot::DepthStencil).unwrap().format,
        iridia::format::Format::D24UnormS8Uint
    );
    assert!(draw.state.depth_stencil.stencil_enable);
}

/// One row of a capture's outline as text: its depth, then `begin NAME`, `marker NAME`, `draw N`, `resolve N` or the
/// event's kind (its text is checked apart).
fn outline_tokens(capture: &Capture<std::io::Cursor<std::sync::Arc<[u8]>>>) -> Vec<String> {
    use iridia::capture::outline::OutlineKind;
    capture
        .outline()
        .rows
        .iter()
        .map(|row| {
            let what = match &row.kind {
                OutlineKind::Group { .. } => format!("begin {}", row.text),
                OutlineKind::Marker => format!("marker {}", row.text),
                OutlineKind::Draw(n) => format!("draw {n}"),
                OutlineKind::Resolve(n) => format!("resolve {n}"),
                OutlineKind::Dispatch(n) => format!("dispatch {n}"),
                OutlineKind::Call(kind) => kind.clone(),
            };
            format!("{} {what}", row.depth)
        })
        .collect()
}

/// `n` rows of `depth` and `what`.
fn rows(n: usize, depth: u32, what: &str) -> Vec<String> {
    vec![format!("{depth} {what}"); n]
}

#[test]
#[ignore = "needs Wine: scripts/test-recorder.sh runs it"]
fn the_frames_markers_clears_copies_and_updates_are_recorded_in_their_places() {
    let capture = recorded_capture();
    assert!(capture.events_problem().is_none(), "{:?}", capture.events_problem());
    // testapp.c's frame 1, as its source makes it: "Frame" around device A's clears and draws 0 to 12; inside it
    // "Immediate paths" (draws 0 to 3, the point marker before draw 3), "Deferred contexts" (draw 4 inside
    // "Command list", begun and ended on the deferred context and so placed where its command list runs, after the
    // program's readback of rt1 before it; draw 5) and "Two targets" (three clears, draws 7 and 8). The program
    // reads back (CopyResource to a staging texture) each target a draw writes before and after it: two targets for
    // draws 0 to 3, one for 4, 5, 6, 9, 12 and 13, three for 7 and 8; and the mapped and updated textures after
    // draw 9's UpdateSubresource, the resolved texture after the resolve. Device B's clear and draw 13 come after,
    // inside the D3D9-era region "Device B" (D3DPERF_BeginEvent/EndEvent, imported from d3d9.dll) with its point
    // marker "Device B triangle" before the draw (D3DPERF_SetMarker, looked up through GetProcAddress).
    let mut expected: Vec<String> = Vec::new();
    let mut add = |more: Vec<String>| expected.extend(more);
    add(rows(1, 0, "begin Frame"));
    add(rows(4, 1, "clear"));
    add(rows(1, 1, "begin Immediate paths"));
    for draw in 0..4 {
        if draw == 3 {
            add(rows(1, 2, "marker Textured quad"));
        }
        add(rows(2, 2, "copy"));
        add(rows(1, 2, &format!("draw {draw}")));
        add(rows(2, 2, "copy"));
    }
    add(rows(1, 1, "begin Deferred contexts"));
    add(rows(1, 2, "copy"));
    add(rows(1, 2, "begin Command list"));
    add(rows(1, 3, "draw 4"));
    add(rows(2, 2, "copy"));
    add(rows(1, 2, "draw 5"));
    add(rows(1, 2, "copy"));
    add(rows(1, 1, "copy"));
    add(rows(1, 1, "draw 6"));
    add(rows(1, 1, "copy"));
    add(rows(1, 1, "begin Two targets"));
    add(rows(3, 2, "clear"));
    add(rows(3, 2, "copy"));
    add(rows(1, 2, "draw 7"));
    add(rows(6, 2, "copy"));
    add(rows(1, 2, "draw 8"));
    add(rows(3, 2, "copy"));
    add(rows(1, 1, "update"));
    add(rows(2, 1, "copy"));
    add(rows(1, 1, "clear"));
    add(rows(1, 1, "copy"));
    add(rows(1, 1, "draw 9"));
    add(rows(1, 1, "copy"));
    add(rows(2, 1, "clear"));
    add(rows(1, 1, "draw 10"));
    add(rows(1, 1, "draw 11"));
    add(rows(1, 1, "resolve 0"));
    add(rows(1, 1, "copy"));
    add(rows(1, 1, "clear"));
    add(rows(1, 1, "copy"));
    add(rows(1, 1, "draw 12"));
    add(rows(1, 1, "copy"));
    add(rows(1, 0, "begin Device B"));
    add(rows(1, 1, "clear"));
    add(rows(1, 1, "copy"));
    add(rows(1, 1, "marker Device B triangle"));
    add(rows(1, 1, "draw 13"));
    add(rows(1, 1, "copy"));
    let tokens = outline_tokens(&capture);
    assert_eq!(tokens, expected, "{tokens:#?}");

    // The calls' texts: what they touch, from testapp.c's targets and clear values.
    let outline = capture.outline();
    let texts: Vec<&str> = outline
        .rows
        .iter()
        .filter(|r| matches!(r.kind, iridia::capture::outline::OutlineKind::Call(_)))
        .map(|r| r.text.as_str())
        .collect();
    assert_eq!(
        texts[..4],
        [
            "ClearRenderTargetView(rt 64x64 R8G8B8A8_UNORM, 0.05, 0.1, 0.15, 1)",
            "ClearRenderTargetView(rt 32x32 R8G8B8A8_UNORM, 0.3, 0, 0.2, 1)",
            "ClearRenderTargetView(rt 48x40 R8G8B8A8_UNORM, 0.05, 0.1, 0.15, 1)",
            "ClearDepthStencilView(depth 64x64 D32_FLOAT, DEPTH, 1, 0)",
        ]
    );
    // the readback of rt0 before draw 0: into a staging texture of its description
    assert_eq!(
        texts[4],
        "CopyResource(dst 64x64 R8G8B8A8_UNORM, src 64x64 R8G8B8A8_UNORM)"
    );
    assert!(texts.contains(&"ClearDepthStencilView(depth 64x64 D24_UNORM_S8_UINT, DEPTH|STENCIL, 1, 0)"));
    assert!(texts.contains(&"UpdateSubresource(dst 8x8 R8G8B8A8_UNORM sub 0, box (2, 2, 0)-(6, 6, 1))"));
    assert!(texts.contains(&"ClearRenderTargetView(rt 64x64 R8G8B8A8_UNORM 4x, 0.05, 0.1, 0.15, 1)"));

    // Each draw's marker path.
    let paths = outline.draw_paths(capture.draw_count());
    let frame = |inner: &[&str]| -> Vec<String> {
        std::iter::once("Frame")
            .chain(inner.iter().copied())
            .map(str::to_owned)
            .collect()
    };
    let mut expected_paths = vec![frame(&["Immediate paths"]); 4];
    expected_paths.push(frame(&["Deferred contexts", "Command list"]));
    expected_paths.push(frame(&["Deferred contexts"]));
    expected_paths.push(frame(&[]));
    expected_paths.extend([frame(&["Two targets"]), frame(&["Two targets"])]);
    expected_paths.extend(vec![frame(&[]); 4]);
    expected_paths.push(vec!["Device B".to_owned()]);
    assert_eq!(paths, expected_paths);

    // `iridia info` prints the outline.
    let capture_path = &runs().recorded.captures[0];
    let output = Command::new(env_path("IRIDIA_WINE_CLI"))
        .arg("info")
        .arg(capture_path)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{text}");
    let outline_text = &text[text
        .find("frame outline:\n")
        .unwrap_or_else(|| panic!("no outline:\n{text}"))..];
    for line in [
        "  Frame/",
        "    clear: ClearRenderTargetView(rt 64x64 R8G8B8A8_UNORM, 0.05, 0.1, 0.15, 1)",
        "    Immediate paths/",
        "      * Textured quad",
        "    Deferred contexts/",
        "      Command list/",
        "        draw 4  Draw(3, 0) → rt0 32x32",
        "    Two targets/",
        "    resolve 0  ResolveSubresource",
        "  Device B/",
        "    * Device B triangle",
        "    draw 13  Draw(3, 0) → rt0 32x32",
    ] {
        assert!(
            outline_text.lines().any(|l| l.starts_with(line)),
            "no line starting {line:?} in:\n{outline_text}"
        );
    }
}

#[test]
#[ignore = "needs Wine: scripts/test-recorder.sh runs it"]
fn every_draw_is_recorded_the_multisampled_ones_with_their_samples() {
    let mut capture = recorded_capture();
    assert!(
        capture.manifest().unrecorded_draws.is_empty(),
        "{:?}",
        capture.manifest().unrecorded_draws
    );
    for index in [10, 11] {
        let draw = capture.draw(capture_index(index)).unwrap();
        let shapes: Vec<(String, iridia::format::Format, u32, u32, u32)> = draw
            .targets
            .iter()
            .map(|t| {
                (
                    t.target.to_string(),
                    t.format,
                    t.width,
                    t.height,
                    t.resource.sample_count,
                )
            })
            .collect();
        assert_eq!(shapes.len(), 2, "{shapes:?}");
        for target in &draw.targets {
            assert_eq!((target.width, target.height, target.resource.sample_count), (64, 64, 4));
            // Four planes of 64 x 64 texels of 4 bytes.
            assert_eq!(target.before.len(), 4 * 64 * 64 * 4);
        }
    }
}

/// Texel `(x, y)` of a 4x4 RGBA8 slice `texels`, as bytes.
fn texel(texels: &[u8], x: usize, y: usize) -> [u8; 4] {
    texels[(y * 4 + x) * 4..][..4].try_into().unwrap()
}

#[test]
#[ignore = "needs Wine: scripts/test-recorder.sh runs it"]
fn the_sampled_arrays_cubes_and_updated_textures_are_what_the_program_wrote() {
    let runs = runs();
    let mut capture = recorded_capture();
    let draw = capture.draw(capture_index(9)).unwrap();
    let subresources = |slot: u32| match draw.state.ps.shader_resource(slot).unwrap().resource.as_ref() {
        iridia::api::resource::Resource::Texture(t) => (0..t.shape.array_size)
            .map(|s| t.subresource(0, s).unwrap().to_vec())
            .collect::<Vec<_>>(),
        other => panic!("draw 9's t{slot} is {other:?}"),
    };
    // testapp.c's header: slice s of the array holds (60x, 60y, 80s + 10, 255); face f of the cube
    // (30 + 50y, 50x, 20 + 40f, 255).
    let layers = subresources(0);
    assert_eq!(layers.len(), 3);
    for (s, layer) in layers.iter().enumerate() {
        for (x, y) in [(0, 0), (3, 1), (2, 3)] {
            assert_eq!(texel(layer, x, y), [60 * x as u8, 60 * y as u8, 80 * s as u8 + 10, 255]);
        }
    }
    let faces = subresources(1);
    assert_eq!(faces.len(), 6);
    for (f, face) in faces.iter().enumerate() {
        for (x, y) in [(0, 0), (3, 1), (2, 3)] {
            assert_eq!(
                texel(face, x, y),
                [30 + 50 * y as u8, 50 * x as u8, 20 + 40 * f as u8, 255]
            );
        }
    }
    // The mapped and updated textures as the program read them back after writing them this frame.
    assert!(subresources(2)[0] == runs.recorded.readbacks["mapped.bin"]);
    assert!(subresources(3)[0] == runs.recorded.readbacks["updated.bin"]);
    // Frame 1's mapped texel (1, 2): (255 - 128, 64, 30, 255).
    assert_eq!(texel(&subresources(2)[0], 1, 2), [127, 64, 30, 255]);
    // Draw 12 samples the target ResolveSubresource wrote.
    let draw = capture.draw(capture_index(12)).unwrap();
    match draw.state.ps.shader_resource(0).unwrap().resource.as_ref() {
        iridia::api::resource::Resource::Texture(t) => {
            assert!(t.subresource(0, 0).unwrap() == &runs.recorded.readbacks["resolved.bin"][..])
        }
        other => panic!("draw 12's texture is {other:?}"),
    }
}

#[test]
#[ignore = "needs Wine: scripts/test-recorder.sh runs it"]
fn every_recorded_target_is_what_the_program_read_back() {
    let runs = runs();
    let mut capture = recorded_capture();
    for Listed {
        draw: draw_index,
        target,
        width,
        height,
        before,
        after,
        slot,
    } in listing(&runs.recorded)
    {
        let draw = capture.draw(capture_index(draw_index)).unwrap();
        let slot = slot.map_or(TargetSlot::DepthStencil, TargetSlot::RenderTarget);
        let recorded = draw
            .target(slot)
            .unwrap_or_else(|| panic!("draw {draw_index} records no {target}"));
        assert_eq!(
            (recorded.width, recorded.height),
            (width, height),
            "draw {draw_index} {target}"
        );
        let mut expected_before = runs.recorded.readbacks[&before].clone();
        let mut expected_after = runs.recorded.readbacks[&after].clone();
        if recorded.format == iridia::format::Format::D24UnormS8Uint {
            d24s8_in_d3d11_layout(&mut expected_before);
            d24s8_in_d3d11_layout(&mut expected_after);
        }
        assert!(
            *recorded.before == expected_before[..],
            "draw {draw_index} {target}: the recorded surface before the draw is not what the program read"
        );
        assert!(
            recorded.after.as_deref() == Some(&expected_after[..]),
            "draw {draw_index} {target}: the recorded surface after the draw is not what the program read"
        );
    }
}

/// Puts the program's own staging readback of a D24_UNORM_S8_UINT target into D3D11's layout (depth in bits 0-23,
/// stencil in 24-31). Which layout the readback has is told from its first texel, cleared by the program to depth
/// 1.0, stencil 0 and outside every triangle: `ff ff ff 00` in D3D11's layout, `00 ff ff ff` in OpenGL's
/// (`depth24 << 8 | stencil`, what Wine's staging copies give).
fn d24s8_in_d3d11_layout(bytes: &mut [u8]) {
    match &bytes[..4] {
        [0xff, 0xff, 0xff, 0x00] => {}
        [0x00, 0xff, 0xff, 0xff] => {
            for texel in bytes.chunks_exact_mut(4) {
                let gl = u32::from_le_bytes(texel.try_into().unwrap());
                let (depth, stencil) = (gl >> 8, gl & 0xff);
                texel.copy_from_slice(&(stencil << 24 | depth).to_le_bytes());
            }
        }
        other => panic!("a D24S8 readback's cleared texel is {other:02x?}, neither layout"),
    }
}

#[test]
#[ignore = "needs Wine: scripts/test-recorder.sh runs it"]
fn the_d24s8_target_is_recorded_in_d3d11s_layout() {
    let runs = runs();
    assert!(
        runs.recorded
            .log
            .contains("readback layout probe: D24_UNORM_S8_UINT reads back"),
        "{}",
        runs.recorded.log
    );
    let mut capture = recorded_capture();
    let draw = capture.draw(capture_index(7)).unwrap();
    let depth = draw.target(TargetSlot::DepthStencil).unwrap();
    let colour = draw.target(TargetSlot::RenderTarget(0)).unwrap();
    let after = depth.after.as_ref().unwrap();
    // Cleared to depth 1.0 (0xffffff), stencil 0: texel (0, 0) is outside the triangle.
    assert_eq!(after[..4], [0xff, 0xff, 0xff, 0x00]);
    // Where the draw passed (the stencil test EQUAL 0 with INCR_SAT), the stencil is 1 and the colour changed;
    // elsewhere the stencil is still 0.
    let mut stencil_ones = 0;
    for (i, texel) in after.chunks_exact(4).enumerate() {
        let changed = colour.before[i * 4..][..4] != colour.after.as_ref().unwrap()[i * 4..][..4];
        assert_eq!(texel[3], u8::from(changed), "texel {i}: {texel:02x?}");
        stencil_ones += usize::from(texel[3] == 1);
    }
    assert!(stencil_ones > 100, "{stencil_ones} texels drawn");
}

#[test]
#[ignore = "needs Wine: scripts/test-recorder.sh runs it"]
fn every_recorded_draw_replays_and_the_differences_are_reported() {
    let mut capture = recorded_capture();
    let mut cache = ShaderCache::new();
    let mut report = String::new();
    for index in 0..capture.draw_count() {
        let draw = capture.draw(index).unwrap();
        // every draw replays, the multisampled ones too (their comparison per sample is `iridia replay`'s below)
        let output = match run_draw(&draw.state, &mut cache, None) {
            Ok(output) => output,
            Err(e) => panic!("draw {index} does not replay: {e}"),
        };
        for target in &draw.targets {
            if target.resource.sample_count > 1 {
                report.push_str(&format!(
                    "draw {index} {}: multisampled, compared by iridia replay\n",
                    target.target
                ));
                continue;
            }
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
    for index in 0..capture.resolves().len() {
        let resolve = capture.resolve(index).unwrap();
        let replay = replay_resolve(&resolve, &ToleranceSpec::exact()).unwrap();
        let r = replay.report.as_ref().unwrap();
        report.push_str(&format!(
            "resolve {index} before draw {}: {} of {} pixels differ (exact); largest {} ULP\n",
            resolve.before_draw,
            r.differing_pixels,
            r.compared_pixels,
            r.channels.iter().map(|c| c.max_ulp_error).max().unwrap_or(0)
        ));
    }
    println!("{report}");
    std::fs::write(env_path("IRIDIA_WINE_OUT").join("replay-report.txt"), &report).unwrap();
}

#[test]
#[ignore = "needs Wine: scripts/test-recorder.sh runs it"]
fn the_resolve_is_recorded_with_every_sample_and_replays() {
    let runs = runs();
    let mut capture = recorded_capture();
    // The program's one ResolveSubresource of the frame: the 4x colour target after draws 10 and 11 into a 64x64
    // R8G8B8A8_UNORM texture, before draw 12 (which samples it).
    assert_eq!(capture.resolves().len(), 1, "{:?}", capture.resolves());
    let resolve = capture.resolve(0).unwrap();
    assert_eq!(resolve.before_draw, capture_index(12) as u64);
    assert_eq!(
        resolve.api_call.as_deref(),
        Some("ResolveSubresource(dst, 0, src, 0, R8G8B8A8_UNORM)")
    );
    assert_eq!(
        (
            resolve.layout.format,
            resolve.layout.width,
            resolve.layout.height,
            resolve.layout.samples
        ),
        (iridia::format::Format::R8G8B8A8Unorm, 64, 64, 4)
    );
    // every sample is what the program read back after draw 11, the destination after what it read back after
    // the resolve
    assert!(resolve.samples[..] == runs.recorded.readbacks["d11_mscolor_after.bin"][..]);
    assert!(resolve.after.as_deref() == Some(&runs.recorded.readbacks["resolved.bin"][..]));
    assert!(resolve.before.len() == 64 * 64 * 4);
    // Resolved again from the samples (the box average) it matches Wine's (llvmpipe's) resolve within the default
    // tolerance, one code of UNORM: llvmpipe rounds some averages that lie halfway between two codes down
    // (recorder/tests/recorded_fixture.rs checks each on the committed recording). The samples are the target's
    // own: both the program and the recorder load them through a view of the target, as a copy would resolve them
    // under Wine (the recorder's copy probe, logged), so the texels on the triangles' edges have differing samples.
    let replay = replay_resolve(&resolve, &ToleranceSpec::default()).unwrap();
    let report = replay.report.as_ref().unwrap();
    assert_eq!(report.compared_pixels, 64 * 64);
    assert!(report.matches, "{report:?}");
    for kind in ["colour", "depth-stencil"] {
        let line = format!("multisample copy probe: a copy of a {kind} texture");
        assert!(runs.recorded.log.contains(&line), "{line}: {}", runs.recorded.log);
    }
    let exact = replay_resolve(&resolve, &ToleranceSpec::exact()).unwrap();
    let plane = 64 * 64 * 4;
    let mixed = (0..64 * 64)
        .filter(|texel| {
            let sample = |s: usize| &resolve.samples[s * plane + texel * 4..s * plane + texel * 4 + 4];
            (1..4).any(|s| sample(s) != sample(0))
        })
        .count();
    assert!(mixed > 50, "{mixed} texels with differing samples");
    eprintln!(
        "the recorded resolve: {mixed} of 4096 texels have samples that differ; resolved again, {} of 4096 pixels \
         differ exactly",
        exact.report.as_ref().unwrap().differing_pixels
    );
}

#[test]
#[ignore = "needs Wine: scripts/test-recorder.sh runs it"]
fn ending_a_capture_does_not_make_present_wait_for_the_writer() {
    let run = &runs().unrecordable;
    let longest: f64 = run
        .stdout
        .lines()
        .find_map(|line| line.strip_prefix("testapp: longest Present "))
        .and_then(|rest| rest.trim_end_matches(" ms").parse().ok())
        .unwrap_or_else(|| panic!("no longest Present in {}", run.stdout));
    let delay: f64 = WRITER_DELAY_MS.parse().unwrap();
    // The writer slept `delay` before finishing the file; the Present that ended the capture went on meanwhile.
    assert!(
        run.log.contains("the writer waits 5000 ms before finishing"),
        "{}",
        run.log
    );
    assert!(longest < delay / 2.0, "a Present took {longest} ms:\n{}", run.log);
    // The program's release of its swap chain waited for the writer, so the file was finished (its manifest lists
    // every draw; the test below reads it) before the program exited.
    let waited = run
        .log
        .find("a swap chain was released: waiting for 1 capture writer(s)");
    let written = run.log.find("capture written:");
    assert!(waited.is_some() && written.is_some() && waited < written, "{}", run.log);
    eprintln!("with a writer finishing for {delay} ms, the longest Present took {longest:.1} ms");
}

#[test]
#[ignore = "needs Wine: scripts/test-recorder.sh runs it"]
fn draws_the_recorder_cannot_record_are_listed_with_their_reason_and_targets() {
    let runs = runs();
    let run = &runs.unrecordable;
    assert_eq!(run.captures.len(), 1, "{}", run.log);
    let capture = Capture::open(std::fs::read(&run.captures[0]).unwrap()).unwrap();
    capture.check().unwrap();
    // Every draw of the program is still recorded, and the quad sampling the multisampled texture (after draw 9,
    // testapp.c's unrecordable_draws), the quad with an unordered access view bound, and the two deferred draws
    // into the multisampled targets; the DrawAuto between them with no vertex buffer bound is listed, with the
    // render target bound (rt5: 64x64 RGBA8, one sample); then the triangle into a 4x target made without the
    // shader-resource bind flag, the triangle through a geometry program, the triangle tessellated, the triangle
    // through a pixel program with views, the two indirect draws, the three stream-output draws, the DrawAuto of
    // what they streamed, the same vertices drawn by Draw, a draw with views into a 4x target and two indirect draws
    // on a deferred context (testapp.c's stage_draws), then the frame's draws 10 to 13.
    assert_eq!(capture.draw_count(), 32);
    let listed: Vec<(u64, Option<&str>, Option<&str>)> = capture
        .manifest()
        .unrecorded_draws
        .iter()
        .map(|u| (u.before_draw, u.name.as_deref(), u.api_call.as_deref()))
        .collect();
    assert_eq!(listed, [(12, Some("immediate context"), Some("DrawAuto()"))]);
    let [auto] = &capture.manifest().unrecorded_draws[..] else {
        panic!("one unrecorded draw")
    };
    assert!(auto.reason.contains("DrawAuto"), "{}", auto.reason);
    let targets: Vec<(&str, iridia::format::Format, u32, u32, u32)> = auto
        .targets
        .iter()
        .map(|t| (t.target.as_str(), t.format, t.width, t.height, t.sample_count))
        .collect();
    assert_eq!(targets, [("rt0", iridia::format::Format::R8G8B8A8Unorm, 64, 64, 1)]);
    // The quad with a 4x4 R32_UINT texture's view bound in u1 too (its pixel program does not write it):
    // recorded, the view's texture before and its window after.
    let mut capture = capture;
    let quad = capture.draw(11).unwrap();
    assert_eq!(quad.api_call.as_deref(), Some("Draw(3, 0)"));
    let view = quad.state.uavs[1].as_ref().unwrap();
    assert_eq!(view.desc.format, iridia::format::Format::R32Uint);
    match view.resource.as_ref() {
        iridia::api::resource::Resource::Texture(t) => assert_eq!((t.shape.width, t.shape.height), (4, 4)),
        other => panic!("the quad's u1 is {other:?}"),
    }
    let after = quad.uavs_after[1].as_ref().unwrap().bytes.as_ref().unwrap();
    assert_eq!(after.len(), 4 * 4 * 4);
    // it samples the 4x texture as the quad before it does, and replays: the target and the view match
    match quad.state.ps.shader_resource(0).unwrap().resource.as_ref() {
        iridia::api::resource::Resource::Texture(t) => assert_eq!(t.shape.sample_count, 4),
        other => panic!("the quad's t0 is {other:?}"),
    }
    replays_equal(&mut capture, 11);
    // The quad read the multisampled colour target as frame 0 left it: the same draws as frame 1's, whose samples
    // after draw 11 the program read back itself.
    let draw = capture.draw(10).unwrap();
    assert_eq!(draw.api_call.as_deref(), Some("Draw(4, 0)"));
    match draw.state.ps.shader_resource(0).unwrap().resource.as_ref() {
        iridia::api::resource::Resource::Texture(t) => {
            assert_eq!(t.shape.sample_count, 4);
            assert!(t.subresource(0, 0).unwrap() == &run.readbacks["d11_mscolor_after.bin"][..]);
        }
        other => panic!("the quad's texture is {other:?}"),
    }
    // The deferred context's two draws into the 4x targets: recorded with every sample, and the second draw's
    // state — queried after the recorder's sample-reading draws on that context around the first — is the
    // first's (the program set it once).
    let first = capture.draw(12).unwrap();
    let second = capture.draw(13).unwrap();
    assert_eq!(
        (first.api_call.as_deref(), second.api_call.as_deref()),
        (Some("DrawIndexed(3, 0, 0)"), Some("Draw(3, 0)"))
    );
    for draw in [&first, &second] {
        assert_eq!(draw.name, None);
        assert_eq!(draw.targets.len(), 2);
        for target in &draw.targets {
            assert_eq!(target.resource.sample_count, 4);
            assert_eq!(target.after.as_ref().unwrap().len(), 4 * 64 * 64 * 4);
        }
    }
    let state = |d: &iridia::capture::CapturedDraw| {
        format!(
            "{:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
            d.state.viewports,
            d.state.stencil_ref,
            d.state.rasterizer,
            d.state.depth_stencil,
            d.state.blend,
            d.state.topology,
            d.state.vertex_shader.len(),
            d.state.pixel_shader.as_ref().map(|b| b.len()),
        )
    };
    assert_eq!(state(&first), state(&second));
    assert!(
        first.targets[0].after.as_deref() != Some(&first.targets[0].before[..]),
        "the first deferred draw drew nothing"
    );
    // The triangle into the 4x target the program made as a render target only: the recorder's CreateTexture2D
    // hook made it readable, so it is recorded (a copy would resolve it under Wine: the copy probe), every sample
    // its own — they differ along the triangle's edges — and each matches the replay within the format's tolerance.
    assert!(!run.log.contains("could not be made readable"), "{}", run.log);
    let plain = capture.draw(14).unwrap();
    assert_eq!(plain.api_call.as_deref(), Some("Draw(3, 0)"));
    let target = &plain.targets[0];
    assert_eq!((target.width, target.height, target.resource.sample_count), (64, 64, 4));
    let after = target.after.as_deref().unwrap();
    let plane = 64 * 64 * 4;
    let split = (0..64 * 64)
        .filter(|p| (1..4).any(|s| after[s * plane + p * 4..s * plane + p * 4 + 4] != after[p * 4..p * 4 + 4]))
        .count();
    assert!(split > 20, "{split} pixels with differing samples");
    let output = iridia::draw::run_draw(&plain.state, &mut iridia::draw::ShaderCache::new(), None).unwrap();
    let replayed = &output.render_targets[0].as_ref().unwrap().bytes;
    let image = |bytes| iridia::compare::Image::new(target.format, 64, 64 * 4, bytes).unwrap();
    let comparison = iridia::compare::compare(
        &image(after),
        &image(replayed),
        &iridia::compare::CompareOptions::new(iridia::compare::Tolerance::for_format(target.format)),
    )
    .unwrap();
    assert_eq!(comparison.report.differing_pixels, 0, "{:?}", comparison.report);
}

#[test]
#[ignore = "needs Wine: scripts/test-recorder.sh runs it"]
fn a_draw_through_a_geometry_program_is_recorded_and_replays_equal() {
    let runs = runs();
    let run = &runs.unrecordable;
    assert_eq!(run.captures.len(), 1, "{}", run.log);
    let mut capture = Capture::open(std::fs::read(&run.captures[0]).unwrap()).unwrap();
    capture.check().unwrap();
    // testapp.c's geometry draw of unrecordable_draws: the coloured triangle through gs_copy into rt5 (64x64 RGBA8)
    let draw = capture.draw(15).unwrap();
    assert_eq!(draw.api_call.as_deref(), Some("Draw(3, 0)"));
    let program = std::fs::read(env_path("IRIDIA_WINE_SHADERS").join("gs_copy.gs.dxbc")).unwrap();
    assert!(draw.state.geometry_shader.as_deref() == Some(&program[..]));
    assert!(capture.draw_summary(15).unwrap().geometry_program.is_some());
    let [target] = &draw.targets[..] else {
        panic!("one target, not {}", draw.targets.len())
    };
    assert_eq!((target.width, target.height), (64, 64));
    // what the program read back itself before and after the draw
    let before = std::fs::read(run.dir.join("gs_before.bin")).unwrap();
    let after = std::fs::read(run.dir.join("gs_after.bin")).unwrap();
    assert!(
        target.before[..] == before[..],
        "the recorded before is not what the program read"
    );
    assert!(
        target.after.as_deref() == Some(&after[..]),
        "the recorded after is not what the program read"
    );
    // the geometry program's copy (moved right by a quarter of the target) was drawn: the draw changed more pixels
    // than the triangle alone covers, right of where it is
    let changed = |x0: usize| {
        (0..64 * 64)
            .filter(|p| p % 64 >= x0 && before[p * 4..p * 4 + 4] != after[p * 4..p * 4 + 4])
            .count()
    };
    assert!(changed(48) > 0, "nothing drawn in the right quarter");
    // replayed through the library and compared under the format's tolerance: every pixel matches
    replays_equal(&mut capture, 16);
}

#[test]
#[ignore = "needs Wine: scripts/test-recorder.sh runs it"]
fn a_tessellated_draw_is_recorded_and_replays_equal() {
    let runs = runs();
    let run = &runs.unrecordable;
    assert_eq!(run.captures.len(), 1, "{}", run.log);
    let mut capture = Capture::open(std::fs::read(&run.captures[0]).unwrap()).unwrap();
    capture.check().unwrap();
    // testapp.c's draw of unrecordable_draws before stage_draws: the coloured triangle as a 3-control-point patch
    // through hs_tri and ds_tri into a 64x64 RGBA8 target of its own
    let draw = capture.draw(16).unwrap();
    assert_eq!(draw.api_call.as_deref(), Some("Draw(3, 0)"));
    assert_eq!(
        draw.state.topology,
        iridia::api::enums::PrimitiveTopology::PatchList3,
        "the recorded topology"
    );
    let shaders = env_path("IRIDIA_WINE_SHADERS");
    let hull = std::fs::read(shaders.join("hs_tri.hs.dxbc")).unwrap();
    let domain = std::fs::read(shaders.join("ds_tri.ds.dxbc")).unwrap();
    assert!(
        draw.state.hull_shader.as_deref() == Some(&hull[..]),
        "the recorded hull program"
    );
    assert!(
        draw.state.domain_shader.as_deref() == Some(&domain[..]),
        "the recorded domain program"
    );
    assert!(draw.state.geometry_shader.is_none());
    let [target] = &draw.targets[..] else {
        panic!("one target, not {}", draw.targets.len())
    };
    assert_eq!((target.width, target.height), (64, 64));
    // what the program read back itself before and after the draw
    let before = std::fs::read(run.dir.join("tess_before.bin")).unwrap();
    let after = std::fs::read(run.dir.join("tess_after.bin")).unwrap();
    assert!(
        target.before[..] == before[..],
        "the recorded before is not what the program read"
    );
    assert!(
        target.after.as_deref() == Some(&after[..]),
        "the recorded after is not what the program read"
    );
    // the tessellated triangle was drawn: pixels changed
    let changed = (0..64 * 64)
        .filter(|p| before[p * 4..p * 4 + 4] != after[p * 4..p * 4 + 4])
        .count();
    assert!(changed > 50, "only {changed} pixels changed");
    // replayed through the library and compared under the format's tolerance: every pixel matches
    replays_equal(&mut capture, 15);
}

/// Draw `index` of `capture` replayed through the library with the default options (each format's tolerance).
fn replayed(capture: &mut Capture<std::io::Cursor<std::sync::Arc<[u8]>>>, index: usize) -> iridia::replay::DrawReplay {
    iridia::replay::replay_draw(
        capture,
        index,
        &mut ShaderCache::new(),
        &iridia::replay::ReplayOptions::default(),
        None,
    )
    .unwrap_or_else(|e| panic!("draw {index}: {e}"))
}

/// Draw `index` of `capture` replayed as [`replayed`] does, asserted to match in every target it compares (each
/// format's tolerance) and every view; the replay for more checks.
fn replays_equal(
    capture: &mut Capture<std::io::Cursor<std::sync::Arc<[u8]>>>,
    index: usize,
) -> iridia::replay::DrawReplay {
    let replay = replayed(capture, index);
    assert!(
        replay.compared() && replay.matches(),
        "draw {index}: {:?} {:?}",
        replay.targets.iter().map(|t| &t.report).collect::<Vec<_>>(),
        replay.uavs
    );
    replay
}

/// Dispatch `dispatch` (the capture's dispatch `index`) replayed through the library, asserted to match in every
/// view exactly.
fn dispatch_replays_exactly(index: usize, dispatch: &iridia::capture::CapturedDispatch) {
    let replay = iridia::replay::replay_dispatch(
        dispatch,
        &ToleranceSpec::exact(),
        &iridia::dispatch::DispatchOptions::default(),
    )
    .unwrap();
    assert!(
        replay.compared() && replay.matches(),
        "dispatch {index}: {:?}",
        replay.uavs
    );
}

/// The unrecordable run's capture, opened and checked.
fn unrecordable_capture() -> (&'static Run, Capture<std::io::Cursor<std::sync::Arc<[u8]>>>) {
    let run = &runs().unrecordable;
    assert_eq!(run.captures.len(), 1, "{}", run.log);
    let capture = Capture::open(std::fs::read(&run.captures[0]).unwrap()).unwrap();
    capture.check().unwrap();
    (run, capture)
}

#[test]
#[ignore = "needs Wine: scripts/test-recorder.sh runs it"]
fn mip_generation_region_copies_and_view_clears_are_recorded_and_every_call_has_its_row() {
    use iridia::capture::outline::OutlineKind;
    let (_, capture) = unrecordable_capture();
    assert!(capture.events_problem().is_none(), "{:?}", capture.events_problem());
    let outline = capture.outline();
    // Every draw, resolve and dispatch (some on deferred contexts, among the program's events) has one row.
    let count = |f: fn(&OutlineKind) -> bool| outline.rows.iter().filter(|r| f(&r.kind)).count();
    assert_eq!(count(|k| matches!(k, OutlineKind::Draw(_))), capture.draw_count());
    assert_eq!(
        count(|k| matches!(k, OutlineKind::Resolve(_))),
        capture.resolves().len()
    );
    assert_eq!(
        count(|k| matches!(k, OutlineKind::Dispatch(_))),
        capture.dispatches().len()
    );
    // testapp.c's other_events, one after another inside the "Frame" region: what each touches.
    let start = outline
        .rows
        .iter()
        .position(|r| r.kind == OutlineKind::Call("generate_mips".to_owned()))
        .expect("GenerateMips's event");
    let calls: Vec<(u32, String, &str)> = outline.rows[start..start + 4]
        .iter()
        .map(|r| {
            let OutlineKind::Call(kind) = &r.kind else {
                panic!("{r:?} is not a call")
            };
            (r.depth, kind.clone(), r.text.as_str())
        })
        .collect();
    assert_eq!(
        calls,
        [
            (1, "generate_mips".to_owned(), "GenerateMips(srv 8x8 R8G8B8A8_UNORM)"),
            (
                1,
                "copy".to_owned(),
                "CopySubresourceRegion(dst 8x8 R8G8B8A8_UNORM sub 0 at (2, 2, 0), src 8x8 R8G8B8A8_UNORM sub 1, \
                 box (0, 0, 0)-(4, 4, 1))"
            ),
            (
                1,
                "clear".to_owned(),
                "ClearUnorderedAccessViewUint(uav buffer 64 B, 1, 2, 3, 4)"
            ),
            (
                1,
                "clear".to_owned(),
                "ClearUnorderedAccessViewFloat(uav buffer 64 B, 0.5, 0, 0, 0)"
            ),
        ]
    );
}

/// A little-endian u32 the program read back (a hidden counter).
fn word(bytes: &[u8]) -> u32 {
    u32::from_le_bytes(bytes[..4].try_into().unwrap())
}

/// A buffer resource's bytes.
fn buffer_bytes(resource: &iridia::api::resource::Resource) -> &[u8] {
    match resource {
        iridia::api::resource::Resource::Buffer(data) => data,
        other => panic!("not a buffer: {other:?}"),
    }
}

#[test]
#[ignore = "needs Wine: scripts/test-recorder.sh runs it"]
fn a_draw_with_pixel_unordered_access_views_is_recorded_and_replays_equal() {
    let (run, mut capture) = unrecordable_capture();
    let read = |name: &str| run.readbacks.get(name).unwrap_or_else(|| panic!("no {name}")).clone();
    // testapp.c's stage_draws a): the coloured triangle through ps_uav with u1 (raw), u2 (R32_UINT texture) and
    // u3 (a counter view, initial count 7) bound with the render target
    let draw = capture.draw(17).unwrap();
    assert_eq!(draw.api_call.as_deref(), Some("Draw(3, 0)"));
    let program = std::fs::read(env_path("IRIDIA_WINE_SHADERS").join("ps_uav.ps.dxbc")).unwrap();
    assert!(draw.state.pixel_shader.as_deref() == Some(&program[..]));
    let [target] = &draw.targets[..] else {
        panic!("one target, not {}", draw.targets.len())
    };
    assert!(target.before[..] == read("uav_rt_before.bin")[..]);
    assert!(target.after.as_deref() == Some(&read("uav_rt_after.bin")[..]));
    let bound: Vec<usize> = (0..draw.state.uavs.len())
        .filter(|s| draw.state.uavs[*s].is_some())
        .collect();
    assert_eq!(bound, [1, 2, 3]);
    let view = |slot: usize| draw.state.uavs[slot].as_ref().unwrap();
    let after = |slot: usize| draw.uavs_after[slot].as_ref().unwrap();
    // u1: the raw buffer, whole, before; its window (the 4 words) after; word 0 counts the pixels drawn
    assert!(view(1).desc.raw);
    assert!(buffer_bytes(&view(1).resource) == &read("uav_raw_before.bin")[..]);
    assert!(after(1).bytes.as_deref() == Some(&read("uav_raw_after.bin")[..]));
    let pixels = word(&read("uav_raw_after.bin")) - 5;
    assert!(pixels > 100, "{pixels} pixels drawn");
    // u2: the texture, its one subresource before and the window after
    match view(2).resource.as_ref() {
        iridia::api::resource::Resource::Texture(t) => {
            assert!(t.subresource(0, 0).unwrap() == &read("uav_tex_before.bin")[..])
        }
        other => panic!("u2 is {other:?}"),
    }
    assert!(after(2).bytes.as_deref() == Some(&read("uav_tex_after.bin")[..]));
    // u3: its counter before (the initial count the program passed) and after, as CopyStructureCount gave them
    assert!(view(3).desc.counter);
    assert_eq!(view(3).initial_count, Some(word(&read("uav_counter_before.bin"))));
    assert_eq!(word(&read("uav_counter_before.bin")), 7);
    assert_eq!(after(3).counter, Some(word(&read("uav_counter_after.bin"))));
    assert_eq!(word(&read("uav_counter_after.bin")), 7 + pixels);
    // replayed through the library: the target and every view match
    let replay = replays_equal(&mut capture, 17);
    assert_eq!(replay.uavs.len(), 3);
    for uav in &replay.uavs {
        assert_eq!(uav.matches(), Some(true), "u{}: {:?}", uav.slot, uav.report);
    }
}

#[test]
#[ignore = "needs Wine: scripts/test-recorder.sh runs it"]
fn indirect_draws_are_recorded_as_their_direct_calls_and_replay_equal() {
    let (run, mut capture) = unrecordable_capture();
    let read = |name: &str| run.readbacks.get(name).unwrap_or_else(|| panic!("no {name}")).clone();
    // testapp.c's stage_draws b): the argument buffer holds (3, 1, 0, 0) at byte 0 and (3, 1, 0, 0, 0) at byte 16
    let expected = [
        (
            18,
            "DrawInstancedIndirect(args, 0)",
            iridia::api::draw::DrawCall::DrawInstanced {
                vertex_count_per_instance: 3,
                instance_count: 1,
                start_vertex: 0,
                start_instance: 0,
            },
            "ind_before.bin",
            "ind_after.bin",
        ),
        (
            19,
            "DrawIndexedInstancedIndirect(args, 16)",
            iridia::api::draw::DrawCall::DrawIndexedInstanced {
                index_count_per_instance: 3,
                instance_count: 1,
                start_index: 0,
                base_vertex: 0,
                start_instance: 0,
            },
            "ind_after.bin",
            "ind2_after.bin",
        ),
    ];
    for (index, api_call, call, before, after) in expected {
        assert!(
            capture.manifest().draws[index].indirect,
            "draw {index} is not marked indirect"
        );
        let draw = capture.draw(index).unwrap();
        assert_eq!(draw.api_call.as_deref(), Some(api_call));
        assert_eq!(draw.state.call, call);
        let [target] = &draw.targets[..] else {
            panic!("one target, not {}", draw.targets.len())
        };
        assert!(target.before[..] == read(before)[..], "draw {index}: before");
        assert!(target.after.as_deref() == Some(&read(after)[..]), "draw {index}: after");
        assert!(read(before) != read(after), "draw {index} drew nothing");
        replays_equal(&mut capture, index);
    }
}

#[test]
#[ignore = "needs Wine: scripts/test-recorder.sh runs it"]
fn dispatches_are_recorded_in_their_place_and_replay_equal() {
    let (run, mut capture) = unrecordable_capture();
    let read = |name: &str| run.readbacks.get(name).unwrap_or_else(|| panic!("no {name}")).clone();
    // testapp.c's stage_draws c): Dispatch(4, 1, 1) then DispatchIndirect(args, 36) (2, 1, 1) of cs_fill, after
    // the indirect draws (draw 19) and before the frame's draw 10 (draw 20 of the capture) and its resolve
    let placed: Vec<String> = capture
        .dispatches()
        .iter()
        .take(2)
        .map(|d| {
            format!(
                "{} {} {} {} {:?}",
                d.before_draw,
                d.before_resolve,
                d.api_call.as_deref().unwrap_or("?"),
                d.indirect,
                d.groups
            )
        })
        .collect();
    assert_eq!(
        placed,
        [
            "20 0 Dispatch(4, 1, 1) false [4, 1, 1]",
            "20 0 DispatchIndirect(args, 36) true [2, 1, 1]"
        ]
    );
    let program = std::fs::read(env_path("IRIDIA_WINE_SHADERS").join("cs_fill.cs.dxbc")).unwrap();
    let values: Vec<u8> = (0..32u32).flat_map(|i| (100 + 7 * i).to_le_bytes()).collect();
    let steps = [
        (
            "cs_raw_before.bin",
            "cs_counter_before.bin",
            "cs_raw_after.bin",
            "cs_counter_after.bin",
            32,
        ),
        (
            "cs_raw_after.bin",
            "cs_counter_after.bin",
            "cs2_raw_after.bin",
            "cs2_counter_after.bin",
            16,
        ),
    ];
    for (index, (raw_before, counter_before, raw_after, counter_after, threads)) in steps.into_iter().enumerate() {
        let dispatch = capture.dispatch(index).unwrap();
        let state = &dispatch.state;
        assert!(state.compute_shader[..] == program[..], "dispatch {index}: the program");
        // its constant buffer (3, 0, 0, 0) and the Buffer<uint> it reads
        let cb = state.bindings.constant_buffer(0).unwrap();
        assert!(cb.data[..] == [3u32, 0, 0, 0].iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<_>>()[..]);
        assert!(buffer_bytes(&state.bindings.shader_resource(0).unwrap().resource) == &values[..]);
        // u0 (raw) before and after, as the program read them
        let raw = state.uavs[0].as_ref().unwrap();
        assert!(
            buffer_bytes(&raw.resource) == &read(raw_before)[..],
            "dispatch {index}: u0 before"
        );
        let after = dispatch.after[0].as_ref().unwrap();
        assert!(
            after.bytes.as_deref() == Some(&read(raw_after)[..]),
            "dispatch {index}: u0 after"
        );
        // u1's counter before and after
        let counted = state.uavs[1].as_ref().unwrap();
        assert_eq!(
            counted.initial_count,
            Some(word(&read(counter_before))),
            "dispatch {index}"
        );
        let counter = dispatch.after[1].as_ref().unwrap().counter;
        assert_eq!(counter, Some(word(&read(counter_after))), "dispatch {index}");
        assert_eq!(word(&read(counter_after)), word(&read(counter_before)) + threads);
        // replayed through the library: every view matches exactly
        dispatch_replays_exactly(index, &dispatch);
    }
    // the first dispatch's counter started from the initial count the program passed
    assert_eq!(word(&read("cs_counter_before.bin")), 10);
}

/// The bytes a stream-output draw wrote, from the buffer before and after it (4-byte words: every word streamed
/// differs from the buffer's 0xab filling): the first and the end of the changed words.
fn streamed(before: &[u8], after: &[u8]) -> (u32, u32) {
    let changed: Vec<usize> = (0..before.len() / 4)
        .filter(|w| before[w * 4..w * 4 + 4] != after[w * 4..w * 4 + 4])
        .collect();
    let (first, last) = (changed[0], changed[changed.len() - 1]);
    assert_eq!(changed.len(), last - first + 1, "the streamed words are not contiguous");
    ((first * 4) as u32, ((last + 1) * 4) as u32)
}

#[test]
#[ignore = "needs Wine: scripts/test-recorder.sh runs it"]
fn stream_output_draws_are_recorded_and_replay_equal() {
    // a declaration entry: stream, semantic, index, first component, components, slot
    type Declared<'a> = (u32, Option<&'a str>, u32, u8, u8, u32);
    let (run, mut capture) = unrecordable_capture();
    let read = |name: &str| run.readbacks.get(name).unwrap_or_else(|| panic!("no {name}")).clone();
    // testapp.c's stage_draws d): gs_copy made with a stream-output declaration (SV_Position and COLOR, 4
    // components each, to slot 0 of stride 32), into a 1024-byte buffer bound at offset 32: draw A (rasterized
    // stream 0, into a target), draw B through the same binding (it appends where A left off, 14.4), then draw C
    // through a second object made with no rasterized stream, no pixel program and no target, bound again at 448.
    // What each draw streamed is where the program's readbacks of the buffer changed (it starts as 0xab bytes, which
    // no streamed float is): A's bytes start at the offset 32, B's where A's ended.
    let (a_start, a_end) = streamed(&read("so_before.bin"), &read("so_a_after.bin"));
    let (b_start, b_end) = streamed(&read("so_a_after.bin"), &read("so_b_after.bin"));
    let (c_start, _) = streamed(&read("so_b_after.bin"), &read("so_c_after.bin"));
    assert_eq!((a_start, b_start, c_start), (32, a_end, 448));
    // each draw streams gs_copy's two triangles, 3 vertices of 32 bytes each
    assert_eq!((a_end - a_start, b_end - b_start), (192, 192));
    let program = std::fs::read(env_path("IRIDIA_WINE_SHADERS").join("gs_copy.gs.dxbc")).unwrap();
    let draws = [
        (
            20,
            32,
            0,
            "so_before.bin",
            "so_a_after.bin",
            Some(("so_rt_before.bin", "so_rt_a_after.bin")),
        ),
        (
            21,
            a_end,
            0,
            "so_a_after.bin",
            "so_b_after.bin",
            Some(("so_rt_a_after.bin", "so_rt_b_after.bin")),
        ),
        (22, 448, u32::MAX, "so_b_after.bin", "so_c_after.bin", None),
    ];
    for (index, offset, rasterized, before, after, target) in draws {
        let entry = capture.manifest().draws[index].clone();
        assert_eq!(entry.api_call.as_deref(), Some("Draw(3, 0)"), "draw {index}");
        let so = entry
            .stream_output
            .as_ref()
            .unwrap_or_else(|| panic!("draw {index} records no stream output"));
        let declared: Vec<Declared> = so
            .declaration
            .iter()
            .map(|e| {
                (
                    e.stream,
                    e.semantic_name.as_deref(),
                    e.semantic_index,
                    e.start_component,
                    e.component_count,
                    e.output_slot,
                )
            })
            .collect();
        assert_eq!(
            declared,
            [(0, Some("SV_Position"), 0, 0, 4, 0), (0, Some("COLOR"), 0, 0, 4, 0)],
            "draw {index}"
        );
        assert_eq!(so.strides, [32], "draw {index}");
        assert_eq!(so.rasterized_stream, rasterized, "draw {index}");
        let [bound] = &so.targets[..] else {
            panic!("draw {index}: one stream-output buffer, not {}", so.targets.len())
        };
        assert_eq!(
            (bound.slot, bound.offset),
            (0, offset),
            "draw {index}: the slot and offset"
        );
        let draw = capture.draw(index).unwrap();
        assert!(
            draw.state.geometry_shader.as_deref() == Some(&program[..]),
            "draw {index}"
        );
        let [buffer] = &draw.stream_output[..] else {
            panic!("draw {index}: one stream-output buffer read")
        };
        assert!(buffer.before[..] == read(before)[..], "draw {index}: the buffer before");
        assert!(
            buffer.after.as_deref() == Some(&read(after)[..]),
            "draw {index}: the buffer after"
        );
        assert!(read(before) != read(after), "draw {index} streamed nothing");
        match target {
            Some((target_before, target_after)) => {
                let [recorded] = &draw.targets[..] else {
                    panic!("draw {index}: one target")
                };
                assert!(
                    recorded.before[..] == read(target_before)[..],
                    "draw {index}: the target before"
                );
                assert!(
                    recorded.after.as_deref() == Some(&read(target_after)[..]),
                    "draw {index}: after"
                );
            }
            None => {
                // rasterizer discard: no pixel program, no target
                assert!(draw.targets.is_empty(), "draw {index}");
                assert!(draw.state.pixel_shader.is_none(), "draw {index}");
            }
        }
        let replay = replayed(&mut capture, index);
        assert_eq!(replay.stream_output.len(), 1, "draw {index}");
        assert_eq!(
            replay.stream_output[0].matches(),
            Some(true),
            "draw {index}: {:?}",
            replay.stream_output[0].report
        );
        assert!(
            replay.compared() && replay.matches(),
            "draw {index}: {:?}",
            replay.targets
        );
    }
}

#[test]
#[ignore = "needs Wine: scripts/test-recorder.sh runs it"]
fn draw_auto_is_recorded_with_the_vertex_count_stream_output_left() {
    let (run, mut capture) = unrecordable_capture();
    let read = |name: &str| run.readbacks.get(name).unwrap_or_else(|| panic!("no {name}")).clone();
    // testapp.c's stage_draws d): after draw C, the buffer bound as vertex buffer 0 (stride 32, offset 0) and
    // DrawAuto: D3D11 draws its filled size over the stride (8.9): where draw C's streamed bytes end (the
    // program's readbacks of the buffer before and after it), over 32
    let (_, c_end) = streamed(&read("so_b_after.bin"), &read("so_c_after.bin"));
    let vertex_count = c_end / 32;
    assert_eq!(vertex_count, (448 + 192) / 32);
    let entry = capture.manifest().draws[23].clone();
    assert_eq!(entry.api_call.as_deref(), Some("DrawAuto()"));
    assert_eq!(
        entry.call,
        iridia::capture::manifest::CallEntry::DrawAuto { vertex_count }
    );
    let draw = capture.draw(23).unwrap();
    let [target] = &draw.targets[..] else {
        panic!("one target, not {}", draw.targets.len())
    };
    assert!(target.before[..] == read("auto_before.bin")[..]);
    assert!(target.after.as_deref() == Some(&read("auto_after.bin")[..]));
    // the vertices it draws from: the buffer as draw C left it
    let vertices = draw.state.vertex_buffers[0].as_ref().unwrap();
    assert!(vertices.data[..] == read("so_c_after.bin")[..]);
    // Wine 8's DrawAuto is a stub that draws nothing (its d3d11 says FIXME): what Wine left is the target unchanged.
    assert!(read("auto_before.bin") == read("auto_after.bin"));
    // So the replay, which draws the vertex_count vertices D3D11's DrawAuto draws, is compared with what Wine drew
    // for the same vertices through Draw(20, 0) into a target cleared alike (the program's next draw, recorded as
    // such), under the format's tolerance.
    let drawn = read("auto_draw_after.bin");
    assert!(drawn != read("auto_before.bin"), "Draw(20, 0) drew nothing");
    let direct = capture.draw(24).unwrap();
    assert_eq!(direct.api_call.as_deref(), Some("Draw(20, 0)"));
    assert!(direct.targets[0].after.as_deref() == Some(&drawn[..]));
    let replay = replayed(&mut capture, 23);
    let format = target.format;
    let replayed = replay.targets[0].replayed_image().unwrap();
    let comparison = compare(
        &iridia::compare::Image::new(format, 64, 64, &drawn).unwrap(),
        &replayed,
        &CompareOptions::new(Tolerance::for_format(format)),
    )
    .unwrap();
    assert_eq!(comparison.report.differing_pixels, 0, "{:?}", comparison.report);
}

#[test]
#[ignore = "needs Wine: scripts/test-recorder.sh runs it"]
fn a_draw_with_views_into_a_multisampled_target_keeps_its_views_bound() {
    let (run, mut capture) = unrecordable_capture();
    let read = |name: &str| run.readbacks.get(name).unwrap_or_else(|| panic!("no {name}")).clone();
    // testapp.c's stage_draws e): ps_uav's views bound with a 4x render target, whose samples the recorder reads
    // with draws of its own before and after the program's (crate::msaa), binding its own target in between: the
    // program's draw still ran with its views, as the program's readbacks show (u1's word 0 counted the pixels,
    // u3's counter went up from the initial count 3 by as many)
    let raw_before = read("msuav_raw_before.bin");
    let raw_after = read("msuav_raw_after.bin");
    let pixels = word(&raw_after) - word(&raw_before);
    assert!(
        pixels > 100,
        "{pixels} pixels counted: the views were not bound when the program drew"
    );
    assert_eq!(word(&read("msuav_counter_before.bin")), 3);
    assert_eq!(word(&read("msuav_counter_after.bin")), 3 + pixels);
    let draw = capture.draw(25).unwrap();
    assert_eq!(draw.api_call.as_deref(), Some("Draw(3, 0)"));
    let [target] = &draw.targets[..] else {
        panic!("one target, not {}", draw.targets.len())
    };
    assert_eq!(target.resource.sample_count, 4);
    let view = |slot: usize| draw.state.uavs[slot].as_ref().unwrap();
    let after = |slot: usize| draw.uavs_after[slot].as_ref().unwrap();
    assert!(buffer_bytes(&view(1).resource) == &raw_before[..]);
    assert!(after(1).bytes.as_deref() == Some(&raw_after[..]));
    assert_eq!(view(3).initial_count, Some(3));
    assert_eq!(after(3).counter, Some(3 + pixels));
    // replayed through the library: every view matches
    let replay = replayed(&mut capture, 25);
    assert_eq!(replay.uavs.len(), 3);
    for uav in &replay.uavs {
        assert_eq!(uav.matches(), Some(true), "u{}: {:?}", uav.slot, uav.report);
    }
}

#[test]
#[ignore = "needs Wine: scripts/test-recorder.sh runs it"]
fn indirect_draws_on_a_deferred_context_are_recorded_where_their_command_list_runs() {
    let (run, mut capture) = unrecordable_capture();
    let read = |name: &str| run.readbacks.get(name).unwrap_or_else(|| panic!("no {name}")).clone();
    // testapp.c's stage_draws f): the same two indirect calls on a deferred context, the arguments read where the
    // command list ran; the target read back by the program before the list ran and after
    let first = capture.draw(26).unwrap();
    let second = capture.draw(27).unwrap();
    assert_eq!(
        (first.api_call.as_deref(), second.api_call.as_deref()),
        (
            Some("DrawInstancedIndirect(args, 0)"),
            Some("DrawIndexedInstancedIndirect(args, 16)")
        )
    );
    assert_eq!(
        (first.state.call, second.state.call),
        (
            iridia::api::draw::DrawCall::DrawInstanced {
                vertex_count_per_instance: 3,
                instance_count: 1,
                start_vertex: 0,
                start_instance: 0,
            },
            iridia::api::draw::DrawCall::DrawIndexedInstanced {
                index_count_per_instance: 3,
                instance_count: 1,
                start_index: 0,
                base_vertex: 0,
                start_instance: 0,
            }
        )
    );
    for (index, draw) in [(26, &first), (27, &second)] {
        assert_eq!(draw.name, None);
        assert!(
            capture.manifest().draws[index].indirect,
            "draw {index} is not marked indirect"
        );
    }
    assert!(first.targets[0].before[..] == read("ind_deferred_before.bin")[..]);
    assert!(first.targets[0].after.as_deref() == Some(&second.targets[0].before[..]));
    assert!(second.targets[0].after.as_deref() == Some(&read("ind_deferred_after.bin")[..]));
    assert!(
        first.targets[0].after.as_deref() != Some(&first.targets[0].before[..]),
        "the first drew nothing"
    );
    for index in [26, 27] {
        replays_equal(&mut capture, index);
    }
}

#[test]
#[ignore = "needs Wine: scripts/test-recorder.sh runs it"]
fn dispatches_on_a_deferred_context_are_recorded_where_their_command_list_runs() {
    let (run, mut capture) = unrecordable_capture();
    let read = |name: &str| run.readbacks.get(name).unwrap_or_else(|| panic!("no {name}")).clone();
    // testapp.c's stage_draws f): after the deferred context's two indirect draws (draws 26 and 27), Dispatch(4, 1,
    // 1) and DispatchIndirect(args, 36) (2, 1, 1) of cs_fill in the same command list, which ran before the frame's
    // draw 10 (draw 28 of the capture) and its resolve
    let placed: Vec<String> = capture
        .dispatches()
        .iter()
        .skip(2)
        .map(|d| {
            format!(
                "{} {} {} {} {} {:?}",
                d.before_draw,
                d.before_resolve,
                d.name.as_deref().unwrap_or("?"),
                d.api_call.as_deref().unwrap_or("?"),
                d.indirect,
                d.groups
            )
        })
        .collect();
    assert_eq!(
        placed,
        [
            "28 0 ? Dispatch(4, 1, 1) false [4, 1, 1]",
            "28 0 ? DispatchIndirect(args, 36) true [2, 1, 1]"
        ]
    );
    let values: Vec<u8> = (0..32u32).flat_map(|i| (1000 + 3 * i).to_le_bytes()).collect();
    let first = capture.dispatch(2).unwrap();
    let second = capture.dispatch(3).unwrap();
    for dispatch in [&first, &second] {
        let cb = dispatch.state.bindings.constant_buffer(0).unwrap();
        assert!(cb.data[..] == [5u32, 0, 0, 0].iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<_>>()[..]);
        assert!(buffer_bytes(&dispatch.state.bindings.shader_resource(0).unwrap().resource) == &values[..]);
    }
    // u0 before the first as the program read it before the list ran, after the second as it read it after; the
    // second starts from what the first left
    let raw =
        |d: &iridia::capture::CapturedDispatch| buffer_bytes(&d.state.uavs[0].as_ref().unwrap().resource).to_vec();
    let after = |d: &iridia::capture::CapturedDispatch| d.after[0].as_ref().unwrap().bytes.as_ref().unwrap().to_vec();
    assert!(raw(&first) == read("dcs_raw_before.bin"));
    assert!(after(&first) == raw(&second));
    assert!(after(&second) == read("dcs_raw_after.bin"));
    // u1's counter: the initial count 10 the program bound it with, up by a thread each
    let counted = |d: &iridia::capture::CapturedDispatch| {
        (
            d.state.uavs[1].as_ref().unwrap().initial_count,
            d.after[1].as_ref().unwrap().counter,
        )
    };
    assert_eq!(counted(&first), (Some(10), Some(42)));
    assert_eq!(counted(&second), (Some(42), Some(word(&read("dcs_counter_after.bin")))));
    assert_eq!(word(&read("dcs_counter_after.bin")), 58);
    for (index, dispatch) in [(2, &first), (3, &second)] {
        dispatch_replays_exactly(index, dispatch);
    }
}

/// Whether a process ended by SIGKILL.
#[cfg(unix)]
fn killed_by_sigkill(status: &std::process::ExitStatus) -> bool {
    use std::os::unix::process::ExitStatusExt as _;
    status.signal() == Some(9)
}

/// Whether a process ended by SIGKILL (never, where there are no signals).
#[cfg(not(unix))]
fn killed_by_sigkill(_: &std::process::ExitStatus) -> bool {
    false
}

#[test]
#[ignore = "needs Wine: scripts/test-recorder.sh runs it"]
fn a_panic_in_the_recorder_is_caught_and_the_program_renders_on() {
    // A panic in a hook would unwind into an `extern "system"` function and end the process: the recorder catches
    // it (recorder::guarded), logs it and abandons the capture, and the program goes on as without the recorder.
    let runs = runs();
    let run = &runs.faulted;
    assert!(
        run.log
            .contains("the recorder failed while recording (fault injected at draw 3 (fault_panic_draw))"),
        "{}",
        run.log
    );
    // every frame drawn (`run` requires it), and every readback what the program reads without the recorder
    assert_eq!(run.listing, runs.plain.listing);
    assert_eq!(run.readbacks.len(), runs.plain.readbacks.len());
    for (name, bytes) in &runs.plain.readbacks {
        assert!(
            run.readbacks.get(name) == Some(bytes),
            "{name} differs from the run without the recorder"
        );
    }
    // what the abandoned capture's last snapshot (every 3 draws) wrote, if anything, holds the draws before the fault
    if let Some(path) = run.captures.first()
        && let Ok(capture) = Capture::open(std::fs::read(path).unwrap())
    {
        assert!(capture.draw_count() <= 3, "{} draws", capture.draw_count());
    }
}

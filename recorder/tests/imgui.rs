//! The recorder on a real program nobody here wrote: Dear ImGui's DirectX 11 example
//! (`examples/example_win32_directx11/main.cpp` of `shared/thirdparty/imgui`, built with mingw-w64), which opens a
//! window and draws ImGui's demo window and a "Hello, world!" window every frame until the window is closed. Run
//! under Wine with the recorder recording one frame; once the recorder's log says `capture written` the program is
//! ended (it has no other way out). Run by `scripts/test-recorder.sh` (and `scripts/record-imgui-fixture.sh`), which
//! build the proxy, the program and the `bcryptprimitives` shim, make a Wine prefix, start an X server and set:
//!
//! - `IRIDIA_IMGUI_BIN`: a folder holding `imgui-dx11.exe`, `d3d11.dll` (the recorder) and `bcryptprimitives.dll`;
//! - `IRIDIA_IMGUI_OUT`: a scratch folder (emptied first; the capture, the log, the replay's report land there);
//! - `IRIDIA_IMGUI_CLI`: the `iridia` command-line program;
//! - optionally `IRIDIA_IMGUI_DEFLATE_LEVEL`: the recorder's `deflate_level` (default 1);
//! - `WINEPREFIX`, `DISPLAY`.
//!
//! What a frame of ImGui must hold comes from ImGui's DirectX 11 backend (`backends/imgui_impl_dx11.cpp`): every
//! draw command is one `DrawIndexed` of 16-bit indices (a triangle list) into one vertex and one index buffer mapped
//! with `WRITE_DISCARD` each frame, the commands' index ranges following each other through the buffer in order;
//! each command sets its own scissor rectangle; the blend is SRC_ALPHA / INV_SRC_ALPHA (alpha ONE /
//! INV_SRC_ALPHA); the vertex constant buffer, also mapped each frame, holds the orthographic projection of the
//! display, which the viewport covers. Never from the recorder. The tests are ignored by a plain `cargo test`,
//! which has no Wine.

// Test code: a failed step is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use iridia::api::draw::{DrawCall, IndexFormat};
use iridia::api::enums::{Blend, PrimitiveTopology};
use iridia::capture::{Capture, TargetSlot};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The frame recorded: the capture starts at this `Present`. ImGui lays a new window out over its first frames
/// (a window's first frame is hidden while it measures its contents), so a later frame shows the demo whole.
const FRAME: &str = "5";

/// How long the program may take to reach `capture written` (Wine's start, compiling ImGui's two shaders with
/// Wine's `d3dcompiler_47`, five frames at 1280x800 on llvmpipe, then the recorded one).
const DEADLINE: Duration = Duration::from_secs(300);

/// A path as Wine's `Z:` drive names it.
fn windows_path(path: &Path) -> String {
    format!("Z:{}", path.display()).replace('/', "\\")
}

/// An environment variable the script sets.
fn env_path(name: &str) -> PathBuf {
    PathBuf::from(std::env::var_os(name).unwrap_or_else(|| panic!("{name} is not set: run scripts/test-recorder.sh")))
}

/// The recorded run: the folder, the recorder's log and the capture it wrote.
struct Run {
    log: String,
    capture: PathBuf,
}

/// Runs the example under Wine with the recorder recording frame `FRAME` into `IRIDIA_IMGUI_OUT`; ends it once
/// the log says the capture is written.
fn record() -> Run {
    let bin = env_path("IRIDIA_IMGUI_BIN");
    let dir = env_path("IRIDIA_IMGUI_OUT");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let log_path = dir.join("recorder.log");
    let deflate = std::env::var("IRIDIA_IMGUI_DEFLATE_LEVEL").unwrap_or_else(|_| "1".into());
    let started = Instant::now();
    // The program's folder is its working directory too: ImGui saves its window layout there (imgui.ini), and a
    // layout left from an earlier run would move the windows.
    let mut child = Command::new("wine")
        .arg(bin.join("imgui-dx11.exe"))
        .current_dir(&dir)
        .env("WINEDEBUG", "-all")
        .env("WINEDLLOVERRIDES", "mscoree,mshtml=;d3d11,bcryptprimitives=n,b")
        .env("IRIDIA_OUTPUT_DIR", windows_path(&dir))
        .env("IRIDIA_LOG_FILE", windows_path(&log_path))
        .env("IRIDIA_CAPTURE_KEY", "none")
        .env("IRIDIA_TRIGGER_FILE", "none")
        .env("IRIDIA_CAPTURE_FRAME", FRAME)
        .env("IRIDIA_DEFLATE_LEVEL", deflate)
        .env_remove("IRIDIA_CAPTURE_FRAMES")
        .env_remove("IRIDIA_MAX_DRAWS")
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(dir.join("stdout.txt")).unwrap())
        .stderr(std::fs::File::create(dir.join("stderr.txt")).unwrap())
        .spawn()
        .expect("wine runs");
    let outcome = loop {
        std::thread::sleep(Duration::from_millis(200));
        let log = std::fs::read_to_string(&log_path).unwrap_or_default();
        if log.contains("capture written") {
            break Ok(log);
        }
        if let Some(status) = child.try_wait().unwrap() {
            break Err(format!(
                "imgui-dx11.exe exited ({status}) before the capture was written"
            ));
        }
        if started.elapsed() > DEADLINE {
            break Err(format!("no capture written within {} s", DEADLINE.as_secs()));
        }
    };
    // The example draws until its window is closed: end it (the process this test started, by its id).
    let _ = child.kill();
    let _ = child.wait();
    let log = outcome.unwrap_or_else(|problem| {
        panic!(
            "{problem} (is the X server up?)\nlog:\n{}\nstderr:\n{}",
            std::fs::read_to_string(&log_path).unwrap_or_default(),
            std::fs::read_to_string(dir.join("stderr.txt")).unwrap_or_default()
        )
    });
    eprintln!(
        "imgui-dx11.exe: capture written {:.1} s after the start",
        started.elapsed().as_secs_f64()
    );
    let captures: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "iridia"))
        .collect();
    assert_eq!(captures.len(), 1, "{captures:?}\n{log}");
    Run {
        log,
        capture: captures.into_iter().next().unwrap(),
    }
}

fn run() -> &'static Run {
    static RUN: OnceLock<Run> = OnceLock::new();
    RUN.get_or_init(record)
}

fn capture() -> Capture<std::io::Cursor<std::sync::Arc<[u8]>>> {
    Capture::open(std::fs::read(&run().capture).unwrap()).unwrap()
}

/// `iridia ARGS`, its exit code and what it printed.
fn iridia(args: &[&str]) -> (Option<i32>, String, String) {
    let output = Command::new(env_path("IRIDIA_IMGUI_CLI"))
        .args(args)
        .output()
        .expect("iridia runs");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The first whole number after `marker` in `text`.
fn number_after(text: &str, marker: &str) -> usize {
    let at = text.find(marker).unwrap_or_else(|| panic!("{marker:?} not in\n{text}")) + marker.len();
    let digits: String = text[at..].chars().take_while(char::is_ascii_digit).collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("no number after {marker:?} in\n{text}"))
}

#[test]
#[ignore = "needs Wine: scripts/test-recorder.sh runs it"]
fn the_capture_opens_whole() {
    let run = run();
    let path = run.capture.to_str().unwrap();
    let (code, stdout, stderr) = iridia(&["info", "--check", path]);
    assert_eq!(code, Some(0), "iridia info --check {path}:\n{stdout}{stderr}");
    let capture = capture();
    capture.check().unwrap();
    assert_eq!(capture.ignored_tail(), 0);
    assert_eq!(capture.manifest().application.as_deref(), Some("imgui-dx11.exe"));
}

#[test]
#[ignore = "needs Wine: scripts/test-recorder.sh runs it"]
fn every_draw_of_the_frame_is_recorded() {
    let run = run();
    let capture = capture();
    // The recorder skipped nothing and recorded no call the format cannot hold.
    assert!(
        capture.unrecorded_draws().is_empty(),
        "{:?}",
        capture.unrecorded_draws()
    );
    assert!(!run.log.contains("draw not recorded"), "{}", run.log);
    let ended = &run.log[run.log.find("capture ended:").expect("the capture ended")..];
    assert_eq!(number_after(ended, "capture ended: "), capture.draw_count(), "{ended}");
    assert_eq!(number_after(ended, "recorded, "), 0, "skipped draws: {ended}");
    // The demo window and the "Hello, world!" window: each a draw list of several commands (its title bar, its
    // contents clipped to the window, its popups and scroll bar), so a frame is more than a handful of draws.
    let draws = capture.draws();
    assert!(draws.len() >= 4, "{} draws", draws.len());
    // One DrawIndexed per command, the commands' index ranges following each other through the one index buffer:
    // the first at index 0, each after the one before. (ImGui leaves out a command whose clip rectangle is empty,
    // which would leave a gap, never an overlap.)
    let mut end = 0;
    for draw in &draws {
        let DrawCall::DrawIndexed {
            index_count,
            start_index,
            ..
        } = draw.call
        else {
            panic!("draw {}: {:?} is not a DrawIndexed", draw.index, draw.call);
        };
        if draw.index == 0 {
            assert_eq!(start_index, 0, "the first command starts the index buffer");
        }
        assert!(
            start_index >= end,
            "draw {}: index {start_index} before {end}",
            draw.index
        );
        assert_eq!(index_count % 3, 0, "draw {}: a triangle list", draw.index);
        end = start_index + index_count;
        assert_eq!(draw.topology, PrimitiveTopology::TriangleList, "draw {}", draw.index);
        assert!(draw.problem.is_none(), "draw {}: {:?}", draw.index, draw.problem);
    }
}

#[test]
#[ignore = "needs Wine: scripts/test-recorder.sh runs it"]
fn every_draw_is_in_the_imgui_region_and_named_by_its_call_and_target() {
    use iridia::capture::outline::OutlineKind;
    let capture = capture();
    assert!(capture.events_problem().is_none(), "{:?}", capture.events_problem());
    // recorder/tests/imgui/markers.cpp wraps the backend's ImGui_ImplDX11_RenderDrawData, which makes every draw of
    // the frame, in BeginEvent(L"ImGui")/EndEvent: one region at the top, holding every draw.
    let outline = capture.outline();
    let groups: Vec<(u32, &str)> = outline
        .rows
        .iter()
        .filter(|r| matches!(r.kind, OutlineKind::Group { .. }))
        .map(|r| (r.depth, r.text.as_str()))
        .collect();
    assert_eq!(groups, [(0, "ImGui")]);
    let paths = outline.draw_paths(capture.draw_count());
    assert!(!paths.is_empty());
    for (index, path) in paths.iter().enumerate() {
        assert_eq!(path, &["ImGui"], "draw {index}");
    }
    // main.cpp clears the back buffer (ClearRenderTargetView) before it renders ImGui's draw data: a clear before
    // the region.
    let first_clear = outline
        .rows
        .iter()
        .position(|r| r.kind == OutlineKind::Call("clear".to_owned()))
        .expect("the back buffer's clear");
    let region = outline
        .rows
        .iter()
        .position(|r| matches!(r.kind, OutlineKind::Group { .. }))
        .unwrap();
    assert!(first_clear < region, "{:?}", outline.rows);
    assert!(
        outline.rows[first_clear].text.starts_with("ClearRenderTargetView(rt "),
        "{}",
        outline.rows[first_clear].text
    );
    // The recorder names no draw: each is named by its call and target (the back buffer, render target 0).
    for draw in capture.draws() {
        assert_eq!(draw.name, None, "draw {}", draw.index);
        let label = draw.label();
        assert!(
            label.starts_with("DrawIndexed(") && label.contains(" → rt0 "),
            "draw {}: {label}",
            draw.index
        );
    }
}

#[test]
#[ignore = "needs Wine: scripts/test-recorder.sh runs it"]
fn the_draws_hold_imguis_state_scissored_blended_from_mapped_buffers() {
    let mut capture = capture();
    let mut scissors = Vec::new();
    let mut vertex_buffer_bytes = 0;
    for index in 0..capture.draw_count() {
        let draw = capture.draw(index).unwrap();
        let state = &draw.state;
        // The back buffer, R8G8B8A8_UNORM as main.cpp makes the swap chain, alone.
        assert_eq!(draw.targets.len(), 1, "draw {index}");
        let target = &draw.targets[0];
        assert_eq!(target.target, TargetSlot::RenderTarget(0), "draw {index}");
        assert_eq!(target.format, iridia::format::Format::R8G8B8A8Unorm, "draw {index}");
        assert!(target.after.is_some(), "draw {index}");
        // The viewport covers the display, and the projection in the mapped constant buffer maps the display to
        // clip space: column 0 row 0 is 2 / width, row 1 column 1 is 2 / (top - bottom).
        let viewport = state.viewports[0];
        assert_eq!(
            (viewport.width, viewport.height),
            (target.width as f32, target.height as f32),
            "draw {index}"
        );
        let cb = state.vs.constant_buffer(0).expect("the projection");
        let float = |i: usize| f32::from_le_bytes(cb.data[i * 4..i * 4 + 4].try_into().unwrap());
        assert_eq!(float(0), 2. / viewport.width, "draw {index}");
        assert_eq!(float(5), 2. / -viewport.height, "draw {index}");
        assert_eq!((float(12), float(13), float(15)), (-1., 1., 1.), "draw {index}");
        // 16-bit indices into the one vertex buffer of 20-byte ImDrawVerts (position, uv, packed colour).
        let indices = state.index_buffer.as_ref().expect("an index buffer");
        assert_eq!(indices.format, IndexFormat::R16Uint, "draw {index}");
        let vertices = state.vertex_buffers[0].as_ref().expect("a vertex buffer");
        assert_eq!(vertices.stride, 20, "draw {index}");
        // What the frame mapped into the buffers: every index names a vertex of the buffer, and the vertices'
        // positions (in pixels of the display) reach into the display.
        let DrawCall::DrawIndexed {
            index_count,
            start_index,
            base_vertex,
        } = state.call
        else {
            panic!("draw {index}: not a DrawIndexed");
        };
        let vertex_count = vertices.data.len() / 20;
        let (mut low, mut high) = ([f32::MAX; 2], [f32::MIN; 2]);
        for i in start_index..start_index + index_count {
            let at = indices.offset as usize + i as usize * 2;
            let vertex = u16::from_le_bytes(indices.data[at..at + 2].try_into().unwrap()) as i64 + base_vertex as i64;
            assert!(
                (0..vertex_count as i64).contains(&vertex),
                "draw {index}: vertex {vertex} of {vertex_count}"
            );
            let at = vertex as usize * 20;
            for axis in 0..2 {
                let value = f32::from_le_bytes(vertices.data[at + axis * 4..at + axis * 4 + 4].try_into().unwrap());
                low[axis] = low[axis].min(value);
                high[axis] = high[axis].max(value);
            }
        }
        assert!(
            low[0] < viewport.width && high[0] > 0. && low[1] < viewport.height && high[1] > 0.,
            "draw {index}: vertices in {low:?}-{high:?}"
        );
        vertex_buffer_bytes = vertex_buffer_bytes.max(vertices.data.len());
        // Scissored by the command's clip rectangle, inside the target.
        assert!(state.rasterizer.scissor_enable, "draw {index}");
        let scissor = state.scissor_rects[0];
        assert!(
            0 <= scissor.left
                && scissor.left < scissor.right
                && scissor.right <= target.width as i32
                && 0 <= scissor.top
                && scissor.top < scissor.bottom
                && scissor.bottom <= target.height as i32,
            "draw {index}: {scissor:?}"
        );
        scissors.push((scissor.left, scissor.top, scissor.right, scissor.bottom));
        // Blended over what is there.
        let blend = &state.blend.render_target[0];
        assert!(blend.blend_enable, "draw {index}");
        assert_eq!(
            (
                blend.src_blend,
                blend.dest_blend,
                blend.src_blend_alpha,
                blend.dest_blend_alpha
            ),
            (Blend::SrcAlpha, Blend::InvSrcAlpha, Blend::One, Blend::InvSrcAlpha),
            "draw {index}"
        );
        // The font atlas (or another texture ImGui made) through a sampler.
        assert!(state.ps.shader_resource(0).is_some(), "draw {index}");
        assert!(state.ps.sampler(0).is_some(), "draw {index}");
    }
    // Windows clip their contents to different rectangles.
    scissors.sort_unstable();
    scissors.dedup();
    assert!(scissors.len() >= 2, "{scissors:?}");
    // ImGui makes its dynamic vertex buffer 5000 vertices larger than the frame needs.
    assert!(vertex_buffer_bytes >= 5000 * 20, "{vertex_buffer_bytes} bytes");
}

#[test]
#[ignore = "needs Wine: scripts/test-recorder.sh runs it"]
fn iridia_replay_compares_every_draw() {
    let run = run();
    let path = run.capture.to_str().unwrap();
    let draws = capture().draw_count();
    let (code, stdout, stderr) = iridia(&["replay", "--all", path]);
    let out = env_path("IRIDIA_IMGUI_OUT");
    std::fs::write(out.join("replay.txt"), format!("{stdout}{stderr}")).unwrap();
    // 0: every compared draw matches; 1: some differ. 2 (an error) and 3 (draws not recorded, nothing compared)
    // are failures.
    assert!(
        code == Some(0) || code == Some(1),
        "iridia replay --all {path}: exit {code:?}\n{stdout}{stderr}"
    );
    assert!(
        stdout.contains(&format!("{draws} compared: ")),
        "not every one of the {draws} draws was compared:\n{stdout}"
    );
    let (code, json, stderr) = iridia(&["replay", "--all", "--json", path]);
    assert!(code == Some(0) || code == Some(1), "{stderr}");
    std::fs::write(out.join("replay.json"), json).unwrap();
}

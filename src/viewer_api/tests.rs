//! The viewer API against the sample captures of `fixtures/captures/` (described in its README). Expected values come
//! from the README (draw counts, formats, sizes), from the captures' own recorded bytes read independently (a UNORM8
//! channel displays as its stored byte, reads as byte / 255), or from the library's lower layers run directly (the
//! draw and the comparison), which the API must pass on unchanged.

use super::types::*;
use super::*;
use crate::capture::Capture;
use crate::compare::{CompareOptions, Image, Tolerance, compare};
use crate::draw::{DrawOptions, PreparedDraw, ShaderCache};
use std::path::Path;

fn fixture(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/captures")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn open(name: &str) -> ViewerCapture {
    ViewerCapture::open(fixture(name)).unwrap()
}

/// Replays draw `index` with `budget` per step; returns the steps' progress.
fn replay(capture: &mut ViewerCapture, index: usize, budget: u64) -> Vec<StepProgress> {
    let mut steps = Vec::new();
    loop {
        let step = capture.replay_step(index, budget).unwrap();
        let finished = step.finished;
        steps.push(step);
        if finished {
            return steps;
        }
        assert!(steps.len() < 1_000_000, "the replay ends");
    }
}

#[test]
fn opening_reads_the_manifest_and_lists_every_draw() {
    // the README's table: 1, 6, 1, 26 and 1 draws
    for (name, draws) in [
        ("01-lit-mesh.iridia", 1),
        ("02-alpha-blend.iridia", 6),
        ("03-post-process.iridia", 1),
        ("04-frame.iridia", 26),
        ("05-thin-triangles.iridia", 1),
    ] {
        let bytes = fixture(name);
        let mut capture = ViewerCapture::open(bytes.clone()).unwrap();
        let summary = capture.summary();
        assert_eq!(summary.draw_count, draws, "{name}");
        assert_eq!(summary.size_bytes, bytes.len() as u64);
        let listed = capture.draws();
        assert_eq!(listed.len(), draws);
        assert!(listed.iter().all(|d| d.status == DrawStatus::NotReplayed));
        assert!(listed.iter().enumerate().all(|(i, d)| d.index == i));
    }
}

#[test]
fn a_draw_lists_its_programs_and_targets_with_depth_and_stencil_apart() {
    let mut capture = open("04-frame.iridia");
    let draws = capture.draws();
    let first = &draws[0];
    // 192x128 R8G8B8A8_UNORM and D24_UNORM_S8_UINT (README), the depth-stencil target as depth and stencil
    let targets: Vec<(TargetId, &str, ComponentKind, u32, u32, u32)> = first
        .targets
        .iter()
        .map(|t| (t.target, t.format.as_str(), t.kind, t.channels, t.width, t.height))
        .collect();
    assert_eq!(
        targets,
        [
            (TargetId::Rt0, "R8G8B8A8_UNORM", ComponentKind::Unorm, 4, 192, 128),
            (TargetId::Depth, "D24_UNORM_S8_UINT", ComponentKind::Depth, 1, 192, 128),
            (
                TargetId::Stencil,
                "D24_UNORM_S8_UINT",
                ComponentKind::Stencil,
                1,
                192,
                128
            ),
        ]
    );
    let vs = first.vs.as_ref().unwrap();
    let ps = first.ps.as_ref().unwrap();
    assert!(vs.model.starts_with("vs_") && ps.model.starts_with("ps_"));
    assert_eq!((vs.stage, ps.stage), (Stage::Vs, Stage::Ps));
    // the blob's name in the archive is the SHA-256 of its bytes
    let raw = Capture::open(fixture("04-frame.iridia")).unwrap();
    let blob = raw.draw_summary(0).unwrap().programs[0].blob.sha256;
    assert_eq!(vs.sha256, hex(&blob.0));
    assert!(vs.instruction_count > 0);
    // the five crates share a mesh and texture (README) but each is its own draw
    assert!(draws.iter().all(|d| !d.name.is_empty()));
}

#[test]
fn a_replay_in_small_steps_reports_growing_progress_and_matches_a_whole_draw_compared() {
    let mut capture = open("01-lit-mesh.iridia");
    let steps = replay(&mut capture, 0, 1);
    assert!(steps.len() > 100, "a small budget takes many steps: {}", steps.len());
    let last = steps.last().unwrap();
    // 3072 triangles (README)
    assert_eq!((last.stage.as_str(), last.done, last.total), ("primitives", 3072, 3072));
    let mut previous = (0, 0);
    for step in &steps {
        let rank = (usize::from(step.stage == "primitives"), step.done);
        assert!(rank >= previous, "progress never goes back");
        previous = rank;
    }
    // the draw and the comparison run directly give the same numbers
    let mut raw = Capture::open(fixture("01-lit-mesh.iridia")).unwrap();
    let draw = raw.draw(0).unwrap();
    let output = PreparedDraw::new(&draw.state, &mut ShaderCache::new(), DrawOptions::default())
        .unwrap()
        .run(None)
        .unwrap();
    let result = capture.compare(0).unwrap();
    let rt = &draw.targets[0];
    fn image<'a>(rt: &crate::capture::RecordedTarget, bytes: &'a [u8]) -> Image<'a> {
        Image::new(rt.format, rt.width, rt.height, bytes).unwrap()
    }
    let replayed_rt = output.render_targets[0].as_ref().unwrap();
    let mut options = CompareOptions::new(Tolerance::for_format(rt.format));
    options.ambiguous = Some(&output.ambiguous);
    let direct = compare(
        &image(rt, rt.after.as_ref().unwrap()),
        &image(rt, &replayed_rt.bytes),
        &options,
    )
    .unwrap();
    let ours = &result.targets[0];
    assert_eq!(ours.target, TargetId::Rt0);
    assert_eq!(
        (ours.compared_pixels, ours.differing_pixels, ours.ambiguous_pixels),
        (
            direct.report.compared_pixels,
            direct.report.differing_pixels,
            direct.report.ambiguous_pixels
        )
    );
    // 256x256 (README)
    assert_eq!(ours.compared_pixels, 256 * 256);
    let summary = capture.replay_finish(0).unwrap();
    assert_eq!(summary.primitives, 3072);
    assert_eq!(summary.status, result.status);
    assert_eq!(capture.draws()[0].status, result.status);
    // a finished draw stepped again is finished at once
    assert!(capture.replay_step(0, 1).unwrap().finished);
}

#[test]
fn the_recorded_image_shows_unorm8_bytes_as_they_are_and_alpha_opaque() {
    let mut capture = open("02-alpha-blend.iridia");
    let mut raw = Capture::open(fixture("02-alpha-blend.iridia")).unwrap();
    let draw = raw.draw(2).unwrap();
    let recorded = draw.targets[0].after.clone().unwrap();
    // no replay needed for the recorded and before images
    let image = capture
        .render_target(2, TargetId::Rt0, ImageKind::Recorded, &DisplayOptions::default(), false)
        .unwrap();
    assert_eq!((image.width, image.height), (128, 128));
    // a UNORM8 value v/255 maps to display byte round(v/255 * 255) = v; alpha off shows 255
    for (shown, stored) in image.rgba.chunks(4).zip(recorded.chunks(4)) {
        assert_eq!(&shown[..3], &stored[..3]);
        assert_eq!(shown[3], 255);
    }
    let before = capture
        .render_target(2, TargetId::Rt0, ImageKind::Before, &DisplayOptions::default(), false)
        .unwrap();
    assert_eq!(before.rgba[..3], draw.targets[0].before[..3]);
    // green alone is grey
    let green = DisplayOptions {
        channels: ShownChannels {
            r: false,
            g: true,
            b: false,
            a: false,
        },
        ..DisplayOptions::default()
    };
    let grey = capture
        .render_target(2, TargetId::Rt0, ImageKind::Recorded, &green, false)
        .unwrap();
    assert!(
        grey.rgba
            .chunks(4)
            .zip(recorded.chunks(4))
            .all(|(s, r)| s == [r[1], r[1], r[1], 255])
    );
    // red and blue without green: green black
    let magenta = DisplayOptions {
        channels: ShownChannels {
            r: true,
            g: false,
            b: true,
            a: false,
        },
        ..DisplayOptions::default()
    };
    let shown = capture
        .render_target(2, TargetId::Rt0, ImageKind::Recorded, &magenta, false)
        .unwrap();
    assert!(
        shown
            .rgba
            .chunks(4)
            .zip(recorded.chunks(4))
            .all(|(s, r)| s == [r[0], 0, r[2], 255])
    );
    // the replayed image needs the replay
    let error = capture
        .render_target(2, TargetId::Rt0, ImageKind::Replayed, &DisplayOptions::default(), false)
        .unwrap_err();
    assert_eq!(error.kind, crate::error::ErrorKind::NotReplayed);
}

#[test]
fn the_difference_mask_paints_exactly_the_differing_and_ambiguous_pixels_over_the_dimmed_replay() {
    let mut capture = open("05-thin-triangles.iridia");
    replay(&mut capture, 0, 1 << 16);
    let result = capture.compare(0).unwrap();
    let rt = result.targets.iter().find(|t| t.target == TargetId::Rt0).unwrap();
    // the README: the float target shows real differences along the slivers
    assert!(rt.differing_pixels > 0);
    let mask = capture
        .render_target(
            0,
            TargetId::Rt0,
            ImageKind::Difference,
            &DisplayOptions::default(),
            false,
        )
        .unwrap();
    let count = |colour: [u8; 4]| mask.rgba.chunks(4).filter(|p| *p == colour).count() as u64;
    assert_eq!(count([255, 0, 0, 255]), rt.differing_pixels);
    assert_eq!(count([255, 176, 0, 255]), rt.ambiguous_pixels);
    // the first difference in row order is the one the comparison names, found from the last pixel onwards
    let first = rt.first_difference.unwrap();
    let found = capture
        .find_difference(0, TargetId::Rt0, 95, 95, false)
        .unwrap()
        .unwrap();
    let first_any = mask
        .rgba
        .chunks(4)
        .position(|p| p == [255, 0, 0, 255] || p == [255, 176, 0, 255])
        .unwrap();
    assert_eq!((found.x as usize, found.y as usize), (first_any % 96, first_any / 96));
    assert!((first.y, first.x) >= (found.y, found.x));
    // backwards from the first pixel wraps to the last differing one
    let last_any = mask
        .rgba
        .chunks(4)
        .rposition(|p| p == [255, 0, 0, 255] || p == [255, 176, 0, 255])
        .unwrap();
    let back = capture.find_difference(0, TargetId::Rt0, 0, 0, true).unwrap().unwrap();
    assert_eq!((back.x as usize, back.y as usize), (last_any % 96, last_any / 96));
    // the float target's range is the data's
    let image = capture
        .render_target(0, TargetId::Rt0, ImageKind::Replayed, &DisplayOptions::default(), false)
        .unwrap();
    assert!(image.value_range.min <= image.value_range.max);
    // under the mask, every other pixel is the replayed image dimmed (display.rs): 9/20 of its grey (the mean of
    // R, G, B, rounded down) plus 4/20 of its own channel, rounded down, and opaque
    for (shown, replayed) in mask.rgba.chunks(4).zip(image.rgba.chunks(4)) {
        if shown == [255, 0, 0, 255] || shown == [255, 176, 0, 255] {
            continue;
        }
        let grey = (u32::from(replayed[0]) + u32::from(replayed[1]) + u32::from(replayed[2])) / 3;
        let dim = |c: u8| ((grey * 9 + u32::from(c) * 4) / 20) as u8;
        assert_eq!(shown, [dim(replayed[0]), dim(replayed[1]), dim(replayed[2]), 255]);
    }
    let heatmap = capture
        .render_target(0, TargetId::Rt0, ImageKind::Heatmap, &DisplayOptions::default(), false)
        .unwrap();
    assert_eq!(heatmap.rgba.len(), 96 * 96 * 4);
}

#[test]
fn a_texel_reads_as_its_stored_bytes_say() {
    let mut capture = open("02-alpha-blend.iridia");
    let mut raw = Capture::open(fixture("02-alpha-blend.iridia")).unwrap();
    let draw = raw.draw(1).unwrap();
    let after = draw.targets[0].after.clone().unwrap();
    let (x, y) = (64u32, 64u32);
    let at = ((y * 128 + x) * 4) as usize;
    let bytes = &after[at..at + 4];
    let readout = capture.read_texels(1, TargetId::Rt0, x, y).unwrap();
    assert_eq!(readout.verdict, PixelVerdictKind::NotReplayed);
    let recorded = readout.recorded.clone().unwrap();
    assert_eq!(recorded.hex, hex(bytes));
    // UNORM8: the value is byte / 255, the text shows it to 5 decimals and the code
    let red = &recorded.channels[0];
    assert_eq!(red.channel, "r");
    assert_eq!(red.bits, u32::from(bytes[0]));
    assert!((red.value - f64::from(bytes[0]) / 255.0).abs() < 1e-12);
    assert_eq!(red.text, format!("{:.5} ({})", f64::from(bytes[0]) / 255.0, bytes[0]));
    assert!(readout.replayed.is_none());
    replay(&mut capture, 1, 1 << 20);
    let readout = capture.read_texels(1, TargetId::Rt0, x, y).unwrap();
    let replayed = readout.replayed.unwrap();
    assert_eq!(readout.difference.len(), 4);
    for (d, (r, g)) in readout.difference.iter().zip(
        replayed
            .channels
            .iter()
            .zip(&readout.recorded.as_ref().unwrap().channels),
    ) {
        assert!((d.difference - (r.value - g.value)).abs() < 1e-12);
        assert_eq!(d.ulps, Some(u64::from(r.bits.abs_diff(g.bits))));
    }
    assert!(matches!(
        readout.verdict,
        PixelVerdictKind::Matches | PixelVerdictKind::Differs | PixelVerdictKind::Ambiguous
    ));
    assert!(capture.read_texels(1, TargetId::Rt0, 128, 0).is_err());
}

#[test]
fn a_depth_stencil_target_reads_depth_and_stencil_apart() {
    let mut capture = open("04-frame.iridia");
    // draw 9 or so: the pillar writes stencil 1 (README); find a draw whose recorded stencil is not all zero
    let mut raw = Capture::open(fixture("04-frame.iridia")).unwrap();
    let (index, x, y) = (0..26)
        .find_map(|i| {
            let draw = raw.draw(i).unwrap();
            let ds = draw.targets.iter().find(|t| t.target == TargetSlot::DepthStencil)?;
            let after = ds.after.as_ref()?;
            // D24_UNORM_S8_UINT: stencil in bits 24-31
            let texel = after.chunks(4).position(|t| t[3] != 0)?;
            Some((i, (texel % 192) as u32, (texel / 192) as u32))
        })
        .unwrap();
    let readout = capture.read_texels(index, TargetId::Stencil, x, y).unwrap();
    let recorded = readout.recorded.unwrap();
    assert_eq!(recorded.channels.len(), 1);
    assert_eq!(recorded.channels[0].channel, "stencil");
    assert_eq!(recorded.channels[0].value, 1.0);
    let depth = capture.read_texels(index, TargetId::Depth, x, y).unwrap();
    let depth = depth.recorded.unwrap();
    assert_eq!(depth.channels.len(), 1);
    assert_eq!(depth.channels[0].channel, "depth");
    // the stencil image is grey: stencil 1 of 255 shows as 1
    let stencil = capture
        .render_target(
            index,
            TargetId::Stencil,
            ImageKind::Recorded,
            &DisplayOptions::default(),
            false,
        )
        .unwrap();
    let at = ((y * 192 + x) * 4) as usize;
    assert_eq!(stencil.rgba[at], stencil.rgba[at + 1]);
    assert_eq!((stencil.value_range.min, stencil.value_range.max), (0.0, 0.0));
    replay(&mut capture, index, 1 << 20);
    let result = capture.compare(index).unwrap();
    let names: Vec<TargetId> = result.targets.iter().map(|t| t.target).collect();
    assert_eq!(names, [TargetId::Rt0, TargetId::Depth, TargetId::Stencil]);
    assert_eq!(result.targets[1].channels.len(), 1);
    assert_eq!(result.targets[1].channels[0].channel, "depth");
    assert_eq!(result.targets[2].channels[0].channel, "stencil");
}

#[test]
fn a_pixel_history_names_its_fragments_and_traces_agree_with_it() {
    let mut capture = open("01-lit-mesh.iridia");
    replay(&mut capture, 0, 1 << 20);
    // the torus covers the centre of the 256x256 target
    let history = capture.inspect_pixel(0, TargetId::Rt0, 128, 100, 0).unwrap();
    assert!(!history.fragments.is_empty());
    let written: Vec<&FragmentRecord> = history
        .fragments
        .iter()
        .filter(|f| f.outcome == FragmentOutcome::Written)
        .collect();
    let last = written.last().unwrap();
    assert_eq!(last.vertices.len(), 3);
    // perspective weights sum to 1
    let sum: f64 = last.barycentrics.iter().sum();
    assert!((sum - 1.0).abs() < 1e-6);
    // the last written fragment's stored texel is the replayed texel
    let readout = capture.read_texels(0, TargetId::Rt0, 128, 100).unwrap();
    assert_eq!(last.blend[0].stored.hex, readout.replayed.unwrap().hex);
    // the pixel program's trace writes o0 with the value the history shows
    let trace = capture.trace_pixel(0, 128, 100, last.order).unwrap();
    assert!(!trace.steps.is_empty());
    let o0 = last
        .pixel_outputs
        .iter()
        .find(|o| o.register.starts_with("o0"))
        .unwrap();
    let traced = trace
        .steps
        .iter()
        .flat_map(|s| &s.writes)
        .rfind(|w| w.register.starts_with("o0"))
        .unwrap();
    assert_eq!(traced.bits, o0.bits);
    assert!(trace.disassembly.lines.iter().any(|l| l.text == "ret"));
    // every step names a listing line
    assert!(
        trace
            .steps
            .iter()
            .all(|s| trace.disassembly.lines.iter().any(|l| l.index == s.line as usize))
    );
    // a vertex's trace writes its position output as the history shows it
    let vertex = &last.vertices[0];
    let vertex_trace = capture.trace_vertex(0, vertex.vertex_id, vertex.instance_id).unwrap();
    let position = vertex
        .outputs
        .iter()
        .find(|o| o.semantic.as_deref() == Some("SV_Position"))
        .unwrap();
    let register = position.register.split('.').next().unwrap();
    let traced_position: Vec<u32> = vertex_trace
        .steps
        .iter()
        .flat_map(|s| &s.writes)
        .filter(|w| w.register.split('.').next() == Some(register))
        .flat_map(|w| w.register.split('.').nth(1).map(|c| (c.to_owned(), w.bits.clone())))
        .fold(vec![0u32; 4], |mut words, (components, bits)| {
            for (c, bit) in components.chars().zip(bits) {
                words["xyzw".find(c).unwrap()] = bit;
            }
            words
        });
    assert_eq!(traced_position, position.bits);
    // the window position is the clip position through the viewport: x in pixels within the target
    assert!((0.0..=256.0).contains(&vertex.window_position[0]) || vertex.window_position[0].is_finite());
    assert!(capture.trace_pixel(0, 128, 100, history.fragments.len()).is_err());
    assert!(capture.trace_vertex(0, u32::MAX, 0).is_err());
}

#[test]
fn a_listing_is_the_disassemblers_line_for_line() {
    let mut capture = open("03-post-process.iridia");
    let listing = capture.disassemble(0, Stage::Ps).unwrap();
    let mut raw = Capture::open(fixture("03-post-process.iridia")).unwrap();
    let draw = raw.draw(0).unwrap();
    let shader =
        crate::dxbc::Shader::parse(draw.state.pixel_shader.as_ref().unwrap(), crate::dxbc::Verify::Checksum).unwrap();
    let text = crate::dxbc::disasm::disassemble_program(&shader.program);
    let mut rebuilt = String::new();
    for line in &listing.lines {
        for part in line.text.lines() {
            rebuilt.push_str(&"  ".repeat(line.indent));
            rebuilt.push_str(part);
            rebuilt.push('\n');
        }
    }
    // the program listing is its version line, then the lines
    assert_eq!(text.split_once('\n').unwrap().1, rebuilt);
    assert_eq!(listing.program.model, text.lines().next().unwrap());
    assert!(listing.lines.iter().any(|l| l.declaration) && listing.lines.iter().any(|l| !l.declaration));
}

#[test]
fn only_the_last_replays_keep_their_images_and_an_evicted_draw_replays_again() {
    let mut capture = open("04-frame.iridia");
    for index in 0..=KEPT_REPLAYS {
        replay(&mut capture, index, 1 << 20);
    }
    // draw 0 keeps its numbers and status, not its images
    assert!(capture.compare(0).is_ok());
    assert_ne!(capture.draws()[0].status, DrawStatus::NotReplayed);
    let error = capture
        .render_target(0, TargetId::Rt0, ImageKind::Replayed, &DisplayOptions::default(), false)
        .unwrap_err();
    assert_eq!(error.kind, crate::error::ErrorKind::NotReplayed);
    let steps = replay(&mut capture, 0, 1 << 20);
    assert!(steps.last().unwrap().finished);
    assert!(
        capture
            .render_target(0, TargetId::Rt0, ImageKind::Replayed, &DisplayOptions::default(), false)
            .is_ok()
    );
}

#[test]
fn an_abandoned_replay_starts_over_and_another_draw_replaces_the_one_under_way() {
    let mut capture = open("01-lit-mesh.iridia");
    let first = capture.replay_step(0, 1).unwrap();
    assert!(!first.finished);
    capture.replay_abandon(0);
    assert_eq!(capture.draws()[0].status, DrawStatus::NotReplayed);
    let again = capture.replay_step(0, 1).unwrap();
    assert_eq!((again.stage.as_str(), again.done), (first.stage.as_str(), first.done));
    assert!(capture.replay_finish(0).is_err());
}

#[test]
fn bad_input_and_bad_requests_are_errors_not_panics() {
    // not a ZIP; a ZIP with garbage after its signature; an empty file
    for bytes in [
        b"just some text".to_vec(),
        vec![0x50, 0x4b, 0x03, 0x04, 0xde, 0xad, 0xbe, 0xef],
        Vec::new(),
    ] {
        let error = ViewerCapture::open(bytes).unwrap_err();
        assert!(error.what.contains("capture"), "{error}");
    }
    // every truncation of a real capture opens or fails cleanly
    let bytes = fixture("03-post-process.iridia");
    for cut in (0..bytes.len()).step_by(997) {
        let _ = ViewerCapture::open(bytes[..cut].to_vec());
    }
    let mut capture = open("03-post-process.iridia");
    assert!(capture.replay_step(5, 1).is_err());
    // a bad draw index is not recorded as the draw's failure
    assert!(capture.draws().iter().all(|d| d.status == DrawStatus::NotReplayed));
    assert!(capture.compare(0).is_err());
    assert!(
        capture
            .render_target(0, TargetId::Rt3, ImageKind::Recorded, &DisplayOptions::default(), false)
            .is_err()
    );
    assert!(capture.read_texels(0, TargetId::Rt0, u32::MAX, u32::MAX).is_err());
    assert!(capture.inspect_pixel(0, TargetId::Rt0, 0, 0, 0).is_err());
    replay(&mut capture, 0, 1 << 20);
    assert!(capture.inspect_pixel(0, TargetId::Rt0, 128, 0, 0).is_err());
    assert!(capture.find_difference(0, TargetId::Depth, 0, 0, false).is_err());
    assert!(capture.disassemble(1, Stage::Vs).is_err());
    assert!(TargetId::parse("rt8").is_err() && ImageKind::parse("x").is_err() && Stage::parse("gs").is_err());
}

#[test]
fn results_serialize_in_the_protocols_shapes() {
    let status = DrawStatus::Differs {
        differing_pixels: 3,
        ambiguous_pixels: 1,
        compared_pixels: 16,
    };
    assert_eq!(
        serde_json::to_string(&status).unwrap(),
        r#"{"state":"differs","differing_pixels":3,"ambiguous_pixels":1,"compared_pixels":16}"#
    );
    assert_eq!(
        serde_json::to_string(&DrawStatus::NotReplayed).unwrap(),
        r#"{"state":"not_replayed"}"#
    );
    assert_eq!(serde_json::to_string(&TargetId::Rt0).unwrap(), r#""rt0""#);
    assert_eq!(
        serde_json::to_string(&FragmentOutcome::DepthFailed).unwrap(),
        r#""depth_failed""#
    );
    // an error without a place leaves `at` out
    let info = ErrorInfo::from(&Error::new("capture", "not a ZIP archive"));
    assert_eq!(
        serde_json::to_string(&info).unwrap(),
        r#"{"kind":"invalid","what":"capture","detail":"not a ZIP archive"}"#
    );
    let display: DisplayOptions = serde_json::from_str(
        r#"{"channels":{"r":true,"g":false,"b":false,"a":false},"range":{"min":0,"max":2},"highlight_non_finite":false}"#,
    )
    .unwrap();
    assert_eq!(display.range, Some(ValueRange { min: 0.0, max: 2.0 }));
}

/// `name`'s archive with every blob that only its last draw uses replaced by as many other bytes (so its SHA-256 no
/// longer matches its name), and those blobs' names.
#[allow(clippy::arithmetic_side_effects)] // test code: positions within a short manifest string
fn spoil_last_draws_own_blobs(name: &str) -> (Vec<u8>, Vec<String>) {
    use std::io::{Read, Write};
    let bytes = fixture(name);
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    let mut manifest = String::new();
    archive
        .by_name("manifest.json")
        .unwrap()
        .read_to_string(&mut manifest)
        .unwrap();
    let manifest: serde_json::Value = serde_json::from_str(&manifest).unwrap();
    let draws = manifest["draws"].as_array().unwrap();
    // the blob names each draw's record mentions: 64 hex digits
    let named = |draw: &serde_json::Value| -> std::collections::BTreeSet<String> {
        let text = draw.to_string();
        let mut found = std::collections::BTreeSet::new();
        let chars: Vec<char> = text.chars().collect();
        let mut run = 0;
        for (at, c) in chars.iter().enumerate() {
            run = if c.is_ascii_hexdigit() && !c.is_ascii_uppercase() {
                run + 1
            } else {
                0
            };
            let next_is_hex = chars.get(at + 1).is_some_and(|n| n.is_ascii_hexdigit());
            if run == 64 && !next_is_hex {
                found.insert(chars[at + 1 - 64..=at].iter().collect());
            }
        }
        found
    };
    let (last, earlier) = draws.split_last().unwrap();
    let others: std::collections::BTreeSet<String> = earlier.iter().flat_map(named).collect();
    let own: Vec<String> = named(last).difference(&others).cloned().collect();
    let mut out = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for index in 0..archive.len() {
        let mut file = archive.by_index(index).unwrap();
        let entry = file.name().unwrap().to_string();
        let mut content = Vec::new();
        file.read_to_end(&mut content).unwrap();
        if own.iter().any(|blob| entry == format!("blobs/{blob}")) {
            for byte in &mut content {
                *byte ^= 0x5a;
            }
        }
        let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
        out.start_file(entry, options).unwrap();
        out.write_all(&content).unwrap();
    }
    (out.finish().unwrap().into_inner(), own)
}

#[test]
fn only_the_draw_asked_for_is_inflated() {
    // the blobs that only 02-alpha-blend's last draw (5) uses no longer match their hashes: the capture still opens,
    // and every other draw replays and compares as the untouched capture's do; only draw 5 fails, naming the blob
    let (spoiled, own) = spoil_last_draws_own_blobs("02-alpha-blend.iridia");
    assert!(!own.is_empty(), "the last draw has blobs of its own");
    let mut capture = ViewerCapture::open(spoiled).unwrap();
    let mut intact = open("02-alpha-blend.iridia");
    assert_eq!(capture.draws().len(), 6);
    for draw in 0..5 {
        replay(&mut capture, draw, 1 << 20);
        replay(&mut intact, draw, 1 << 20);
        assert_eq!(
            capture.compare(draw).unwrap().status,
            intact.compare(draw).unwrap().status,
            "draw {draw}"
        );
    }
    let error = capture.replay_step(5, 1 << 20).unwrap_err();
    let text = error.to_string();
    assert!(
        own.iter().any(|blob| text.contains(&format!("blob {}", &blob[..8]))),
        "{text}"
    );
}

#[test]
fn an_untyped_word_reads_as_a_float_when_its_bits_look_like_one_and_both_zeros_are_floats() {
    use crate::dxbc::disasm::ValueKind;
    // 0x80000000 is IEEE 754 binary32 -0.0 (sign bit alone), not the integer -2147483648
    assert_eq!(inspect::word_text(0x8000_0000, ValueKind::Untyped), "-0");
    assert_eq!(inspect::word_text(0, ValueKind::Untyped), "0");
    // 0x3f800000 = 1.0 (exponent 127, mantissa 0); 0xbf800000 = -1.0
    assert_eq!(inspect::word_text(0x3f80_0000, ValueKind::Untyped), "1");
    assert_eq!(inspect::word_text(0xbf80_0000, ValueKind::Untyped), "-1");
    // small integers have a zero exponent field (denormal bits) and stay integers: 5, and -1 = 0xffffffff (exponent 0xff)
    assert_eq!(inspect::word_text(5, ValueKind::Untyped), "5");
    assert_eq!(inspect::word_text(0xffff_ffff, ValueKind::Untyped), "-1");
    // a typed integer read is unchanged: 0x80000000 as int is i32::MIN
    assert_eq!(inspect::word_text(0x8000_0000, ValueKind::Int), "-2147483648");
}

/// The viewer's pixel history and the library's inspection ([`crate::inspect::inspect_pixel`]) of pixel (`x`,
/// `y`) of rt0 of the one draw of a capture of `json` drawn with `files`, recorded as `rt0_after` and `depth_after`.
fn both_inspections(
    json: &str,
    files: &[(&str, Vec<u8>)],
    rt0_after: Vec<u8>,
    depth_after: Option<Vec<u8>>,
    (x, y): (u32, u32),
) -> (PixelHistory, crate::inspect::PixelInspection) {
    use crate::replay::testkit::{capture_bytes, describe, record};
    let description = describe(json, files);
    let bytes = capture_bytes(&[record(&description, Some(rt0_after), depth_after)]);
    let mut viewer = ViewerCapture::open(bytes.clone()).unwrap();
    replay(&mut viewer, 0, 1 << 20);
    let history = viewer.inspect_pixel(0, TargetId::Rt0, x, y, 0).unwrap();
    let mut capture = Capture::open(bytes).unwrap();
    let inspection = crate::inspect::inspect_pixel(
        &mut capture,
        0,
        x,
        y,
        crate::capture::TargetSlot::RenderTarget(0),
        &mut ShaderCache::new(),
        &crate::inspect::InspectOptions::default(),
    )
    .unwrap();
    (history, inspection)
}

#[test]
fn the_pixel_inspectors_verdict_is_the_librarys_for_the_same_pixel() {
    use crate::replay::testkit::{corner_files, corner_image, corner_triangle, set_texel};
    // The corner triangle (screen (0, 0), (8, 0), (0, 8)) writes l(1, 0, 0.2, 1) = RGBA8 (255, 0, 51, 255) where
    // x + y <= 6 on an 8x8 target cleared to 0 (the same scene and hand-worked contents as crate::inspect's tests).
    const WRITTEN: [u8; 4] = [255, 0, 51, 255];
    const CLEAR: [u8; 4] = [0; 4];
    let files = corner_files("1.000000, 0.000000, 0.200000, 1.000000");
    let scene = corner_triangle(0.5, "");
    // (pixel, what the GPU left there, the viewer's kind, how the library's verdict begins)
    let cases = [
        // as worked out: the same bits
        ((1, 2), WRITTEN, PixelVerdictKind::Matches, "matches"),
        // red 251 against 255: 4 codes, beyond the UNORM8 tolerance
        (
            (2, 1),
            [251, 0, 51, 255],
            PixelVerdictKind::Differs,
            "the program's output differs by 4 ULP in red",
        ),
        // (3, 4): the centre (3.5, 4.5) lies on the hypotenuse, left uncovered by the top-left rule
        (
            (3, 4),
            WRITTEN,
            PixelVerdictKind::Ambiguous,
            "coverage differs at a triangle edge",
        ),
        // (7, 7): 4.9 px beyond the hypotenuse, no fragment; the GPU wrote it
        (
            (7, 7),
            WRITTEN,
            PixelVerdictKind::Differs,
            "no fragment reached this pixel in the replay, but the GPU wrote it",
        ),
    ];
    for ((x, y), texel, kind, begins) in cases {
        let mut after = corner_image(WRITTEN, CLEAR);
        set_texel(&mut after, x as usize, y as usize, texel);
        let (history, inspection) = both_inspections(&scene, &files, after, None, (x, y));
        assert_eq!(history.verdict, kind, "({x}, {y})");
        assert_eq!(history.verdict_text, inspection.verdict.text(), "({x}, {y})");
        assert!(
            history.verdict_text.starts_with(begins),
            "({x}, {y}): {}",
            history.verdict_text
        );
    }
}

#[test]
fn the_pixel_inspector_reads_the_recorded_depth_for_a_depth_test_verdict() {
    use crate::replay::testkit::{corner_files, corner_image, corner_triangle, set_texel};
    // Cleared to depth 1.0, LESS; the triangle at 0.5 passes in the replay. The GPU left (1, 1) as it was: colour
    // cleared, depth 1.0 (the D32_FLOAT surface holds 0.5 where x + y <= 6, 1.0 elsewhere and at (1, 1)).
    let extra = r#", "depth": {"format": "D32_FLOAT", "enable": true, "func": "LESS"}"#;
    let mut after = corner_image([255, 0, 51, 255], [0; 4]);
    set_texel(&mut after, 1, 1, [0; 4]);
    let mut depth = Vec::new();
    for y in 0..8 {
        for x in 0..8 {
            let z: f32 = if x + y <= 6 && (x, y) != (1, 1) { 0.5 } else { 1.0 };
            depth.extend_from_slice(&z.to_le_bytes());
        }
    }
    let (history, inspection) = both_inspections(
        &corner_triangle(0.5, extra),
        &corner_files("1.000000, 0.000000, 0.200000, 1.000000"),
        after,
        Some(depth),
        (1, 1),
    );
    assert_eq!(history.verdict, PixelVerdictKind::Differs);
    assert_eq!(history.verdict_text, inspection.verdict.text());
    assert_eq!(
        history.verdict_text,
        "the depth test passed here but the recorded depth says it failed (replayed depth 0.5, recorded 1; LESS \
         against 1, primitive 0)"
    );
}

#[test]
fn unrecorded_draws_are_listed_with_their_targets_and_reason() {
    // 02-alpha-blend's six draws with two more listed as not recorded, as a recorder writes them (format 1.1).
    let mut writer = crate::capture::CaptureWriter::in_memory();
    let mut source = Capture::open(fixture("02-alpha-blend.iridia")).unwrap();
    let skipped = |reason: &str, samples: u32| crate::capture::UnrecordedDrawEntry {
        before_draw: 0,
        name: None,
        api_call: Some("DrawIndexed(36, 0, 0)".into()),
        reason: reason.into(),
        targets: vec![crate::capture::UnrecordedTargetEntry {
            target: "rt0".into(),
            format: Format::R8G8B8A8Unorm,
            width: 128,
            height: 64,
            sample_count: samples,
        }],
    };
    for index in 0..source.draw_count() {
        if index == 2 {
            writer.add_unrecorded(skipped("a geometry program is bound", 1));
        }
        let draw = source.draw(index).unwrap();
        writer.add_draw(&draw.into()).unwrap();
    }
    writer.add_unrecorded(skipped("a multisampled render target", 4));
    let capture = ViewerCapture::open(writer.finish_to_vec().unwrap()).unwrap();
    let summary = capture.summary();
    assert_eq!(summary.draw_count, 6);
    assert_eq!(
        summary.unrecorded_draws,
        vec![
            UnrecordedDrawInfo {
                before_draw: 2,
                label: "DrawIndexed(36, 0, 0) [rt0 R8G8B8A8_UNORM 128x64]".into(),
                reason: "a geometry program is bound".into(),
            },
            UnrecordedDrawInfo {
                before_draw: 6,
                label: "DrawIndexed(36, 0, 0) [rt0 R8G8B8A8_UNORM 128x64 4x]".into(),
                reason: "a multisampled render target".into(),
            },
        ]
    );
    assert!(open("02-alpha-blend.iridia").summary().unrecorded_draws.is_empty());
}

#[test]
fn resolves_are_listed_where_they_came_with_their_result() {
    // Two resolves of one 1x1 texel of 2 samples, codes (10, 20, 30, 40) and (11, 20, 30, 40): the average rounds
    // red 10.5 up to 11 (the float32 mean is a hair above the midpoint), so a recorded 11 matches; a recorded 14
    // is 3 codes off (the default tolerance is 1 code).
    let shape = |sample_count| crate::api::resource::TextureShape {
        dimension: crate::api::enums::ResourceDimension::Texture2D,
        format: Format::R8G8B8A8Unorm,
        width: 1,
        height: 1,
        depth: 1,
        array_size: 1,
        mip_levels: 1,
        sample_count,
    };
    let resolve = |red: u8| crate::capture::ResolveRecord::<[u8]> {
        api_call: None,
        format: Format::R8G8B8A8Unorm,
        source: shape(2),
        source_subresource: 0,
        source_data: vec![10, 20, 30, 40, 11, 20, 30, 40].into(),
        destination: shape(1),
        destination_subresource: 0,
        destination_before: vec![0; 4].into(),
        destination_after: Some(vec![red, 20, 30, 40].into()),
    };
    let mut writer = crate::capture::CaptureWriter::in_memory();
    let mut source = Capture::open(fixture("02-alpha-blend.iridia")).unwrap();
    for index in 0..source.draw_count() {
        if index == 1 {
            writer.add_resolve(&resolve(11)).unwrap();
        }
        writer.add_draw(&source.draw(index).unwrap().into()).unwrap();
    }
    writer.add_resolve(&resolve(14)).unwrap();
    let summary = ViewerCapture::open(writer.finish_to_vec().unwrap()).unwrap().summary();
    assert_eq!(summary.format_version, "1.5");
    assert_eq!(
        summary.resolves,
        vec![
            ResolveInfo {
                index: 0,
                before_draw: 1,
                label: "ResolveSubresource [R8G8B8A8_UNORM 1x1 2x]".into(),
                status: DrawStatus::Matches { compared_pixels: 1 },
            },
            ResolveInfo {
                index: 1,
                before_draw: 6,
                label: "ResolveSubresource [R8G8B8A8_UNORM 1x1 2x]".into(),
                status: DrawStatus::Differs {
                    differing_pixels: 1,
                    ambiguous_pixels: 0,
                    compared_pixels: 1,
                },
            },
        ]
    );
    assert!(open("02-alpha-blend.iridia").summary().resolves.is_empty());
}

#[test]
fn a_multisampled_target_shows_each_sample_and_its_resolve() {
    // 20-recorded's draw 11 writes a 64x64 4x R8G8B8A8_UNORM target (and a 4x D24S8 one)
    let mut capture = open("20-recorded.iridia");
    let draws = capture.draws();
    let info = draws[11]
        .targets
        .iter()
        .find(|t| t.target == TargetId::Rt0)
        .unwrap()
        .clone();
    assert_eq!((info.width, info.height, info.samples), (64, 256, 4));
    replay(&mut capture, 11, u64::MAX);
    let result = capture.compare(11).unwrap();
    let rt0 = result.targets.iter().find(|t| t.target == TargetId::Rt0).unwrap();
    // the planes' counts add up to the stacked image's; a resolvable colour target has a resolved count
    assert_eq!(rt0.sample_differing_pixels.len(), 4);
    assert_eq!(rt0.sample_differing_pixels.iter().sum::<u64>(), rt0.differing_pixels);
    assert!(rt0.resolved_differing_pixels.is_some());
    let depth = result.targets.iter().find(|t| t.target == TargetId::Depth).unwrap();
    assert_eq!(
        depth.resolved_differing_pixels, None,
        "depth is not resolvable (19.2.2)"
    );
    // the resolved recorded image is the box average of the stacked image's four planes (19.2.2): each channel
    // within its samples' range, and a texel's one value where its samples agree
    let display = DisplayOptions::default();
    let stacked = capture
        .render_target(11, TargetId::Rt0, ImageKind::Recorded, &display, false)
        .unwrap();
    let resolved = capture
        .render_target(11, TargetId::Rt0, ImageKind::Recorded, &display, true)
        .unwrap();
    assert_eq!((resolved.width, resolved.height), (64, 64));
    let plane = 64 * 64 * 4;
    let mut mixed = 0;
    for (i, &value) in resolved.rgba.iter().enumerate() {
        let samples: Vec<u8> = (0..4).map(|s| stacked.rgba[s * plane + i]).collect();
        let (low, high) = (*samples.iter().min().unwrap(), *samples.iter().max().unwrap());
        assert!((low..=high).contains(&value), "byte {i}: {value} outside {samples:?}");
        if low != high {
            mixed += 1;
        }
    }
    assert!(
        mixed > 50,
        "the recorded samples differ at the triangles' edges ({mixed} bytes)"
    );
    // the resolved replay and its differences are of one plane too
    for kind in [
        ImageKind::Replayed,
        ImageKind::Difference,
        ImageKind::Heatmap,
        ImageKind::Before,
    ] {
        let image = capture.render_target(11, TargetId::Rt0, kind, &display, true).unwrap();
        assert_eq!((image.width, image.height), (64, 64), "{kind:?}");
    }
    // depth has no resolved view
    let e = capture
        .render_target(11, TargetId::Depth, ImageKind::Replayed, &display, true)
        .unwrap_err();
    assert!(e.to_string().contains("has no resolved view"), "{e}");
    // inspecting sample 2 of a pixel: its fragments list every sample's tests
    let history = capture.inspect_pixel(11, TargetId::Rt0, 32, 32, 2).unwrap();
    assert_eq!((history.sample, history.samples), (2, 4));
}

#[test]
fn a_target_not_recorded_after_the_draw_reads_no_recorded_texel_and_no_difference() {
    use crate::replay::testkit::{capture_bytes, corner_files, corner_triangle, describe, record};
    // the corner triangle writes (255, 0, 51, 255) at (1, 1) of a target cleared to 0; nothing recorded after
    let description = describe(
        &corner_triangle(0.5, ""),
        &corner_files("1.000000, 0.000000, 0.200000, 1.000000"),
    );
    let mut viewer = ViewerCapture::open(capture_bytes(&[record(&description, None, None)])).unwrap();
    let before = viewer.read_texels(0, TargetId::Rt0, 1, 1).unwrap();
    assert!(before.recorded.is_none());
    assert_eq!(before.before.hex, "00000000");
    replay(&mut viewer, 0, 1 << 20);
    let after = viewer.read_texels(0, TargetId::Rt0, 1, 1).unwrap();
    assert!(
        after.recorded.is_none(),
        "the before texel is not shown as what the GPU wrote"
    );
    assert_eq!(after.replayed.unwrap().hex, "ff0033ff");
    assert!(after.difference.is_empty());
    assert_eq!(after.verdict, PixelVerdictKind::NotRecorded);
    assert_eq!(
        viewer.inspect_pixel(0, TargetId::Rt0, 1, 1, 0).unwrap().verdict,
        PixelVerdictKind::NotRecorded
    );
}

/// A capture's bytes read by position, counting the bytes the reader asks for.
struct CountingSource {
    bytes: Arc<[u8]>,
    fetched: std::rc::Rc<std::cell::Cell<u64>>,
}

#[allow(clippy::arithmetic_side_effects)] // test code: positions within the fixture
impl RangeSource for CountingSource {
    fn length(&self) -> u64 {
        self.bytes.len() as u64
    }

    fn read_at(&mut self, offset: u64, out: &mut [u8]) -> std::io::Result<()> {
        let start = usize::try_from(offset).unwrap();
        out.copy_from_slice(&self.bytes[start..start + out.len()]);
        self.fetched.set(self.fetched.get() + out.len() as u64);
        Ok(())
    }
}

/// `bytes` opened through a [`CountingSource`], and its counter.
fn open_counted(bytes: Vec<u8>) -> (ViewerCapture, std::rc::Rc<std::cell::Cell<u64>>) {
    let fetched = std::rc::Rc::new(std::cell::Cell::new(0));
    let source = CountingSource {
        bytes: bytes.into(),
        fetched: fetched.clone(),
    };
    (ViewerCapture::open_ranged(Box::new(source)).unwrap(), fetched)
}

fn json(value: &impl serde::Serialize) -> serde_json::Value {
    serde_json::to_value(value).unwrap()
}

#[test]
fn a_capture_read_by_position_is_the_capture_held_whole() {
    // every sample capture, every draw: the summary, the list, each replay's summary and comparison are the same
    // whether the archive is in memory or read in blocks
    for name in [
        "01-lit-mesh.iridia",
        "02-alpha-blend.iridia",
        "03-post-process.iridia",
        "04-frame.iridia",
        "05-thin-triangles.iridia",
        "20-recorded.iridia",
        "21-imgui.iridia",
    ] {
        let bytes = fixture(name);
        let mut whole = ViewerCapture::open(bytes.clone()).unwrap();
        let (mut ranged, _) = open_counted(bytes);
        assert_eq!(json(&ranged.summary()), json(&whole.summary()), "{name}");
        assert_eq!(json(&ranged.draws()), json(&whole.draws()), "{name}");
        for draw in 0..whole.draws().len() {
            replay(&mut whole, draw, 1 << 22);
            replay(&mut ranged, draw, 1 << 22);
            let summary =
                |capture: &mut ViewerCapture| capture.replay_finish(draw).map(|s| json(&s)).map_err(|e| e.to_string());
            assert_eq!(summary(&mut ranged), summary(&mut whole), "{name} draw {draw}");
            let compared =
                |capture: &mut ViewerCapture| capture.compare(draw).map(|c| json(&c)).map_err(|e| e.to_string());
            assert_eq!(compared(&mut ranged), compared(&mut whole), "{name} draw {draw}");
        }
    }
}

#[test]
fn a_capture_read_by_position_is_read_only_where_needed() {
    // 04-frame with 64 MiB of incompressible bytes stored ahead of its entries (an entry the format ignores): opening
    // and listing read the directory and manifest at the end, a draw its own blobs; neither reads the padding
    use std::io::Write;
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(fixture("04-frame.iridia"))).unwrap();
    let mut out = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let stored = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Stored)
        .large_file(true);
    out.start_file("padding.bin", stored).unwrap();
    let mut state = 1u64;
    let mut chunk = vec![0u8; 1 << 20];
    for _ in 0..64 {
        for byte in &mut chunk {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            *byte = (state >> 56) as u8;
        }
        out.write_all(&chunk).unwrap();
    }
    for index in 0..archive.len() {
        let file = archive.by_index_raw(index).unwrap();
        out.raw_copy_file(file).unwrap();
    }
    let bytes = out.finish().unwrap().into_inner();
    assert!(bytes.len() > 64 << 20);
    let entries_bytes = fixture("04-frame.iridia").len() as u64;
    let (mut capture, fetched) = open_counted(bytes);
    assert_eq!(capture.draws().len(), 26);
    // the directory's block and the manifest's: at most two first blocks and what the entries themselves hold
    let opened = fetched.get();
    assert!(
        opened <= 2 * crate::capture::ranged::FIRST_BLOCK + entries_bytes,
        "opening read {opened} bytes"
    );
    replay(&mut capture, 25, 1 << 22);
    capture.replay_finish(25).unwrap();
    let read = fetched.get() - opened;
    eprintln!("opening read {opened} bytes, draw 25 {read} of {}", 64 << 20);
    assert!(
        read <= 4 * crate::capture::ranged::FIRST_BLOCK + entries_bytes,
        "a draw read {read} bytes"
    );
    let mut whole = open("04-frame.iridia");
    replay(&mut whole, 25, 1 << 22);
    assert_eq!(json(&capture.compare(25).unwrap()), json(&whole.compare(25).unwrap()));
}

#[test]
fn replays_run_under_the_limits_set_and_a_draw_past_one_fails_with_a_budget_error() {
    let mut capture = open("04-frame.iridia");
    assert_eq!(capture.summary().limits, Limits::default());
    // a memory limit below draw 0's blobs (two 96 KiB targets): the replay fails at its start, naming the limit
    let tight = Limits {
        max_memory: 100 << 10,
        ..Limits::default()
    };
    assert_eq!(capture.set_limits(tight), tight);
    assert_eq!(capture.summary().limits, tight);
    let error = capture.replay_step(0, 1 << 22).unwrap_err();
    assert_eq!(error.kind, crate::error::ErrorKind::Budget, "{error}");
    assert!(error.to_string().contains("memory limit of 102400 bytes"), "{error}");
    // a work limit below draw 1's work: the replay fails on the way
    capture.set_limits(Limits {
        max_work: 5000,
        ..Limits::default()
    });
    let error = loop {
        match capture.replay_step(1, 1000) {
            Ok(step) => assert!(!step.finished, "the draw finished within 5000 units"),
            Err(error) => break error,
        }
    };
    assert_eq!(error.kind, crate::error::ErrorKind::Budget, "{error}");
    assert!(error.to_string().contains("work limit of 5000 units"), "{error}");
    // the defaults again: both draws replay as in a capture never limited
    capture.set_limits(Limits::default());
    let mut fresh = open("04-frame.iridia");
    for draw in [0, 1] {
        replay(&mut capture, draw, 1 << 22);
        replay(&mut fresh, draw, 1 << 22);
        assert_eq!(
            json(&capture.replay_finish(draw).unwrap()),
            json(&fresh.replay_finish(draw).unwrap())
        );
    }
}

#[test]
fn variants_set_by_name_replace_every_replay_and_an_explanation_names_the_pixels_it_explains() {
    let mut capture = open("02-alpha-blend.iridia");
    assert!(capture.summary().variants.is_empty());
    let available: Vec<String> = capture
        .summary()
        .available_variants
        .into_iter()
        .map(|v| v.name)
        .collect();
    assert_eq!(
        available[..2],
        ["unsnapped-interpolation".to_owned(), "blend-8bit".to_owned()]
    );
    // explained one set a call: every set of the four variants, then the result
    let mut steps = Vec::new();
    loop {
        let step = capture.explain_step(1).unwrap();
        steps.push(step.done);
        if step.finished {
            // the baseline and the seven variants alone, then their combinations that change the target: the two
            // variants of this draw together
            assert_eq!(step.total, 9);
            break;
        }
    }
    assert_eq!(steps, (1..=9).collect::<Vec<u64>>());
    let explained = capture.explain_finish(1).unwrap();
    assert_eq!(explained.target, TargetId::Rt0);
    assert_eq!(explained.best, ["unsnapped-interpolation", "blend-8bit"]);
    assert_eq!(explained.best_differing_pixels, 0);
    assert!(
        explained.verdict.starts_with("reproduced by: "),
        "{}",
        explained.verdict
    );
    assert_eq!(explained.rows.len(), 7);
    // explanations compare bit for bit (the viewer's replay at the default tolerance matches: every difference is a
    // code); at (66, 28) the disc's edge has an alpha of 0.0022, which leaves the code in float32 and adds one in 8
    // bits (fixtures/captures/README.md): the explanation's best set gives the recorded code there
    replay(&mut capture, 1, u64::MAX);
    let pixel = capture.inspect_pixel(1, TargetId::Rt0, 66, 28, 0).unwrap();
    assert_eq!(
        pixel.explained_by.as_deref(),
        Some(
            "explained by: interpolation over unsnapped positions and 8-bit fixed-point blending (the pixel matches \
             under unsnapped-interpolation, blend-8bit)"
        )
    );
    // a matching pixel has no such line
    assert_eq!(
        capture.inspect_pixel(1, TargetId::Rt0, 0, 0, 0).unwrap().explained_by,
        None
    );
    // under the llvmpipe profile the draw replays again and matches bit for bit where it differed
    let names = capture.set_variants("llvmpipe").unwrap();
    assert_eq!(
        names,
        [
            "unsnapped-interpolation",
            "blend-8bit",
            "lod-max-length",
            "lod-log2-linear",
            "filter-8bit"
        ]
    );
    assert_eq!(capture.summary().variants, names);
    assert!(capture.compare(1).is_err(), "the old replay is dropped");
    replay(&mut capture, 1, u64::MAX);
    let pixel = capture.inspect_pixel(1, TargetId::Rt0, 66, 28, 0).unwrap();
    assert_eq!(pixel.verdict, PixelVerdictKind::Matches, "{pixel:?}");
    assert_eq!(pixel.explained_by, None);
    let exact = capture.compare(1).unwrap();
    assert!(exact.targets.iter().all(|t| t.differing_pixels == 0), "{exact:?}");
    // an unknown name is a request error naming it; the set stays
    let error = capture.set_variants("blend-8bit,warp").unwrap_err();
    assert_eq!(error.kind, ErrorKind::Request);
    assert!(error.detail.contains("\"warp\""), "{error}");
    assert_eq!(capture.summary().variants.len(), 5);
    assert!(capture.set_variants("").unwrap().is_empty());
}

#[test]
fn every_replayed_render_target_has_its_perceptual_error_and_map() {
    let mut capture = open("02-alpha-blend.iridia");
    // draw 0 matches bit for bit (tests/cli_replay.rs checks it with --exact): no visible error, the map all
    // magma's first colour (0, 0, 4); draw 1 differs by a code in 2481 pixels: a small error, not none
    for (index, visible) in [(0, false), (1, true)] {
        replay(&mut capture, index, u64::MAX);
        let comparison = capture.compare(index).unwrap();
        let figures = comparison.targets[0].perceptual.unwrap();
        assert!(
            0.0 <= figures.p50 && figures.p50 <= figures.p95 && figures.p95 <= figures.p99,
            "{figures:?}"
        );
        assert!(
            figures.p99 <= figures.max && figures.max <= 1.0 && figures.mean <= figures.max,
            "{figures:?}"
        );
        assert_eq!(figures.max > 0.0, visible, "draw {index}: {figures:?}");
        let image = capture
            .render_target(
                index,
                TargetId::Rt0,
                ImageKind::Perceptual,
                &DisplayOptions::default(),
                false,
            )
            .unwrap();
        assert_eq!(image.rgba.len(), (image.width * image.height * 4) as usize);
        let first_colour = image.rgba.chunks_exact(4).all(|p| p == [0, 0, 4, 255]);
        assert_eq!(first_colour, !visible, "draw {index}");
    }
    assert_eq!(ImageKind::parse("perceptual").unwrap(), ImageKind::Perceptual);
}

#[test]
fn dispatches_are_listed_where_they_came_with_their_result() {
    // the capture tests' dispatch (8 threads writing their IDs to u0 and appending them to u1, its counter 5 -> 13)
    // recorded as it ran, then again with one byte of u0 altered: the first matches, the second differs at one element
    let good = crate::capture::tests::dispatches::record();
    let mut altered = good.clone();
    altered.after[0].as_mut().unwrap().bytes[44] ^= 0x10;
    let mut writer = crate::capture::CaptureWriter::in_memory();
    let mut source = Capture::open(fixture("02-alpha-blend.iridia")).unwrap();
    for index in 0..source.draw_count() {
        if index == 2 {
            writer.add_dispatch(&good).unwrap();
        }
        writer.add_draw(&source.draw(index).unwrap().into()).unwrap();
    }
    writer.add_dispatch(&altered).unwrap();
    let mut capture = ViewerCapture::open(writer.finish_to_vec().unwrap()).unwrap();
    // nothing runs at open: both wait to be replayed
    let opened = capture.summary();
    assert!(
        opened
            .dispatches
            .iter()
            .all(|d| d.status == DrawStatus::NotReplayed && d.order_dependent == 0)
    );
    capture.replay_dispatch(0).unwrap();
    let result = capture.replay_dispatch(1).unwrap();
    assert_eq!(result.dispatch.index, 1);
    let summary = capture.summary();
    let [first, second] = summary.dispatches.as_slice() else {
        panic!("two dispatches: {:?}", summary.dispatches);
    };
    assert_eq!((first.index, first.before_draw), (0, 2));
    assert!(first.label.starts_with("ids"), "{}", first.label);
    // u0's 10 elements and u1's 16
    assert_eq!(first.status, DrawStatus::Matches { compared_pixels: 26 });
    assert_eq!((second.index, second.before_draw), (1, 6));
    assert_eq!(
        second.status,
        DrawStatus::Differs {
            differing_pixels: 1,
            ambiguous_pixels: 0,
            compared_pixels: 26,
        }
    );
    // u1's counter is taken by threads of different groups: their slots depend on the order
    assert!(first.order_dependent >= 1);
}

/// The capture tests' dispatch recorded with `u0`'s byte 44 altered (word 11: structure 5's group ID, 1, recorded as
/// 0x11), opened alone.
fn altered_dispatch() -> ViewerCapture {
    let mut altered = crate::capture::tests::dispatches::record();
    altered.after[0].as_mut().unwrap().bytes[44] ^= 0x10;
    let mut writer = crate::capture::CaptureWriter::in_memory();
    writer.add_dispatch(&altered).unwrap();
    ViewerCapture::open(writer.finish_to_vec().unwrap()).unwrap()
}

#[test]
fn a_replayed_dispatch_shows_its_views_as_images_with_the_difference_marked() {
    let mut capture = altered_dispatch();
    // before its replay, its views have no images
    let early = capture
        .render_dispatch_view(0, 0, ImageKind::Replayed, &DisplayOptions::default())
        .unwrap_err();
    assert_eq!(early.kind, ErrorKind::NotReplayed);
    let result = capture.replay_dispatch(0).unwrap();
    assert_eq!((result.groups, result.threads), ([2, 1, 1], 8));
    // u0: 10 structures of 8 bytes are 20 words, one row; u1: 16 words
    let [u0, u1] = result.views.as_slice() else {
        panic!("two views: {:?}", result.views);
    };
    assert_eq!(
        (u0.slot, u0.access.as_str(), u0.format.as_str()),
        (0, "structured", "R32_UINT")
    );
    assert_eq!((u0.width, u0.height), (20, 1));
    assert!(u0.layout.contains("64 a row"), "{}", u0.layout);
    assert_eq!((u0.compared, u0.differing, u0.matches), (10, 1, Some(false)));
    assert_eq!(
        (u1.width, u1.height, u1.replayed_counter, u1.recorded_counter),
        (16, 1, Some(13), Some(13))
    );
    // threads of both groups took u1's counter: where each stored depends on the order
    assert!(u1.counter_unordered);
    let difference = capture
        .render_dispatch_view(0, 0, ImageKind::Difference, &DisplayOptions::default())
        .unwrap();
    assert_eq!((difference.width, difference.height), (20, 1));
    let marked: Vec<usize> = difference
        .rgba
        .chunks_exact(4)
        .enumerate()
        .filter(|(_, p)| *p == crate::compare::render::MASK_DIFFERS)
        .map(|(i, _)| i)
        .collect();
    assert_eq!(marked, [11]);
    for kind in [ImageKind::Replayed, ImageKind::Recorded, ImageKind::Before] {
        let image = capture
            .render_dispatch_view(0, 0, kind, &DisplayOptions::default())
            .unwrap();
        assert_eq!(image.rgba.len(), 20 * 4);
    }
}

#[test]
fn clicking_a_dispatch_element_names_the_thread_that_wrote_it() {
    let mut capture = altered_dispatch();
    capture.replay_dispatch(0).unwrap();
    // word 11 of u0 is structure 5, byte offset 4: thread 5 (group 1, thread 1 in it) stored its group ID, 1, over
    // 0xAAAAAAAA with store_structured, instruction 8 (six declarations, two movs, then it)
    let element = capture.inspect_dispatch_element(0, 0, 11, 0).unwrap();
    assert_eq!(element.element, "structure 5, byte offset 4");
    assert_eq!(element.byte_offset, 44);
    assert_eq!(element.before.hex, "aaaaaaaa");
    assert_eq!(element.replayed.hex, "01000000");
    assert_eq!(element.recorded.as_ref().unwrap().hex, "11000000");
    assert_eq!(element.matches, Some(false));
    assert!(!element.order_dependent);
    let [write] = element.writes.as_slice() else {
        panic!("one write: {:?}", element.writes);
    };
    assert_eq!(write.thread.group, [1, 0, 0]);
    assert_eq!(write.thread.thread_in_group, [1, 0, 0]);
    assert_eq!(write.thread.thread, [5, 0, 0]);
    assert_eq!((write.instruction, write.operation.as_str()), (8, "store"));
    assert!(write.line.starts_with("store_structured"), "{}", write.line);
    let [trace] = element.traces.as_slice() else {
        panic!("one trace");
    };
    assert_eq!(trace.thread, write.thread);
    assert_eq!(trace.trace.disassembly.program.model, "cs_5_0");
    let lines: Vec<u32> = trace.trace.steps.iter().map(|s| s.line).collect();
    assert_eq!(lines, [6, 7, 8, 9, 10, 11]);
    // past the image, or a slot it does not record: refused
    assert_eq!(
        capture.inspect_dispatch_element(0, 0, 20, 0).unwrap_err().kind,
        ErrorKind::Request
    );
    assert_eq!(
        capture.inspect_dispatch_element(0, 4, 0, 0).unwrap_err().kind,
        ErrorKind::Request
    );
}

#[test]
fn an_edited_program_replays_in_place_of_the_recorded_one_and_a_bad_listing_names_its_line() {
    let mut capture = open("02-alpha-blend.iridia");
    replay(&mut capture, 0, u64::MAX);
    let before = capture.compare(0).unwrap();
    let DrawStatus::Matches { .. } = before.status else {
        panic!("draw 0 matches as recorded: {:?}", before.status)
    };
    let listing = capture.program_listing(0, "ps").unwrap();
    assert!(listing.contains("mov o0.xyzw, r0.xyzw"), "{listing}");
    // a listing that does not assemble changes nothing and names its line
    let broken = listing.replacen("mov o0.xyzw, r0.xyzw", "mvo o0.xyzw, r0.xyzw", 1);
    let line = broken.lines().position(|l| l.starts_with("mvo ")).unwrap() as u32 + 1;
    let refused = capture.set_program_edit(0, "ps", &broken).unwrap();
    assert!(!refused.accepted);
    assert_eq!(refused.line, Some(line), "{:?}", refused.error);
    assert!(capture.edited_stages(0).is_empty());
    // the edit: pure red out
    let red = listing.replacen("mov o0.xyzw, r0.xyzw", "mov o0.xyzw, l(1.0, 0.0, 0.0, 1.0)", 1);
    let accepted = capture.set_program_edit(0, "ps", &red).unwrap();
    assert!(accepted.accepted, "{:?}", accepted.error);
    assert!(matches!(accepted.original, Some(DrawStatus::Matches { .. })));
    assert_eq!(capture.edited_stages(0), ["ps"]);
    let now = capture.program_listing(0, "ps").unwrap();
    assert!(now.contains("mov o0.xyzw, l(1"), "{now}");
    // the draw is replayed again with it: every texel the GPU did not write within one code of red differs
    replay(&mut capture, 0, u64::MAX);
    let edited = capture.compare(0).unwrap();
    let recorded = Capture::open(fixture("02-alpha-blend.iridia"))
        .unwrap()
        .draw(0)
        .unwrap()
        .targets[0]
        .after
        .clone()
        .unwrap();
    let expected = recorded
        .chunks(4)
        .filter(|t| t.iter().zip([255u8, 0, 0, 255]).any(|(a, b)| a.abs_diff(b) > 1))
        .count() as u64;
    let DrawStatus::Differs { differing_pixels, .. } = edited.status else {
        panic!("the edit differs: {:?}", edited.status)
    };
    assert_eq!(differing_pixels, expected);
    // what the edit changed from the replay as recorded: every texel not already pure red there
    let changes = capture.edit_changes(0);
    assert_eq!(changes.len(), 1, "{changes:?}");
    assert_eq!((changes[0].target.as_str(), changes[0].texels), ("rt0", 128 * 128));
    assert!(changes[0].changed_texels >= expected, "{changes:?}");
    // dropping the edit replays the recorded program again
    capture.clear_program_edit(0, None).unwrap();
    replay(&mut capture, 0, u64::MAX);
    assert!(matches!(capture.compare(0).unwrap().status, DrawStatus::Matches { .. }));
    assert!(capture.set_program_edit(0, "xs", &red).is_err());
}

#[test]
fn the_summary_carries_the_frames_outline_with_its_markers() {
    let mut source = Capture::open(fixture("02-alpha-blend.iridia")).unwrap();
    let mut writer = crate::capture::CaptureWriter::in_memory();
    writer.add_event("begin", Some("Pass 0"));
    writer.add_event("clear", Some("ClearRenderTargetView(rt0)"));
    for index in 0..2 {
        writer.add_draw(&source.draw(index).unwrap().into()).unwrap();
    }
    writer.add_event("marker", Some("done"));
    writer.add_event("end", None);
    writer.add_draw(&source.draw(2).unwrap().into()).unwrap();
    let mut capture = ViewerCapture::open(writer.finish_to_vec().unwrap()).unwrap();
    let summary = capture.summary();
    assert!(summary.has_markers);
    assert_eq!(summary.events_problem, None);
    let rows: Vec<(u32, OutlineRowKind, usize, Option<&str>, &str)> = summary
        .outline
        .iter()
        .map(|r| (r.depth, r.kind, r.index, r.call.as_deref(), r.text.as_str()))
        .collect();
    assert_eq!(
        rows,
        vec![
            (0, OutlineRowKind::Group, 5, None, "Pass 0"),
            (1, OutlineRowKind::Call, 0, Some("clear"), "ClearRenderTargetView(rt0)"),
            (1, OutlineRowKind::Draw, 0, None, ""),
            (1, OutlineRowKind::Draw, 1, None, ""),
            (1, OutlineRowKind::Marker, 0, None, "done"),
            (0, OutlineRowKind::Draw, 2, None, ""),
        ]
    );
    // the list names each draw by its label (its name, else its call and state)
    let draws = capture.draws();
    let labels: Vec<String> = capture.capture.draws().iter().map(DrawSummary::label).collect();
    assert_eq!(draws.iter().map(|d| d.name.clone()).collect::<Vec<_>>(), labels);
    // a capture without events: its draws only, no markers
    let plain = open("02-alpha-blend.iridia").summary();
    assert!(!plain.has_markers);
    assert_eq!(plain.outline.len(), 6);
    assert!(
        plain
            .outline
            .iter()
            .all(|r| r.kind == OutlineRowKind::Draw && r.depth == 0)
    );
}

#[test]
fn a_thumbnail_is_the_recorded_main_target_shrunk_to_fit() {
    let mut capture = open("04-frame.iridia");
    let full = capture
        .render_target(0, TargetId::Rt0, ImageKind::Recorded, &DisplayOptions::default(), false)
        .unwrap();
    let thumb = capture.thumbnail(0, 64, 36).unwrap();
    assert!(thumb.width <= 64 && thumb.height <= 36 && (thumb.width == 64 || thumb.height == 36));
    assert_eq!(thumb.rgba.len(), (thumb.width * thumb.height * 4) as usize);
    // nearest: the thumbnail's first pixel is one of the image's
    let first = &thumb.rgba[..4];
    assert!(full.rgba.chunks(4).any(|p| p == first));
    // a huge ask is bounded
    let big = capture.thumbnail(0, u32::MAX, u32::MAX).unwrap();
    assert!(big.width <= display::MAX_THUMBNAIL_SIDE && big.height <= display::MAX_THUMBNAIL_SIDE);
    assert!(capture.thumbnail(999, 64, 36).is_err());
}

#[test]
fn a_comparison_carries_the_box_of_the_pixels_the_draw_changed() {
    let mut capture = open("01-lit-mesh.iridia");
    replay(&mut capture, 0, u64::MAX);
    let result = capture.compare(0).unwrap();
    let rt0 = result.targets.iter().find(|t| t.target == TargetId::Rt0).unwrap();
    let bounds = rt0.bounds.expect("the mesh changes pixels");
    let info = capture.draws()[0].targets[0].clone();
    assert!(bounds.x0 < bounds.x1 && bounds.x1 <= info.width);
    assert!(bounds.y0 < bounds.y1 && bounds.y1 <= info.height);
    // it holds the replayed primitives' coverage
    let stats = capture.replayed(0).unwrap().session.replay().unwrap().stats;
    let [x0, y0, x1, y1] = stats.covered_bounds.unwrap();
    assert!(bounds.x0 <= x0 && bounds.y0 <= y0 && bounds.x1 >= x1 && bounds.y1 >= y1);
    // the first difference is inside the box
    if let Some(first) = rt0.first_difference {
        assert!((bounds.x0..bounds.x1).contains(&first.x) && (bounds.y0..bounds.y1).contains(&first.y));
    }
    // the box helper: one changed texel of a 4x2 one-byte image, and none
    let before = [0u8; 8];
    let mut after = before;
    after[6] = 1;
    assert_eq!(
        changed_bounds(&before, &after, None, 4, 2, 1),
        Some(PixelBounds {
            x0: 2,
            y0: 1,
            x1: 3,
            y1: 2
        })
    );
    assert_eq!(changed_bounds(&before, &before, Some(&before), 4, 2, 1), None);
}

#[test]
#[allow(clippy::arithmetic_side_effects)] // test code: positions within 64x64 planes
fn a_multisampled_targets_thumbnail_is_its_resolve_or_its_sample_0_not_the_planes_stacked() {
    // 20-recorded's draws 10 and 11 write a 64x64 4x R8G8B8A8_UNORM target and a 4x D24_UNORM_S8_UINT one; the
    // capture holds each after as its four sample planes stacked, sample 0's on top (`RecorderTarget`'s layout)
    let mut raw = Capture::open(fixture("20-recorded.iridia")).unwrap();
    let mut capture = open("20-recorded.iridia");
    for index in [10, 11] {
        let draw = raw.draw(index).unwrap();
        let rt0 = draw
            .targets
            .iter()
            .find(|t| t.target == crate::capture::TargetSlot::RenderTarget(0))
            .unwrap();
        assert_eq!((rt0.width, rt0.height, rt0.resource.sample_count), (64, 64, 4));
        let after = rt0.after.as_ref().unwrap();
        let plane = 64 * 64 * 4;
        assert_eq!(after.len(), 4 * plane);
        // asked to fit 64x36, a square target gives a 36x36 thumbnail (stacked it would be 64x256: 9x36)
        let thumb = capture.thumbnail(index, 64, 36).unwrap();
        assert_eq!((thumb.width, thumb.height), (36, 36), "draw {index}");
        // each thumbnail pixel is the target's texel at its centre (nearest): texel (2t+1)*64/72; the resolve of a
        // UNORM channel is the average of its four samples' codes, rounded (so 4 x the code is within 2 of their
        // sum); alpha shows opaque under the default display
        let mut mixed = 0;
        for ty in 0..36usize {
            for tx in 0..36usize {
                let (sx, sy) = ((2 * tx + 1) * 64 / 72, (2 * ty + 1) * 64 / 72);
                let shown = &thumb.rgba[(ty * 36 + tx) * 4..][..4];
                for channel in 0..3 {
                    let codes: Vec<i32> = (0..4)
                        .map(|s| i32::from(after[s * plane + (sy * 64 + sx) * 4 + channel]))
                        .collect();
                    let sum: i32 = codes.iter().sum();
                    assert!(
                        (4 * i32::from(shown[channel]) - sum).abs() <= 2,
                        "draw {index} texel ({sx}, {sy}) channel {channel}: {} is not the average of {codes:?}",
                        shown[channel]
                    );
                    if codes.iter().any(|&c| c != codes[0]) {
                        mixed += 1;
                    }
                }
                assert_eq!(shown[3], 255);
            }
        }
        // the test has teeth: some sampled texels have samples that disagree (triangle edges), where sample 0 alone
        // or a stacked plane would not give the average
        assert!(mixed > 0, "draw {index}: no texel with differing samples was sampled");
    }
    // depth is not resolvable (19.2.2): its thumbnail is sample 0's plane, square too, and its grey follows sample
    // 0's depth (D24 in the low three bytes): equal depths show equal greys, a nearer texel is not brighter
    let draw = raw.draw(11).unwrap();
    let depth = draw
        .targets
        .iter()
        .find(|t| t.target == crate::capture::TargetSlot::DepthStencil)
        .unwrap();
    let after = depth.after.as_ref().unwrap();
    let thumb = capture.thumbnail_of(11, TargetId::Depth, 64, 36).unwrap();
    assert_eq!((thumb.width, thumb.height), (36, 36));
    let mut seen: Vec<(u32, u8)> = Vec::new();
    let mut other_samples_differ = 0;
    for ty in 0..36usize {
        for tx in 0..36usize {
            let (sx, sy) = ((2 * tx + 1) * 64 / 72, (2 * ty + 1) * 64 / 72);
            let d24 = |sample: usize| {
                let at = sample * 64 * 64 * 4 + (sy * 64 + sx) * 4;
                u32::from_le_bytes([after[at], after[at + 1], after[at + 2], 0])
            };
            if (1..4).any(|s| d24(s) != d24(0)) {
                other_samples_differ += 1;
            }
            seen.push((d24(0), thumb.rgba[(ty * 36 + tx) * 4]));
        }
    }
    seen.sort_unstable();
    for pair in seen.windows(2) {
        let ((d0, g0), (d1, g1)) = (pair[0], pair[1]);
        if d0 == d1 {
            assert_eq!(g0, g1, "depth {d0} shows as one grey");
        } else {
            assert!(g0 <= g1, "depth {d0} < {d1} but grey {g0} > {g1}");
        }
    }
    assert!(
        seen.first().unwrap().0 < seen.last().unwrap().0,
        "the sampled depths vary"
    );
    assert!(
        other_samples_differ > 0,
        "some sampled texels' samples disagree in depth"
    );
}

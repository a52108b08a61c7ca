//! Replays of captures built here, whose recorded contents after each draw are worked out by hand (each test says
//! how; the scene is [`testkit::corner_triangle`]: 28 covered pixels, x + y <= 6, of an 8x8 target).

#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::panic,
    clippy::float_cmp
)]

use super::testkit::{capture, corner_files, corner_image, corner_triangle, describe, record, set_texel};
use super::*;
use crate::compare::{PixelClass, Rect};

mod capture_stages;

/// `l(1, 0, 0.2, 1)` written to R8G8B8A8_UNORM: 1.0 * 255 = 255; 0.2f32 * 255 = 51.0000007, which rounds (3.2.3.6:
/// + 0.5, truncate) to 51.
const WRITTEN: [u8; 4] = [255, 0, 51, 255];
/// The clear: (0, 0, 0, 0).
const CLEAR: [u8; 4] = [0, 0, 0, 0];
/// The pixel program's literal.
const COLOR: &str = "1.000000, 0.000000, 0.200000, 1.000000";

/// Replays draw 0 of a one-draw capture of the corner triangle whose render target 0 after is `after`.
fn replay_corner(after: Option<Vec<u8>>, options: &ReplayOptions) -> DrawReplay {
    let description = describe(&corner_triangle(0.5, ""), &corner_files(COLOR));
    let mut capture = capture(&[record(&description, after, None)]);
    replay_draw(&mut capture, 0, &mut ShaderCache::new(), options, None).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_draw_whose_recorded_after_was_worked_out_by_hand_matches_bit_for_bit() {
    let expected = corner_image(WRITTEN, CLEAR);
    let replay = replay_corner(Some(expected.clone()), &ReplayOptions::default());
    assert_eq!(replay.index, 0);
    assert_eq!(replay.label, "test draw");
    assert_eq!(replay.stats.written, 28);
    assert_eq!(replay.targets.len(), 1);
    let target = &replay.targets[0];
    assert_eq!(target.slot, TargetSlot::RenderTarget(0));
    assert_eq!(
        (target.format, target.width, target.height),
        (Format::R8G8B8A8Unorm, 8, 8)
    );
    assert_eq!(&*target.replayed, expected.as_slice());
    assert_eq!(&*target.before, vec![0u8; 256].as_slice());
    let report = target.report.as_ref().unwrap();
    assert!(report.matches);
    assert_eq!(
        (report.compared_pixels, report.differing_pixels, report.ambiguous_pixels),
        (64, 0, 0)
    );
    assert!(replay.compared() && replay.matches());
    // The ambiguity mask: the 8 centres with x + y = 7 lie exactly on the snapped hypotenuse (|E| = 0, within one
    // step); every other centre is at least 0.5 px from each edge (the two legs lie on the target's border, the
    // hypotenuse's nearest other centres are 1/sqrt(2) px off).
    assert_eq!(replay.ambiguous_mask_pixels, 8);
    assert!(replay.is_ambiguous(3, 4) && replay.is_ambiguous(7, 0));
    assert!(!replay.is_ambiguous(3, 3) && !replay.is_ambiguous(4, 4));
}

#[test]
fn a_wrong_recorded_texel_is_exactly_the_pixel_that_differs() {
    let mut after = corner_image(WRITTEN, CLEAR);
    set_texel(&mut after, 2, 1, [0, 255, 0, 255]);
    let replay = replay_corner(Some(after), &ReplayOptions::default());
    let target = &replay.targets[0];
    let report = target.report.as_ref().unwrap();
    assert!(!report.matches && !replay.matches());
    assert_eq!((report.differing_pixels, report.ambiguous_pixels), (1, 0));
    assert_eq!(
        report.difference_bounds,
        Some(Rect {
            x: 2,
            y: 1,
            width: 1,
            height: 1
        })
    );
    let listed = &report.first_differences[0];
    assert_eq!((listed.x, listed.y), (2, 1));
    // R: recorded 0, replayed 255, 255 codes apart.
    assert_eq!(
        (
            listed.channels[0].reference_bits,
            listed.channels[0].result_bits,
            listed.channels[0].ulps
        ),
        (0, 255, Some(255))
    );
    let comparison = target.comparison.as_ref().unwrap();
    assert_eq!(comparison.class_at(2, 1), Some(PixelClass::Differs));
    assert_eq!(comparison.class_at(1, 2), Some(PixelClass::Match));
    let mask = comparison.difference_mask_rgba8();
    assert_eq!(&mask[(8 + 2) * 4..(8 + 2) * 4 + 4], &[255, 0, 0, 255]);
}

#[test]
fn a_one_code_difference_matches_by_default_but_not_exactly() {
    let mut after = corner_image(WRITTEN, CLEAR);
    set_texel(&mut after, 3, 3, [254, 0, 51, 255]);
    // UNORM's default tolerance is one code (compare::tolerance).
    let replay = replay_corner(Some(after.clone()), &ReplayOptions::default());
    let report = replay.targets[0].report.as_ref().unwrap();
    assert!(report.matches);
    assert_eq!(report.channels[0].max_ulp_error, 1);
    let exact = replay_corner(Some(after), &ReplayOptions::exact());
    let report = exact.targets[0].report.as_ref().unwrap();
    assert!(!report.matches);
    assert_eq!(report.differing_pixels, 1);
}

#[test]
fn a_difference_at_a_pixel_on_a_triangle_edge_is_ambiguous() {
    // (3, 4) has x + y = 7: its centre is on the hypotenuse, which the replay leaves uncovered by the top-left rule;
    // a GPU that covered it is not wrong about the shading.
    let mut after = corner_image(WRITTEN, CLEAR);
    set_texel(&mut after, 3, 4, WRITTEN);
    let replay = replay_corner(Some(after), &ReplayOptions::default());
    let report = replay.targets[0].report.as_ref().unwrap();
    assert!(report.matches);
    assert_eq!((report.differing_pixels, report.ambiguous_pixels), (0, 1));
    assert!(replay.matches());
}

#[test]
fn a_target_without_a_recorded_after_is_not_compared() {
    let replay = replay_corner(None, &ReplayOptions::default());
    let target = &replay.targets[0];
    assert!(target.report.is_none() && target.comparison.is_none() && !target.recorded_after);
    assert!(!replay.compared());
    assert!(replay.matches());
    assert_eq!(&*target.replayed, corner_image(WRITTEN, CLEAR).as_slice());
    assert!(target.png(Picture::Recorded).unwrap().is_none());
    assert!(target.png(Picture::Difference).unwrap().is_none());
    let png = target.png(Picture::Replayed).unwrap().unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
}

#[test]
fn the_depth_target_is_replayed_and_compared_after_the_render_targets() {
    // D32_FLOAT cleared to 1.0, LESS: the triangle at depth 0.25 (constant over it, so exactly 0.25 at every
    // centre) passes everywhere it covers and writes 0.25.
    let extra = r#", "depth": {"format": "D32_FLOAT", "enable": true, "func": "LESS"}"#;
    let description = describe(&corner_triangle(0.25, extra), &corner_files(COLOR));
    let mut depth = Vec::new();
    for y in 0..8 {
        for x in 0..8 {
            let z: f32 = if x + y <= 6 { 0.25 } else { 1.0 };
            depth.extend_from_slice(&z.to_le_bytes());
        }
    }
    let mut capture = capture(&[record(
        &description,
        Some(corner_image(WRITTEN, CLEAR)),
        Some(depth.clone()),
    )]);
    let replay = replay_draw(&mut capture, 0, &mut ShaderCache::new(), &ReplayOptions::exact(), None).unwrap();
    let slots: Vec<_> = replay.targets.iter().map(|t| t.slot).collect();
    assert_eq!(slots, [TargetSlot::RenderTarget(0), TargetSlot::DepthStencil]);
    let depth_target = replay.target(TargetSlot::DepthStencil).unwrap();
    assert_eq!(depth_target.format, Format::D32Float);
    assert_eq!(&*depth_target.replayed, depth.as_slice());
    assert!(replay.matches());
    assert_eq!(depth_target.report.as_ref().unwrap().channels[0].channel, "Depth");
}

#[test]
fn a_draw_that_is_not_in_the_capture_is_an_error_naming_it() {
    let description = describe(&corner_triangle(0.5, ""), &corner_files(COLOR));
    let mut capture = capture(&[record(&description, None, None)]);
    let error = replay_draw(
        &mut capture,
        5,
        &mut ShaderCache::new(),
        &ReplayOptions::default(),
        None,
    )
    .unwrap_err();
    assert!(error.to_string().contains("there is no draw 5"), "{error}");
}

#[test]
fn a_cancelled_replay_is_an_error() {
    let description = describe(&corner_triangle(0.5, ""), &corner_files(COLOR));
    let mut capture = capture(&[record(&description, None, None)]);
    let mut stop = |_: &crate::draw::Progress| std::ops::ControlFlow::Break(());
    let error = replay_draw(
        &mut capture,
        0,
        &mut ShaderCache::new(),
        &ReplayOptions::default(),
        Some(&mut stop),
    )
    .unwrap_err();
    assert!(error.to_string().contains("cancelled"), "{error}");
}

#[test]
fn targets_are_named_rt0_to_rt7_or_depth() {
    assert_eq!(parse_target("rt3").unwrap(), TargetSlot::RenderTarget(3));
    assert_eq!(parse_target("0").unwrap(), TargetSlot::RenderTarget(0));
    assert_eq!(parse_target("Depth").unwrap(), TargetSlot::DepthStencil);
    assert!(parse_target("rt8").unwrap_err().to_string().contains("rt0 to rt7"));
    assert!(parse_target("colour").is_err());
}

#[test]
fn the_json_names_targets_and_leaves_the_bytes_out() {
    let replay = replay_corner(Some(corner_image(WRITTEN, CLEAR)), &ReplayOptions::default());
    let value = serde_json::to_value(&replay).unwrap();
    assert_eq!(value["index"], 0);
    assert_eq!(value["stats"]["written"], 28);
    let target = &value["targets"][0];
    assert_eq!(target["slot"], "rt0");
    assert_eq!(target["format"], "R8G8B8A8_UNORM");
    assert_eq!(target["report"]["compared_pixels"], 64);
    assert_eq!(target["report"]["differing_pixels"], 0);
    for absent in ["before", "recorded", "replayed", "comparison"] {
        assert!(target.get(absent).is_none(), "{absent}");
    }
    assert!(value.get("ambiguous").is_none());
}

/// The capture of the corner triangle over a D24_UNORM_S8_UINT target cleared to depth 1.0, stencil 0, drawn at
/// depth 0.25 with LESS and stencil REPLACE of reference 5, whose recorded after is worked out by hand, with the
/// stencil of pixel (1, 1) recorded as 6 instead of 5 (depth right).
fn corner_with_stencil() -> Capture<std::io::Cursor<Arc<[u8]>>> {
    let extra = r#", "depth": {"format": "D24_UNORM_S8_UINT", "enable": true, "func": "LESS",
        "stencil_enable": true, "stencil_ref": 5, "stencil_front": {"pass": "REPLACE"}, "stencil_back": {"pass": "REPLACE"}}"#;
    let description = describe(&corner_triangle(0.25, extra), &corner_files(COLOR));
    let mut depth = Vec::new();
    for y in 0..8u32 {
        for x in 0..8u32 {
            // 0.25 * (2^24 - 1) = 4194303.75, which rounds to 4194304 (0x400000); stencil in the top byte
            let (z, stencil): (u32, u32) = if x + y <= 6 { (0x40_0000, 5) } else { (0xff_ffff, 0) };
            let stencil = if (x, y) == (1, 1) { 6 } else { stencil };
            depth.extend_from_slice(&(z | stencil << 24).to_le_bytes());
        }
    }
    capture(&[record(&description, Some(corner_image(WRITTEN, CLEAR)), Some(depth))])
}

#[test]
fn a_session_resumed_one_step_at_a_time_gives_what_one_call_gives() {
    let whole = replay_corner(Some(corner_image(WRITTEN, CLEAR)), &ReplayOptions::default());
    let description = describe(&corner_triangle(0.5, ""), &corner_files(COLOR));
    let mut capture = capture(&[record(&description, Some(corner_image(WRITTEN, CLEAR)), None)]);
    let draw = Arc::new(capture.draw(0).unwrap());
    let mut cache = ShaderCache::new();
    let mut session = ReplaySession::start(draw, &mut cache, &ReplayOptions::default()).unwrap();
    assert!(!session.is_finished() && session.replay().is_none());
    let mut steps = 0;
    while !session.resume(1, None).unwrap() {
        steps += 1;
        assert!(steps < 1000, "the session never finished");
    }
    // the one triangle's vertices, its setup and its quads are separate steps
    assert!(steps >= 2, "{steps} steps");
    let stepped = session.replay().unwrap();
    assert_eq!(stepped.targets[0].replayed, whole.targets[0].replayed);
    assert_eq!(stepped.targets[0].report, whole.targets[0].report);
    assert_eq!(stepped.ambiguous, whole.ambiguous);
    assert_eq!(stepped.stats, whole.stats);
    // a finished session stays finished, and its prepared draw answers pixel history
    assert!(session.resume(1, None).unwrap());
    let history = session
        .prepared_mut()
        .pixel_history(2, 1, crate::draw::HistoryOptions::default())
        .unwrap();
    assert_eq!(history.fragments.len(), 1);
}

#[test]
fn a_large_primitives_progress_counts_its_rows() {
    // The corner triangle's quads, row by row (pixels x + y <= 6): row 0 at x = 0, 2, 4, 6; row 2 at 0, 2, 4; row 4
    // at 0, 2; row 6 at 0: 10 quads, two batches of LANES / 4 = 8. Its pixel bounds are rows 0..8 (the edge from
    // (8, 0) to (0, 8) bounds them), so it spans 8 rows; after the first batch (its last quad at row 4) rows 0..6 are
    // done, and when the triangle is done the count is back to none, the primitive counted.
    let description = describe(&corner_triangle(0.5, ""), &corner_files(COLOR));
    let mut capture = capture(&[record(&description, Some(corner_image(WRITTEN, CLEAR)), None)]);
    let draw = Arc::new(capture.draw(0).unwrap());
    let mut cache = ShaderCache::new();
    let mut session = ReplaySession::start(draw, &mut cache, &ReplayOptions::default()).unwrap();
    let mut seen = Vec::new();
    while !session.resume(1, None).unwrap() {
        let p = session.progress();
        seen.push((p.primitives_done, p.primitive_rows_done, p.primitive_rows));
        assert!(seen.len() < 1000, "the session never finished");
    }
    assert!(seen.contains(&(0, 6, 8)), "{seen:?}");
    let end = session.progress();
    assert_eq!(
        (end.primitives_done, end.primitive_rows_done, end.primitive_rows),
        (1, 0, 0)
    );
}

#[test]
fn a_long_loops_trace_keeps_its_first_and_last_steps_and_counts_those_between() {
    // Issue 13: `inspect --json` of a pixel of a long-looping program printed 650 MB (a million steps kept). The
    // program below runs 4 instructions in each of 70,000 iterations (about 280,000 steps); a trace keeps the first
    // and the last half of DEFAULT_TRACE_LIMIT (65,536) and counts those between as dropped.
    let ps = super::testkit::program(
        &[("SV_Position", 0, "xyzw", "0", "POS", "float")],
        &[("SV_Target", 0, "xyzw", "0", "TARGET", "float")],
        "ps_4_0\n\
         dcl_output o0.xyzw\n\
         dcl_temps 1\n\
         mov r0.xy, l(0, 0, 0, 0)\n\
         loop\n\
         iadd r0.x, r0.x, l(1)\n\
         ige r0.y, r0.x, l(70000)\n\
         breakc_nz r0.y\n\
         endloop\n\
         mov o0.xyzw, l(1.000000, 0.000000, 0.200000, 1.000000)\n\
         ret\n",
    );
    let files = [("vs", super::testkit::vs_pos()), ("ps", ps)];
    let description = describe(&corner_triangle(0.5, ""), &files);
    let mut capture = capture(&[record(&description, Some(corner_image(WRITTEN, CLEAR)), None)]);
    let draw = Arc::new(capture.draw(0).unwrap());
    let mut cache = ShaderCache::new();
    let mut session = ReplaySession::start(draw, &mut cache, &ReplayOptions::default()).unwrap();
    session.run_to_end(None).unwrap();
    let options = crate::draw::HistoryOptions {
        trace_pixel: true,
        ..crate::draw::HistoryOptions::default()
    };
    let history = session.prepared_mut().pixel_history(2, 1, options).unwrap();
    let trace = history.fragments[0].program.as_ref().unwrap().trace.as_ref().unwrap();
    assert_eq!(crate::shader::DEFAULT_TRACE_LIMIT, 1 << 16);
    assert_eq!(trace.steps.len(), crate::shader::DEFAULT_TRACE_LIMIT);
    assert!(trace.dropped > 200_000, "{} steps dropped", trace.dropped);
    assert_eq!(trace.gap, Some(1 << 15));
    // the last steps are the loop's end: its last increment (to 70,000), the break, the output and the return
    let last_sum = trace
        .steps
        .iter()
        .rev()
        .find(|step| step.opcode == "iadd")
        .map(|step| step.destinations[0].1[0]);
    assert_eq!(last_sum, Some(70_000));
    assert_eq!(trace.steps.last().map(|step| step.opcode), Some("ret"));
    // the text says where the steps not kept were: between the first and the last
    let text = crate::inspect::text_of_trace_for_tests(trace);
    let gap_line = text.lines().position(|line| line.contains("steps not kept")).unwrap();
    assert!(
        gap_line > 1000 && gap_line < text.lines().count() - 1000,
        "line {gap_line}"
    );
}

#[test]
fn a_cancelled_session_says_so_by_kind_and_cannot_go_on() {
    let description = describe(&corner_triangle(0.5, ""), &corner_files(COLOR));
    let mut capture = capture(&[record(&description, None, None)]);
    let draw = Arc::new(capture.draw(0).unwrap());
    let mut session = ReplaySession::start(draw, &mut ShaderCache::new(), &ReplayOptions::default()).unwrap();
    let mut stop = |_: &crate::draw::Progress| std::ops::ControlFlow::Break(());
    let error = session.resume(u64::MAX, Some(&mut stop)).unwrap_err();
    assert_eq!(error.kind, crate::error::ErrorKind::Cancelled);
    let again = session.resume(u64::MAX, None).unwrap_err();
    assert_eq!(again.kind, crate::error::ErrorKind::Request);
}

#[test]
fn planes_compare_a_depth_stencil_targets_depth_and_stencil_apart() {
    let mut capture = corner_with_stencil();
    let options = ReplayOptions {
        planes: true,
        ..ReplayOptions::exact()
    };
    let replay = replay_draw(&mut capture, 0, &mut ShaderCache::new(), &options, None).unwrap();
    let target = replay.target(TargetSlot::DepthStencil).unwrap();
    // the whole texel: the one wrong stencil value differs
    assert_eq!(target.report.as_ref().unwrap().differing_pixels, 1);
    let depth = target.plane(Plane::Depth).unwrap();
    let stencil = target.plane(Plane::Stencil).unwrap();
    assert_eq!(depth.report.differing_pixels, 0);
    assert_eq!(stencil.report.differing_pixels, 1);
    assert_eq!(stencil.class_at(1, 1), Some(PixelClass::Differs));
    assert_eq!(depth.class_at(1, 1), Some(PixelClass::Match));
    // without the option no plane is compared apart
    let plain = replay_draw(&mut capture, 0, &mut ShaderCache::new(), &ReplayOptions::exact(), None).unwrap();
    assert!(
        plain
            .target(TargetSlot::DepthStencil)
            .unwrap()
            .plane(Plane::Depth)
            .is_none()
    );
}

#[test]
fn perceptual_errors_are_opt_in_and_given_for_render_targets_only() {
    assert!(!ReplayOptions::default().perceptual && !ReplayOptions::exact().perceptual);
    let perceptual = ReplayOptions {
        perceptual: true,
        ..ReplayOptions::default()
    };
    // The scene of the depth test above: rt0 and a D32_FLOAT depth target, both recorded as replayed.
    let extra = r#", "depth": {"format": "D32_FLOAT", "enable": true, "func": "LESS"}"#;
    let description = describe(&corner_triangle(0.25, extra), &corner_files(COLOR));
    let depth: Vec<u8> = (0..64u32)
        .flat_map(|i| if i % 8 + i / 8 <= 6 { 0.25f32 } else { 1.0 }.to_le_bytes())
        .collect();
    let mut capture = capture(&[record(&description, Some(corner_image(WRITTEN, CLEAR)), Some(depth))]);
    let replay = replay_draw(&mut capture, 0, &mut ShaderCache::new(), &perceptual, None).unwrap();
    assert!(replay.matches());
    // rt0 is bit for bit the recorded picture: no error anywhere, the map all magma's first colour (0, 0, 4)
    let rt0 = replay.target(TargetSlot::RenderTarget(0)).unwrap();
    let figures = rt0.perceptual.unwrap();
    assert_eq!(
        (figures.mean, figures.p50, figures.p95, figures.p99, figures.max),
        (0.0, 0.0, 0.0, 0.0, 0.0)
    );
    let map = rt0.flip_map.as_ref().unwrap();
    assert_eq!((map.width, map.height), (8, 8));
    assert_eq!(map.to_rgba8(), [0u8, 0, 4, 255].repeat(64));
    assert_eq!(
        &rt0.png(Picture::Perceptual).unwrap().unwrap()[..8],
        b"\x89PNG\r\n\x1a\n"
    );
    // the depth target is not a picture: no figure, no map
    let depth = replay.target(TargetSlot::DepthStencil).unwrap();
    assert!(depth.report.is_some());
    assert!(depth.perceptual.is_none() && depth.flip_map.is_none());
    assert!(depth.png(Picture::Perceptual).unwrap().is_none());
    let value = serde_json::to_value(&replay).unwrap();
    assert_eq!(value["targets"][0]["perceptual"]["max"], 0.0);
    assert!(value["targets"][0].get("flip_map").is_none());
    assert!(value["targets"][1]["perceptual"].is_null());

    // One texel green where the replay writes red: a clearly visible difference, the largest error at that pixel.
    let mut after = corner_image(WRITTEN, CLEAR);
    set_texel(&mut after, 2, 1, [0, 255, 0, 255]);
    let replay = replay_corner(Some(after.clone()), &perceptual);
    let target = &replay.targets[0];
    let (figures, map) = (target.perceptual.unwrap(), target.flip_map.as_ref().unwrap());
    assert!(figures.max > 0.0 && figures.max <= 1.0, "{figures:?}");
    assert_eq!(map.values[8 + 2], figures.max);
    assert!(figures.mean > 0.0 && figures.mean < figures.max, "{figures:?}");
    // without the option, or without a recorded after, nothing is computed
    for replay in [
        replay_corner(Some(after), &ReplayOptions::default()),
        replay_corner(None, &perceptual),
    ] {
        let target = &replay.targets[0];
        assert!(target.perceptual.is_none() && target.flip_map.is_none());
        assert!(target.png(Picture::Perceptual).unwrap().is_none());
    }
}

//! Each verdict on a constructed capture (scenes from [`crate::replay::testkit`], recorded contents worked out by
//! hand, then one texel set to what a GPU that behaved differently would have left), and the inspection's values,
//! history and listing.

#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::panic,
    clippy::float_cmp
)]

use super::*;
use crate::draw::FragmentOutcome;
use crate::replay::testkit::{
    capture, colored_triangles, corner_files, corner_image, corner_triangle, describe, ps_color_discard, record,
    set_texel, triangles, vs_color, vs_pos,
};

/// `l(1, 0, 0.2, 1)` in R8G8B8A8_UNORM: 255, 0, 51 (0.2 * 255 = 51.0000007 rounds to 51), 255.
const WRITTEN: [u8; 4] = [255, 0, 51, 255];
const CLEAR: [u8; 4] = [0; 4];
const COLOR: &str = "1.000000, 0.000000, 0.200000, 1.000000";

/// Inspects pixel (`x`, `y`) of `target` of the one draw of a capture of `json` drawn with `files`, recorded as
/// `rt0_after` and `depth_after`, under `options`.
fn inspect(
    json: &str,
    files: &[(&str, Vec<u8>)],
    rt0_after: Option<Vec<u8>>,
    depth_after: Option<Vec<u8>>,
    (x, y, target): (u32, u32, TargetSlot),
    options: &InspectOptions,
) -> PixelInspection {
    let description = describe(json, files);
    let mut capture = capture(&[record(&description, rt0_after, depth_after)]);
    inspect_pixel(&mut capture, 0, x, y, target, &mut ShaderCache::new(), options).unwrap_or_else(|e| panic!("{e}"))
}

const RT0: TargetSlot = TargetSlot::RenderTarget(0);

/// The corner triangle with `after` recorded, pixel (`x`, `y`) of rt0 inspected with the default options.
fn corner(after: Vec<u8>, x: u32, y: u32) -> PixelInspection {
    inspect(
        &corner_triangle(0.5, ""),
        &corner_files(COLOR),
        Some(after),
        None,
        (x, y, RT0),
        &InspectOptions::default(),
    )
}

#[test]
fn a_pixel_the_gpu_wrote_as_worked_out_matches_and_shows_its_history_and_listing() {
    let i = corner(corner_image(WRITTEN, CLEAR), 1, 2);
    assert_eq!(i.verdict, Verdict::Matches);
    assert_eq!(i.verdict_text, "matches");
    assert_eq!(i.replayed.bytes, "ff0033ff");
    assert_eq!(i.recorded.as_ref().unwrap().bytes, "ff0033ff");
    assert_eq!(i.before.bytes, "00000000");
    // the channels as the comparison reads them: R = 255 -> 1.0, B = 51 -> 0.2
    let channels = &i.replayed.channels;
    assert_eq!(channels.len(), 4);
    assert_eq!(
        (channels[0].channel.as_str(), channels[0].bits, channels[0].value),
        ("R", 255, 1.0)
    );
    assert_eq!((channels[2].bits, channels[2].value), (51, 51.0 / 255.0));
    assert!(i.difference.iter().all(|d| d.ulps == Some(0) && d.within_tolerance));
    assert_eq!(i.class, Some(PixelClass::Match));
    assert!(i.history_agrees);
    assert_eq!(i.history.fragments.len(), 1);
    let fragment = &i.history.fragments[0];
    assert_eq!(fragment.outcome, FragmentOutcome::Written);
    assert_eq!(fragment.primitive_index, 0);
    // the triangle's vertices as the vertex program received and wrote them: (0, 0) is clip (-1, 1)
    assert_eq!(fragment.vertices[0].position, [-1.0, 1.0, 0.5, 1.0]);
    // the listing: dcl_output (0), mov (1), ret (2); the trace's mov step refers to instruction 1
    let listing = i.pixel_program.as_ref().unwrap();
    assert_eq!(listing.version, "ps_4_0");
    assert_eq!(listing.lines.len(), 3);
    assert_eq!(listing.lines[0], "dcl_output o0.xyzw");
    let trace = fragment.program.as_ref().unwrap().trace.as_ref().unwrap();
    let mov = trace.steps.iter().find(|s| s.opcode == "mov").unwrap();
    assert_eq!(mov.instruction, 1);
    // (the disassembler prints an untyped literal 0 as the integer 0, see dxbc::disasm)
    assert_eq!(
        listing.line(mov.instruction),
        "mov o0.xyzw, l(1.000000, 0, 0.200000, 1.000000)"
    );
    // the text shows the verdict, the three texels and the traced line
    let text = i.to_text();
    for expected in [
        "verdict: matches",
        "recorded  ff0033ff",
        "mov o0.xyzw, l(1.000000",
        "-> Written",
    ] {
        assert!(text.contains(expected), "{expected:?} not in\n{text}");
    }
}

#[test]
fn a_one_code_difference_is_within_tolerance() {
    let mut after = corner_image(WRITTEN, CLEAR);
    set_texel(&mut after, 3, 3, [254, 0, 51, 255]);
    let i = corner(after, 3, 3);
    assert_eq!(
        i.verdict,
        Verdict::WithinTolerance {
            channel: "R".to_owned(),
            ulps: Some(1)
        }
    );
    assert_eq!(i.verdict_text, "matches within tolerance (1 ULP in red)");
}

#[test]
fn a_wrong_texel_where_the_program_wrote_is_the_programs_output() {
    // The GPU's red is 251 where the replay's is 255: 4 codes; the other channels agree.
    let mut after = corner_image(WRITTEN, CLEAR);
    set_texel(&mut after, 2, 1, [251, 0, 51, 255]);
    let i = corner(after, 2, 1);
    assert!(
        matches!(&i.verdict, Verdict::ProgramOutput { channel, ulps: Some(4), others, .. } if channel == "R" && others.is_empty()),
        "{:?}",
        i.verdict
    );
    assert!(
        i.verdict_text
            .starts_with("the program's output differs by 4 ULP in red (replayed 1, recorded 0.9843137"),
        "{}",
        i.verdict_text
    );
    let red = &i.difference[0];
    assert_eq!((red.recorded_bits, red.replayed_bits, red.ulps), (251, 255, Some(4)));
    assert!(!red.within_tolerance && i.difference[1].within_tolerance);
    assert_eq!(i.class, Some(PixelClass::Differs));
}

#[test]
fn a_pixel_the_gpu_wrote_far_from_any_triangle_had_no_fragment() {
    // (7, 7): x + y = 14, 4.9 px from the hypotenuse; no fragment, not ambiguous.
    let mut after = corner_image(WRITTEN, CLEAR);
    set_texel(&mut after, 7, 7, WRITTEN);
    let i = corner(after, 7, 7);
    assert_eq!(i.verdict, Verdict::NoFragment);
    assert_eq!(
        i.verdict_text,
        "no fragment reached this pixel in the replay, but the GPU wrote it"
    );
    assert!(i.history.fragments.is_empty() && !i.ambiguous);
}

#[test]
fn a_pixel_on_an_edge_the_gpu_covered_is_edge_coverage() {
    // (3, 4): its centre (3.5, 4.5) is on the hypotenuse v1-v2 (from (8, 0) to (0, 8)), which the top-left rule
    // leaves uncovered here; a GPU that covered it differs only in rounding.
    let mut after = corner_image(WRITTEN, CLEAR);
    set_texel(&mut after, 3, 4, WRITTEN);
    let i = corner(after, 3, 4);
    let Verdict::EdgeCoverage { edge, case } = i.verdict else {
        panic!("{:?}", i.verdict)
    };
    assert_eq!(case, CoverageCase::GpuOnly);
    assert_eq!((edge.primitive, edge.edge, edge.distance), (0, [1, 2], 0.0));
    assert!(edge.within_step && edge.ambiguous && !edge.crossed);
    assert!(i.ambiguous);
    assert_eq!(i.class, Some(PixelClass::Ambiguous));
    assert!(
        i.verdict_text.starts_with(
            "coverage differs at a triangle edge (ambiguous: the pixel centre is within 1/256 px of edge v1-v2 of \
             primitive 0, 0.00000 px inside it): the GPU covered the pixel, the replay did not"
        ),
        "{}",
        i.verdict_text
    );
}

#[test]
fn a_pixel_on_a_left_edge_the_gpu_left_alone_is_edge_coverage_of_the_replay() {
    // Corners (0.5, 0), (8, 0), (0.5, 8): the left edge x = 0.5 runs through the centres of column 0, which the
    // top-left rule covers (3.4.2.1); the GPU left (0, 3) cleared.
    let json = triangles(&[[0.5, 0.], [8., 0.], [0.5, 8.]], 0.5, "");
    let description = describe(&json, &corner_files(COLOR));
    let mut capture = capture(&[record(&description, None, None)]);
    let replay = crate::replay::replay_draw(
        &mut capture,
        0,
        &mut ShaderCache::new(),
        &ReplayOptions::default(),
        None,
    )
    .unwrap();
    assert_eq!(
        replay.targets[0].texel(&replay.targets[0].replayed, 0, 3),
        Some(&WRITTEN[..])
    );
    let mut after = replay.targets[0].replayed.to_vec();
    set_texel(&mut after, 0, 3, CLEAR);
    let i = inspect(
        &json,
        &corner_files(COLOR),
        Some(after),
        None,
        (0, 3, RT0),
        &InspectOptions::default(),
    );
    let Verdict::EdgeCoverage { edge, case } = i.verdict else {
        panic!("{:?}", i.verdict)
    };
    assert_eq!(case, CoverageCase::ReplayOnly);
    assert_eq!((edge.edge, edge.distance), ([2, 0], 0.0));
    assert!(i.verdict_text.ends_with("the replay covers the pixel, the GPU did not"));
}

#[test]
fn a_pixel_the_program_discarded_but_the_gpu_wrote_is_rejected() {
    // Every vertex's COLOR alpha is 0.25 < 0.5: the program discards every fragment.
    let color = [1.0, 0.0, 0.0, 0.25];
    let json = colored_triangles(&[([0., 0.], color), ([8., 0.], color), ([0., 8.], color)], "");
    let files = vec![("vs", vs_color()), ("ps", ps_color_discard())];
    let mut after = corner_image(CLEAR, CLEAR);
    set_texel(&mut after, 1, 1, [255, 0, 0, 64]);
    let i = inspect(
        &json,
        &files,
        Some(after),
        None,
        (1, 1, RT0),
        &InspectOptions::default(),
    );
    assert_eq!(
        i.verdict,
        Verdict::Rejected {
            primitive: 0,
            outcome: FragmentOutcome::Discarded
        }
    );
    assert_eq!(
        i.verdict_text,
        "the replay's fragment of primitive 0 was discarded by the pixel program, but the GPU wrote the pixel"
    );
    // the trace shows the discard's test: lt r0.x, v1.w, l(0.5) is true (all bits set)
    let trace = i.history.fragments[0].program.as_ref().unwrap().trace.as_ref().unwrap();
    let lt = trace.steps.iter().find(|s| s.opcode == "lt").unwrap();
    assert_eq!(lt.destinations[0].1[0], 0xffff_ffff);
    assert!(i.to_text().contains("discard_nz r0.x"));
}

/// A D32_FLOAT depth surface: `z` where x + y <= 6, `rest` elsewhere.
fn depth_image(z: f32, rest: f32) -> Vec<u8> {
    let mut bytes = Vec::new();
    for y in 0..8 {
        for x in 0..8 {
            bytes.extend_from_slice(&(if x + y <= 6 { z } else { rest }).to_le_bytes());
        }
    }
    bytes
}

/// Sets depth texel (`x`, `y`).
fn set_depth(bytes: &mut [u8], x: usize, y: usize, z: f32) {
    let at = (y * 8 + x) * 4;
    bytes[at..at + 4].copy_from_slice(&z.to_le_bytes());
}

#[test]
fn a_depth_test_that_passed_in_the_replay_but_not_on_the_gpu_is_the_depth_test() {
    // Cleared to depth 1.0, LESS; the triangle at 0.5 passes. The GPU left (1, 1) as it was: colour cleared, depth
    // 1.0.
    let extra = r#", "depth": {"format": "D32_FLOAT", "enable": true, "func": "LESS"}"#;
    let mut after = corner_image(WRITTEN, CLEAR);
    set_texel(&mut after, 1, 1, CLEAR);
    let mut depth = depth_image(0.5, 1.0);
    set_depth(&mut depth, 1, 1, 1.0);
    let i = inspect(
        &corner_triangle(0.5, extra),
        &corner_files(COLOR),
        Some(after),
        Some(depth),
        (1, 1, RT0),
        &InspectOptions::default(),
    );
    assert!(
        matches!(i.verdict, Verdict::DepthTest { passed_in_replay: true, replayed_depth, recorded_depth: Some(recorded), .. }
            if replayed_depth == 0.5 && recorded == 1.0),
        "{:?}",
        i.verdict
    );
    assert_eq!(
        i.verdict_text,
        "the depth test passed here but the recorded depth says it failed (replayed depth 0.5, recorded 1; LESS \
         against 1, primitive 0)"
    );
}

#[test]
fn a_depth_test_that_failed_in_the_replay_but_the_gpu_wrote_is_the_depth_test() {
    // Cleared to depth 0.25, LESS: the triangle at 0.5 fails everywhere; the GPU wrote (1, 1) anyway.
    let extra = r#", "depth": {"format": "D32_FLOAT", "enable": true, "func": "LESS"}, "clear_depth": 0.25"#;
    let mut after = corner_image(CLEAR, CLEAR);
    set_texel(&mut after, 1, 1, WRITTEN);
    let mut depth = depth_image(0.25, 0.25);
    set_depth(&mut depth, 1, 1, 0.5);
    let i = inspect(
        &corner_triangle(0.5, extra),
        &corner_files(COLOR),
        Some(after),
        Some(depth),
        (1, 1, RT0),
        &InspectOptions::default(),
    );
    assert!(
        matches!(i.verdict, Verdict::DepthTest { passed_in_replay: false, stored_depth, .. } if stored_depth == 0.25),
        "{:?}",
        i.verdict
    );
    assert!(
        i.verdict_text
            .starts_with("the depth test failed here in the replay but the GPU wrote the pixel")
    );
}

#[test]
fn a_depth_written_a_few_ulp_apart_is_the_depth_value() {
    // The GPU's depth at (1, 1) is 0.5 + 10 ULP (float32 ULP at 0.5 is 2^-24): past the 4 ULP default.
    let extra = r#", "depth": {"format": "D32_FLOAT", "enable": true, "func": "LESS"}"#;
    let mut depth = depth_image(0.5, 1.0);
    set_depth(&mut depth, 1, 1, f32::from_bits(0.5f32.to_bits() + 10));
    let i = inspect(
        &corner_triangle(0.5, extra),
        &corner_files(COLOR),
        Some(corner_image(WRITTEN, CLEAR)),
        Some(depth),
        (1, 1, TargetSlot::DepthStencil),
        &InspectOptions::default(),
    );
    assert_eq!(
        i.verdict,
        Verdict::DepthValue {
            replayed: 0.5,
            recorded: f64::from(f32::from_bits(0.5f32.to_bits() + 10)),
            ulps: Some(10)
        }
    );
    assert_eq!(
        i.verdict_text,
        "the depth written differs by 10 ULP (replayed 0.5, recorded 0.5000006)"
    );
    assert!(i.history_agrees);
}

#[test]
fn a_pixel_the_replay_wrote_and_the_gpu_did_not_without_depth_is_replay_only() {
    let mut after = corner_image(WRITTEN, CLEAR);
    set_texel(&mut after, 1, 1, CLEAR);
    let i = corner(after, 1, 1);
    assert_eq!(i.verdict, Verdict::ReplayOnly { primitive: 0 });
    assert_eq!(
        i.verdict_text,
        "the replay wrote this pixel (primitive 0) but the GPU left it as it was before the draw"
    );
}

/// SRC_ALPHA / INV_SRC_ALPHA blending, alpha written as is (ONE / ZERO).
const BLEND: &str = r#", "blend": {"targets": [{"enable": true, "src": "SRC_ALPHA", "dest": "INV_SRC_ALPHA"}]}"#;
/// The blended program output: (1, 0, 0, 0.25).
const HALF_RED: &str = "1.000000, 0.000000, 0.000000, 0.250000";

#[test]
fn a_blended_value_that_differs_is_blending_over_the_contents_before() {
    // Over the cleared (0, 0, 0, 0): red 1 * 0.25 + 0 * 0.75 = 0.25 -> 63.75 -> 64; alpha 0.25 -> 64.
    let mut after = corner_image([64, 0, 0, 64], CLEAR);
    let files = corner_files(HALF_RED);
    let json = corner_triangle(0.5, BLEND);
    let i = inspect(
        &json,
        &files,
        Some(after.clone()),
        None,
        (1, 1, RT0),
        &InspectOptions::default(),
    );
    assert_eq!(i.verdict, Verdict::Matches);
    set_texel(&mut after, 1, 1, [69, 0, 0, 64]);
    let i = inspect(
        &json,
        &files,
        Some(after),
        None,
        (1, 1, RT0),
        &InspectOptions::default(),
    );
    assert!(
        matches!(&i.verdict, Verdict::Blending { destination_from: None, ulps: Some(5), channel, .. } if channel == "R"),
        "{:?}",
        i.verdict
    );
    assert!(
        i.verdict_text.starts_with(
            "blending: the result of primitive 0's output blended (SRC_ALPHA, INV_SRC_ALPHA) over the contents \
             before the draw differs by 5 ULP in red"
        ),
        "{}",
        i.verdict_text
    );
}

#[test]
fn a_blended_value_over_an_earlier_fragment_of_the_draw_says_the_destination_differs() {
    // The corner triangle twice: 64 after the first (above), then 0.25 + (64 / 255) * 0.75 = 111.75 / 255 -> 112.
    let corners = [[0., 0.], [8., 0.], [0., 8.], [0., 0.], [8., 0.], [0., 8.]];
    let json = triangles(&corners, 0.5, BLEND);
    let files = corner_files(HALF_RED);
    let mut after = corner_image([112, 0, 0, 64], CLEAR);
    let i = inspect(
        &json,
        &files,
        Some(after.clone()),
        None,
        (1, 1, RT0),
        &InspectOptions::default(),
    );
    assert_eq!(i.verdict, Verdict::Matches);
    assert_eq!(i.history.fragments.len(), 2);
    set_texel(&mut after, 1, 1, [100, 0, 0, 64]);
    let i = inspect(
        &json,
        &files,
        Some(after),
        None,
        (1, 1, RT0),
        &InspectOptions::default(),
    );
    assert!(
        matches!(
            i.verdict,
            Verdict::Blending {
                primitive: 1,
                destination_from: Some(0),
                ulps: Some(12),
                ..
            }
        ),
        "{:?}",
        i.verdict
    );
    assert!(
        i.verdict_text
            .starts_with("blending: the destination differs: primitive 1 blends")
    );
}

#[test]
fn two_triangles_meeting_on_a_pixel_centre_are_edge_coverage_of_both() {
    // Red (0, 0), (8, 0), (0, 8) and green (8, 0), (8, 8), (0, 8) share the diagonal through the centres x + y = 7;
    // the top-left rule gives them to the green one, whose upper-left side it is. The GPU gave (3, 4) to the red one.
    let red = [1.0, 0.0, 0.0, 1.0];
    let green = [0.0, 1.0, 0.0, 1.0];
    let json = colored_triangles(
        &[
            ([0., 0.], red),
            ([8., 0.], red),
            ([0., 8.], red),
            ([8., 0.], green),
            ([8., 8.], green),
            ([0., 8.], green),
        ],
        "",
    );
    let files = vec![("vs", vs_color()), ("ps", ps_color_discard())];
    let mut after = corner_image([255, 0, 0, 255], [0, 255, 0, 255]);
    let i = inspect(
        &json,
        &files,
        Some(after.clone()),
        None,
        (3, 4, RT0),
        &InspectOptions::default(),
    );
    assert_eq!(i.verdict, Verdict::Matches, "{}", i.verdict_text);
    set_texel(&mut after, 3, 4, [255, 0, 0, 255]);
    let i = inspect(
        &json,
        &files,
        Some(after),
        None,
        (3, 4, RT0),
        &InspectOptions::default(),
    );
    let Verdict::EdgeCoverage { edge, case } = i.verdict else {
        panic!("{:?}", i.verdict)
    };
    assert_eq!((case, edge.primitive), (CoverageCase::Both, 0));
    assert_eq!(i.neighbour_edges.len(), 1);
    assert!(
        i.verdict_text
            .ends_with("which triangle wrote it last depends on rounding")
    );
}

#[test]
fn a_target_without_a_recorded_after_is_not_compared() {
    let i = inspect(
        &corner_triangle(0.5, ""),
        &corner_files(COLOR),
        None,
        None,
        (1, 1, RT0),
        &InspectOptions::default(),
    );
    assert_eq!(i.verdict, Verdict::NotRecorded);
    assert!(i.recorded.is_none() && i.difference.is_empty() && i.class.is_none());
}

#[test]
fn a_pixel_or_target_that_is_not_there_is_an_error_naming_it() {
    let description = describe(&corner_triangle(0.5, ""), &corner_files(COLOR));
    let mut capture = capture(&[record(&description, None, None)]);
    let mut cache = ShaderCache::new();
    let options = InspectOptions::default();
    let error = inspect_pixel(&mut capture, 0, 8, 0, RT0, &mut cache, &options).unwrap_err();
    assert!(
        error.to_string().contains("pixel (8, 0) is outside the 8x8 target"),
        "{error}"
    );
    let error = inspect_pixel(&mut capture, 0, 0, 0, TargetSlot::DepthStencil, &mut cache, &options).unwrap_err();
    assert!(
        error.to_string().contains("does not write depth; it writes rt0"),
        "{error}"
    );
    let _ = vs_pos;
}

#[test]
fn the_json_has_the_values_the_history_and_the_verdict() {
    let mut after = corner_image(WRITTEN, CLEAR);
    set_texel(&mut after, 2, 1, [251, 0, 51, 255]);
    let i = corner(after, 2, 1);
    let value = serde_json::to_value(&i).unwrap();
    assert_eq!(value["target"], "rt0");
    assert_eq!(value["verdict"]["kind"], "program_output");
    assert_eq!(value["difference"][0]["ulps"], 4);
    assert_eq!(value["history"]["fragments"][0]["outcome"], "Written");
    assert_eq!(
        value["pixel_program"]["lines"][1],
        "mov o0.xyzw, l(1.000000, 0, 0.200000, 1.000000)"
    );
}

#[test]
fn an_edge_that_snapping_moved_across_the_pixel_centre_is_edge_coverage_of_the_gpu() {
    // Corners (0.4981, 0), (8, 0), (0.502, 8). Unsnapped, the left edge passes y = 3.5 at x = 0.4981 + 0.0039 *
    // 3.5/8 = 0.49981, left of pixel (0, 3)'s centre (0.5, 3.5), so the centre is inside. Snapped (3.2.4.1),
    // 0.4981 * 256 = 127.51 -> 128 (0.5) and 0.502 * 256 = 128.51 -> 129 (0.50390625): the edge passes y = 3.5 at
    // 0.5 + 0.00390625 * 3.5/8 = 0.50171, right of the centre, which is outside. A GPU interpolating from the
    // unsnapped corners (as d3d11-ref's llvmpipe does for attributes) that also covered by them would write (0, 3).
    let json = triangles(&[[0.4981, 0.], [8., 0.], [0.502, 8.]], 0.5, "");
    let description = describe(&json, &corner_files(COLOR));
    let mut capture = capture(&[record(&description, None, None)]);
    let replay = crate::replay::replay_draw(
        &mut capture,
        0,
        &mut ShaderCache::new(),
        &ReplayOptions::default(),
        None,
    )
    .unwrap();
    let target = &replay.targets[0];
    assert_eq!(target.texel(&target.replayed, 0, 3), Some(&CLEAR[..]));
    let mut after = target.replayed.to_vec();
    set_texel(&mut after, 0, 3, WRITTEN);
    let i = inspect(
        &json,
        &corner_files(COLOR),
        Some(after),
        None,
        (0, 3, RT0),
        &InspectOptions::default(),
    );
    let Verdict::EdgeCoverage { edge, case } = i.verdict else {
        panic!("{:?}", i.verdict)
    };
    assert_eq!(case, CoverageCase::GpuOnly);
    assert!(i.history.fragments.is_empty());
    assert!(edge.crossed && edge.ambiguous, "{edge:?}");
    // 0.00171 px outside the snapped edge, 0.00019 px inside the unsnapped one (the edge is nearly vertical, so the
    // distances are nearly the horizontal ones)
    assert!((edge.distance + 0.00171).abs() < 1e-5, "{edge:?}");
    assert!((edge.unsnapped_distance - 0.00019).abs() < 1e-5, "{edge:?}");
    assert!(
        i.verdict_text
            .ends_with("the GPU covered the pixel, the replay did not"),
        "{}",
        i.verdict_text
    );
}

#[test]
fn a_pixel_one_off_under_a_position_tolerance_is_shifted() {
    // The GPU left (6, 0) cleared, as if the hypotenuse were a pixel further in. Under `position=1`, the replayed
    // (6, 0) (written) is the recorded (5, 0) and the recorded (6, 0) (cleared) is the replayed (7, 0): both
    // lookups of VK-GL-CTS's position-deviation compare find a match, so the pixel matches shifted. (6, 0)'s centre
    // (6.5, 0.5) is 0.71 px inside the hypotenuse x + y = 8, not ambiguous.
    let mut after = corner_image(WRITTEN, CLEAR);
    set_texel(&mut after, 6, 0, CLEAR);
    let options = InspectOptions {
        replay: ReplayOptions {
            tolerance: crate::compare::ToleranceSpec::parse("position=1").unwrap(),
            ..ReplayOptions::default()
        },
        ..InspectOptions::default()
    };
    let i = inspect(
        &corner_triangle(0.5, ""),
        &corner_files(COLOR),
        Some(after.clone()),
        None,
        (6, 0, RT0),
        &options,
    );
    assert_eq!(i.class, Some(PixelClass::Shifted));
    assert_eq!(i.verdict, Verdict::Shifted);
    assert_eq!(
        i.verdict_text,
        "matches a neighbouring pixel within the position tolerance"
    );
    // without it the replay's write where the GPU left the pixel is the replay's alone
    let i = corner(after, 6, 0);
    assert_eq!(i.verdict, Verdict::ReplayOnly { primitive: 0 });
}

#[test]
fn a_pixel_on_the_diagonal_of_a_clipped_full_screen_triangle_has_no_ambiguous_edge() {
    // (0, 0) (16, 0) (0, 16) clipped to the 8x8 square, fanned into two triangles whose shared diagonal runs through
    // (5.5, 5.5), the centre of (5, 5). The diagonal is no edge of the polygon, and the square's sides are half a
    // pixel or more away: nothing is ambiguous, and the pixel matches the worked-out colour.
    let json = triangles(&[[0., 0.], [16., 0.], [0., 16.]], 0.5, "");
    let i = inspect(
        &json,
        &corner_files(COLOR),
        Some(WRITTEN.repeat(64)),
        None,
        (5, 5, RT0),
        &InspectOptions::default(),
    );
    assert_eq!(i.verdict, Verdict::Matches);
    assert!(!i.ambiguous);
    assert_eq!(i.history.fragments.len(), 1);
    assert_eq!(i.fragment_edges, vec![None]);
    assert!(!i.to_text().contains("ambiguous coverage"), "{}", i.to_text());
}

/// The corner triangle at 4x: sample `s` of pixel (x, y) is covered when its position, 19.2.4's offset from the
/// centre ((-2, -6), (6, -2), (-6, 2), (2, 6) sixteenths), has x + y < 8 (the hypotenuse is neither top nor left).
fn corner_4x_image(sample_value: impl Fn(u32, u32, u32) -> [u8; 4]) -> Vec<u8> {
    let mut bytes = Vec::new();
    for s in 0..4 {
        for y in 0..8 {
            for x in 0..8 {
                bytes.extend_from_slice(&sample_value(s, x, y));
            }
        }
    }
    bytes
}

/// Whether the corner triangle covers sample `s` of pixel (`x`, `y`) at 4x, in sixteenths of a pixel.
fn corner_4x_covers(s: u32, x: u32, y: u32) -> bool {
    let [dx, dy] = [[-2, -6], [6, -2], [-6, 2], [2, 6]][s as usize];
    (x as i32 * 16 + 8 + dx) + (y as i32 * 16 + 8 + dy) < 8 * 16
}

#[test]
fn a_multisampled_pixel_is_inspected_one_sample_at_a_time() {
    // pixel (3, 4): centre (3.5, 4.5) on the hypotenuse; sample 0 at (3.375, 4.125) and sample 2 at (3.125, 4.625)
    // are inside (sums 7.5 and 7.75), samples 1 and 3 (8.25, 8.5) outside. The GPU is made to leave sample 2 clear.
    assert_eq!(
        (0..4).filter(|&s| corner_4x_covers(s, 3, 4)).collect::<Vec<_>>(),
        [0, 2]
    );
    let after = corner_4x_image(|s, x, y| {
        if corner_4x_covers(s, x, y) && !(s == 2 && (x, y) == (3, 4)) {
            WRITTEN
        } else {
            CLEAR
        }
    });
    let json = corner_triangle(0.5, r#", "sample_count": 4"#);
    let at = |sample: u32| {
        inspect(
            &json,
            &corner_files(COLOR),
            Some(after.clone()),
            None,
            (3, 4, RT0),
            &InspectOptions {
                sample,
                ..InspectOptions::default()
            },
        )
    };
    let zero = at(0);
    assert_eq!((zero.sample, zero.samples), (0, 4));
    assert_eq!(zero.verdict, Verdict::Matches);
    assert_eq!(zero.replayed.bytes, "ff0033ff");
    assert!(zero.history_agrees);
    // the history holds every sample: one fragment covering samples 0 and 2, one shading written to both
    let fragment = &zero.history.fragments[0];
    assert_eq!((fragment.covered_samples, fragment.written_samples), (0b0101, 0b0101));
    assert_eq!(fragment.samples.iter().map(|r| r.sample).collect::<Vec<_>>(), [0, 2]);
    assert_eq!(zero.history.after_samples.len(), 4);
    let text = zero.to_text();
    assert!(text.contains("pixel (3, 4) sample 0 of 4"), "{text}");
    assert!(text.contains("samples: covered 0 2; written 0 2"), "{text}");
    // sample 2: the replay wrote it, the GPU did not
    let two = at(2);
    assert_eq!(two.replayed.bytes, "ff0033ff");
    assert_eq!(two.recorded.as_ref().unwrap().bytes, "00000000");
    assert_ne!(two.verdict, Verdict::Matches);
    assert!(two.history_agrees);
    // sample 1: the primitive does not cover it; nothing was written by either
    let one = at(1);
    assert_eq!(one.verdict, Verdict::Matches);
    assert_eq!(one.replayed.bytes, "00000000");
    assert!(one.history_agrees);
    assert_eq!(one.history.for_sample(1).fragments.len(), 0);
    // a sample past the count, or a row past the plane, is a request error
    let description = describe(&json, &corner_files(COLOR));
    let mut capture = capture(&[record(&description, Some(after), None)]);
    let options = InspectOptions {
        sample: 4,
        ..InspectOptions::default()
    };
    let e = inspect_pixel(&mut capture, 0, 3, 4, RT0, &mut ShaderCache::new(), &options).unwrap_err();
    assert!(
        e.to_string().contains("8x8 with 4 sample(s) a pixel: no sample 4"),
        "{e}"
    );
    let e = inspect_pixel(
        &mut capture,
        0,
        3,
        9,
        RT0,
        &mut ShaderCache::new(),
        &InspectOptions::default(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("no sample 0 of pixel (3, 9)"), "{e}");
}

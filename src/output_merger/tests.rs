//! Hand-derived tests of the output merger's rules. Every expected value is worked out in the comments from the
//! specification's rules (sections cited), with inputs chosen so float32 arithmetic is exact where possible
//! (multiples of 1/16).

#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::arithmetic_side_effects)]

use super::*;
use crate::api::enums::{Blend, BlendOp, ComparisonFunc, DepthWriteMask, LogicOp, StencilOp};
use crate::api::fixed_function::{RenderTargetBlendDesc, StencilFaceDesc};
use crate::format::Format;

fn texel(values: [f32; 4]) -> Texel {
    values.map(f32::to_bits)
}

/// The bytes of one R32G32B32A32_FLOAT texel.
fn rgba32f(values: [f32; 4]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// An R32G32B32A32_FLOAT texel from its bytes.
fn floats(bytes: &[u8]) -> [f32; 4] {
    let word = |i: usize| f32::from_le_bytes(bytes[i * 4..i * 4 + 4].try_into().unwrap());
    [word(0), word(1), word(2), word(3)]
}

/// Targets with one 1x1 render target at slot 0.
fn one_target(format: Format, bytes: Vec<u8>) -> Targets {
    let mut targets = Targets::default();
    targets.render_targets[0] = Some(RenderTarget::new(format, 1, 1, bytes).unwrap());
    targets
}

/// The state with target 0's blend set to `desc` (every target, as IndependentBlendEnable is off).
fn blend_state(desc: RenderTargetBlendDesc) -> OutputMergerState {
    let mut state = OutputMergerState::default();
    state.blend.render_target[0] = desc;
    state
}

/// A blend description: colour `src`, `dest`, `op`; alpha `src_alpha`, `dest_alpha`, `op_alpha`.
fn equation(
    src: Blend,
    dest: Blend,
    op: BlendOp,
    src_alpha: Blend,
    dest_alpha: Blend,
    op_alpha: BlendOp,
) -> RenderTargetBlendDesc {
    RenderTargetBlendDesc {
        blend_enable: true,
        src_blend: src,
        dest_blend: dest,
        blend_op: op,
        src_blend_alpha: src_alpha,
        dest_blend_alpha: dest_alpha,
        blend_op_alpha: op_alpha,
        ..RenderTargetBlendDesc::default()
    }
}

/// Writes `o0` (and `o1`) at (0, 0) with every component declared; returns the target-0 bytes after.
fn write_pixel(state: &OutputMergerState, format: Format, dest: Vec<u8>, o0: Texel, o1: Texel) -> Vec<u8> {
    let mut om = OutputMerger::new(state, one_target(format, dest)).unwrap();
    let mut outputs = [[0u32; 4]; 8];
    outputs[0] = o0;
    outputs[1] = o1;
    om.write(0, 0, &outputs, &[0xf; 8], None).unwrap();
    om.into_targets().render_targets[0].take().unwrap().into_bytes()
}

// ---------------------------------------------------------------------------------------------------------------
// Depth (17.9-17.11, 17.13)

/// A depth-stencil state testing depth with `func`, writing it.
fn depth_state(func: ComparisonFunc) -> OutputMergerState {
    let mut state = OutputMergerState::default();
    state.depth_stencil.depth_func = func;
    state
}

/// A 1x1 depth-stencil buffer of `format` holding `bytes`.
fn depth_targets(format: Format, bytes: Vec<u8>) -> Targets {
    Targets {
        depth_stencil: Some(DepthStencilTarget::new(format, 1, 1, bytes).unwrap()),
        ..Targets::default()
    }
}

#[test]
fn each_depth_comparison_passes_as_17_8_defines_it() {
    // Stored 0.5 in D32_FLOAT; incoming 0.25, 0.5, 0.75 (exact in f32): (less, equal, greater).
    let table = [
        (ComparisonFunc::Never, [false, false, false]),
        (ComparisonFunc::Less, [true, false, false]),
        (ComparisonFunc::Equal, [false, true, false]),
        (ComparisonFunc::LessEqual, [true, true, false]),
        (ComparisonFunc::Greater, [false, false, true]),
        (ComparisonFunc::NotEqual, [true, false, true]),
        (ComparisonFunc::GreaterEqual, [false, true, true]),
        (ComparisonFunc::Always, [true, true, true]),
    ];
    for (func, expected) in table {
        for (incoming, pass) in [0.25f32, 0.5, 0.75].into_iter().zip(expected) {
            let mut state = depth_state(func);
            state.depth_stencil.depth_write_mask = DepthWriteMask::Zero;
            let mut om =
                OutputMerger::new(&state, depth_targets(Format::D32Float, 0.5f32.to_le_bytes().to_vec())).unwrap();
            let outcome = om.depth_stencil(0, 0, incoming, true, None).unwrap();
            assert_eq!(outcome.passed(), pass, "{func} with incoming {incoming}");
            let expected = if pass {
                DepthStencilOutcome::Passed
            } else {
                DepthStencilOutcome::DepthFailed
            };
            assert_eq!(outcome, expected);
        }
    }
}

#[test]
fn depth_is_converted_to_the_buffers_precision_before_the_comparison() {
    // 17.11: round to nearest. D16: 0.5 * 65535 = 32767.5, +0.5 truncated = 32768 (0x8000); a stored 0x8000 is
    // 32768/65535 != 0.5, yet EQUAL passes. D24: 0.5 * 16777215 = 8388607.5 -> 8388608 (0x800000), same story.
    // D32 keeps 0.5 itself, so against a stored 0.5 + 2^-24 EQUAL fails.
    let mut state = depth_state(ComparisonFunc::Equal);
    state.depth_stencil.depth_write_mask = DepthWriteMask::Zero;
    let d16 = depth_targets(Format::D16Unorm, vec![0x00, 0x80]);
    assert!(
        OutputMerger::new(&state, d16)
            .unwrap()
            .depth_stencil(0, 0, 0.5, true, None)
            .unwrap()
            .passed()
    );
    let d24 = depth_targets(Format::D24UnormS8Uint, vec![0x00, 0x00, 0x80, 0x00]);
    assert!(
        OutputMerger::new(&state, d24)
            .unwrap()
            .depth_stencil(0, 0, 0.5, true, None)
            .unwrap()
            .passed()
    );
    let d32 = depth_targets(Format::D32Float, (0.5f32 + 2f32.powi(-24)).to_le_bytes().to_vec());
    assert!(
        !OutputMerger::new(&state, d32)
            .unwrap()
            .depth_stencil(0, 0, 0.5, true, None)
            .unwrap()
            .passed()
    );
    // Just under the D16 midpoint: (32767.5 - 0.01) / 65535 rounds down to 32767, which is less than 0x8000.
    let mut less = depth_state(ComparisonFunc::Less);
    less.depth_stencil.depth_write_mask = DepthWriteMask::Zero;
    let d16 = depth_targets(Format::D16Unorm, vec![0x00, 0x80]);
    let z = (32767.5f64 - 0.01) / 65535.0;
    assert!(
        OutputMerger::new(&less, d16)
            .unwrap()
            .depth_stencil(0, 0, z as f32, true, None)
            .unwrap()
            .passed()
    );
}

#[test]
fn a_passing_depth_is_written_in_the_buffers_format_keeping_stencil() {
    // D24_UNORM_S8_UINT: depth in bits 0..24, stencil in 24..32. 0.25 * 16777215 = 4194303.75 -> 4194304 = 0x400000.
    let mut om = OutputMerger::new(
        &depth_state(ComparisonFunc::Less),
        depth_targets(Format::D24UnormS8Uint, vec![0xff, 0xff, 0xff, 0x5a]),
    )
    .unwrap();
    assert!(om.depth_stencil(0, 0, 0.25, true, None).unwrap().passed());
    assert_eq!(
        om.targets().depth_stencil.as_ref().unwrap().bytes(),
        &[0x00, 0x00, 0x40, 0x5a]
    );
    // D16: 0.75 * 65535 = 49151.25 -> 49151 = 0xbfff.
    let mut om = OutputMerger::new(
        &depth_state(ComparisonFunc::Less),
        depth_targets(Format::D16Unorm, vec![0xff, 0xff]),
    )
    .unwrap();
    assert!(om.depth_stencil(0, 0, 0.75, true, None).unwrap().passed());
    assert_eq!(om.targets().depth_stencil.as_ref().unwrap().bytes(), &[0xff, 0xbf]);
}

#[test]
fn depth_write_mask_zero_read_only_views_and_depth_enable_off_leave_depth_alone() {
    let stored = 1.0f32.to_le_bytes().to_vec();
    // Write mask ZERO: the test still runs (0.5 < 1 passes) but nothing is written.
    let mut state = depth_state(ComparisonFunc::Less);
    state.depth_stencil.depth_write_mask = DepthWriteMask::Zero;
    let mut om = OutputMerger::new(&state, depth_targets(Format::D32Float, stored.clone())).unwrap();
    assert!(om.depth_stencil(0, 0, 0.5, true, None).unwrap().passed());
    assert_eq!(om.targets().depth_stencil.as_ref().unwrap().bytes(), &stored[..]);
    // A read-only-depth view (17.13): writes are forced off.
    let mut targets = depth_targets(Format::D32Float, stored.clone());
    targets.depth_stencil = targets.depth_stencil.map(|d| d.read_only(true, false));
    let mut om = OutputMerger::new(&depth_state(ComparisonFunc::Less), targets).unwrap();
    assert!(om.depth_stencil(0, 0, 0.5, true, None).unwrap().passed());
    assert_eq!(om.targets().depth_stencil.as_ref().unwrap().bytes(), &stored[..]);
    // DepthEnable off (17.9): no test (NEVER would fail) and no write.
    let mut state = depth_state(ComparisonFunc::Never);
    state.depth_stencil.depth_enable = false;
    let mut om = OutputMerger::new(&state, depth_targets(Format::D32Float, stored.clone())).unwrap();
    assert!(om.depth_stencil(0, 0, 0.5, true, None).unwrap().passed());
    assert_eq!(om.targets().depth_stencil.as_ref().unwrap().bytes(), &stored[..]);
    // No depth buffer bound (17.11): the test passes.
    let mut om = OutputMerger::new(&depth_state(ComparisonFunc::Never), Targets::default()).unwrap();
    assert!(om.depth_stencil(0, 0, 0.5, true, None).unwrap().passed());
}

#[test]
fn depth_reaching_the_merger_is_clamped_to_the_viewport_range() {
    // 17.10: z = min(MaxDepth, max(MinDepth, z)) with 3.1's min/max (NaN gives the other operand), so on
    // [0.25, 0.75]: 0.9 -> 0.75, -inf -> 0.25, +inf -> 0.75, NaN -> max(0.25, NaN) = 0.25.
    for (incoming, stored) in [
        (0.9f32, 0.75f32),
        (f32::NEG_INFINITY, 0.25),
        (f32::INFINITY, 0.75),
        (f32::NAN, 0.25),
        (0.5, 0.5),
    ] {
        let mut om = OutputMerger::new(
            &depth_state(ComparisonFunc::Always),
            depth_targets(Format::D32Float, vec![0; 4]),
        )
        .unwrap();
        om.set_depth_range(0.25, 0.75);
        assert!(om.depth_stencil(0, 0, incoming, true, None).unwrap().passed());
        let bytes = om.targets().depth_stencil.as_ref().unwrap().bytes().to_vec();
        assert_eq!(f32::from_le_bytes(bytes.try_into().unwrap()), stored, "{incoming}");
    }
}

#[test]
fn conservative_depth_outputs_are_used_as_written() {
    // 16.9.3.2: no clamp to the interpolated depth, even when the promise is broken.
    assert_eq!(DepthOutput::Interpolated.depth(0.5), 0.5);
    assert_eq!(DepthOutput::Written(0.25).depth(0.5), 0.25);
    assert_eq!(DepthOutput::GreaterEqual(0.25).depth(0.5), 0.25);
    assert_eq!(DepthOutput::LessEqual(0.75).depth(0.5), 0.75);
}

// ---------------------------------------------------------------------------------------------------------------
// Stencil (17.12, 17.13)

/// A stencil-only state: depth off, front and back faces `face`, reference `reference`.
fn stencil_state(face: StencilFaceDesc, reference: u32) -> OutputMergerState {
    let mut state = OutputMergerState::default();
    state.depth_stencil.depth_enable = false;
    state.depth_stencil.stencil_enable = true;
    state.depth_stencil.front_face = face;
    state.depth_stencil.back_face = face;
    state.stencil_ref = reference;
    state
}

/// Runs the stencil test once on a D24S8 buffer holding `stored` (depth 0); returns the outcome and stencil after.
fn run_stencil(state: &OutputMergerState, stored: u8, front_facing: bool) -> (DepthStencilOutcome, u8) {
    let mut om = OutputMerger::new(state, depth_targets(Format::D24UnormS8Uint, vec![0, 0, 0, stored])).unwrap();
    let outcome = om.depth_stencil(0, 0, 0.5, front_facing, None).unwrap();
    let after = om.targets().depth_stencil.as_ref().unwrap().bytes()[3];
    (outcome, after)
}

#[test]
fn every_stencil_operation_changes_the_stored_value_as_17_8_names_it() {
    // Reference 0x5a. INCR_SAT/DECR_SAT stop at 255/0; INCR/DECR wrap; INVERT flips all bits.
    let table = [
        (StencilOp::Keep, 0x37, 0x37),
        (StencilOp::Zero, 0x37, 0x00),
        (StencilOp::Replace, 0x37, 0x5a),
        (StencilOp::IncrSat, 0x37, 0x38),
        (StencilOp::IncrSat, 0xff, 0xff),
        (StencilOp::DecrSat, 0x37, 0x36),
        (StencilOp::DecrSat, 0x00, 0x00),
        (StencilOp::Invert, 0x0f, 0xf0),
        (StencilOp::Incr, 0xff, 0x00),
        (StencilOp::Incr, 0x37, 0x38),
        (StencilOp::Decr, 0x00, 0xff),
        (StencilOp::Decr, 0x37, 0x36),
    ];
    for (op, stored, expected) in table {
        let face = StencilFaceDesc {
            pass: op,
            ..StencilFaceDesc::default()
        };
        let (outcome, after) = run_stencil(&stencil_state(face, 0x5a), stored, true);
        assert!(outcome.passed());
        assert_eq!(after, expected, "{op} on {stored:#x}");
    }
}

#[test]
fn the_write_mask_limits_which_stencil_bits_an_operation_changes() {
    // REPLACE 0x55 over 0xaa through 0x0f: high nibble kept (0xa0), low nibble from 0x55 (0x05) -> 0xa5.
    let face = StencilFaceDesc {
        pass: StencilOp::Replace,
        ..StencilFaceDesc::default()
    };
    let mut state = stencil_state(face, 0x55);
    state.depth_stencil.stencil_write_mask = 0x0f;
    assert_eq!(run_stencil(&state, 0xaa, true).1, 0xa5);
    // INCR_SAT on the whole value 0x0f -> 0x10, then through mask 0xf0: (0x0f & 0x0f) | (0x10 & 0xf0) = 0x1f.
    let face = StencilFaceDesc {
        pass: StencilOp::IncrSat,
        ..StencilFaceDesc::default()
    };
    let mut state = stencil_state(face, 0);
    state.depth_stencil.stencil_write_mask = 0xf0;
    assert_eq!(run_stencil(&state, 0x0f, true).1, 0x1f);
    // INCR wraps 0xff to 0x00 on the whole value; through 0x0f only the low nibble changes: 0xf0.
    let face = StencilFaceDesc {
        pass: StencilOp::Incr,
        ..StencilFaceDesc::default()
    };
    let mut state = stencil_state(face, 0);
    state.depth_stencil.stencil_write_mask = 0x0f;
    assert_eq!(run_stencil(&state, 0xff, true).1, 0xf0);
}

#[test]
fn the_read_mask_applies_to_both_sides_of_the_stencil_test() {
    // Reference 0x13, stored 0x23: equal under mask 0x0f (0x03 == 0x03), different under 0xff.
    let face = StencilFaceDesc {
        func: ComparisonFunc::Equal,
        ..StencilFaceDesc::default()
    };
    let mut state = stencil_state(face, 0x13);
    state.depth_stencil.stencil_read_mask = 0x0f;
    assert!(run_stencil(&state, 0x23, true).0.passed());
    state.depth_stencil.stencil_read_mask = 0xff;
    assert_eq!(run_stencil(&state, 0x23, true).0, DepthStencilOutcome::StencilFailed);
    // LESS: reference (left) < stored. 0x10 < 0x20 passes; 0x30 < 0x20 fails.
    let face = StencilFaceDesc {
        func: ComparisonFunc::Less,
        ..StencilFaceDesc::default()
    };
    assert!(run_stencil(&stencil_state(face, 0x10), 0x20, true).0.passed());
    assert!(!run_stencil(&stencil_state(face, 0x30), 0x20, true).0.passed());
    // Only the low 8 bits of the reference count: 0x1ff is 0xff.
    let face = StencilFaceDesc {
        func: ComparisonFunc::Equal,
        ..StencilFaceDesc::default()
    };
    assert!(run_stencil(&stencil_state(face, 0x1ff), 0xff, true).0.passed());
}

#[test]
fn stencil_runs_first_and_the_outcome_picks_fail_depth_fail_or_pass() {
    // fail = INCR_SAT, depth_fail = INVERT, pass = REPLACE (ref 0x40); stored stencil 0x0f; depth LESS, stored
    // depth 0.5 in D32_FLOAT_S8X24_UINT (depth in bytes 0..4, stencil in byte 4).
    let face = StencilFaceDesc {
        fail: StencilOp::IncrSat,
        depth_fail: StencilOp::Invert,
        pass: StencilOp::Replace,
        func: ComparisonFunc::Equal,
    };
    let run = |reference: u32, depth: f32| {
        let mut state = stencil_state(face, reference);
        state.depth_stencil.depth_enable = true;
        state.depth_stencil.depth_func = ComparisonFunc::Less;
        let mut bytes = 0.5f32.to_le_bytes().to_vec();
        bytes.extend([0x0f, 0xee, 0xee, 0xee]);
        let mut om = OutputMerger::new(&state, depth_targets(Format::D32FloatS8X24Uint, bytes)).unwrap();
        let mut record = DepthStencilRecord::default();
        let outcome = om.depth_stencil(0, 0, depth, true, Some(&mut record)).unwrap();
        (outcome, om.into_targets().depth_stencil.unwrap().into_bytes(), record)
    };
    // Stencil fails (reference 0x0e != 0x0f): INCR_SAT -> 0x10; depth (0.25 < 0.5 would pass) not compared nor written.
    let (outcome, bytes, record) = run(0x0e, 0.25);
    assert_eq!(outcome, DepthStencilOutcome::StencilFailed);
    assert_eq!(bytes, [0x00, 0x00, 0x00, 0x3f, 0x10, 0xee, 0xee, 0xee]);
    assert_eq!(record.depth.unwrap().passed, None);
    assert_eq!(record.stencil.unwrap().case, StencilCase::Fail);
    // Stencil passes, depth fails (0.75 < 0.5 is false): INVERT -> 0xf0, depth kept.
    let (outcome, bytes, _) = run(0x0f, 0.75);
    assert_eq!(outcome, DepthStencilOutcome::DepthFailed);
    assert_eq!(bytes, [0x00, 0x00, 0x00, 0x3f, 0xf0, 0xee, 0xee, 0xee]);
    // Both pass: REPLACE -> 0x0f (the reference), depth 0.25 = 0x3e800000 written; the X24 bytes untouched.
    let (outcome, bytes, record) = run(0x0f, 0.25);
    assert_eq!(outcome, DepthStencilOutcome::Passed);
    assert_eq!(bytes, [0x00, 0x00, 0x80, 0x3e, 0x0f, 0xee, 0xee, 0xee]);
    let depth = record.depth.unwrap();
    assert_eq!(
        (depth.stored, depth.quantized, depth.after, depth.written),
        (0.5, 0.25, 0.25, true)
    );
    let stencil = record.stencil.unwrap();
    assert_eq!(
        (stencil.before, stencil.after, stencil.op),
        (0x0f, 0x0f, StencilOp::Replace)
    );
}

#[test]
fn the_facing_chooses_front_or_back_stencil_state() {
    let mut state = stencil_state(StencilFaceDesc::default(), 0);
    state.depth_stencil.front_face.pass = StencilOp::Incr;
    state.depth_stencil.back_face.pass = StencilOp::Decr;
    assert_eq!(run_stencil(&state, 10, true).1, 11);
    assert_eq!(run_stencil(&state, 10, false).1, 9);
    // The back face's own test: NEVER fails for back-facing, runs its fail op (ZERO).
    state.depth_stencil.back_face.func = ComparisonFunc::Never;
    state.depth_stencil.back_face.fail = StencilOp::Zero;
    assert_eq!(run_stencil(&state, 10, false), (DepthStencilOutcome::StencilFailed, 0));
    assert_eq!(run_stencil(&state, 10, true), (DepthStencilOutcome::Passed, 11));
}

#[test]
fn a_read_only_stencil_view_tests_but_never_writes() {
    let face = StencilFaceDesc {
        pass: StencilOp::Zero,
        fail: StencilOp::Zero,
        func: ComparisonFunc::Equal,
        ..StencilFaceDesc::default()
    };
    let state = stencil_state(face, 7);
    let stencil_view = |stored: u8| {
        let mut targets = depth_targets(Format::D24UnormS8Uint, vec![0, 0, 0, stored]);
        targets.depth_stencil = targets.depth_stencil.map(|d| d.read_only(false, true));
        OutputMerger::new(&state, targets).unwrap()
    };
    let mut om = stencil_view(7);
    assert!(om.depth_stencil(0, 0, 0.0, true, None).unwrap().passed());
    assert_eq!(om.targets().depth_stencil.as_ref().unwrap().bytes()[3], 7);
    let mut om = stencil_view(8);
    assert!(!om.depth_stencil(0, 0, 0.0, true, None).unwrap().passed());
    assert_eq!(om.targets().depth_stencil.as_ref().unwrap().bytes()[3], 8);
}

#[test]
fn stencil_on_a_buffer_without_stencil_bits_passes() {
    // 17.12: no stencil component, the test passes; D32_FLOAT depth off too, so nothing changes.
    let face = StencilFaceDesc {
        func: ComparisonFunc::Never,
        ..StencilFaceDesc::default()
    };
    let mut om = OutputMerger::new(&stencil_state(face, 0), depth_targets(Format::D32Float, vec![0; 4])).unwrap();
    assert!(om.depth_stencil(0, 0, 0.5, true, None).unwrap().passed());
}

// ---------------------------------------------------------------------------------------------------------------
// Coverage (17.17, 16.9.4, 17.18)

#[test]
fn sample_mask_and_output_mask_bit_zero_gate_the_one_sample() {
    let mut state = OutputMergerState::default();
    let om = OutputMerger::new(&state, Targets::default()).unwrap();
    let o0 = texel([0.0; 4]);
    assert!(om.coverage(None, &o0, None));
    assert!(om.coverage(Some(0xffff_fff1), &o0, None));
    assert!(!om.coverage(Some(0xffff_fffe), &o0, None));
    state.sample_mask = 0xffff_fffe;
    let om = OutputMerger::new(&state, Targets::default()).unwrap();
    assert!(!om.sample_mask_covers());
    assert!(!om.coverage(Some(1), &o0, None));
}

#[test]
fn alpha_to_coverage_with_one_sample_covers_any_alpha_above_zero() {
    let mut state = OutputMergerState::default();
    state.blend.alpha_to_coverage_enable = true;
    let om = OutputMerger::new(&state, Targets::default()).unwrap();
    let alpha = |a: f32| texel([1.0, 1.0, 1.0, a]);
    // 17.18: 0 or below none, 1 or above all, NaN none; ceil(alpha * 1) samples: any alpha above 0 covers.
    for (a, covered) in [
        (-1.0, false),
        (0.0, false),
        (1e-30, true),
        (0.499_999_97, true),
        (0.5, true),
        (1.0, true),
        (7.0, true),
        (f32::NAN, false),
    ] {
        assert_eq!(om.coverage(None, &alpha(a), None), covered, "alpha {a}");
    }
    // Writing oMask turns alpha-to-coverage off (16.9.4).
    let mut record = CoverageRecord::default();
    assert!(om.coverage(Some(1), &alpha(0.0), Some(&mut record)));
    assert_eq!(record.alpha_to_coverage, None);
}

// ---------------------------------------------------------------------------------------------------------------
// Blending in R32G32B32A32_FLOAT: exact float32 arithmetic (17.1)

/// Source, destination, blend factor and o1 with every product and sum exact in float32.
const SRC: [f32; 4] = [0.5, 0.25, 0.75, 0.5];
const DEST: [f32; 4] = [0.25, 0.5, 1.0, 0.75];
const FACTOR: [f32; 4] = [0.125, 0.375, 0.625, 0.875];
const SRC1: [f32; 4] = [0.0625, 0.1875, 0.3125, 0.4375];

/// Each factor of 17.1 for SRC, DEST, FACTOR and SRC1, worked out by hand: (r, g, b) as a colour factor, and its
/// value as an alpha factor (None where 17.2 does not allow it).
fn factor_table() -> Vec<(Blend, [f32; 3], Option<f32>)> {
    vec![
        (Blend::Zero, [0.0, 0.0, 0.0], Some(0.0)),
        (Blend::One, [1.0, 1.0, 1.0], Some(1.0)),
        (Blend::SrcColor, [0.5, 0.25, 0.75], None),
        (Blend::InvSrcColor, [0.5, 0.75, 0.25], None),
        (Blend::SrcAlpha, [0.5, 0.5, 0.5], Some(0.5)),
        (Blend::InvSrcAlpha, [0.5, 0.5, 0.5], Some(0.5)),
        (Blend::DestAlpha, [0.75, 0.75, 0.75], Some(0.75)),
        (Blend::InvDestAlpha, [0.25, 0.25, 0.25], Some(0.25)),
        (Blend::DestColor, [0.25, 0.5, 1.0], None),
        (Blend::InvDestColor, [0.75, 0.5, 0.0], None),
        // f = min(src.a, 1 - dest.a) = min(0.5, 0.25); alpha factor 1.
        (Blend::SrcAlphaSat, [0.25, 0.25, 0.25], Some(1.0)),
        (Blend::BlendFactor, [0.125, 0.375, 0.625], Some(0.875)),
        (Blend::InvBlendFactor, [0.875, 0.625, 0.375], Some(0.125)),
        (Blend::Src1Color, [0.0625, 0.1875, 0.3125], None),
        (Blend::InvSrc1Color, [0.9375, 0.8125, 0.6875], None),
        (Blend::Src1Alpha, [0.4375, 0.4375, 0.4375], Some(0.4375)),
        (Blend::InvSrc1Alpha, [0.5625, 0.5625, 0.5625], Some(0.5625)),
    ]
}

#[test]
fn every_blend_factor_weighs_the_source_as_17_1_defines_it() {
    for (factor, colour, alpha) in factor_table() {
        // Source factor `factor` (alpha: the same, or ONE where 17.2 forbids it); destination factor ZERO.
        let mut state = blend_state(equation(
            factor,
            Blend::Zero,
            BlendOp::Add,
            if alpha.is_some() { factor } else { Blend::One },
            Blend::Zero,
            BlendOp::Add,
        ));
        state.blend_factor = FACTOR;
        let out = write_pixel(
            &state,
            Format::R32G32B32A32Float,
            rgba32f(DEST),
            texel(SRC),
            texel(SRC1),
        );
        let a = alpha.unwrap_or(1.0);
        let expected = [SRC[0] * colour[0], SRC[1] * colour[1], SRC[2] * colour[2], SRC[3] * a];
        assert_eq!(floats(&out), expected, "source factor {factor}");
    }
}

#[test]
fn every_blend_factor_weighs_the_destination_as_17_1_defines_it() {
    for (factor, colour, alpha) in factor_table() {
        let mut state = blend_state(equation(
            Blend::Zero,
            factor,
            BlendOp::Add,
            Blend::Zero,
            if alpha.is_some() { factor } else { Blend::One },
            BlendOp::Add,
        ));
        state.blend_factor = FACTOR;
        let out = write_pixel(
            &state,
            Format::R32G32B32A32Float,
            rgba32f(DEST),
            texel(SRC),
            texel(SRC1),
        );
        let a = alpha.unwrap_or(1.0);
        let expected = [
            DEST[0] * colour[0],
            DEST[1] * colour[1],
            DEST[2] * colour[2],
            DEST[3] * a,
        ];
        assert_eq!(floats(&out), expected, "destination factor {factor}");
    }
}

#[test]
fn every_blend_operation_combines_as_17_1_defines_it() {
    // Colour: SRC_ALPHA / INV_SRC_ALPHA (0.5 / 0.5); alpha: ONE / ONE. Float32 targets are not clamped.
    // ADD: r 0.25 + 0.125 = 0.375, g 0.125 + 0.25 = 0.375, b 0.375 + 0.5 = 0.875, a 0.5 + 0.75 = 1.25.
    // MIN/MAX ignore the factors: min(0.5, 0.25) etc.
    let table = [
        (BlendOp::Add, [0.375, 0.375, 0.875, 1.25]),
        (BlendOp::Subtract, [0.125, -0.125, -0.125, -0.25]),
        (BlendOp::RevSubtract, [-0.125, 0.125, 0.125, 0.25]),
        (BlendOp::Min, [0.25, 0.25, 0.75, 0.5]),
        (BlendOp::Max, [0.5, 0.5, 1.0, 0.75]),
    ];
    for (op, expected) in table {
        let state = blend_state(equation(
            Blend::SrcAlpha,
            Blend::InvSrcAlpha,
            op,
            Blend::One,
            Blend::One,
            op,
        ));
        let out = write_pixel(
            &state,
            Format::R32G32B32A32Float,
            rgba32f(DEST),
            texel(SRC),
            texel(SRC1),
        );
        assert_eq!(floats(&out), expected, "{op}");
    }
}

#[test]
fn separate_alpha_uses_its_own_factors_and_operation() {
    // Colour ONE/ONE ADD: 0.75, 0.75, 1.75. Alpha DEST_ALPHA/ZERO REV_SUBTRACT: 0 - 0.5 * 0.75 = -0.375.
    let state = blend_state(equation(
        Blend::One,
        Blend::One,
        BlendOp::Add,
        Blend::DestAlpha,
        Blend::Zero,
        BlendOp::RevSubtract,
    ));
    let out = write_pixel(
        &state,
        Format::R32G32B32A32Float,
        rgba32f(DEST),
        texel(SRC),
        texel(SRC1),
    );
    assert_eq!(floats(&out), [0.75, 0.75, 1.75, -0.375]);
}

#[test]
fn float_blending_propagates_nan_and_flushes_denormals() {
    let add = blend_state(equation(
        Blend::One,
        Blend::Zero,
        BlendOp::Add,
        Blend::One,
        Blend::Zero,
        BlendOp::Add,
    ));
    // NaN * ONE + d * 0 = NaN; a NaN destination times ZERO is still NaN (17.5: "including 0.0 blend weights").
    let out = write_pixel(
        &add,
        Format::R32G32B32A32Float,
        rgba32f([0.0, f32::NAN, 0.0, 0.0]),
        texel([f32::NAN, 1.0, 2.0, 3.0]),
        [0; 4],
    );
    let out = floats(&out);
    assert!(out[0].is_nan() && out[1].is_nan());
    assert_eq!([out[2], out[3]], [2.0, 3.0]);
    // MIN with a NaN source gives the destination (3.1 min).
    let min = blend_state(equation(
        Blend::One,
        Blend::One,
        BlendOp::Min,
        Blend::One,
        Blend::One,
        BlendOp::Min,
    ));
    let out = write_pixel(
        &min,
        Format::R32G32B32A32Float,
        rgba32f([0.5; 4]),
        texel([f32::NAN, 0.25, 1.0, 0.5]),
        [0; 4],
    );
    assert_eq!(floats(&out), [0.5, 0.25, 0.5, 0.5]);
    // A denormal source is flushed by blending (3.1.3.2), but stored unchanged with blending off (a data move).
    let denormal = f32::from_bits(0x0000_0001);
    let out = write_pixel(
        &add,
        Format::R32G32B32A32Float,
        rgba32f([1.0; 4]),
        texel([denormal, -denormal, 1.0, 1.0]),
        [0; 4],
    );
    // -denormal flushes to -0; -0 * 1 + 1 * 0 = -0 + +0 = +0.
    assert_eq!(floats(&out)[0].to_bits(), 0);
    assert_eq!(floats(&out)[1].to_bits(), 0);
    let off = OutputMergerState::default();
    let out = write_pixel(
        &off,
        Format::R32G32B32A32Float,
        rgba32f([1.0; 4]),
        texel([denormal, 1.0, 1.0, 1.0]),
        [0; 4],
    );
    assert_eq!(floats(&out)[0].to_bits(), 1);
    // -0 * 1 + -0 * 0 = -0 + -0 = -0 (signed zeros propagate).
    let out = write_pixel(
        &add,
        Format::R32G32B32A32Float,
        rgba32f([-0.0; 4]),
        texel([-0.0; 4]),
        [0; 4],
    );
    assert_eq!(floats(&out)[0].to_bits(), 0x8000_0000);
}

// ---------------------------------------------------------------------------------------------------------------
// Blending precision per format (17.4, 17.5)

#[test]
fn unorm_blending_reads_the_destination_exactly_and_rounds_the_result_to_nearest() {
    // R8G8B8A8_UNORM, destination bytes (64, 128, 255, 191), source (0.5, 0.25, 0.75, 0.5), SRC_ALPHA/INV_SRC_ALPHA
    // for colour and alpha. On the integer scale (x 255): r 0.25*255 + 64/2 = 95.75 -> 96; g 31.875 + 64 = 95.875
    // -> 96; b 95.625 + 127.5 = 223.125 -> 223; a 63.75 + 95.5 = 159.25 -> 159.
    let state = blend_state(equation(
        Blend::SrcAlpha,
        Blend::InvSrcAlpha,
        BlendOp::Add,
        Blend::SrcAlpha,
        Blend::InvSrcAlpha,
        BlendOp::Add,
    ));
    let out = write_pixel(
        &state,
        Format::R8G8B8A8Unorm,
        vec![64, 128, 255, 191],
        texel(SRC),
        [0; 4],
    );
    assert_eq!(out, [96, 96, 223, 159]);
}

#[test]
fn unorm_blend_inputs_are_clamped_to_zero_one_before_blending() {
    // 17.5: source and blend factor clamp to the target's range first. REV_SUBTRACT ONE/ONE: d - s.
    // s = 2.0 -> 1.0: 128/255 - 1 < 0 -> 0. s = -1.0 -> 0: d stays 128 (unclamped, d + 1 would give 255).
    // s = NaN -> 0: d stays 128. s = 0.25: 128 - 63.75 = 64.25 -> 64.
    let state = blend_state(equation(
        Blend::One,
        Blend::One,
        BlendOp::RevSubtract,
        Blend::One,
        Blend::One,
        BlendOp::RevSubtract,
    ));
    let out = write_pixel(
        &state,
        Format::R8G8B8A8Unorm,
        vec![128; 4],
        texel([2.0, -1.0, f32::NAN, 0.25]),
        [0; 4],
    );
    assert_eq!(out, [0, 128, 128, 64]);
    // SUBTRACT ONE/ONE with s = 2.0: clamped 1 - 128/255 = 127/255 -> 127 (unclamped: 255).
    let state = blend_state(equation(
        Blend::One,
        Blend::One,
        BlendOp::Subtract,
        Blend::One,
        Blend::One,
        BlendOp::Subtract,
    ));
    let out = write_pixel(&state, Format::R8G8B8A8Unorm, vec![128; 4], texel([2.0; 4]), [0; 4]);
    assert_eq!(out, [127; 4]);
    // The blend factor 4.0 clamps to 1: 0.25 * 1 = 0.25 -> 63.75 -> 64 (unclamped: 255).
    let mut state = blend_state(equation(
        Blend::BlendFactor,
        Blend::Zero,
        BlendOp::Add,
        Blend::BlendFactor,
        Blend::Zero,
        BlendOp::Add,
    ));
    state.blend_factor = [4.0; 4];
    let out = write_pixel(&state, Format::R8G8B8A8Unorm, vec![0; 4], texel([0.25; 4]), [0; 4]);
    assert_eq!(out, [64; 4]);
}

#[test]
fn srgb_blending_happens_in_linear_space() {
    // 17.4: destination 128 is linear 0.2158605 (3.2.3.7); 0.5 * 0.5 + 0.2158605 * 0.5 = 0.3579303, encoded
    // (3.2.3.8) 1.055 * 0.3579303^(1/2.4) - 0.055 = 0.632599, * 255 = 161.31 -> 161. Alpha is linear:
    // 0.25 + 128/255 * 0.5 -> 127.75 -> 128. The same bytes in UNORM blend to 128 in every channel.
    let state = blend_state(equation(
        Blend::SrcAlpha,
        Blend::InvSrcAlpha,
        BlendOp::Add,
        Blend::SrcAlpha,
        Blend::InvSrcAlpha,
        BlendOp::Add,
    ));
    let src = texel([0.5; 4]);
    assert_eq!(
        write_pixel(&state, Format::R8G8B8A8UnormSrgb, vec![128; 4], src, [0; 4]),
        [161, 161, 161, 128]
    );
    assert_eq!(
        write_pixel(&state, Format::R8G8B8A8Unorm, vec![128; 4], src, [0; 4]),
        [128; 4]
    );
    // B8G8R8A8_UNORM_SRGB stores blue first; the same arithmetic per channel.
    assert_eq!(
        write_pixel(&state, Format::B8G8R8A8UnormSrgb, vec![128; 4], src, [0; 4]),
        [161, 161, 161, 128]
    );
}

#[test]
fn snorm_blending_clamps_inputs_and_output_but_not_intermediate_terms() {
    // R8G8B8A8_SNORM destination (0x81 = -1.0, 0x40 = 64/127, 0, 0x7f = 1.0), ONE/ONE ADD, source
    // (0.5, -2.0 -> -1.0, NaN -> 0, 1.0): r -0.5 * 127 = -63.5 -> -64 (0xc0, half away from zero); g -1 + 64/127 =
    // -63/127 -> -63 (0xc1); b 0; a 2 -> 1 -> 127 (0x7f).
    let state = blend_state(equation(
        Blend::One,
        Blend::One,
        BlendOp::Add,
        Blend::One,
        Blend::One,
        BlendOp::Add,
    ));
    let out = write_pixel(
        &state,
        Format::R8G8B8A8Snorm,
        vec![0x81, 0x40, 0x00, 0x7f],
        texel([0.5, -2.0, f32::NAN, 1.0]),
        [0; 4],
    );
    assert_eq!(out, [0xc0, 0xc1, 0x00, 0x7f]);
    // INV_SRC_COLOR of -0.5 is 1.5, not clamped (17.5): -0.5 * 1.5 = -0.75 -> -95.25 -> -95 (0xa1).
    // Clamped to 1 it would be -0.5 -> -64. -1.0 writes -127 (0x81), never 0x80 (3.2.3.4).
    let state = blend_state(equation(
        Blend::InvSrcColor,
        Blend::Zero,
        BlendOp::Add,
        Blend::One,
        Blend::Zero,
        BlendOp::Add,
    ));
    let out = write_pixel(
        &state,
        Format::R8G8B8A8Snorm,
        vec![0; 4],
        texel([-0.5, -0.5, -0.5, -1.0]),
        [0; 4],
    );
    assert_eq!(out, [0xa1, 0xa1, 0xa1, 0x81]);
}

#[test]
fn r10g10b10a2_unorm_blends_each_field_at_its_own_width() {
    // Destination r 512, g 0, b 1023, a 2; source (0.25, 0.5, 0, 1); ONE/ONE ADD. r: 0.25 * 1023 + 512 = 767.75
    // -> 768; g: 511.5 -> 512 (+0.5, truncate); b: 1023; a: 1 + 2/3 -> 1 -> 3.
    let dest: u32 = 512 | (1023 << 20) | (2 << 30);
    let state = blend_state(equation(
        Blend::One,
        Blend::One,
        BlendOp::Add,
        Blend::One,
        Blend::One,
        BlendOp::Add,
    ));
    let out = write_pixel(
        &state,
        Format::R10G10B10A2Unorm,
        dest.to_le_bytes().to_vec(),
        texel([0.25, 0.5, 0.0, 1.0]),
        [0; 4],
    );
    let expected: u32 = 768 | (512 << 10) | (1023 << 20) | (3 << 30);
    assert_eq!(u32::from_le_bytes(out.try_into().unwrap()), expected);
}

#[test]
fn r11g11b10_float_blends_unclamped_and_stores_no_negatives() {
    // float11: 5-bit exponent (bias 15), 6-bit mantissa. Destination r = 1.5 = (15 << 6) | 32, g = 1.5, b = 0
    // (float10 0); source (0.25, 0.25, 3.0). ADD ONE/ONE: r 1.75 = (15 << 6) | 48 = 1008. SUBTRACT for g would be
    // negative -> 0; here b = 3.0 + 0 = 3.0 = (16 << 5) | 16 = 528 in float10 (5-bit mantissa): unclamped.
    let r = (15 << 6) | 32u32;
    let dest = r | (r << 11);
    let state = blend_state(equation(
        Blend::One,
        Blend::One,
        BlendOp::Add,
        Blend::One,
        Blend::One,
        BlendOp::Add,
    ));
    let out = write_pixel(
        &state,
        Format::R11G11B10Float,
        dest.to_le_bytes().to_vec(),
        texel([0.25, 0.25, 3.0, 0.0]),
        [0; 4],
    );
    let expected = 1008 | (1008 << 11) | (528u32 << 22);
    assert_eq!(u32::from_le_bytes(out.try_into().unwrap()), expected);
    // REV_SUBTRACT: 1.5 - 2.0 = -0.5 -> 0 (3.1.6: no sign); DEST_ALPHA of a format without alpha is 1 (19.1.3.3).
    let state = blend_state(equation(
        Blend::DestAlpha,
        Blend::One,
        BlendOp::RevSubtract,
        Blend::One,
        Blend::Zero,
        BlendOp::Add,
    ));
    let out = write_pixel(
        &state,
        Format::R11G11B10Float,
        dest.to_le_bytes().to_vec(),
        texel([2.0, 0.25, 0.0, 0.0]),
        [0; 4],
    );
    // r: 1.5 - 2.0 * 1 = -0.5 -> 0; g: 1.5 - 0.25 = 1.25 = (15 << 6) | 16 = 976; b: 0 - 0 = 0.
    assert_eq!(u32::from_le_bytes(out.try_into().unwrap()), 976 << 11);
}

#[test]
fn float16_blending_is_not_clamped_and_converts_toward_zero() {
    // R16G16B16A16_FLOAT, ONE/ONE ADD. r: 3.0 + 1.5 = 4.5 (0x4480, exact). g: 70000 + 0 saturates at the largest
    // finite half, 65504 (0x7bff; 3.2.2: round toward zero, no infinity). b: 1/3 + 0 rounds toward zero:
    // 0x3555 (0.33325195). a: inf + 1 = inf (0x7c00).
    let dest: Vec<u8> = [0x3e00u16, 0, 0, 0x3c00].iter().flat_map(|h| h.to_le_bytes()).collect();
    let state = blend_state(equation(
        Blend::One,
        Blend::One,
        BlendOp::Add,
        Blend::One,
        Blend::One,
        BlendOp::Add,
    ));
    let out = write_pixel(
        &state,
        Format::R16G16B16A16Float,
        dest,
        texel([3.0, 70000.0, 1.0 / 3.0, f32::INFINITY]),
        [0; 4],
    );
    let halves: Vec<u16> = out.chunks(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect();
    assert_eq!(halves, [0x4480, 0x7bff, 0x3555, 0x7c00]);
}

#[test]
fn b5g6r5_converts_the_float32_result_straight_to_five_and_six_bits() {
    // B in bits 0..5, G 5..11, R 11..16. Destination b 31, g 32, r 0; source 0.5 everywhere.
    // DEST_ALPHA (1: no alpha) / ZERO: 0.5 -> r 15.5 -> 16, g 31.5 -> 32, b 16.
    let dest = (31u16 | (32 << 5)).to_le_bytes().to_vec();
    let state = blend_state(equation(
        Blend::DestAlpha,
        Blend::Zero,
        BlendOp::Add,
        Blend::One,
        Blend::Zero,
        BlendOp::Add,
    ));
    let out = write_pixel(&state, Format::B5G6R5Unorm, dest.clone(), texel([0.5; 4]), [0; 4]);
    assert_eq!(u16::from_le_bytes([out[0], out[1]]), 16 | (32 << 5) | (16 << 11));
    // ONE/ONE: g 0.5 + 32/63 > 1 -> 63; b 0.5 + 1 -> 31; r 0.5 -> 16.
    let state = blend_state(equation(
        Blend::One,
        Blend::One,
        BlendOp::Add,
        Blend::One,
        Blend::One,
        BlendOp::Add,
    ));
    let out = write_pixel(&state, Format::B5G6R5Unorm, dest, texel([0.5; 4]), [0; 4]);
    assert_eq!(u16::from_le_bytes([out[0], out[1]]), 31 | (63 << 5) | (16 << 11));
}

#[test]
fn without_blending_outputs_convert_with_the_formats_rules() {
    let off = OutputMergerState::default();
    // UNORM: NaN -> 0, 2 -> 255, -1 -> 0, 0.5 -> 127.5 + 0.5 -> 128.
    assert_eq!(
        write_pixel(
            &off,
            Format::R8G8B8A8Unorm,
            vec![9; 4],
            texel([f32::NAN, 2.0, -1.0, 0.5]),
            [0; 4]
        ),
        [0, 255, 0, 128]
    );
    // UINT: 300 clamps to 255 (3.2.3.13); SINT: -200 (as int bits) clamps to -128 (0x80).
    assert_eq!(
        write_pixel(&off, Format::R8G8B8A8Uint, vec![9; 4], [300, 5, 0, 255], [0; 4]),
        [255, 5, 0, 255]
    );
    assert_eq!(
        write_pixel(&off, Format::R8Sint, vec![9], [(-200i32) as u32, 0, 0, 0], [0; 4]),
        [0x80]
    );
    // float16 NaN stays NaN.
    let out = write_pixel(
        &off,
        Format::R16Float,
        vec![0; 2],
        texel([f32::NAN, 0.0, 0.0, 0.0]),
        [0; 4],
    );
    let half = u16::from_le_bytes([out[0], out[1]]);
    assert!(half & 0x7c00 == 0x7c00 && half & 0x3ff != 0);
}

#[test]
fn integer_targets_ignore_blending() {
    // ONE/ONE ADD on R8G8B8A8_UINT would sum; integer formats are not blendable, so the output is written.
    let state = blend_state(equation(
        Blend::One,
        Blend::One,
        BlendOp::Add,
        Blend::One,
        Blend::One,
        BlendOp::Add,
    ));
    assert_eq!(
        write_pixel(&state, Format::R8G8B8A8Uint, vec![10; 4], [1, 2, 3, 4], [0; 4]),
        [1, 2, 3, 4]
    );
}

// ---------------------------------------------------------------------------------------------------------------
// Dual source, independent blend, write masks, logic ops

#[test]
fn dual_source_blending_reads_o1_and_writes_only_target_zero() {
    // ONE / SRC1_COLOR, alpha ONE / SRC1_ALPHA: s + d * o1. r 0.5 + 0.25 * 0.0625 = 0.515625, g 0.25 + 0.5 * 0.1875
    // = 0.34375, b 0.75 + 0.3125 = 1.0625, a 0.5 + 0.75 * 0.4375 = 0.828125.
    let state = blend_state(equation(
        Blend::One,
        Blend::Src1Color,
        BlendOp::Add,
        Blend::One,
        Blend::Src1Alpha,
        BlendOp::Add,
    ));
    let mut targets = one_target(Format::R32G32B32A32Float, rgba32f(DEST));
    targets.render_targets[1] = Some(RenderTarget::new(Format::R32G32B32A32Float, 1, 1, rgba32f(DEST)).unwrap());
    let mut om = OutputMerger::new(&state, targets).unwrap();
    assert!(om.dual_source());
    let mut outputs = [[0u32; 4]; 8];
    outputs[0] = texel(SRC);
    outputs[1] = texel(SRC1);
    let mut record = WriteRecord::default();
    om.write(0, 0, &outputs, &[0xf; 8], Some(&mut record)).unwrap();
    let targets = om.into_targets();
    assert_eq!(
        floats(targets.render_targets[0].as_ref().unwrap().bytes()),
        [0.515625, 0.34375, 1.0625, 0.828125]
    );
    // Target 1 keeps its value (17.6: only slot 0 is defined; we leave others unwritten).
    assert_eq!(floats(targets.render_targets[1].as_ref().unwrap().bytes()), DEST);
    assert!(record.targets[1].is_none());
    let target = record.targets[0].unwrap();
    assert_eq!(target.source1, Some(texel(SRC1)));
    let TargetOperation::Blend(blend) = target.operation else {
        panic!("blended");
    };
    assert_eq!(blend.destination_factor, [0.0625, 0.1875, 0.3125, 0.4375]);
    assert_eq!(blend.result, [0.515625, 0.34375, 1.0625, 0.828125]);
    assert_eq!(target.after.values, [0.515625, 0.34375, 1.0625, 0.828125]);
    assert_eq!(target.before.values, DEST.map(f64::from));
}

#[test]
fn independent_blend_gives_each_target_its_own_state() {
    // Target 0: ONE/ONE ADD; target 1: its own (blending off). Without IndependentBlendEnable, both take target 0's.
    let mut state = blend_state(equation(
        Blend::One,
        Blend::One,
        BlendOp::Add,
        Blend::One,
        Blend::One,
        BlendOp::Add,
    ));
    let run = |state: &OutputMergerState| {
        let mut targets = one_target(Format::R32G32B32A32Float, rgba32f([1.0; 4]));
        targets.render_targets[1] =
            Some(RenderTarget::new(Format::R32G32B32A32Float, 1, 1, rgba32f([1.0; 4])).unwrap());
        let mut om = OutputMerger::new(state, targets).unwrap();
        let mut outputs = [[0u32; 4]; 8];
        outputs[0] = texel([0.5; 4]);
        outputs[1] = texel([0.25; 4]);
        om.write(0, 0, &outputs, &[0xf; 8], None).unwrap();
        let t = om.into_targets();
        (
            floats(t.render_targets[0].as_ref().unwrap().bytes())[0],
            floats(t.render_targets[1].as_ref().unwrap().bytes())[0],
        )
    };
    assert_eq!(run(&state), (1.5, 1.25));
    state.blend.independent_blend_enable = true;
    assert_eq!(run(&state), (1.5, 0.25));
}

#[test]
fn write_masks_and_declared_outputs_limit_the_components_written() {
    // Write mask 0b0101 (red, blue): green and alpha keep 9.
    let mut state = OutputMergerState::default();
    state.blend.render_target[0].render_target_write_mask = 0b0101;
    assert_eq!(
        write_pixel(&state, Format::R8G8B8A8Uint, vec![9; 4], [1, 2, 3, 4], [0; 4]),
        [1, 9, 3, 9]
    );
    // The program declares o0.xy only: blue and alpha keep 9; a program declaring no o0 writes nothing.
    let mut om = OutputMerger::new(
        &OutputMergerState::default(),
        one_target(Format::R8G8B8A8Uint, vec![9; 4]),
    )
    .unwrap();
    let mut outputs = [[0u32; 4]; 8];
    outputs[0] = [1, 2, 3, 4];
    om.write(0, 0, &outputs, &[0b0011, 0, 0, 0, 0, 0, 0, 0], None).unwrap();
    assert_eq!(om.targets().render_targets[0].as_ref().unwrap().bytes(), &[1, 2, 9, 9]);
    let mut record = WriteRecord::default();
    om.write(0, 0, &[[7; 4]; 8], &[0; 8], Some(&mut record)).unwrap();
    assert_eq!(om.targets().render_targets[0].as_ref().unwrap().bytes(), &[1, 2, 9, 9]);
    assert!(record.targets[0].is_none());
}

#[test]
fn blending_reads_masked_components_of_the_destination() {
    // 17.15: masks limit writes, not reads. Write mask red only, red factor DEST_ALPHA = 0.75: 0.5 * 0.75 = 0.375.
    let mut desc = equation(
        Blend::DestAlpha,
        Blend::Zero,
        BlendOp::Add,
        Blend::One,
        Blend::Zero,
        BlendOp::Add,
    );
    desc.render_target_write_mask = 0b0001;
    let out = write_pixel(
        &blend_state(desc),
        Format::R32G32B32A32Float,
        rgba32f(DEST),
        texel(SRC),
        [0; 4],
    );
    assert_eq!(floats(&out), [0.375, 0.5, 1.0, 0.75]);
}

#[test]
fn every_logic_operation_combines_bits_as_17_1_lists_them() {
    // R8G8B8A8_UINT, s = 0b1010 (10), d = 0b1100 (12), 8 bits.
    let table = [
        (LogicOp::Clear, 0),
        (LogicOp::Set, 0xff),
        (LogicOp::Copy, 10),
        (LogicOp::CopyInverted, 0xf5),
        (LogicOp::Noop, 12),
        (LogicOp::Invert, 0xf3),
        (LogicOp::And, 8),
        (LogicOp::Nand, 0xf7),
        (LogicOp::Or, 14),
        (LogicOp::Nor, 0xf1),
        (LogicOp::Xor, 6),
        (LogicOp::Equiv, 0xf9),
        (LogicOp::AndReverse, 2),
        (LogicOp::AndInverted, 4),
        (LogicOp::OrReverse, 0xfb),
        (LogicOp::OrInverted, 0xfd),
    ];
    for (op, expected) in table {
        let state = blend_state(RenderTargetBlendDesc {
            logic_op_enable: true,
            logic_op: op,
            ..RenderTargetBlendDesc::default()
        });
        let out = write_pixel(&state, Format::R8G8B8A8Uint, vec![12; 4], [10; 4], [0; 4]);
        assert_eq!(out, [expected; 4], "{op}");
    }
}

#[test]
fn logic_operations_take_the_low_bits_of_the_output() {
    // 17.7.1's ideal: 0x1ff -> 0xff, 0x100 -> 0x00 (a clamp would give 0xff for both). R16_UINT: 0x12345 -> 0x2345.
    let state = blend_state(RenderTargetBlendDesc {
        logic_op_enable: true,
        logic_op: LogicOp::Copy,
        ..RenderTargetBlendDesc::default()
    });
    assert_eq!(
        write_pixel(&state, Format::R8G8B8A8Uint, vec![0; 4], [0x1ff, 0x100, 3, 4], [0; 4]),
        [0xff, 0, 3, 4]
    );
    assert_eq!(
        write_pixel(&state, Format::R16Uint, vec![0; 2], [0x12345, 0, 0, 0], [0; 4]),
        [0x45, 0x23]
    );
    // On a non-UINT target the logic op is ignored: XOR on UNORM writes the output.
    let xor = blend_state(RenderTargetBlendDesc {
        logic_op_enable: true,
        logic_op: LogicOp::Xor,
        ..RenderTargetBlendDesc::default()
    });
    assert_eq!(
        write_pixel(&xor, Format::R8G8B8A8Unorm, vec![255; 4], texel([1.0; 4]), [0; 4]),
        [255; 4]
    );
}

#[test]
fn blend_states_the_runtime_refuses_are_errors() {
    let both = blend_state(RenderTargetBlendDesc {
        blend_enable: true,
        logic_op_enable: true,
        ..RenderTargetBlendDesc::default()
    });
    assert!(OutputMerger::new(&both, Targets::default()).is_err());
    let mut independent = blend_state(RenderTargetBlendDesc {
        logic_op_enable: true,
        ..RenderTargetBlendDesc::default()
    });
    independent.blend.independent_blend_enable = true;
    assert!(
        OutputMerger::new(&independent, Targets::default())
            .unwrap_err()
            .detail
            .contains("17.7.2")
    );
    let colour_alpha = blend_state(equation(
        Blend::One,
        Blend::Zero,
        BlendOp::Add,
        Blend::SrcColor,
        Blend::Zero,
        BlendOp::Add,
    ));
    let error = OutputMerger::new(&colour_alpha, Targets::default()).unwrap_err();
    assert_eq!(error.at, "render_target[0]");
}

// ---------------------------------------------------------------------------------------------------------------
// Targets

#[test]
fn targets_of_different_sizes_are_an_error_naming_the_binding() {
    let mut targets = Targets::default();
    targets.render_targets[0] = Some(RenderTarget::new(Format::R8Unorm, 4, 4, vec![0; 16]).unwrap());
    targets.render_targets[2] = Some(RenderTarget::new(Format::R8Unorm, 4, 2, vec![0; 8]).unwrap());
    let error = OutputMerger::new(&OutputMergerState::default(), targets).unwrap_err();
    assert!(
        error
            .detail
            .starts_with("render target 2 is 4x2 where render target 0 is 4x4"),
        "{error}"
    );
    let mut targets = Targets::default();
    targets.render_targets[1] = Some(RenderTarget::new(Format::R8Unorm, 4, 4, vec![0; 16]).unwrap());
    targets.depth_stencil = Some(DepthStencilTarget::new(Format::D16Unorm, 2, 4, vec![0; 16]).unwrap());
    let error = OutputMerger::new(&OutputMergerState::default(), targets).unwrap_err();
    assert!(
        error
            .detail
            .starts_with("the depth-stencil buffer is 2x4 where render target 1 is 4x4"),
        "{error}"
    );
}

#[test]
fn a_target_refuses_wrong_sizes_formats_and_pixels_outside() {
    assert!(RenderTarget::new(Format::R8G8B8A8Unorm, 2, 2, vec![0; 15]).is_err());
    assert!(RenderTarget::new(Format::Bc1Unorm, 4, 4, vec![0; 8]).is_err());
    assert!(RenderTarget::new(Format::D32Float, 1, 1, vec![0; 4]).is_err());
    assert!(RenderTarget::new(Format::R9G9B9E5Sharedexp, 1, 1, vec![0; 4]).is_err());
    assert!(DepthStencilTarget::new(Format::R32Float, 1, 1, vec![0; 4]).is_err());
    let mut om = OutputMerger::new(&OutputMergerState::default(), one_target(Format::R8Unorm, vec![0])).unwrap();
    assert!(om.write(1, 0, &[[0; 4]; 8], &[0xf; 8], None).is_err());
    let mut om = OutputMerger::new(
        &depth_state(ComparisonFunc::Less),
        depth_targets(Format::D16Unorm, vec![0; 2]),
    )
    .unwrap();
    assert!(om.depth_stencil(0, 1, 0.0, true, None).is_err());
}

mod views {
    use super::*;
    use crate::api::enums::{DsvDimension, ResourceDimension, RtvDimension};
    use crate::api::resource::{DepthStencilViewDesc, RenderTargetViewDesc, Texture, TextureShape};
    use std::sync::Arc;

    fn texture(dimension: ResourceDimension, format: Format, size: [u32; 3], array_size: u32, mips: u32) -> Texture {
        let shape = TextureShape {
            dimension,
            format,
            width: size[0],
            height: size[1],
            depth: size[2],
            array_size,
            mip_levels: mips,
            sample_count: 1,
        };
        // Subresource i holds bytes equal to 10 * i + the byte's index.
        let subresources = (0..mips * array_size)
            .map(|i| {
                let layout = shape.mip_layout(i % mips).unwrap();
                Arc::from(
                    (0..layout.bytes)
                        .map(|b| (10 * i as u64 + b) as u8)
                        .collect::<Vec<u8>>(),
                )
            })
            .collect();
        Texture::new(shape, subresources).unwrap()
    }

    #[test]
    fn a_render_target_view_selects_its_mip_and_array_slice() {
        // 4x4, 2 mips, 3 slices of R8_TYPELESS, viewed as R8_UNORM at mip 1, slice 2: subresource 1 + 2 * 2 = 5,
        // a 2x2 mip holding 50, 51, 52, 53.
        let texture = texture(ResourceDimension::Texture2D, Format::R8Typeless, [4, 4, 1], 3, 2);
        let view = RenderTargetViewDesc {
            format: Format::R8Unorm,
            dimension: RtvDimension::Texture2DArray,
            mip_slice: 1,
            first_array_slice: 2,
            array_size: 1,
        };
        let target = RenderTarget::from_view(&texture, &view).unwrap();
        assert_eq!(
            (target.width(), target.height(), target.format()),
            (2, 2, Format::R8Unorm)
        );
        assert_eq!(target.bytes(), &[50, 51, 52, 53]);
        // A format outside the family is refused.
        let wrong = RenderTargetViewDesc {
            format: Format::R16Unorm,
            ..view
        };
        assert!(RenderTarget::from_view(&texture, &wrong).is_err());
        // A slice past the array is refused.
        let past = RenderTargetViewDesc {
            first_array_slice: 3,
            ..view
        };
        assert!(RenderTarget::from_view(&texture, &past).is_err());
    }

    #[test]
    fn a_3d_render_target_view_selects_one_depth_slice() {
        // 2x2x4 R8_UINT, one mip: depth slice 3 is bytes 12..16 of the subresource.
        let texture = texture(ResourceDimension::Texture3D, Format::R8Uint, [2, 2, 4], 1, 1);
        let view = RenderTargetViewDesc {
            format: Format::Unknown,
            dimension: RtvDimension::Texture3D,
            mip_slice: 0,
            first_array_slice: 3,
            array_size: 1,
        };
        let target = RenderTarget::from_view(&texture, &view).unwrap();
        assert_eq!(target.format(), Format::R8Uint);
        assert_eq!(target.bytes(), &[12, 13, 14, 15]);
    }

    #[test]
    fn a_depth_stencil_view_keeps_its_read_only_flags() {
        let texture = texture(ResourceDimension::Texture2D, Format::R24G8Typeless, [2, 1, 1], 1, 1);
        let view = DepthStencilViewDesc {
            format: Format::D24UnormS8Uint,
            dimension: DsvDimension::Texture2D,
            read_only_stencil: true,
            ..DepthStencilViewDesc::default()
        };
        let target = DepthStencilTarget::from_view(&texture, &view).unwrap();
        assert!(target.has_stencil() && target.read_only_stencil() && !target.read_only_depth());
        assert_eq!(target.bytes(), &[0, 1, 2, 3, 4, 5, 6, 7]);
        let colour = DepthStencilViewDesc {
            format: Format::R24UnormX8Typeless,
            ..view
        };
        assert!(DepthStencilTarget::from_view(&texture, &colour).is_err());
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Pixel history records

#[test]
fn a_record_shows_the_inputs_and_outcome_without_changing_the_result() {
    // R8G8B8A8_UINT with XOR: s = 0b1010, d = 0b1100 -> 0b0110; the record holds both operands and the bytes.
    let state = blend_state(RenderTargetBlendDesc {
        logic_op_enable: true,
        logic_op: LogicOp::Xor,
        ..RenderTargetBlendDesc::default()
    });
    let mut outputs = [[0u32; 4]; 8];
    outputs[0] = [10; 4];
    let run = |record: Option<&mut WriteRecord>| {
        let mut om = OutputMerger::new(&state, one_target(Format::R8G8B8A8Uint, vec![12; 4])).unwrap();
        om.write(0, 0, &outputs, &[0xf; 8], record).unwrap();
        om.into_targets().render_targets[0].take().unwrap().into_bytes()
    };
    let mut record = WriteRecord::default();
    assert_eq!(run(None), [6; 4]);
    assert_eq!(run(Some(&mut record)), [6; 4]);
    let target = record.targets[0].unwrap();
    assert_eq!(target.before.bytes[..4], [12; 4]);
    assert_eq!(target.before.values, [12.0; 4]);
    assert_eq!(target.after.bytes[..usize::from(target.after.len)], [6; 4]);
    assert_eq!(
        target.operation,
        TargetOperation::Logic(LogicRecord {
            op: LogicOp::Xor,
            source: [10; 4],
            destination: [12; 4],
            result: [6; 4],
        })
    );
    assert!(record.targets[1..].iter().all(Option::is_none));
    // A depth/stencil record with nothing bound says so: no depth, no stencil, passed.
    let mut om = OutputMerger::new(&OutputMergerState::default(), Targets::default()).unwrap();
    let mut ds = DepthStencilRecord {
        outcome: DepthStencilOutcome::DepthFailed,
        ..DepthStencilRecord::default()
    };
    assert!(om.depth_stencil(0, 0, 0.5, true, Some(&mut ds)).unwrap().passed());
    assert_eq!(ds, DepthStencilRecord::default());
}

// ---- multisampling (3.5.1, 17.17, 17.18)

#[test]
fn alpha_to_coverage_covers_ceil_alpha_n_samples_lowest_first() {
    // floor(alpha * n + 0.5) samples, bits 0.. first; none at alpha <= 0 or NaN, all at alpha >= 1 (17.18)
    let cases: [(f32, u32, u32); 15] = [
        (0.0, 4, 0),
        (-1.0, 4, 0),
        (f32::NAN, 4, 0),
        (0.1, 4, 0b0001),   // ceil(0.4) = 1
        (0.125, 4, 0b0001), // ceil(0.5) = 1
        (0.25, 4, 0b0001),  // ceil(1.0) = 1: the reference's step is at (1/4, 1/2]
        (0.3, 4, 0b0011),   // ceil(1.2) = 2
        (0.5, 4, 0b0011),   // ceil(2.0) = 2
        (0.7, 4, 0b0111),   // ceil(2.8) = 3
        (0.9, 4, 0b1111),   // ceil(3.6) = 4
        (1.0, 4, 0b1111),
        (7.0, 4, 0b1111),
        (0.5, 1, 1),
        (0.4375, 8, 0b1111),                   // ceil(3.5) = 4
        (1.0 / 16.0 * 9.0, 16, 0b1_1111_1111), // 9 samples
    ];
    for (alpha, samples, want) in cases {
        assert_eq!(
            alpha_to_coverage_mask(alpha, samples),
            want,
            "alpha {alpha}, {samples} samples"
        );
    }
    assert_eq!(alpha_to_coverage_mask(0.01, 1), 1);
    assert_eq!(alpha_to_coverage_mask(1e-30, 4), 1);
    assert_eq!(alpha_to_coverage_mask(f32::INFINITY, 32), u32::MAX);
}

/// A 1x1 R32G32B32A32_FLOAT target of 4 samples, sample s holding (s, s, s, s).
fn four_samples() -> Targets {
    let bytes: Vec<u8> = (0..4).flat_map(|s| rgba32f([s as f32; 4])).collect();
    let mut targets = Targets::default();
    targets.render_targets[0] = Some(RenderTarget::multisampled(Format::R32G32B32A32Float, 1, 1, 4, bytes).unwrap());
    targets
}

#[test]
fn the_sample_mask_omask_and_alpha_to_coverage_and_the_rasterized_samples() {
    let mut state = OutputMergerState {
        sample_mask: 0b0110_1101, // samples 0, 2, 3 of four (bits past 4 ignored)
        ..OutputMergerState::default()
    };
    let om = OutputMerger::new(&state, four_samples()).unwrap();
    assert_eq!(om.sample_count(), 4);
    let o0 = texel([1.0, 1.0, 1.0, 1.0]);
    // rasterized 0b0111 & mask 0b1101 = 0b0101
    assert_eq!(om.coverage_mask(0b0111, None, &o0, None), 0b0101);
    // oMask 0b1001: 0b0111 & 0b1101 & 0b1001 = 0b0001
    let mut record = CoverageRecord::default();
    assert_eq!(om.coverage_mask(0b0111, Some(0b1001), &o0, Some(&mut record)), 0b0001);
    assert_eq!((record.rasterized, record.mask, record.covered), (0b0111, 0b0001, true));
    // alpha-to-coverage: alpha 0.5 of 4 samples is 0b0011; with the rasterized 0b1111 and the mask 0b1101, 0b0001
    state.blend.alpha_to_coverage_enable = true;
    let om = OutputMerger::new(&state, four_samples()).unwrap();
    let half = texel([1.0, 1.0, 1.0, 0.5]);
    assert_eq!(om.coverage_mask(0b1111, None, &half, Some(&mut record)), 0b0001);
    assert_eq!(record.alpha_mask, Some(0b0011));
    // oMask turns alpha-to-coverage off (17.18)
    assert_eq!(om.coverage_mask(0b1111, Some(0b1000), &half, None), 0b1000);
}

#[test]
fn each_sample_blends_against_its_own_stored_value() {
    // additive blending ONE + ONE: sample s holds s, the output is 0.5, so sample s becomes s + 0.5
    let state = blend_state(equation(
        Blend::One,
        Blend::One,
        BlendOp::Add,
        Blend::One,
        Blend::One,
        BlendOp::Add,
    ));
    let mut om = OutputMerger::new(&state, four_samples()).unwrap();
    let mut outputs = [[0u32; 4]; RENDER_TARGET_SLOTS];
    outputs[0] = texel([0.5; 4]);
    let mut declared = [0u8; RENDER_TARGET_SLOTS];
    declared[0] = 0xf;
    // only samples 1 and 3 are written
    for sample in [1, 3] {
        om.write_sample(0, 0, sample, &outputs, &declared, None).unwrap();
    }
    let target = om.into_targets().render_targets[0].take().unwrap();
    let got: Vec<f32> = (0..4)
        .map(|s| floats(target.sample_bytes(0, 0, s).unwrap())[0])
        .collect();
    assert_eq!(got, vec![0.0, 1.5, 2.0, 3.5]);
    // the bytes are the planes, sample 0's first
    assert_eq!(floats(&target.bytes()[16..32]), [1.5; 4]);
}

#[test]
fn depth_is_tested_and_written_per_sample() {
    // D32_FLOAT, 2 samples storing 0.25 and 0.75; LESS with 0.5: sample 0 fails, sample 1 passes and becomes 0.5
    let bytes: Vec<u8> = [0.25f32, 0.75].iter().flat_map(|v| v.to_le_bytes()).collect();
    let targets = Targets {
        depth_stencil: Some(DepthStencilTarget::multisampled(Format::D32Float, 1, 1, 2, bytes).unwrap()),
        ..Targets::default()
    };
    let mut om = OutputMerger::new(&depth_state(ComparisonFunc::Less), targets).unwrap();
    assert_eq!(
        om.depth_stencil_sample(0, 0, 0, 0.5, true, None).unwrap(),
        DepthStencilOutcome::DepthFailed
    );
    assert_eq!(
        om.depth_stencil_sample(0, 0, 1, 0.5, true, None).unwrap(),
        DepthStencilOutcome::Passed
    );
    let buffer = om.targets().depth_stencil.as_ref().unwrap();
    assert_eq!(buffer.read_sample(0, 0, 0).unwrap().0, 0.25);
    assert_eq!(buffer.read_sample(0, 0, 1).unwrap().0, 0.5);
    assert!(buffer.read_sample(0, 0, 2).is_err());
}

#[test]
fn targets_of_different_sample_counts_are_refused_naming_them() {
    let mut targets = four_samples();
    targets.depth_stencil = Some(DepthStencilTarget::new(Format::D32Float, 1, 1, vec![0; 4]).unwrap());
    let error = OutputMerger::new(&OutputMergerState::default(), targets).unwrap_err();
    assert!(
        error.detail.contains("the depth-stencil buffer has 1 samples"),
        "{error}"
    );
    assert!(error.detail.contains("render target 0 has 4"), "{error}");
}

// ---------------------------------------------------------------------------------------------------------------
// The `blend-8bit` variant (crate::draw::variants): 8-bit UNORM targets blended in 8-bit codes

/// Writes `o0` at (0, 0) of a 1x1 target of `format` holding `dest`, blended in 8-bit fixed point when `fixed`.
fn write_8bit(state: &OutputMergerState, format: Format, dest: [u8; 4], o0: [f32; 4], fixed: bool) -> Vec<u8> {
    let mut om = OutputMerger::new(state, one_target(format, dest.to_vec()))
        .unwrap()
        .with_fixed_point_blend(fixed);
    let mut outputs = [[0u32; 4]; 8];
    outputs[0] = texel(o0);
    om.write(0, 0, &outputs, &[0xf; 8], None).unwrap();
    om.into_targets().render_targets[0].take().unwrap().into_bytes()
}

#[test]
fn an_8bit_blend_rounds_each_product_to_a_code_where_float32_rounds_once() {
    let over = blend_state(equation(
        Blend::SrcAlpha,
        Blend::InvSrcAlpha,
        BlendOp::Add,
        Blend::One,
        Blend::InvSrcAlpha,
        BlendOp::Add,
    ));
    // blue 0.1 at alpha 0.6 over 107 (fixtures/captures/README.md, 02's draw 1 at (41, 21)): in float32
    // 0.1 x 0.6 + 107/255 x 0.4 = 0.22784 = 58.1 codes -> 58; in codes 0.1 -> 25.5 -> 26 (nearest even), 0.6 -> 153,
    // 1 - 0.6 -> 255 - 153 = 102: 26 x 153 / 255 = 15.6 -> 16 plus 107 x 102 / 255 = 42.8 -> 43, so 59 (llvmpipe's).
    let source = [0.0, 0.0, 0.1, 0.6];
    assert_eq!(
        write_8bit(&over, Format::R8G8B8A8Unorm, [0, 0, 107, 255], source, false)[2],
        58
    );
    assert_eq!(
        write_8bit(&over, Format::R8G8B8A8Unorm, [0, 0, 107, 255], source, true)[2],
        59
    );
    // ImGui's header (21-imgui, draw 2 at (654, 87)): (66, 150, 250) / 255 at alpha code 79 over (21, 22, 23):
    // red 66 x 79 / 255 = 20.45 -> 20 plus 21 x 176 / 255 = 14.49 -> 14 = 34 (float32: 34.94 -> 35); green
    // 150 x 79 / 255 = 46.47 -> 46 plus 22 x 176 / 255 = 15.18 -> 15 = 61 (float32: 61.65 -> 62); alpha
    // 79 x 255 / 255 = 79 plus 255 x 176 / 255 = 176, 255.
    let header = [66.0 / 255.0, 150.0 / 255.0, 250.0 / 255.0, 79.0 / 255.0];
    let fixed = write_8bit(&over, Format::R8G8B8A8Unorm, [21, 22, 23, 255], header, true);
    assert_eq!(&fixed[..2], &[34, 61]);
    assert_eq!(fixed[3], 255);
    assert_eq!(
        &write_8bit(&over, Format::R8G8B8A8Unorm, [21, 22, 23, 255], header, false)[..2],
        &[35, 62]
    );
}

#[test]
fn an_8bit_blend_saturates_its_sums_and_differences_and_leaves_other_formats_in_float() {
    let add = blend_state(equation(
        Blend::One,
        Blend::One,
        BlendOp::Add,
        Blend::One,
        Blend::One,
        BlendOp::Subtract,
    ));
    // 200 + 100 saturates at 255; alpha (SUBTRACT: source - destination) 100 - 200 stops at 0
    let out = write_8bit(
        &add,
        Format::R8G8B8A8Unorm,
        [100, 0, 0, 200],
        [200.0 / 255.0, 0.0, 0.0, 100.0 / 255.0],
        true,
    );
    assert_eq!((out[0], out[3]), (255, 0));
    // SRGB targets blend in float whatever the variant (llvmpipe linearizes them): 0.5 x 0.5 + 0 = 0.25 linear,
    // encoded 137 (3.2.3.7: 1.055 x 0.25^(1/2.4) - 0.055 = 0.5370 x 255 = 136.9)
    let half = blend_state(equation(
        Blend::SrcAlpha,
        Blend::Zero,
        BlendOp::Add,
        Blend::One,
        Blend::Zero,
        BlendOp::Add,
    ));
    let srgb = write_8bit(
        &half,
        Format::R8G8B8A8UnormSrgb,
        [0, 0, 0, 0],
        [0.5, 0.5, 0.5, 0.5],
        true,
    );
    assert_eq!(srgb[0], 137);
}

//! `fixtures/captures/20-recorded.iridia`, recorded by the recorder from its Wine test program
//! (`scripts/record-fixture.sh`): it opens, holds the program's fourteen draws in order and its resolve, and every
//! draw re-runs on the CPU; the single-sampled colour targets match what the GPU (Wine's d3d11 on Mesa llvmpipe)
//! wrote, within each format's tolerance, and so does the resolve resolved again. Runs on any host: it reads the
//! committed file, no Wine.

// Test code: a failed step is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use iridia::capture::{Capture, TargetSlot};
use iridia::compare::{CompareOptions, Tolerance, compare};
use iridia::draw::{ShaderCache, run_draw};

fn fixture() -> Capture<std::io::Cursor<std::sync::Arc<[u8]>>> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/captures/20-recorded.iridia");
    Capture::open(std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn the_recorded_fixture_opens_whole_with_the_programs_draws_in_order() {
    let capture = fixture();
    capture.check().unwrap();
    assert_eq!(capture.ignored_tail(), 0);
    assert_eq!(capture.manifest().application.as_deref(), Some("testapp.exe"));
    let calls: Vec<String> = capture.draws().iter().map(|d| d.api_call.clone().unwrap()).collect();
    // testapp.c's draws 0 to 13 (its header lists them): four on the immediate context through the out-parameter,
    // GetImmediateContext, ID3D11DeviceContext1 and a texture's GetDevice; two from deferred contexts, recorded
    // where ExecuteCommandList ran them; swap chain A's back buffer; two render targets with a D24S8 target (twice);
    // four kinds of sampled texture; the 4x multisampled pass (twice); the resolved target sampled; device B's.
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
    // the ResolveSubresource after draw 11 (format 1.2)
    let resolves = capture.resolves();
    assert_eq!(resolves.len(), 1);
    assert_eq!(resolves[0].before_draw, 12);
    assert_eq!(resolves[0].source.resource.sample_count, 4);
}

#[test]
fn the_recorded_resolve_resolves_again_to_what_the_gpu_wrote() {
    // fixtures/captures/README.md: on this reference every texel's four samples are equal, and the box average
    // gives Wine's bytes exactly
    let mut capture = fixture();
    let resolve = capture.resolve(0).unwrap();
    let replay = iridia::replay::replay_resolve(&resolve, &iridia::compare::ToleranceSpec::exact()).unwrap();
    let report = replay.surfaces.report.unwrap();
    assert_eq!((report.compared_pixels, report.differing_pixels), (64 * 64, 0));
}

#[test]
fn every_recorded_draw_replays_and_its_colour_targets_match_the_gpu() {
    let mut capture = fixture();
    let mut cache = ShaderCache::new();
    for index in 0..capture.draw_count() {
        let draw = capture.draw(index).unwrap();
        let output = run_draw(&draw.state, &mut cache, None).unwrap_or_else(|e| panic!("draw {index}: {e}"));
        for target in &draw.targets {
            if target.resource.sample_count > 1 {
                // Draws 10 and 11's 4x targets hold each pixel's resolve in every sample (the next test)
                continue;
            }
            let TargetSlot::RenderTarget(slot) = target.target else {
                // Depth is reported by the Wine test, not asserted: llvmpipe interpolates depth from unsnapped
                // positions (d3d11-ref's README), so draws 0 to 2 differ by a few hundred ULP on their edges.
                continue;
            };
            let image = output.render_targets[slot as usize].as_ref().unwrap();
            let after = target.after.as_ref().unwrap();
            let recorded = iridia::compare::Image::new(target.format, target.width, target.height, after).unwrap();
            let comparison = compare(
                &recorded,
                &image.image().unwrap(),
                &CompareOptions::new(Tolerance::for_format(target.format)),
            )
            .unwrap();
            assert_eq!(
                comparison.report.differing_pixels, 0,
                "draw {index} {}: the replay differs from the GPU",
                target.target
            );
        }
    }
}

#[test]
fn the_recorded_4x_samples_are_each_pixels_resolve_of_the_replayed_samples() {
    // fixtures/captures/README.md: under Wine the recorder's per-sample readback of draw 10's 4x target (drawn over a
    // cleared target) gives every sample the same value, and that value is the box average of the spec's samples
    // as the replay computes them, to within one code: the GPU multisampled, the readback resolved
    let mut capture = fixture();
    let draw = capture.draw(10).unwrap();
    let output = run_draw(&draw.state, &mut ShaderCache::new(), None).unwrap();
    let target = draw
        .targets
        .iter()
        .find(|t| t.target == TargetSlot::RenderTarget(0))
        .unwrap();
    assert_eq!((target.width, target.height, target.resource.sample_count), (64, 64, 4));
    let recorded = target.after.as_deref().unwrap();
    let replayed = &output.render_targets[0].as_ref().unwrap().bytes;
    let plane = 64 * 64 * 4;
    let resolved = iridia::replay::resolve_samples(target.format, 64, 64, 4, replayed).unwrap();
    let mut edge_pixels = 0;
    for pixel in 0..64 * 64 {
        let sample = |bytes: &[u8], s: usize| bytes[s * plane + pixel * 4..s * plane + pixel * 4 + 4].to_vec();
        for s in 1..4 {
            assert_eq!(
                sample(recorded, s),
                sample(recorded, 0),
                "pixel {pixel}: the recorded samples are equal"
            );
        }
        if (1..4).any(|s| sample(replayed, s) != sample(replayed, 0)) {
            edge_pixels += 1;
        }
        for c in 0..4 {
            let (gpu, ours) = (recorded[pixel * 4 + c], resolved[pixel * 4 + c]);
            assert!(
                gpu.abs_diff(ours) <= 1,
                "pixel {pixel} channel {c}: GPU {gpu}, resolve of the replay {ours}"
            );
        }
    }
    // the replay's samples do differ at the edges, so the check above is not trivial
    assert!(edge_pixels > 50, "{edge_pixels} pixels with differing samples");
}

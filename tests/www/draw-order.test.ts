// The draw list's order by how visible each draw's difference is (the perceptual figure, LDR-FLIP's mean), beside the
// frame's order.

import assert from "node:assert/strict";
import { test } from "node:test";
import { orderedDraws, perceptualOf } from "../../www/src/app/draw-list";
import type { CompareResult, TargetComparison } from "../../www/src/protocol";

function target(target: TargetComparison["target"], mean: number | null): TargetComparison {
  return {
    target,
    compared_pixels: 16,
    differing_pixels: 0,
    ambiguous_pixels: 0,
    channels: [],
    first_difference: null,
    sample_differing_pixels: [],
    resolved_differing_pixels: null,
    bounds: null,
    perceptual: mean === null ? null : { mean, p50: 0, p95: mean, p99: mean, max: mean },
  };
}

test("a draw's perceptual figure is the largest mean over its render targets, none when no target has one", () => {
  const comparison: CompareResult = {
    draw: 3,
    targets: [target("rt0", 0.01), target("rt1", 0.04), target("depth", null)],
    status: { state: "matches", compared_pixels: 48 },
  };
  assert.equal(perceptualOf(comparison), 0.04);
  assert.equal(perceptualOf({ ...comparison, targets: [target("depth", null)] }), null);
});

test("sorted by perceptual figure the most visible draw comes first, draws without one last in frame order", () => {
  const figures = new Map([
    [1, 0.002],
    [3, 0.2],
    [4, 0.002],
  ]);
  assert.deepEqual(orderedDraws(6, "perceptual", figures), [3, 1, 4, 0, 2, 5]);
  assert.deepEqual(orderedDraws(6, "frame", figures), [0, 1, 2, 3, 4, 5]);
  assert.deepEqual(orderedDraws(0, "perceptual", figures), []);
});

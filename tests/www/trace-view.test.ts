// How the inspector shows one line's executions of a long loop (www/src/inspector.ts): the first and the last few,
// with the count between, so that a loop's last iterations are seen as well as its first.

import assert from "node:assert/strict";
import { test } from "node:test";
import { shownExecutions } from "../../www/src/inspector";

test("a line run a few times shows every run", () => {
  assert.deepEqual(shownExecutions([]), { first: [], hidden: 0, last: [] });
  assert.deepEqual(shownExecutions([1, 2, 3, 4, 5, 6]), { first: [1, 2, 3, 4, 5, 6], hidden: 0, last: [] });
});

test("a line run many times shows its first and last runs and how many lie between", () => {
  const runs = Array.from({ length: 70_000 }, (_, i) => i);
  assert.deepEqual(shownExecutions(runs), { first: [0, 1, 2], hidden: 69_994, last: [69_997, 69_998, 69_999] });
  assert.deepEqual(shownExecutions([1, 2, 3, 4, 5, 6, 7]), { first: [1, 2, 3], hidden: 1, last: [5, 6, 7] });
});

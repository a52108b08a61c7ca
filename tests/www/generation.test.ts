// The viewer's one mechanism against stale answers (www/src/app/generation.ts): tokens of a generation go stale at
// its next one, and at its parent's.

import assert from "node:assert/strict";
import { test } from "node:test";
import { Generation } from "../../www/src/app/generation";

test("a token stays current until its generation moves on", () => {
  const generation = new Generation();
  const first = generation.next();
  assert.equal(first.current, true);
  const second = generation.next();
  assert.equal(first.current, false);
  assert.equal(second.current, true);
});

test("token() joins the current generation without starting a new one", () => {
  const generation = new Generation();
  const started = generation.next();
  const joined = generation.token();
  assert.equal(started.current, true);
  assert.equal(joined.current, true);
  generation.next();
  assert.equal(joined.current, false);
});

test("a child's tokens go stale when the child moves on or when its parent does", () => {
  const navigation = new Generation();
  const pixel = navigation.child();
  const render = navigation.child();
  const trace = pixel.next();
  const image = render.next();
  pixel.next();
  assert.equal(trace.current, false, "a newer pixel makes the older pixel's answers stale");
  assert.equal(image.current, true, "siblings are independent");
  const latest = pixel.next();
  navigation.next();
  assert.equal(latest.current, false, "a new draw makes the pixel's answers stale");
  assert.equal(image.current, false, "and the render's");
  assert.equal(pixel.next().current, true, "a child token taken after the parent moved on is current");
});

test("the parent's tokens do not depend on its children", () => {
  const navigation = new Generation();
  const token = navigation.token();
  navigation.child().next();
  assert.equal(token.current, true);
});

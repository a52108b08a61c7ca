// The draw list's rows in the frame's order: every draw at its place, and the frame's other entries (draws the
// recorder could not record, resolves, dispatches) before the draw they came before (`before_draw`; one past the
// last draw, or more, at the end). Of entries before one draw, the unrecorded draws come first, then the resolves,
// then the dispatches, each in its list's order (the capture format orders each list, not the lists against each
// other).

/** One row of the draw list. */
export type FrameRow<U, R, D = never> =
  | { readonly kind: "draw"; readonly index: number }
  | { readonly kind: "unrecorded"; readonly entry: U }
  | { readonly kind: "resolve"; readonly entry: R }
  | { readonly kind: "dispatch"; readonly entry: D };

/** The rows of `drawCount` draws with `unrecorded` draws, `resolves` and `dispatches` in their places. */
export function frameRows<U extends { before_draw: number }, R extends { before_draw: number }, D extends { before_draw: number } = never>(
  drawCount: number,
  unrecorded: readonly U[],
  resolves: readonly R[],
  dispatches: readonly D[] = [],
): FrameRow<U, R, D>[] {
  const rows: FrameRow<U, R, D>[] = [];
  const here = (before: number, index: number): boolean => before === index || (index === drawCount && before > drawCount);
  for (let index = 0; index <= drawCount; index++) {
    for (const entry of unrecorded) if (here(entry.before_draw, index)) rows.push({ kind: "unrecorded", entry });
    for (const entry of resolves) if (here(entry.before_draw, index)) rows.push({ kind: "resolve", entry });
    for (const entry of dispatches) if (here(entry.before_draw, index)) rows.push({ kind: "dispatch", entry });
    if (index < drawCount) rows.push({ kind: "draw", index });
  }
  return rows;
}

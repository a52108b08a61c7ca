// Against stale answers: a request's answer is used only if nothing it belongs to has changed since it was sent.
// A Generation counts changes (a new capture or draw, a new pixel, a new render); a token taken from it says whether
// its generation is still the current one. A child generation nests in its parent, so that its tokens also go stale
// when the parent moves on: a pixel's trace, asked for before the draw changed, is dropped when it arrives after.

/** Whether the work a token was taken for still belongs to what the page shows. */
export interface GenerationToken {
  /** True until the token's generation (or a generation it nests in) moves on. */
  readonly current: boolean;
}

/** A counter of changes, with tokens that go stale at the next one. */
export class Generation {
  private count = 0;

  constructor(private readonly parent: Generation | null = null) {}

  /** Starts a new generation: every token taken before goes stale. Returns a token of the new one. */
  next(): GenerationToken {
    this.count++;
    return this.token();
  }

  /** A token of the current generation, for work that must not outlive it but does not start a new one. */
  token(): GenerationToken {
    const generation = this.count;
    const parent = this.parent?.token() ?? null;
    const counter = (): number => this.count;
    return {
      get current(): boolean {
        return generation === counter() && (parent === null || parent.current);
      },
    };
  }

  /** A generation nested in this one: its tokens go stale when it moves on, and when this one does. */
  child(): Generation {
    return new Generation(this);
  }
}

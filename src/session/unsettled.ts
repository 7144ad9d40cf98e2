import type { Clock } from "./clock.js";

/**
 * Work the session started and nobody awaits (a call winding down after its deadline, a landing being stored),
 * so that closing can wait for it, within a grace.
 */
export class Unsettled {
  private readonly pending = new Set<Promise<unknown>>();

  constructor(private readonly clock: Clock) {}

  track(work: Promise<unknown>): void {
    this.pending.add(work);
    work.finally(() => this.pending.delete(work)).catch(() => {});
  }

  /** Resolves once everything tracked has settled, or after `graceMs`. */
  async settle(graceMs: number): Promise<void> {
    let grace: unknown;
    await Promise.race([
      Promise.allSettled([...this.pending]),
      new Promise<void>((resolve) => {
        grace = this.clock.setTimeout(resolve, graceMs);
      }),
    ]);
    this.clock.clearTimeout(grace);
  }
}

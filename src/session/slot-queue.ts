/** At most `max` lookups run at once; the rest wait their turn, first come first served. */
export class SlotQueue {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly max: number) {
    if (!Number.isInteger(max) || max < 1)
      throw new RangeError("maxConcurrent must be an integer of at least 1");
  }

  /** Calls `start` now if a slot is free, else when one frees. Returns a withdraw for a start not yet made. */
  enter(start: () => void): () => void {
    if (this.running < this.max) {
      this.running++;
      start();
      return () => {};
    }
    this.waiting.push(start);
    return () => {
      const at = this.waiting.indexOf(start);
      if (at !== -1) this.waiting.splice(at, 1);
    };
  }

  /** Frees the slot of a started lookup; the longest waiting one takes it. */
  leave(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}

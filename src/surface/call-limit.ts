/**
 * Bounds the calls one client has in flight: `running` at once, `waiting` more in a queue, the rest refused
 * at once. A runaway agent loop then slows itself down instead of every other client of the server.
 */
export class CallLimit {
  private active = 0;
  private readonly queue: Array<() => void> = [];

  constructor(
    readonly running: number,
    readonly waiting: number,
  ) {}

  /** Resolves with a release function, or false when the queue is full or the call was cancelled. */
  async acquire(signal?: AbortSignal): Promise<(() => void) | false> {
    if (signal?.aborted) return false;
    if (this.active < this.running) {
      this.active++;
      return this.releaser();
    }
    if (this.queue.length >= this.waiting) return false;
    return new Promise((resolve) => {
      const go = () => {
        signal?.removeEventListener("abort", onAbort);
        this.active++;
        resolve(this.releaser());
      };
      const onAbort = () => {
        const at = this.queue.indexOf(go);
        if (at >= 0) this.queue.splice(at, 1);
        resolve(false);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.queue.push(go);
    });
  }

  private releaser(): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.active--;
      this.queue.shift()?.();
    };
  }
}

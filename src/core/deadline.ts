/**
 * One Deadline per call, passed down to every awaited I/O. A child gets at most what its parent has left,
 * so a provider's 5 s budget can never outlive the chain's 20 s.
 */
export class Deadline {
  readonly at: number;
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;

  private constructor(
    at: number,
    private readonly parent?: Deadline,
  ) {
    this.at = at;
    const ms = at - Date.now();
    if (ms <= 0) {
      this.controller.abort(new DeadlineExceeded());
    } else {
      this.timer = setTimeout(() => this.controller.abort(new DeadlineExceeded()), ms);
      this.timer.unref();
    }
    if (parent) {
      if (parent.signal.aborted) this.controller.abort(parent.signal.reason);
      else parent.signal.addEventListener("abort", () => this.abort(parent.signal.reason), { once: true });
    }
  }

  /** A deadline `ms` from now (Infinity allowed for "no limit", capped to a day). */
  static after(ms: number): Deadline {
    const capped = Number.isFinite(ms) ? Math.max(0, ms) : 86_400_000;
    return new Deadline(Date.now() + capped);
  }

  /** Ties an external signal (a cancelled MCP call, a closed HTTP request) to a new deadline. */
  static fromSignal(signal: AbortSignal | undefined, ms: number): Deadline {
    const d = Deadline.after(ms);
    if (signal) {
      if (signal.aborted) d.abort(signal.reason);
      else signal.addEventListener("abort", () => d.abort(signal.reason), { once: true });
    }
    return d;
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  remaining(): number {
    if (this.controller.signal.aborted) return 0;
    return Math.max(0, this.at - Date.now());
  }

  expired(): boolean {
    return this.remaining() <= 0;
  }

  /** True when the call was cancelled by its caller rather than running out of time. */
  cancelled(): boolean {
    return this.signal.aborted && !(this.signal.reason instanceof DeadlineExceeded);
  }

  /** A sub-budget: at most `maxMs`, never past this deadline. */
  child(maxMs: number = Number.POSITIVE_INFINITY): Deadline {
    const at = Math.min(this.at, Date.now() + Math.max(0, maxMs));
    return new Deadline(at, this);
  }

  abort(reason: unknown = new Error("cancelled")): void {
    if (this.timer) clearTimeout(this.timer);
    if (!this.controller.signal.aborted) this.controller.abort(reason);
  }

  /** Resolves after `ms` or when the deadline fires, whichever is first; returns false if cut short. */
  sleep(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      if (this.signal.aborted) return resolve(false);
      const t = setTimeout(() => {
        this.signal.removeEventListener("abort", onAbort);
        resolve(true);
      }, ms);
      const onAbort = () => {
        clearTimeout(t);
        resolve(false);
      };
      this.signal.addEventListener("abort", onAbort, { once: true });
    });
  }
}

export class DeadlineExceeded extends Error {
  constructor() {
    super("deadline exceeded");
    this.name = "DeadlineExceeded";
  }
}

/**
 * One Deadline per call, passed down to every awaited I/O. A child gets at most what its parent has left,
 * so a provider's 5 s budget can never outlive the chain's 20 s.
 *
 * The AbortSignal is made only when someone asks for it: on Node 20 creating one costs tens of microseconds,
 * more than a whole keep-alive request on loopback. `onAbort` and `remaining()` do not need it. Likewise the
 * timer runs only while someone listens (a signal, or `onAbort`), so a call that ends early leaves no timer
 * behind: tens of thousands of requests a second would otherwise keep as many timers alive.
 */
export class Deadline {
  readonly at: number;
  private controller: AbortController | undefined;
  private watched = false;
  private done = false;
  private why: unknown;
  private listeners: Set<(reason: unknown) => void> | undefined;

  private offParent: (() => void) | undefined;

  private constructor(at: number, parent?: Deadline) {
    this.at = at;
    if (at - Date.now() <= 0) this.abort(new DeadlineExceeded());
    if (parent && !this.done) {
      if (parent.done) this.abort(parent.why);
      else this.offParent = parent.onAbort((reason) => this.abort(reason));
    }
  }

  /** Starts watching the clock (once); ends the deadline at once if its time has already come. */
  private arm(): void {
    if (this.watched || this.done) return;
    if (this.at - Date.now() <= 0) {
      this.abort(new DeadlineExceeded());
      return;
    }
    this.watched = true;
    watch(this);
  }

  private disarmIfUnwatched(): void {
    if (this.watched && !this.controller && !this.listeners?.size) {
      this.watched = false;
      unwatch(this);
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
      else {
        const onAbort = () => d.abort(signal.reason);
        signal.addEventListener("abort", onAbort, { once: true });
        d.onAbort(() => signal.removeEventListener("abort", onAbort));
      }
    }
    return d;
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.done) this.controller.abort(this.why);
      else this.arm();
    }
    return this.controller.signal;
  }

  /** Calls `listener` once when the deadline passes or is aborted (at once if it already has); returns an unsubscribe. */
  onAbort(listener: (reason: unknown) => void): () => void {
    this.arm();
    if (this.done) {
      listener(this.why);
      return () => {};
    }
    this.listeners ??= new Set();
    this.listeners.add(listener);
    return () => {
      this.listeners?.delete(listener);
      this.disarmIfUnwatched();
    };
  }

  /** Why it ended: a DeadlineExceeded, or the caller's reason. Undefined while it runs. */
  get reason(): unknown {
    return this.why;
  }

  remaining(): number {
    if (this.done) return 0;
    return Math.max(0, this.at - Date.now());
  }

  expired(): boolean {
    return this.remaining() <= 0;
  }

  /** True once it has ended (time ran out and was noticed, or it was aborted), as its signal's `aborted` reads. */
  ended(): boolean {
    return this.done;
  }

  /** True when the call was cancelled by its caller rather than running out of time. */
  cancelled(): boolean {
    return this.done && !(this.why instanceof DeadlineExceeded);
  }

  /** A sub-budget: at most `maxMs`, never past this deadline. */
  child(maxMs: number = Number.POSITIVE_INFINITY): Deadline {
    const at = Math.min(this.at, Date.now() + Math.max(0, maxMs));
    return new Deadline(at, this);
  }

  abort(reason: unknown = new Error("cancelled")): void {
    if (this.done) return;
    if (this.watched) {
      this.watched = false;
      unwatch(this);
    }
    this.done = true;
    this.why = reason;
    this.offParent?.();
    this.offParent = undefined;
    this.controller?.abort(reason);
    const listeners = this.listeners;
    this.listeners = undefined;
    if (listeners) for (const listener of listeners) listener(reason);
  }

  /** Resolves after `ms` or when the deadline fires, whichever is first; returns false if cut short. */
  sleep(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      if (this.done) return resolve(false);
      const t = setTimeout(() => {
        off();
        resolve(true);
      }, ms);
      const off = this.onAbort(() => {
        clearTimeout(t);
        resolve(false);
      });
    });
  }
}

/**
 * The shared clock: one unref'd timer, set for the earliest watched deadline. Unwatching leaves it set; when it
 * fires it ends what is due and sets itself for the earliest deadline left, so a stream of requests with the same
 * budget touches no timer at all. A timer that fires early (ms rounding) finds nothing due and is set again.
 */
const watching = new Set<Deadline>();
let clock: NodeJS.Timeout | undefined;
let clockAt = Number.POSITIVE_INFINITY;

function watch(deadline: Deadline): void {
  watching.add(deadline);
  setClock(deadline.at);
}

function unwatch(deadline: Deadline): void {
  watching.delete(deadline);
}

function setClock(at: number): void {
  if (at >= clockAt) return;
  if (clock) clearTimeout(clock);
  clockAt = at;
  clock = setTimeout(tick, Math.max(1, at - Date.now()));
  clock.unref();
}

function tick(): void {
  clock = undefined;
  clockAt = Number.POSITIVE_INFINITY;
  const now = Date.now();
  const due: Deadline[] = [];
  let next = Number.POSITIVE_INFINITY;
  for (const deadline of watching) {
    if (deadline.at <= now) due.push(deadline);
    else if (deadline.at < next) next = deadline.at;
  }
  // Listeners may watch new deadlines; setClock keeps whichever comes first.
  for (const deadline of due) deadline.abort(new DeadlineExceeded());
  if (next !== Number.POSITIVE_INFINITY) setClock(next);
}

export class DeadlineExceeded extends Error {
  constructor() {
    super("deadline exceeded");
    this.name = "DeadlineExceeded";
  }
}

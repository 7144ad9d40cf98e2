// The reason of a plain abort(): one shared value, because building an Error captures a stack (11 µs warm, 60 µs
// after an idle gap), paid on every finished provider step and read.
const CANCELLED = new Error("cancelled");

/**
 * One Deadline per call, passed down to every awaited I/O. A child gets at most what its parent has left,
 * so a provider's 5 s budget can never outlive the chain's 20 s.
 *
 * The AbortSignal is made only when someone asks for it: on Node 20 creating one costs tens of microseconds,
 * more than a whole keep-alive request on loopback. `onAbort` and `remaining()` do not need it. Likewise the
 * clock is watched only while someone listens (a signal, or `onAbort`), through one shared timer: tens of
 * thousands of requests a second would otherwise set and clear as many timers.
 */
export class Deadline {
  readonly at: number;
  private controller: AbortController | undefined;
  /** Index in `watching` while the clock watches this deadline, else -1. */
  private slot = -1;
  private done = false;
  private why: unknown;
  private listeners: Set<(reason: unknown) => void> | undefined;

  private offParent: (() => void) | undefined;
  /** Stops listening to the caller's signal (`fromSignal`). */
  private offSignal: (() => void) | undefined;

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
    if (this.slot !== -1 || this.done) return;
    const left = this.at - Date.now();
    if (left <= 0) {
      this.abort(new DeadlineExceeded());
      return;
    }
    this.slot = watching.length;
    watching.push(this);
    const due = performance.now() + left;
    dues.push(due);
    Deadline.setClock(due);
  }

  /** Leaves the clock: the last watched deadline takes this one's slot. */
  private disarm(): void {
    const slot = this.slot;
    if (slot === -1) return;
    this.slot = -1;
    const last = watching.pop() as Deadline;
    const lastDue = dues.pop() as number;
    if (last !== this) {
      watching[slot] = last;
      dues[slot] = lastDue;
      last.slot = slot;
    }
  }

  private disarmIfUnwatched(): void {
    if (!this.controller && !this.listeners?.size) this.disarm();
  }

  /** Sets the shared clock for `due` unless it is already set for an earlier time. */
  private static setClock(due: number): void {
    if (due >= clockAt) return;
    if (clock) clearTimeout(clock);
    clockAt = due;
    clock = setTimeout(Deadline.tick, Math.min(MAX_DELAY, Math.max(1, due - performance.now())));
    clock.unref();
  }

  /** The shared clock fired: ends every watched deadline that is due and sets the clock for the next. */
  private static tick(): void {
    clock = undefined;
    clockAt = Number.POSITIVE_INFINITY;
    const now = performance.now();
    const ended: Deadline[] = [];
    let next = Number.POSITIVE_INFINITY;
    for (let i = 0; i < watching.length; i++) {
      if (dues[i] <= now) ended.push(watching[i]);
      else if (dues[i] < next) next = dues[i];
    }
    // Listeners may watch new deadlines; setClock keeps whichever comes first.
    for (const deadline of ended) deadline.abort(new DeadlineExceeded());
    if (next !== Number.POSITIVE_INFINITY) Deadline.setClock(next);
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
        // Not through onAbort: a listener would put the deadline on the clock for its whole budget, and a call
        // answered from the cache in a millisecond would stay watched for twenty seconds.
        d.offSignal = () => signal.removeEventListener("abort", onAbort);
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

  abort(reason: unknown = CANCELLED): void {
    if (this.done) return;
    this.disarm();
    this.done = true;
    this.why = reason;
    this.offParent?.();
    this.offParent = undefined;
    this.release();
    this.controller?.abort(reason);
    const listeners = this.listeners;
    this.listeners = undefined;
    if (listeners) for (const listener of listeners) listener(reason);
  }

  /**
   * The call this deadline was made for is over: it stops listening to the caller's signal, so a long-lived
   * signal given to many calls does not gather one listener per call. Its time and its children are unchanged.
   */
  release(): void {
    this.offSignal?.();
    this.offSignal = undefined;
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
 * Due times are kept on the monotonic clock, as a timer's are: a wall clock stepped back (NTP, a resumed VM)
 * must not hold every watched deadline for the size of the step.
 *
 * The watched deadlines sit in an array (due times in a parallel one), each deadline knowing its slot: a Map keyed
 * by deadline was rehashed every few calls under the add-then-delete churn of short requests, which cost more
 * than the rest of a deadline's life and fed the GC.
 */
const watching: Deadline[] = [];
const dues: number[] = [];
let clock: NodeJS.Timeout | undefined;
let clockAt = Number.POSITIVE_INFINITY;
// setTimeout takes at most a signed 32-bit delay; longer ones fire at once (and warn).
const MAX_DELAY = 2 ** 31 - 1;

export class DeadlineExceeded extends Error {
  constructor() {
    super("deadline exceeded");
    this.name = "DeadlineExceeded";
  }
}

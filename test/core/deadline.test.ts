import { getEventListeners } from "node:events";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Deadline, DeadlineExceeded } from "../../src/core/deadline.js";

// The clock is simulated for the whole file (one continuous timeline, as the shared timer of the module under
// test outlives each case): a deadline due at 20 ms fires when the test moves time past 20 ms, however busy the
// machine is.
beforeAll(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "performance"] });
});
afterAll(() => {
  vi.useRealTimers();
});
const pass = (ms: number) => vi.advanceTimersByTimeAsync(ms);

describe("Deadline", () => {
  it("expires on time, with a DeadlineExceeded on its signal", async () => {
    const d = Deadline.after(30);
    expect(d.expired()).toBe(false);
    const slept = d.sleep(1000);
    await pass(30);
    expect(await slept).toBe(false);
    expect(d.expired()).toBe(true);
    expect(d.cancelled()).toBe(false);
    expect(d.signal.aborted).toBe(true);
    expect(d.signal.reason).toBeInstanceOf(DeadlineExceeded);
  });

  it("tells apart a cancellation, for listeners and for a signal made before or after", () => {
    const d = Deadline.after(10_000);
    const early = d.signal;
    const seen: unknown[] = [];
    d.onAbort((r) => seen.push(r));
    const off = d.onAbort(() => seen.push("removed"));
    off();
    const reason = new Error("user cancelled");
    d.abort(reason);
    d.abort(new Error("second abort is ignored"));
    expect(seen).toEqual([reason]);
    expect(early.aborted && early.reason).toBe(reason);
    expect(d.signal.reason).toBe(reason);
    expect(d.cancelled()).toBe(true);
    expect(d.remaining()).toBe(0);
    const late: unknown[] = [];
    d.onAbort((r) => late.push(r));
    expect(late).toEqual([reason]);
  });

  it("gives a child at most what its parent has left, and ends it with the parent", () => {
    const parent = Deadline.after(10_000);
    const child = parent.child(60_000);
    expect(child.at).toBeLessThanOrEqual(parent.at);
    expect(parent.child(100).at).toBeLessThan(parent.at);
    parent.abort(new Error("stop"));
    expect(child.cancelled()).toBe(true);
    expect(child.signal.aborted).toBe(true);
    expect(parent.child().expired()).toBe(true);
  });

  it("follows an external signal", () => {
    const ac = new AbortController();
    const d = Deadline.fromSignal(ac.signal, 10_000);
    ac.abort(new Error("client went away"));
    expect(d.cancelled()).toBe(true);
    const already = Deadline.fromSignal(ac.signal, 10_000);
    expect(already.expired()).toBe(true);
  });

  it("a zero or negative budget is over at once; Infinity is capped", () => {
    expect(Deadline.after(0).expired()).toBe(true);
    expect(Deadline.after(-5).signal.aborted).toBe(true);
    expect(Deadline.after(Number.POSITIVE_INFINITY).remaining()).toBeGreaterThan(86_000_000);
  });
});

describe("Deadline's timer runs only while watched", () => {
  it("a deadline nobody listens to still reads as expired once its time has come", async () => {
    const d = Deadline.after(20);
    await pass(40);
    expect(d.expired()).toBe(true);
    expect(d.cancelled()).toBe(false);
    expect(d.signal.aborted).toBe(true);
    expect(d.signal.reason).toBeInstanceOf(DeadlineExceeded);
  });

  it("a listener added late is called at once when the time has passed", async () => {
    const d = Deadline.after(10);
    await pass(30);
    const seen: unknown[] = [];
    d.onAbort((r) => seen.push(r));
    expect(seen[0]).toBeInstanceOf(DeadlineExceeded);
  });

  it("unsubscribing the last listener stops the timer, subscribing again restarts it", async () => {
    const d = Deadline.after(40);
    const off = d.onAbort(() => {});
    off();
    const seen: unknown[] = [];
    d.onAbort((r) => seen.push(r));
    await pass(80);
    expect(seen).toHaveLength(1);
  });
});

describe("A deadline tied to a caller's signal", () => {
  it("ends with the signal's reason, and leaves the signal when it ends", () => {
    const caller = new AbortController();
    const d = Deadline.fromSignal(caller.signal, 60_000);
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(1);
    caller.abort("client went away");
    expect(d.cancelled()).toBe(true);
    expect(d.reason).toBe("client went away");
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
  });

  it("released when its call is over, it leaves the signal and keeps its time", () => {
    const caller = new AbortController();
    const d = Deadline.fromSignal(caller.signal, 60_000);
    d.release();
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
    caller.abort();
    expect(d.ended()).toBe(false);
    expect(d.remaining()).toBeGreaterThan(0);
  });
});

describe("Deadlines share one clock", () => {
  it("each watched deadline ends at its own time, whatever order they were made in", async () => {
    const start = Date.now();
    const due = { early: 20, middle: 50, late: 90 } as const;
    const ended: [keyof typeof due, number][] = [];
    for (const name of ["late", "early", "middle"] as const)
      Deadline.after(due[name]).onAbort(() => ended.push([name, Date.now() - start]));
    await pass(150);
    expect(ended.map(([name]) => name)).toEqual(["early", "middle", "late"]);
    for (const [name, at] of ended) expect(at).toBeGreaterThanOrEqual(due[name] - 1);
  });

  it("a deadline no longer watched does not end early, and one watched after it still ends on time", async () => {
    const unwatched = Deadline.after(20);
    const seen: unknown[] = [];
    unwatched.onAbort(() => seen.push("unwatched"))();
    const later = Deadline.after(60);
    later.onAbort((r) => seen.push(r));
    await pass(35);
    expect(seen).toEqual([]);
    expect(unwatched.expired()).toBe(true);
    await pass(60);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeInstanceOf(DeadlineExceeded);
  });

  it("an aborted deadline leaves the clock to the others", async () => {
    const a = Deadline.after(20);
    const b = Deadline.after(40);
    const seen: string[] = [];
    a.onAbort(() => seen.push("a"));
    b.onAbort((r) => seen.push(r instanceof DeadlineExceeded ? "b timed out" : "b"));
    a.abort(new Error("stop"));
    await pass(70);
    expect(seen).toEqual(["a", "b timed out"]);
  });

  it("leaving the clock in any order keeps the others watched, each at its own time", async () => {
    const seen: string[] = [];
    const offs = [30, 10, 40, 20, 50].map((ms, i) => Deadline.after(ms).onAbort(() => seen.push(`d${i}`)));
    // Leave from the middle and from the end, so the last watched deadline moves into a freed place.
    offs[1]();
    offs[4]();
    offs[2]();
    const late = Deadline.after(45);
    late.onAbort(() => seen.push("late"));
    await pass(100);
    expect(seen).toEqual(["d3", "d0", "late"]);
  });

  it("a listener that watches a new, earlier deadline when another ends gets it on time", async () => {
    const seen: string[] = [];
    Deadline.after(20).onAbort(() => {
      Deadline.after(15).onAbort(() => seen.push("second"));
    });
    Deadline.after(200).onAbort(() => seen.push("far"));
    await pass(70);
    expect(seen).toEqual(["second"]);
  });
});

describe("Deadline's watched set under churn", () => {
  it("random watch, unwatch, re-watch and abort: each ends at its time, none early, none lost", async () => {
    // A seeded walk over the slot bookkeeping: a wrong swap on removal would end a deadline early, late, never,
    // or end one nobody watches any more.
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    type Entry = {
      d: Deadline;
      at: number;
      endedAt?: number;
      off?: () => void;
      active: boolean;
      aborted: boolean;
    };
    const made: Entry[] = [];
    const listen = (e: Entry) => {
      e.active = true;
      e.off = e.d.onAbort(() => {
        e.endedAt ??= performance.now();
      });
    };
    const t0 = performance.now();
    for (let i = 0; i < 300; i++) {
      const budget = 30 + Math.floor(rand() * 120);
      const entry: Entry = { d: Deadline.after(budget), at: t0 + budget, active: false, aborted: false };
      made.push(entry);
      listen(entry);
      const other = made[Math.floor(rand() * made.length)];
      if (other.aborted) continue;
      const roll = rand();
      if (roll < 0.3 && other.active) {
        other.off?.();
        other.active = false;
      } else if (roll < 0.45) {
        other.off?.();
        listen(other);
      } else if (roll < 0.55) {
        other.aborted = true;
        other.d.abort(new Error("stop"));
      }
    }
    await pass(300);
    for (const e of made) {
      if (e.aborted) expect(e.d.cancelled()).toBe(true);
      else if (e.active) {
        expect(e.endedAt, "a watched deadline ends").toBeDefined();
        expect(e.endedAt as number).toBeGreaterThanOrEqual(e.at - 2);
        expect(e.d.reason).toBeInstanceOf(DeadlineExceeded);
      } else {
        // Nobody listens: the clock must not end it (it still reads as expired).
        expect(e.endedAt).toBeUndefined();
        expect(e.d.ended()).toBe(false);
        expect(e.d.expired()).toBe(true);
      }
    }
  });
});

describe("Deadline's shared clock keeps monotonic time", () => {
  it("a wall clock stepped back does not hold a watched deadline", async () => {
    const realNow = Date.now;
    let ended = false;
    const d = Deadline.after(40);
    d.onAbort(() => {
      ended = true;
    });
    const stepped = realNow() - 60_000;
    Date.now = () => stepped + (performance.now() % 1000);
    try {
      await pass(200);
    } finally {
      Date.now = realNow;
    }
    expect(ended).toBe(true);
    expect(d.ended()).toBe(true);
  });

  it("a deadline longer than a timer can wait is not ended early", async () => {
    const d = Deadline.after(40 * 24 * 3600 * 1000);
    let ended = false;
    const off = d.onAbort(() => {
      ended = true;
    });
    await pass(50);
    off();
    expect(ended).toBe(false);
    expect(d.ended()).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { Deadline, DeadlineExceeded } from "../../src/core/deadline.js";

describe("Deadline", () => {
  it("expires on time, with a DeadlineExceeded on its signal", async () => {
    const d = Deadline.after(30);
    expect(d.expired()).toBe(false);
    expect(await d.sleep(1000)).toBe(false);
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
    await new Promise((r) => setTimeout(r, 40));
    expect(d.expired()).toBe(true);
    expect(d.cancelled()).toBe(false);
    expect(d.signal.aborted).toBe(true);
    expect(d.signal.reason).toBeInstanceOf(DeadlineExceeded);
  });

  it("a listener added late is called at once when the time has passed", async () => {
    const d = Deadline.after(10);
    await new Promise((r) => setTimeout(r, 30));
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
    await new Promise((r) => setTimeout(r, 80));
    expect(seen).toHaveLength(1);
  });
});

import { describe, expect, it } from "vitest";
import { CallLimit } from "../../src/surface/call-limit.js";

describe("CallLimit", () => {
  it("runs so many calls at once, queues so many more in order, and refuses the rest at once", async () => {
    const limit = new CallLimit(2, 1);
    const first = await limit.acquire();
    const second = await limit.acquire();
    expect(first).toBeTypeOf("function");
    expect(second).toBeTypeOf("function");
    let queuedRan = false;
    const queued = limit.acquire().then((release) => {
      queuedRan = true;
      return release;
    });
    expect(await limit.acquire()).toBe(false);
    await Promise.resolve();
    expect(queuedRan).toBe(false);
    (first as () => void)();
    const third = await queued;
    expect(third).toBeTypeOf("function");
    // Releasing twice frees one place, not two: with two running, the next call waits in the queue.
    (first as () => void)();
    let fourthRan = false;
    void limit.acquire().then(() => {
      fourthRan = true;
    });
    await new Promise(setImmediate);
    expect(fourthRan).toBe(false);
    (second as () => void)();
    await new Promise(setImmediate);
    expect(fourthRan).toBe(true);
  });

  it("gives up a queued place when its call is cancelled, and refuses a call cancelled already", async () => {
    const limit = new CallLimit(1, 1);
    const running = await limit.acquire();
    const cancel = new AbortController();
    const waiting = limit.acquire(cancel.signal);
    cancel.abort();
    expect(await waiting).toBe(false);
    // The cancelled call left the queue: another takes its place, and gets the slot when it frees.
    const next = limit.acquire();
    (running as () => void)();
    expect(await next).toBeTypeOf("function");
    expect(await limit.acquire(AbortSignal.abort())).toBe(false);
  });
});

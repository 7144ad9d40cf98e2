import { describe, expect, it } from "vitest";
import { createSession, type SessionWebsift } from "../../src/session/session.js";
import { inbox, manualClock } from "./harness.js";

/** A websift whose calls never finish and ignore their signal: the session alone must keep its promises. */
function stuckWebsift(seen: AbortSignal[]): SessionWebsift {
  const never = () => new Promise<never>(() => {});
  return {
    search: (_q, options) => {
      if (options?.signal) seen.push(options.signal);
      return never();
    },
    read: () => never(),
    answer: (_q, options) => {
      if (options?.signal) seen.push(options.signal);
      return never();
    },
  };
}

describe("session: a call that never returns", () => {
  it("lands as a timeout at the hard deadline, frees its slot, and close() still resolves", async () => {
    const seen: AbortSignal[] = [];
    const clock = manualClock();
    const mail = inbox();
    const session = createSession(stuckWebsift(seen), {
      clock,
      onLanded: mail.onLanded,
      maxConcurrent: 1,
      lookupTimeoutMs: 5000,
    });
    const first = session.search("a", "first");
    clock.advance(1000);
    const second = session.answer("b", "second");
    clock.advance(3000);
    expect((await first).status).toBe("pending");
    expect(session.pending("b")).toMatchObject([{ kind: "answer", state: "queued" }]);

    clock.advance(1000);
    const landed = await mail.next();
    expect(landed).toMatchObject({ conversationId: "a", kind: "search", result: { status: "timeout" } });
    expect(seen[0].aborted).toBe(true);
    expect(session.pending("b")).toMatchObject([{ kind: "answer", state: "running" }]);
    expect((await second).status).toBe("pending");

    clock.advance(1000);
    const next = await mail.next();
    expect(next).toMatchObject({ conversationId: "b", kind: "answer", result: { status: "timeout" } });
    expect(next.keepAs).toBe('(you looked up "second": timeout)');

    const closing = session.close();
    clock.advance(2000);
    await closing;
    expect(mail.landed).toHaveLength(2);
  });
});

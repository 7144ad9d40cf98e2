import { describe, expect, it } from "vitest";
import type { SearchResponse } from "../../src/search/chain.js";
import { createSession, type Landing } from "../../src/session/session.js";
import { inbox, manualClock } from "./harness.js";

/** A library whose searches answer only when the test releases them by query. */
function heldLibrary() {
  const waiting = new Map<string, (r: SearchResponse) => void>();
  const started: string[] = [];
  const aborted: string[] = [];
  const answer = (query: string): SearchResponse => ({
    status: "ok",
    query,
    results: [
      { title: `About ${query}`, url: "https://www.example.com/", snippet: "", rank: 1, providers: ["x"] },
    ],
    attempted: [],
    scope: "general",
  });
  return {
    started,
    aborted,
    release(query: string) {
      waiting.get(query)?.(answer(query));
    },
    websift: {
      search: (query: string, options?: { signal?: AbortSignal }) =>
        new Promise<SearchResponse>((resolve) => {
          started.push(query);
          waiting.set(query, resolve);
          // As the library does: a stopped call answers at once.
          options?.signal?.addEventListener(
            "abort",
            () => {
              aborted.push(query);
              resolve({ ...answer(query), status: "error", results: [] });
            },
            { once: true },
          );
        }),
      read: async () => {
        throw new Error("not used");
      },
      answer: async () => {
        throw new Error("not used");
      },
    },
  };
}

describe("a session told to stop", () => {
  it("lets lookups finish within the grace, then lands the rest as shutting_down, and takes none after", async () => {
    const clock = manualClock();
    const mail = inbox();
    const lib = heldLibrary();
    const session = createSession(lib.websift as never, { clock, waitMs: 1000, onLanded: mail.onLanded });
    const asked = ["quick", "stuck"].map((q) => session.search("c1", q));
    clock.advance(1000);
    const [quick, stuck] = await Promise.all(asked);
    expect([quick?.status, stuck?.status]).toEqual(["pending", "pending"]);

    const draining = session.drain(5000);
    const late = await session.search("c1", "after the signal");
    expect(late).toMatchObject({ status: "error", code: "shutting_down" });
    expect(lib.started).not.toContain("after the signal");

    lib.release("quick");
    const first: Landing = await mail.next();
    expect(first).toMatchObject({ id: quick?.id, result: { status: "ok" } });
    expect(lib.aborted).toEqual([]);
    clock.advance(5000);
    await draining;
    const second = await mail.next();
    expect(second).toMatchObject({ id: stuck?.id, result: { status: "error", code: "shutting_down" } });
    expect(second.keepAs).toMatch(/stuck/);
    expect(lib.aborted).toEqual(["stuck"]);
    expect(mail.landed).toHaveLength(2);
    await session.close();
  });

  it("returns at once when nothing is in flight", async () => {
    const session = createSession(heldLibrary().websift as never, { clock: manualClock() });
    await session.drain(60_000);
    expect(await session.search("c1", "x")).toMatchObject({ status: "error", code: "shutting_down" });
    await session.close();
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { bookSiteWait } from "../../../src/read/sites/api-pacing.js";
import type { SiteContext } from "../../../src/read/sites/site-reader.js";
import { MemoryStore } from "../../../src/store/store.js";

// The store's limiter reads the clock: frozen here, so every wait below is exact.
const T0 = Date.parse("2026-12-02T12:00:00Z");

function siteContext(store: MemoryStore): SiteContext {
  return {
    net: undefined as never,
    log: () => {},
    keys: {},
    reserveSlot: (key, interval, maxWait) => store.reserveSlot(key, interval, maxWait),
    rest: async () => {},
  };
}

/** How long from now the key is held (a zero-interval booking only reads the pending wait). */
const heldFor = (store: MemoryStore, key: string) => store.reserveSlot(key, 0);

describe("bookSiteWait: a wait the site named holds its key until then", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(T0);
  });
  afterEach(() => vi.useRealTimers());

  it("holds a key that nothing held for the seconds named", async () => {
    const store = new MemoryStore();
    await bookSiteWait(siteContext(store), "backoff:/questions", 30);
    expect(await heldFor(store, "backoff:/questions")).toBe(30_000);
  });

  it("two answers naming the same wait at once hold it once, not one after the other", async () => {
    const store = new MemoryStore();
    const ctx = siteContext(store);
    await Promise.all([bookSiteWait(ctx, "k", 30), bookSiteWait(ctx, "k", 30)]);
    expect(await heldFor(store, "k")).toBe(30_000);
  });

  it("a longer wait named later extends the hold to its own end; a shorter one leaves it", async () => {
    const store = new MemoryStore();
    const ctx = siteContext(store);
    await bookSiteWait(ctx, "k", 30);
    vi.setSystemTime(T0 + 10_000);
    await bookSiteWait(ctx, "k", 5);
    expect(await heldFor(store, "k")).toBe(20_000);
    await bookSiteWait(ctx, "k", 60);
    expect(await heldFor(store, "k")).toBe(60_000);
  });

  it("books nothing for a missing or non-positive wait, and at most a day", async () => {
    const store = new MemoryStore();
    const ctx = siteContext(store);
    await bookSiteWait(ctx, "k", undefined);
    await bookSiteWait(ctx, "k", 0);
    await bookSiteWait(ctx, "k", -5);
    expect(await heldFor(store, "k")).toBe(0);
    await bookSiteWait(ctx, "k", 10 * 24 * 3600);
    expect(await heldFor(store, "k")).toBe(24 * 3600 * 1000);
  });
});

describe("bookSiteWait: a shorter wait booked between its two asks", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(T0);
  });
  afterEach(() => vi.useRealTimers());

  it("still holds the key for the longer wait", async () => {
    const store = new MemoryStore();
    const ctx = siteContext(store);
    await bookSiteWait(ctx, "k", 2);
    // A second answer's 5 s wait lands while the first answer's 30 s wait is between its reading and its booking.
    let raced = false;
    const racing: SiteContext = {
      ...ctx,
      reserveSlot: async (key, interval, maxWait) => {
        const got = await store.reserveSlot(key, interval, maxWait);
        if (!raced && maxWait === 0) {
          raced = true;
          await bookSiteWait(ctx, key, 5);
        }
        return got;
      },
    };
    await bookSiteWait(racing, "k", 30);
    expect(await heldFor(store, "k")).toBe(30_000);
  });
});

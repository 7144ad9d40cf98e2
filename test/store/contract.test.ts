import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { RedisStore } from "../../src/store/redis.js";
import { SqliteStore } from "../../src/store/sqlite.js";
import { MemoryStore, type Store } from "../../src/store/store.js";
import { RedisServer } from "./redis-server.js";

// One contract, every backend: what the search cache, suspensions, cooldowns and limiters rely on.
let redis: RedisServer;
const dir = mkdtempSync(join(tmpdir(), "websift-store-"));
beforeAll(async () => {
  redis = await RedisServer.start();
});
afterAll(async () => {
  await redis.kill();
  rmSync(dir, { recursive: true, force: true });
});

let opened = 0;
const backends: [string, () => Store][] = [
  ["memory", () => new MemoryStore()],
  ["sqlite", () => new SqliteStore(join(dir, `state-${++opened}.db`))],
  ["redis", () => new RedisStore({ url: redis.url, log: () => {} })],
];

let n = 0;
const uniqueKey = (name: string) => `${name}:${process.pid}:${++n}:${Math.random()}`;

describe.each(backends)("Store contract: %s", (name, open) => {
  let store: Store;
  afterEach(async () => {
    await store?.close();
  });

  it("names its backend", () => {
    store = open();
    expect(store.kind).toBe(name);
  });

  it("returns undefined for a key never set", async () => {
    store = open();
    expect(await store.get(uniqueKey("missing"))).toBeUndefined();
  });

  it("round-trips JSON values and overwrites", async () => {
    store = open();
    const key = uniqueKey("search");
    const value = {
      response: { results: [{ title: "Ä", url: "https://e.com/", rank: 1 }], ok: true },
      at: 1,
    };
    await store.set(key, value, 60_000);
    expect(await store.get(key)).toEqual(value);
    await store.set(key, "second", 60_000);
    expect(await store.get(key)).toBe("second");
    await store.set(key, 0, 60_000);
    expect(await store.get(key)).toBe(0);
  });

  it("deletes", async () => {
    store = open();
    const key = uniqueKey("suspend");
    await store.set(key, { until: 1 }, 60_000);
    await store.delete(key);
    expect(await store.get(key)).toBeUndefined();
    await store.delete(uniqueKey("never-set"));
  });

  it("forgets a value once its TTL has passed", async () => {
    store = open();
    const short = uniqueKey("short");
    const long = uniqueKey("long");
    await store.set(short, "gone soon", 5);
    await store.set(long, "stays", 60_000);
    // Waits for the expiry itself rather than a guessed while (Redis keeps its own clock); the test's timeout
    // bounds it.
    while ((await store.get(short)) !== undefined) await new Promise((r) => setTimeout(r, 1));
    expect(await store.get(long)).toBe("stays");
  });

  it("gives parallel reservations distinct slots one interval apart", async () => {
    store = open();
    const key = uniqueKey("rate");
    const interval = 60_000;
    const waits = await Promise.all(Array.from({ length: 6 }, () => store.reserveSlot(key, interval)));
    // Each wait is k intervals minus the few ms between bookings; rounding recovers k.
    expect(waits.map((w) => Math.round(w / interval)).sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(Math.min(...waits)).toBe(0);
  });

  it("a reservation of no interval books nothing and waits out one booked before (a backoff a site asked for)", async () => {
    store = open();
    const key = uniqueKey("rate:backoff");
    expect(await store.reserveSlot(key, 0)).toBe(0);
    expect(await store.reserveSlot(key, 60_000)).toBe(0);
    const waits = [await store.reserveSlot(key, 0), await store.reserveSlot(key, 0)];
    expect(waits.map((w) => Math.round(w / 60_000))).toEqual([1, 1]);
  });

  it("keeps limiters apart by key", async () => {
    store = open();
    expect(await store.reserveSlot(uniqueKey("rate:a"), 60_000)).toBe(0);
    expect(await store.reserveSlot(uniqueKey("rate:b"), 60_000)).toBe(0);
  });
});

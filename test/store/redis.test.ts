import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { RedisStore } from "../../src/store/redis.js";
import { MemoryStore } from "../../src/store/store.js";
import { RedisServer } from "./redis-server.js";

let server: RedisServer;
beforeAll(async () => {
  server = await RedisServer.start();
});
afterAll(async () => {
  await server.kill();
});

const open: RedisStore[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});
function connect(
  url = server.url,
  log: (line: string) => void = () => {},
  fallback?: MemoryStore,
): RedisStore {
  const store = new RedisStore({ url, log, fallback, connectTimeoutMs: 500, commandTimeoutMs: 500 });
  open.push(store);
  return store;
}

/** Holds the event loop, as a saturated instance does: nothing else runs until it returns. */
function saturate(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {}
}

describe("RedisStore under load", () => {
  it("stays shared while its own process is saturated past the command timeout", async () => {
    const logs: string[] = [];
    const fallback = new MemoryStore();
    const store = connect(server.url, (l) => logs.push(l), fallback);
    const other = connect();
    await other.set("suspend:fleet-load", { until: 42 }, 60_000);
    await store.get("warm-up");
    for (let round = 0; round < 3; round++) {
      // Commands in flight, then the loop is held for longer than their 500 ms budget.
      const reads = Array.from({ length: 20 }, () => store.get("suspend:fleet-load"));
      const booked = store.reserveSlot("rate:fleet-load", 10);
      // Let them go out (queued work, no I/O phase: no reply can be read before the loop is held).
      for (let n = 0; n < 10; n++) await new Promise((resolve) => process.nextTick(resolve));
      saturate(800);
      expect(await Promise.all(reads)).toEqual(Array.from({ length: 20 }, () => ({ until: 42 })));
      expect(await booked).toBeGreaterThanOrEqual(0);
      expect(store.status()).toEqual({ backend: "redis", degraded: false });
    }
    expect(logs.filter((l) => /unavailable/.test(l))).toEqual([]);
    // Nothing was answered from the local stand-in: every read was the fleet's.
    expect(await fallback.get("suspend:fleet-load")).toBeUndefined();
  });

  it("still calls a server that stops answering unavailable, and answers from the fallback", async () => {
    const hung = await RedisServer.start();
    const logs: string[] = [];
    const store = connect(hung.url, (l) => logs.push(l));
    try {
      await store.set("k", 1, 60_000);
      hung.pause();
      expect(await store.get("k")).toBeUndefined();
      expect(store.status()).toMatchObject({ backend: "redis", degraded: true });
      expect(logs.some((l) => /unavailable \(redis did not answer within 500 ms\)/.test(l))).toBe(true);
    } finally {
      hung.resume();
      await hung.kill();
    }
  });
});

describe("RedisStore", () => {
  it("keeps keys under websift: with a PX expiry", async () => {
    const store = connect();
    await store.set("search:abc", { at: 1 }, 30_000);
    const raw = new RedisStore({ url: server.url, log: () => {} });
    open.push(raw);
    // A second client sees the same entry: the cache is the fleet's, not the process's.
    expect(await raw.get("search:abc")).toEqual({ at: 1 });
    const { Redis } = await import("ioredis");
    const plain = new Redis(server.url);
    expect(await plain.get("websift:search:abc")).toBe('{"at":1}');
    const ttl = await plain.pttl("websift:search:abc");
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(30_000);
    plain.disconnect();
    expect(store.status()).toEqual({ backend: "redis", degraded: false });
  });

  it("gives a fleet sharing one 1 request/s plan slots one interval apart", async () => {
    const workers = Array.from({ length: 4 }, () => connect());
    const interval = 1000;
    const waits = await Promise.all(
      workers.flatMap((w) => Array.from({ length: 3 }, () => w.reserveSlot("rate:brave:fleet", interval))),
    );
    // Wait k is k intervals minus the ms that passed on the server between bookings.
    expect(waits.map((w) => Math.round(w / interval)).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 12 }, (_, k) => k),
    );
  });

  it("answers from the fallback when Redis is unreachable from the start, and says so", async () => {
    const log = vi.fn();
    const dead = await RedisServer.start();
    await dead.kill();
    const store = connect(dead.url, log);
    await store.set("k", "local", 60_000);
    expect(await store.get("k")).toBe("local");
    expect(await store.reserveSlot("rate:x", 1000)).toBe(0);
    expect(store.status()).toMatchObject({
      backend: "redis",
      degraded: true,
      reason: expect.stringContaining("ECONNREFUSED"),
    });
    expect(log).toHaveBeenCalledTimes(1);
    expect(log.mock.calls[0][0]).toMatch(/redis unavailable/);
  });

  it("keeps answering when Redis dies mid-run, and goes back to it when it returns", async () => {
    const log = vi.fn();
    const fallback = new MemoryStore();
    const local = await RedisServer.start();
    const store = connect(local.url, log, fallback);
    await store.set("search:before", "shared", 60_000);
    expect(await store.get("search:before")).toBe("shared");

    await local.kill();
    await vi.waitFor(() => expect(store.status().degraded).toBe(true));
    // No call throws; writes land in the fallback, limiters keep queueing locally.
    await store.set("search:during", "local", 60_000);
    expect(await store.get("search:during")).toBe("local");
    expect(await fallback.get("search:during")).toBe("local");
    expect(await store.get("search:before")).toBeUndefined();
    expect(await store.reserveSlot("rate:brave", 60_000)).toBe(0);
    expect(Math.round((await store.reserveSlot("rate:brave", 60_000)) / 60_000)).toBe(1);
    await store.delete("search:during");
    expect(await store.get("search:during")).toBeUndefined();
    expect(log).toHaveBeenCalledTimes(1);

    await local.start();
    await vi.waitFor(() => expect(store.status()).toEqual({ backend: "redis", degraded: false }), {
      timeout: 5000,
    });
    await store.set("search:after", "shared again", 60_000);
    const other = connect(local.url);
    expect(await other.get("search:after")).toBe("shared again");
    expect(log).toHaveBeenCalledTimes(2);
    expect(log.mock.calls[1][0]).toMatch(/redis is back/);
    await store.close();
    await local.kill();
  });
});

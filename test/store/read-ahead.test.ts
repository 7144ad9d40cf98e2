import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readAhead } from "../../src/store/read-ahead.js";
import { RedisStore } from "../../src/store/redis.js";
import { MemoryStore, type Store } from "../../src/store/store.js";
import { RedisServer } from "./redis-server.js";

let server: RedisServer;
beforeAll(async () => {
  server = await RedisServer.start();
});
afterAll(async () => {
  await server.kill();
});

/** Calls Redis has run per command so far (INFO commandstats). */
async function commandCalls(): Promise<Record<string, number>> {
  const r = new Redis(server.url);
  try {
    const info = await r.info("commandstats");
    return Object.fromEntries(
      [...info.matchAll(/cmdstat_(\w+):calls=(\d+)/g)].map((m) => [m[1], Number(m[2])]),
    );
  } finally {
    r.disconnect();
  }
}

describe("readAhead", () => {
  it("answers the keys it was given from one MGET, the rest from the store", async () => {
    const store = new RedisStore({ url: server.url, log: () => {} });
    try {
      await store.set("ahead:a", { until: 1 }, 60_000);
      await store.set("ahead:c", { until: 3 }, 60_000);
      await store.set("ahead:other", "x", 60_000);
      const before = await commandCalls();
      const view = readAhead(store, ["ahead:a", "ahead:b", "ahead:c"]);
      expect(await Promise.all([view.get("ahead:a"), view.get("ahead:b"), view.get("ahead:c")])).toEqual([
        { until: 1 },
        undefined,
        { until: 3 },
      ]);
      const after = await commandCalls();
      expect((after.mget ?? 0) - (before.mget ?? 0)).toBe(1);
      expect((after.get ?? 0) - (before.get ?? 0)).toBe(0);
      // A key outside the set, or one read a second time, is the store's own read.
      expect(await view.get("ahead:other")).toBe("x");
      expect(await view.get("ahead:a")).toEqual({ until: 1 });
      expect(((await commandCalls()).get ?? 0) - (after.get ?? 0)).toBe(2);
    } finally {
      await store.close();
    }
  });

  it("reads afresh a key written or deleted through it", async () => {
    const store = new MemoryStore();
    await store.set("k1", "old", 60_000);
    await store.set("k2", "old", 60_000);
    const view = readAhead(store, ["k1", "k2"]);
    await view.set("k1", "new", 60_000);
    await view.delete("k2");
    expect(await view.get("k1")).toBe("new");
    expect(await view.get("k2")).toBeUndefined();
  });

  it("reads one by one from a store without getMany, and retries a key alone when the batch failed", async () => {
    const reads: string[] = [];
    let failNext = true;
    const flaky: Store = Object.assign(new MemoryStore(), {
      async get<T>(key: string): Promise<T | undefined> {
        reads.push(key);
        if (failNext) {
          failNext = false;
          throw new Error("store unreachable");
        }
        return key as T;
      },
    });
    const view = readAhead(flaky, ["x", "y"]);
    // The batch failed on "x"; each key read through the view is asked again on its own.
    expect(await view.get("x")).toBe("x");
    expect(await view.get("y")).toBe("y");
    expect(reads).toEqual(["x", "y", "x", "y"]);
  });

  it("leaves no unhandled rejection when a failed batch is never read", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const broken: Store = Object.assign(new MemoryStore(), {
        getMany: () => Promise.reject(new Error("store unreachable")),
      });
      readAhead(broken, ["never-read"]);
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  it("is the store itself when there is nothing to read ahead", () => {
    const store = new MemoryStore();
    expect(readAhead(store, [])).toBe(store);
  });
});

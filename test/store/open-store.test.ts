import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { openStore, type StatusStore } from "../../src/store/open-store.js";
import { RedisServer } from "./redis-server.js";

const dir = mkdtempSync(join(tmpdir(), "websift-open-"));
let redis: RedisServer;
beforeAll(async () => {
  redis = await RedisServer.start();
});
afterAll(async () => {
  await redis.kill();
  rmSync(dir, { recursive: true, force: true });
});

let store: StatusStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

describe("openStore", () => {
  it("defaults to sqlite under HOME's cache on one machine", async () => {
    store = openStore({ env: { HOME: join(dir, "home") }, log: () => {} });
    expect(store.kind).toBe("sqlite");
    expect(store.status()).toEqual({ backend: "sqlite", degraded: false });
    expect(existsSync(join(dir, "home", ".cache", "websift", "state.db"))).toBe(true);
  });

  it("chooses redis when WEBSIFT_REDIS_URL names one", async () => {
    store = openStore({ env: { WEBSIFT_REDIS_URL: redis.url }, log: () => {}, path: join(dir, "unused.db") });
    expect(store.kind).toBe("redis");
    await store.set("k", 1, 10_000);
    expect(await store.get("k")).toBe(1);
    expect(store.status()).toEqual({ backend: "redis", degraded: false });
  });

  it("lets WEBSIFT_STORE force a backend", async () => {
    const env = { WEBSIFT_REDIS_URL: redis.url, HOME: join(dir, "home") };
    store = openStore({ env: { ...env, WEBSIFT_STORE: "memory" }, log: () => {} });
    expect(store.kind).toBe("memory");
    await store.close();
    store = openStore({
      env: { ...env, WEBSIFT_STORE: "sqlite" },
      log: () => {},
      path: join(dir, "forced.db"),
    });
    expect(store.kind).toBe("sqlite");
  });

  it("falls back to memory and says so when the sqlite file cannot be created", async () => {
    // A file where the cache directory should be: fails even for root, unlike a read-only mode.
    const blocked = join(dir, "blocked");
    writeFileSync(blocked, "");
    const log = vi.fn();
    store = openStore({ env: {}, log, path: join(blocked, "websift", "state.db") });
    expect(store.kind).toBe("memory");
    expect(store.status()).toMatchObject({
      backend: "sqlite",
      degraded: true,
      reason: expect.stringMatching(/ENOTDIR/),
    });
    expect(log).toHaveBeenCalledOnce();
    await store.set("still", "works", 10_000);
    expect(await store.get("still")).toBe("works");
  });

  it("says so when WEBSIFT_STORE=redis has no URL, or names no backend", async () => {
    const log = vi.fn();
    store = openStore({ env: { WEBSIFT_STORE: "redis" }, log });
    expect(store.status()).toMatchObject({ backend: "redis", degraded: true });
    expect(log.mock.calls[0][0]).toMatch(/WEBSIFT_REDIS_URL is not set/);
    await store.close();
    store = openStore({ env: { WEBSIFT_STORE: "postgres" }, log, path: join(dir, "fallback.db") });
    expect(store.kind).toBe("sqlite");
    expect(log.mock.calls[1][0]).toMatch(/WEBSIFT_STORE=postgres is not one of memory, sqlite, redis/);
  });
});

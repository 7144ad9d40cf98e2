import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { WEB_ABILITY_KEY } from "../../src/config/abilities.js";
import { ddgCooldownKey } from "../../src/search/providers/duckduckgo.js";
import type { StatusStore } from "../../src/store/open-store.js";
import { MemoryStore } from "../../src/store/store.js";
import { ddgResultsPage } from "../ground/answer/ddg-page.js";
import { ddgChallenge, type SimWeb, startSimWeb } from "../simweb/index.js";
import { RedisServer } from "../store/redis-server.js";
import { gate, type Served, serve } from "./harness.js";

// What a search costs the shared store, and what the store does while an instance is saturated: the fleet's
// cooldowns must stay shared exactly when an instance is busiest.

let web: SimWeb;
let redis: RedisServer;
const open: Served[] = [];
beforeAll(async () => {
  web = await startSimWeb();
  redis = await RedisServer.start();
});
afterAll(async () => {
  await redis?.kill();
  await web?.close();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
  web.reset();
});

const HTML = { "content-type": "text/html; charset=utf-8" };
const page = (q: string) =>
  ddgResultsPage(
    [1, 2, 3, 4].map((n) => ({
      title: `${q} result ${n}`,
      url: `https://www.example.com/${encodeURIComponent(q)}/${n}`,
      snippet: `${q} snippet ${n}`,
    })),
  );
const queryOf = (body: string) => new URLSearchParams(body).get("q") ?? "";
const regionOf = (body: string) => new URLSearchParams(body).get("kl");
const search = async (s: Served, query: string) =>
  (await (await s.post("/v1/search?raw=1", { query })).json()) as { status: string; attempted: unknown[] };
const health = async (s: Served) =>
  (await (await fetch(`${s.url}/v1/health`)).json()) as {
    store: { degraded: boolean };
    mailbox?: { degraded: boolean };
  };

describe("a search's reads from the shared store", () => {
  it("go out together before its first request: the switch, the cache entry and DuckDuckGo's cooldowns", async () => {
    // Every read waits behind a door: a read issued only after another answered would never be seen here.
    const door = gate();
    const asked: string[] = [];
    let armed = false;
    let sawRead = () => {};
    const firstRead = new Promise<void>((resolve) => {
      sawRead = resolve;
    });
    const backing = new MemoryStore();
    const held = async <T>(keys: string[], read: () => Promise<T>): Promise<T> => {
      if (!armed) return read();
      asked.push(...keys);
      sawRead();
      await door.wait;
      return read();
    };
    const store: StatusStore = {
      kind: "memory",
      get: (key) => held([key], () => backing.get(key)),
      getMany: <T>(keys: readonly string[]) =>
        held([...keys], () => Promise.all(keys.map((key) => backing.get<T>(key)))),
      set: (key, value, ttlMs) => backing.set(key, value, ttlMs),
      delete: (key) => backing.delete(key),
      reserveSlot: (key, intervalMs) => backing.reserveSlot(key, intervalMs),
      status: () => ({ backend: "memory", degraded: false }),
      close: async () => {},
    };
    web.route("html.duckduckgo.com", "/html/", (req) => ({ headers: HTML, body: page(queryOf(req.body)) }));
    const s = await serve(web, { context: { store } });
    open.push(s);
    armed = true;
    const answered = search(s, "reads together");
    await firstRead;
    // Reads issued together arrive within a few turns of the loop; a read waiting on another never does.
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    const together = [...asked];
    expect(web.requests).toHaveLength(0);
    door.open();
    expect((await answered).status).toBe("ok");
    expect(together).toContain(WEB_ABILITY_KEY);
    expect(together.some((key) => key.startsWith("search:"))).toBe(true);
    for (const region of ["wt-wt", "us-en", "uk-en", "de-de"])
      expect(together).toContain(ddgCooldownKey(region));
    // Nothing more is read before the request: the one round trip was all of it.
    expect(asked).toEqual(together);
  });
});

/** Holds the event loop, as a saturated instance does: nothing else runs until it returns. */
function saturate(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {}
}

describe("an instance saturated by a burst of searches", () => {
  it("keeps sharing: a cooldown it learns mid-burst is honoured by another instance, and its store never degrades", async () => {
    const env = { WEBSIFT_STORE: "redis", WEBSIFT_REDIS_URL: redis.url };
    const cap = { clientCap: { running: 64, waiting: 64 } };
    const [a, b] = await Promise.all([serve(web, { env, app: cap }), serve(web, { env, app: cap })]);
    open.push(a, b);
    const BURST = 40;
    const CHALLENGED = "burst challenged";
    // The engine answers no one until the whole burst has arrived, then everyone at once: the instance has
    // forty pages to parse and forty cache writes in flight, the challenged query's cooldown among them.
    const everyone = gate();
    let arrived = 0;
    web.route("html.duckduckgo.com", "/html/", async (req) => {
      if (++arrived === BURST) everyone.open();
      await everyone.wait;
      return queryOf(req.body) === CHALLENGED
        ? ddgChallenge(web, 202)
        : { headers: HTML, body: page(queryOf(req.body)) };
    });
    web.route("lite.duckduckgo.com", "/lite/", ddgChallenge(web, 202));
    // The moment Redis stores the cooldown, the instance reads it back, and its process is held for longer than
    // the store's 1 s command budget with those reads in flight: their replies arrive while nothing runs.
    const config = new Redis(redis.url);
    await config.config("SET", "notify-keyspace-events", "K$");
    config.disconnect();
    const watcher = new Redis(redis.url);
    await watcher.psubscribe("__keyspace@0__:websift:duckduckgo:region-cooldown:*");
    let readBack: Promise<unknown[]> | undefined;
    watcher.on("pmessage", async (_pattern: string, channel: string) => {
      if (readBack) return;
      const key = channel.slice(channel.indexOf("websift:") + "websift:".length);
      readBack = Promise.all(Array.from({ length: 20 }, () => a.ctx.store.get(key)));
      // Let them go out (queued work, no I/O phase: no reply can be read before the loop is held).
      for (let n = 0; n < 10; n++) await new Promise((resolve) => process.nextTick(resolve));
      saturate(1500);
    });
    try {
      const queries = Array.from({ length: BURST - 1 }, (_, i) => `burst query ${i}`);
      const replies = await Promise.all([...queries, CHALLENGED].map((q) => search(a, q)));
      // Read from the fleet's store, not from a stand-in: each read found the cooldown just written.
      const cooldowns = (await readBack) as Array<{ until: number } | undefined>;
      expect(cooldowns).toHaveLength(20);
      for (const cooldown of cooldowns) expect(cooldown?.until).toBeGreaterThan(Date.now());
      expect(replies.slice(0, -1).map((r) => r.status)).toEqual(queries.map(() => "ok"));
      expect(JSON.stringify(replies.at(-1)?.attempted)).toMatch(/duckduckgo.*blocked/);
      // Never standing in for Redis, not even for a moment: every write went to the fleet.
      expect(a.logs.filter((line) => /unavailable/.test(line))).toEqual([]);
      expect(await health(a)).toMatchObject({ store: { degraded: false }, mailbox: { degraded: false } });

      const cooled = web.requests
        .filter((r) => r.host.endsWith("duckduckgo.com") && queryOf(r.body) === CHALLENGED)
        .map((r) => regionOf(r.body));
      expect(cooled.length).toBeGreaterThan(0);
      web.requests.length = 0;
      web.route("html.duckduckgo.com", "/html/", (req) => ({ headers: HTML, body: page(queryOf(req.body)) }));
      expect((await search(b, "after the burst")).status).toBe("ok");
      const askedByB = web.requests
        .filter((r) => r.host.endsWith("duckduckgo.com"))
        .map((r) => regionOf(r.body));
      expect(askedByB.length).toBeGreaterThan(0);
      for (const region of askedByB) expect(cooled).not.toContain(region);
      expect(await health(b)).toMatchObject({ store: { degraded: false } });
    } finally {
      watcher.disconnect();
    }
  });
});

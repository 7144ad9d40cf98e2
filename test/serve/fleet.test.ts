import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { serveWeb } from "../mcp/harness.js";
import { type SimWeb, startSimWeb } from "../simweb/index.js";
import { RedisServer } from "../store/redis-server.js";
import { gate, openEvents, type Served, serve } from "./harness.js";

// Two instances of `websift serve` behind one load balancer: one Redis holds their cache, cooldowns and rate
// limits, and carries each conversation's landings to whichever instance has its stream open.
let web: SimWeb;
let redis: RedisServer;
let a: Served;
let b: Served;
beforeAll(async () => {
  web = await startSimWeb();
  redis = await RedisServer.start();
  const env = { WEBSIFT_STORE: "redis", WEBSIFT_REDIS_URL: redis.url };
  // One key for the fleet (the API token in production): its instances honour each other's conversation ids.
  const app = { conversationKey: "test-SECRET-fleet-key" };
  a = await serve(web, { env, app });
  b = await serve(web, { env, app });
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await redis?.kill();
  await web?.close();
});
afterEach(() => web.reset());

describe("two instances sharing Redis", () => {
  it("report the redis store as healthy", async () => {
    for (const s of [a, b]) {
      const health = await (await fetch(`${s.url}/v1/health`)).json();
      expect(health.store).toEqual({ backend: "redis", degraded: false });
    }
  });

  it("share one search cache", async () => {
    serveWeb(web);
    const first = await (await a.post("/v1/search", { query: "weather jakarta fleet" })).json();
    expect(first.status).toBe("ok");
    const asked = web.requests.length;
    const second = await (await b.post("/v1/search", { query: "weather jakarta fleet" })).json();
    expect(second.status).toBe("ok");
    expect(second.cached).toBe(true);
    expect(web.requests.length).toBe(asked);
  });

  it("deliver a landing from instance B to the stream open on instance A", async () => {
    const door = gate();
    web.route("www.example.com", "/fleet-slow", async () => {
      await door.wait;
      return {
        headers: { "content-type": "text/html" },
        body: `<html><head><title>Fleet page</title></head><body><main><article><h1>Fleet page</h1><p>${"Each instance reads the same shared state and hears the same landings. ".repeat(5)}</p></article></main></body></html>`,
      };
    });
    const cid = await b.conversation();
    const stream = await openEvents(`${a.url}/v1/conversations/${cid}/events`);
    try {
      const res = await b.post("/v1/read", {
        url: "https://www.example.com/fleet-slow",
        conversation_id: cid,
      });
      const pending = await res.json();
      expect(pending.status).toBe("pending");
      door.open();
      const landed = await stream.next();
      expect(landed.data).toMatchObject({
        id: pending.id,
        status: "ok",
        conversation_id: cid,
      });
      expect(landed.data.text).toMatch(/<<<WEB_CONTENT nonce=[\s\S]*Fleet page/);
    } finally {
      stream.close();
    }
  });
});

describe("Redis unreachable", () => {
  it("still serves, says the store is degraded, and delivers landings within the instance", async () => {
    const alone = await serve(web, {
      env: { WEBSIFT_STORE: "redis", WEBSIFT_REDIS_URL: "redis://127.0.0.1:1" },
    });
    const door = gate();
    web.route("www.example.com", "/alone", async () => {
      await door.wait;
      return {
        headers: { "content-type": "text/html" },
        body: `<html><head><title>Alone</title></head><body><main><article><h1>Alone</h1><p>${"An instance whose Redis is away keeps working on its own. ".repeat(5)}</p></article></main></body></html>`,
      };
    });
    const cid = await alone.conversation();
    const stream = await openEvents(`${alone.url}/v1/conversations/${cid}/events`);
    try {
      const health = await (await fetch(`${alone.url}/v1/health`)).json();
      expect(health.store).toMatchObject({ backend: "redis", degraded: true });
      const pending = await (
        await alone.post("/v1/read", { url: "https://www.example.com/alone", conversation_id: cid })
      ).json();
      expect(pending.status).toBe("pending");
      door.open();
      const landed = await stream.next();
      expect(landed.data).toMatchObject({ id: pending.id, status: "ok" });
      expect(landed.data.text).toMatch(/<<<WEB_CONTENT nonce=[\s\S]*Alone/);
    } finally {
      stream.close();
      await alone.close();
    }
  });
});

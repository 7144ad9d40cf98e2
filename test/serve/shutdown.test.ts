import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SimWeb, startSimWeb } from "../simweb/index.js";
import { RedisServer } from "../store/redis-server.js";
import { gate, openEvents, type Served, serve } from "./harness.js";

// A service told to stop (SIGTERM: ctx.drain, then the app and the context close, as `websift serve` does).
let web: SimWeb;
let redis: RedisServer;
beforeAll(async () => {
  web = await startSimWeb();
  redis = await RedisServer.start();
});
afterAll(async () => {
  await redis?.kill();
  await web?.close();
});

const PAGE = { "content-type": "text/html; charset=utf-8" };
const held = (path: string, title: string) => {
  const door = gate();
  let reached = () => {};
  const arrived = new Promise<void>((resolve) => {
    reached = resolve;
  });
  web.route("www.example.com", path, async () => {
    reached();
    await door.wait;
    return {
      headers: PAGE,
      body: `<html><head><title>${title}</title></head><body><main><article><h1>${title}</h1><p>${"A service that stops lets what it started finish or says why it did not. ".repeat(5)}</p></article></main></body></html>`,
    };
  });
  return { door, arrived };
};

async function stop(s: Served, graceMs: number): Promise<void> {
  await s.ctx.drain(graceMs);
  await s.close();
}

describe("stopping with calls in flight", () => {
  it("lets calls finish within the grace, stops the rest with shutting_down, and takes no new ones", async () => {
    const s = await serve(web);
    const cid = await s.conversation();
    const stream = await openEvents(`${s.url}/v1/conversations/${cid}/events`);
    const quick = held("/stop-quick", "Finishes in grace");
    const stuck = held("/stop-stuck", "Never finishes");
    const direct = held("/stop-direct", "Direct and stuck");
    try {
      const owedQuick = await (
        await s.post("/v1/read", { url: "https://www.example.com/stop-quick", conversation_id: cid })
      ).json();
      const owedStuck = await (
        await s.post("/v1/read", { url: "https://www.example.com/stop-stuck", conversation_id: cid })
      ).json();
      expect([owedQuick.status, owedStuck.status]).toEqual(["pending", "pending"]);
      const directCall = s.post("/v1/read", { url: "https://www.example.com/stop-direct" });
      await Promise.all([quick.arrived, stuck.arrived, direct.arrived]);

      // The quick one finishes once draining has begun; the grace (2 s here) ends the others.
      const draining = s.ctx.drain(2000);
      expect(s.ctx.draining()).toBe(true);
      const health = await fetch(`${s.url}/v1/health`);
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({ ok: false, draining: true });
      const refused = await (await s.post("/v1/search", { query: "new while stopping" })).json();
      expect(refused).toMatchObject({ status: "error" });
      expect(refused.text).toMatch(/the service stopped before the lookup finished/);
      quick.door.open();
      const first = await stream.next();
      expect(first.data).toMatchObject({ id: owedQuick.id, status: "ok" });
      expect(first.data.text).toMatch(/Finishes in grace/);

      await draining;
      const second = await stream.next();
      expect(second.data).toMatchObject({ id: owedStuck.id, status: "error" });
      expect(second.data.text).toMatch(/the service stopped before the lookup finished/);
      const cut = await (await directCall).json();
      expect(cut).toMatchObject({ status: "error" });
      expect(cut.text).toMatch(/the service stopped before the lookup finished/);
    } finally {
      stuck.door.open();
      direct.door.open();
      stream.close();
      await s.close();
    }
  });

  it("loses nothing that landed: a fleet instance that stops leaves its landings for a stream elsewhere", async () => {
    const env = { WEBSIFT_STORE: "redis", WEBSIFT_REDIS_URL: redis.url };
    const app = { conversationKey: "test-SECRET-shutdown-key" };
    const leaving = await serve(web, { env, app });
    const staying = await serve(web, { env, app });
    const page = held("/stop-landed", "Landed before stopping");
    try {
      const cid = await leaving.conversation();
      const owed = await (
        await leaving.post("/v1/read", { url: "https://www.example.com/stop-landed", conversation_id: cid })
      ).json();
      expect(owed.status).toBe("pending");
      const landed = new Promise((resolve) => leaving.ctx.onLanded(resolve));
      page.door.open();
      await landed;
      await stop(leaving, 2000);
      const stream = await openEvents(`${staying.url}/v1/conversations/${cid}/events`);
      try {
        expect((await stream.next()).data).toMatchObject({ id: owed.id, status: "ok" });
      } finally {
        stream.close();
      }
    } finally {
      await staying.close();
    }
  });
});

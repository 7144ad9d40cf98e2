import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { LandingHub } from "../../src/serve/landings.js";
import { serveWeb } from "../mcp/harness.js";
import { type SimWeb, startSimWeb } from "../simweb/index.js";
import { gate, openEvents, type Served, serve } from "./harness.js";

let web: SimWeb;
let server: Served;
beforeAll(async () => {
  web = await startSimWeb();
  server = await serve(web, { app: { keepAliveMs: 50 } });
});
afterAll(async () => {
  await server.close();
  await web.close();
});
afterEach(() => web.reset());

const PAGE = { "content-type": "text/html; charset=utf-8" };
const slowPage = (path: string) => {
  const door = gate();
  web.route("www.example.com", path, async () => {
    await door.wait;
    return {
      headers: PAGE,
      body: `<html><head><title>Slow harbour</title></head><body><main><article><h1>Slow harbour</h1><p>${"The harbour master publishes the tide table every morning before dawn. ".repeat(5)}</p></article></main></body></html>`,
    };
  });
  return door;
};

describe("conversations", () => {
  it("answers a quick lookup in the same response, with its id and the line to keep", async () => {
    const patient = await serve(web, { context: { session: { waitSeconds: 15 } } });
    try {
      serveWeb(web);
      const res = await patient.post("/v1/read", {
        url: "https://www.example.com/tides",
        conversation_id: "quick-1",
      });
      const body = await res.json();
      expect(body.status).toBe("ok");
      expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(body.keepAs).toBe("(you read https://www.example.com/tides)");
      expect(body.text).toMatch(/<<<WEB_CONTENT nonce=/);
    } finally {
      await patient.close();
    }
  });

  it("slow lookups of one conversation do not hold up another's: the service runs more than a conversation's 3", async () => {
    const server2 = await serve(web, { context: { session: { waitSeconds: 2 } } });
    const doors = ["/hog-1", "/hog-2", "/hog-3", "/hog-4"].map((path) => slowPage(path));
    try {
      serveWeb(web);
      const hogs = await Promise.all(
        ["/hog-1", "/hog-2", "/hog-3", "/hog-4"].map((path) =>
          server2.post("/v1/read", { url: `https://www.example.com${path}`, conversation_id: "hog" }),
        ),
      );
      for (const res of hogs) expect((await res.json()).status).toBe("pending");
      const res = await server2.post("/v1/read", {
        url: "https://www.example.com/tides",
        conversation_id: "victim",
      });
      expect((await res.json()).status).toBe("ok");
    } finally {
      for (const door of doors) door.open();
      await server2.close();
    }
  });

  it("answers pending for a slow lookup and delivers its landing once on the conversation's stream", async () => {
    const door = slowPage("/slow-a");
    const stream = await openEvents(`${server.url}/v1/conversations/conv-a/events`);
    const other = await openEvents(`${server.url}/v1/conversations/conv-other/events`);
    try {
      const res = await server.post("/v1/read", {
        url: "https://www.example.com/slow-a",
        conversation_id: "conv-a",
      });
      expect(res.status).toBe(200);
      const pending = await res.json();
      expect(pending).toMatchObject({
        status: "pending",
        message: "still looking, it reaches you by itself",
      });
      door.open();
      const landed = await stream.next();
      expect(landed.event).toBe("landed");
      expect(landed.id).toBe(pending.id);
      expect(landed.data).toMatchObject({
        id: pending.id,
        kind: "read",
        status: "ok",
        source: "extracted-html",
        conversation_id: "conv-a",
        keepAs: "(you read https://www.example.com/slow-a)",
      });
      // An app may hand the event's data to its model whole: the page's own words are only inside the fence.
      expect(landed.data).not.toHaveProperty("title");
      expect(landed.data).not.toHaveProperty("markdown");
      expect(landed.data.text).toMatch(/^https:\/\/www\.example\.com\/slow-a \(source: extracted-html\)\n/);
      expect(landed.data.text).toMatch(/<<<WEB_CONTENT nonce=/);
      // Keep-alive comments flow while nothing lands; another conversation's stream got nothing.
      while (stream.comments.filter((c) => c === ": keep-alive").length < 1) await tick();
      const nothing = await Promise.race([other.next().then(() => "event"), pause(200).then(() => "none")]);
      expect(nothing).toBe("none");
    } finally {
      stream.close();
      other.close();
    }
  });

  it("keeps a landing that found no stream open and delivers it when one connects", async () => {
    const door = slowPage("/slow-b");
    const landed = new Promise((resolve) => server.ctx.onLanded(resolve));
    const res = await server.post("/v1/read", {
      url: "https://www.example.com/slow-b",
      conversation_id: "conv-b",
    });
    const pending = await res.json();
    expect(pending.status).toBe("pending");
    door.open();
    await landed;
    await pause(50); // the landing is rendered, then handed to the streams
    const stream = await openEvents(`${server.url}/v1/conversations/conv-b/events`);
    try {
      const event = await stream.next();
      expect(event.data).toMatchObject({ id: pending.id, status: "ok" });
    } finally {
      stream.close();
    }
  });

  it("refuses a malformed conversation id", async () => {
    const res = await server.post("/v1/search", { query: "x", conversation_id: "no spaces allowed" });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/^conversation_id: /);
    const stream = await fetch(`${server.url}/v1/conversations/bad%20id/events`);
    expect(stream.status).toBe(400);
  });

  it("bounds the streams one client holds open", async () => {
    const own = await serve(web, { app: { maxStreamsPerClient: 2 } });
    try {
      const open = [
        await openEvents(`${own.url}/v1/conversations/s1/events`),
        await openEvents(`${own.url}/v1/conversations/s2/events`),
      ];
      const third = await fetch(`${own.url}/v1/conversations/s3/events`);
      expect(third.status).toBe(429);
      expect((await third.json()).error).toMatch(/too many open event streams/);
      open[0]?.close();
      let again = third;
      // The server hears the first stream close a moment after the client drops it.
      while (again.status === 429) {
        await pause(20);
        again = await fetch(`${own.url}/v1/conversations/s3/events`);
      }
      expect(again.status).toBe(200);
      await again.body?.cancel();
      open[1]?.close();
    } finally {
      await own.close();
    }
  });

  it("ends open streams when the server closes", async () => {
    const own = await serve(web);
    const stream = await openEvents(`${own.url}/v1/conversations/conv-c/events`);
    await own.close();
    await expect(stream.next()).rejects.toThrow(/ended/);
  });
});

describe("LandingHub", () => {
  const event = (conversationId: string, id: string) => ({ conversationId, id, data: { id } });

  it("keeps a bounded number of landings per conversation, newest last, and delivers each once", () => {
    const hub = new LandingHub({ log: () => {}, keepPerConversation: 2 });
    for (const id of ["1", "2", "3"]) hub.publish(event("c", id));
    const got: string[] = [];
    const stop = hub.subscribe("c", (e) => got.push(e.id));
    hub.publish(event("c", "4"));
    hub.publish(event("d", "5"));
    expect(got).toEqual(["2", "3", "4"]);
    stop();
    const again: string[] = [];
    hub.subscribe("c", (e) => again.push(e.id));
    expect(again).toEqual([]);
  });

  it("forgets landings past their age and bounds the conversations it keeps", () => {
    const old = new LandingHub({ log: () => {}, keepMs: -1 });
    old.publish(event("c", "1"));
    const got: string[] = [];
    old.subscribe("c", (e) => got.push(e.id));
    expect(got).toEqual([]);

    const few = new LandingHub({ log: () => {}, keepConversations: 2 });
    for (const c of ["a", "b", "c"]) few.publish(event(c, c));
    const seen: string[] = [];
    for (const c of ["a", "b", "c"]) few.subscribe(c, (e) => seen.push(e.id));
    expect(seen).toEqual(["b", "c"]);
  });
});

const tick = () => pause(10);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

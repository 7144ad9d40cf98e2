import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { failedLookup } from "../../src/session/failed-lookup.js";
import type { Landing } from "../../src/session/session.js";
import { serveWeb } from "../mcp/harness.js";
import { manualClock } from "../session/harness.js";
import { type SimWeb, startSimWeb } from "../simweb/index.js";
import { type EventStream, gate, openEvents, type Served, serve } from "./harness.js";

let web: SimWeb;
let server: Served;
// The streams' keep-alive runs on a clock the test moves: no test waits for wall time to pass.
const clock = manualClock();
beforeAll(async () => {
  web = await startSimWeb();
  server = await serve(web, { app: { keepAliveMs: 15_000, clock } });
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
    const patient = await serve(web, { context: { session: { waitMs: 15_000 } } });
    try {
      serveWeb(web);
      const res = await patient.post("/v1/read", {
        url: "https://www.example.com/tides",
        conversation_id: await patient.conversation(),
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
    const server2 = await serve(web, { context: { session: { waitMs: 2000 } } });
    const doors = ["/hog-1", "/hog-2", "/hog-3", "/hog-4"].map((path) => slowPage(path));
    try {
      serveWeb(web);
      const hog = await server2.conversation();
      const hogs = await Promise.all(
        ["/hog-1", "/hog-2", "/hog-3", "/hog-4"].map((path) =>
          server2.post("/v1/read", { url: `https://www.example.com${path}`, conversation_id: hog }),
        ),
      );
      for (const res of hogs) expect((await res.json()).status).toBe("pending");
      const res = await server2.post("/v1/read", {
        url: "https://www.example.com/tides",
        conversation_id: await server2.conversation(),
      });
      expect((await res.json()).status).toBe("ok");
    } finally {
      for (const door of doors) door.open();
      await server2.close();
    }
  });

  it("answers pending for a slow lookup and delivers its landing once on the conversation's stream", async () => {
    const door = slowPage("/slow-a");
    const convA = await server.conversation();
    const stream = await openEvents(`${server.url}/v1/conversations/${convA}/events`);
    const otherConversation = await server.conversation();
    const other = await openEvents(`${server.url}/v1/conversations/${otherConversation}/events`);
    try {
      const res = await server.post("/v1/read", {
        url: "https://www.example.com/slow-a",
        conversation_id: convA,
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
        conversation_id: convA,
        keepAs: "(you read https://www.example.com/slow-a)",
      });
      // An app may hand the event's data to its model whole: the page's own words are only inside the fence.
      expect(landed.data).not.toHaveProperty("title");
      expect(landed.data).not.toHaveProperty("markdown");
      expect(landed.data.text).toMatch(/^https:\/\/www\.example\.com\/slow-a \(source: extracted-html\)\n/);
      expect(landed.data.text).toMatch(/<<<WEB_CONTENT nonce=/);
      // Keep-alive comments flow while nothing lands; another conversation's stream got nothing.
      clock.advance(15_000);
      await stream.comment(": keep-alive");
      await nothingBefore(other, otherConversation);
    } finally {
      stream.close();
      other.close();
    }
  });

  it("keeps a landing that found no stream open and delivers it to its own conversation's stream only", async () => {
    const door = slowPage("/slow-b");
    const convB = await server.conversation();
    const landed = new Promise((resolve) => server.ctx.onLanded(resolve));
    const res = await server.post("/v1/read", {
      url: "https://www.example.com/slow-b",
      conversation_id: convB,
    });
    const pending = await res.json();
    expect(pending.status).toBe("pending");
    door.open();
    // In the mailbox by now: onLanded hears a landing once it is stored.
    await landed;
    // Another conversation's stream connecting first does not take it.
    const intruderConversation = await server.conversation();
    const intruder = await openEvents(`${server.url}/v1/conversations/${intruderConversation}/events`);
    const stream = await openEvents(`${server.url}/v1/conversations/${convB}/events`);
    try {
      const event = await stream.next();
      expect(event.data).toMatchObject({ id: pending.id, status: "ok", conversation_id: convB });
      await nothingBefore(intruder, intruderConversation);
    } finally {
      stream.close();
      intruder.close();
    }
  });

  it("issues unguessable ids, and a guessed, altered or foreign id gets nothing", async () => {
    const a = await server.conversation();
    const b = await server.conversation();
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[A-Za-z0-9_-]{24}\.[A-Za-z0-9_-]{22}$/);
    const elsewhere = await serve(web);
    const foreign = await elsewhere.conversation();
    await elsewhere.close();
    const altered = `${a.slice(0, 30)}${a[30] === "A" ? "B" : "A"}${a.slice(31)}`;
    const made = `${a.slice(0, 24)}.${"A".repeat(22)}`;
    for (const id of ["conv-1", "c1", altered, made, foreign, `${b.slice(0, 24)}.${a.slice(25)}`]) {
      const stream = await fetch(`${server.url}/v1/conversations/${id}/events`);
      expect(stream.status).toBe(404);
      expect((await stream.json()).error).toMatch(/no such conversation/);
      for (const [path, body] of <[string, object][]>[
        ["/v1/search", { query: "tide tables" }],
        ["/v1/read", { url: "https://www.example.com/tides" }],
        ["/v1/answer", { query: "tide tables" }],
      ]) {
        const res = await server.post(path, { ...body, conversation_id: id });
        expect(res.status).toBe(404);
        expect((await res.json()).error).toMatch(/^conversation_id: no such conversation/);
      }
    }
    expect(web.requests).toHaveLength(0);
  });

  it("replays what landed while the client was away after its Last-Event-ID, and nothing twice", async () => {
    const cid = await server.conversation();
    const land = async (path: string) => {
      const door = slowPage(path);
      const pending = await (
        await server.post("/v1/read", { url: `https://www.example.com${path}`, conversation_id: cid })
      ).json();
      expect(pending.status).toBe("pending");
      const landed = new Promise((resolve) => {
        const stop = server.ctx.onLanded((l) => {
          if (l.id === pending.id) resolve(stop());
        });
      });
      door.open();
      await landed;
      return pending.id as string;
    };
    const url = `${server.url}/v1/conversations/${cid}/events`;
    const first = await openEvents(url);
    const one = await land("/replay-1");
    const two = await land("/replay-2");
    expect((await first.next()).id).toBe(one);
    expect((await first.next()).id).toBe(two);
    first.close();
    // Away: two more land with no stream open.
    const three = await land("/replay-3");
    const four = await land("/replay-4");

    const back = await openEvents(url, { "last-event-id": two });
    expect([(await back.next()).id, (await back.next()).id]).toEqual([three, four]);
    const five = await land("/replay-5");
    const live = await back.next();
    expect(live.id).toBe(five);
    expect(live.data).toMatchObject({ id: five, status: "ok", conversation_id: cid });
    back.close();

    // An older cursor replays everything after it; an id no longer kept replays all that is kept.
    const older = await openEvents(url, { "last-event-id": one });
    const replayed = [];
    for (let n = 0; n < 4; n++) replayed.push((await older.next()).id);
    expect(replayed).toEqual([two, three, four, five]);
    older.close();
    const unknown = await openEvents(url, { "last-event-id": "never-sent" });
    expect((await unknown.next()).id).toBe(one);
    unknown.close();

    // Without Last-Event-ID a stream gets only what no stream took: here nothing.
    const fresh = await openEvents(url);
    await nothingBefore(fresh, cid);
    fresh.close();
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
        await openEvents(`${own.url}/v1/conversations/${await own.conversation()}/events`),
        await openEvents(`${own.url}/v1/conversations/${await own.conversation()}/events`),
      ];
      const s3 = await own.conversation();
      const third = await fetch(`${own.url}/v1/conversations/${s3}/events`);
      expect(third.status).toBe(429);
      expect((await third.json()).error).toMatch(/too many open event streams/);
      open[0]?.close();
      let again = third;
      // The server hears the first stream close a moment after the client drops it.
      while (again.status === 429) again = await fetch(`${own.url}/v1/conversations/${s3}/events`);
      expect(again.status).toBe(200);
      await again.body?.cancel();
      open[1]?.close();
    } finally {
      await own.close();
    }
  });

  it("ends open streams when the server closes", async () => {
    const own = await serve(web);
    const stream = await openEvents(`${own.url}/v1/conversations/${await own.conversation()}/events`);
    await own.close();
    await expect(stream.next()).rejects.toThrow(/ended/);
  });
});

/**
 * That `stream` was sent nothing so far, told by events, not by waiting: a marker landing is posted to its
 * conversation now, and a stream sends in landing order, so anything sent to it before would come first.
 */
async function nothingBefore(stream: EventStream, conversationId: string): Promise<void> {
  const id = `marker-${++markers}`;
  const url = "https://www.example.com/marker";
  const result = failedLookup("read", url, { status: "error", code: "marker", message: "a marker" });
  const landing = { id, conversationId, kind: "read", result, keepAs: "(marker)" } as Landing;
  expect(await server.ctx.session().mailbox.post(landing)).toBe(true);
  expect((await stream.next()).id).toBe(id);
}
let markers = 0;

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ReadResult } from "../../src/read/read.js";
import { createSession, PENDING_MESSAGE, type Session } from "../../src/session/session.js";
import { createWebsift, type Websift } from "../../src/websift.js";
import { type SimWeb, startSimWeb } from "../simweb/index.js";
import { heldRoute, inbox, manualClock, page, results, until } from "./harness.js";

let web: SimWeb;
let websift: Websift;
let session: Session;
let clock: ReturnType<typeof manualClock>;
let mail: ReturnType<typeof inbox>;
const releases: (() => void)[] = [];

beforeAll(async () => {
  web = await startSimWeb();
});
afterAll(async () => {
  await web.close();
});
beforeEach(() => {
  websift = createWebsift({ ...web.netConfig, env: {}, settings: { ddgRetryDelayMs: 5 } });
  clock = manualClock();
  mail = inbox();
  session = createSession(websift, { clock, onLanded: mail.onLanded });
});
afterEach(async () => {
  for (const release of releases.splice(0)) release();
  await session.close();
  await websift.close();
  web.reset();
});

const WWW = "www.example.com";
const held = (path: string, title = `Page ${path}`) => {
  const route = heldRoute(
    web,
    WWW,
    path,
    page(title, [`${title} has a first paragraph long enough to keep.`]),
  );
  releases.push(route.release);
  return route;
};
const hitsOf = (path: string) => web.requests.filter((r) => r.host === WWW && r.path === path).length;

describe("session: the wait", () => {
  it("answers in the same turn when the lookup finishes within the wait, with its keepAs line", async () => {
    web.route(WWW, "/quick", page("Quick facts", ["Quick facts are quick to read and worth keeping."]));
    const res = await session.read("a", "https://www.example.com/quick");
    expect(res.status).toBe("ok");
    expect((res as ReadResult).title).toBe("Quick facts");
    expect("keepAs" in res && res.keepAs).toBe("(you read https://www.example.com/quick)");
    expect(mail.landed).toEqual([]);
  });

  it("answers pending after the wait, then lands once, to the conversation that asked", async () => {
    const slow = held("/slow", "Slow page");
    web.route(WWW, "/other", page("Other page", ["Another conversation reads another page entirely."]));
    const asked = session.read("a", "https://www.example.com/slow");
    await slow.arrived;
    clock.advance(3000);
    const res = await asked;
    expect(res).toEqual({ status: "pending", id: expect.any(String), message: PENDING_MESSAGE });
    expect(session.pending("a")).toMatchObject([{ id: res.id, kind: "read", state: "running" }]);
    expect(session.pending("b")).toEqual([]);

    const other = await session.read("b", "https://www.example.com/other");
    expect(other.status).toBe("ok");

    slow.release();
    const landing = await mail.next();
    expect(landing).toMatchObject({ id: res.id, conversationId: "a", kind: "read" });
    expect(landing.result.status).toBe("ok");
    expect(landing.keepAs).toBe("(you read https://www.example.com/slow)");
    expect(session.pending("a")).toEqual([]);
    await session.close();
    expect(mail.landed).toHaveLength(1);
  });

  it("a turn cancelled while waiting answers pending at once, and the lookup still lands", async () => {
    const slow = held("/cancelled");
    const turn = new AbortController();
    const asked = session.read("a", "https://www.example.com/cancelled", { signal: turn.signal });
    await slow.arrived;
    turn.abort();
    const res = await asked;
    expect(res.status).toBe("pending");
    slow.release();
    const landing = await mail.next();
    expect(landing).toMatchObject({ id: res.id, conversationId: "a" });
    expect(landing.result.status).toBe("ok");
  });
});

describe("session: sharing and the queue", () => {
  it("a conversation asking again for what it was told is pending waits on the same lookup, delivered once", async () => {
    const slow = held("/twice");
    const first = session.read("a", "https://www.example.com/twice");
    await slow.arrived;
    clock.advance(3000);
    const told = await first;
    expect(told.status).toBe("pending");
    const again = session.read("a", "https://www.example.com/twice");
    expect(session.pending("a")).toHaveLength(1);
    slow.release();
    const res = await again;
    expect(res).toMatchObject({ status: "ok", id: told.id });
    expect(hitsOf("/twice")).toBe(1);
    await session.close();
    expect(mail.landed).toEqual([]);
  });

  it("starts the same search once for two conversations and lands it for each", async () => {
    const serp = heldRoute(
      web,
      "html.duckduckgo.com",
      "/html/",
      results([
        { title: "Tide tables Brest", url: "https://tides.example.org/brest" },
        { title: "Brest harbour", url: "https://www.example.com/harbour" },
        { title: "Sailing Brittany", url: "https://sail.example.net/" },
      ]),
    );
    releases.push(serp.release);
    const first = session.search("a", "tide  tables Brest");
    await serp.arrived;
    const second = session.search("b", "Tide Tables brest ");
    clock.advance(3000);
    const [ra, rb] = await Promise.all([first, second]);
    expect([ra.status, rb.status]).toEqual(["pending", "pending"]);
    expect(ra.id).not.toBe(rb.id);

    serp.release();
    const landings = [await mail.next(), await mail.next()];
    expect(serp.hits()).toBe(1);
    expect(landings.map((l) => [l.conversationId, l.id]).sort()).toEqual(
      [
        ["a", ra.id],
        ["b", rb.id],
      ].sort(),
    );
    expect(landings[0].keepAs).toBe('(you searched "tide tables Brest": 3 results)');
  });

  it("shares a read whose URL differs only by its fragment", async () => {
    const slow = held("/shared");
    const one = session.read("a", "https://www.example.com/shared#top");
    await slow.arrived;
    const two = session.read("a", "https://www.example.com/shared#part-2");
    slow.release();
    const [r1, r2] = await Promise.all([one, two]);
    expect([r1.status, r2.status]).toEqual(["ok", "ok"]);
    expect(hitsOf("/shared")).toBe(1);
  });

  it("runs at most three at once; the fourth waits for a slot", async () => {
    const routes = ["/q1", "/q2", "/q3", "/q4"].map((path) => held(path));
    const asked = ["/q1", "/q2", "/q3", "/q4"].map((path) =>
      session.read("a", `https://www.example.com${path}`),
    );
    await Promise.all(routes.slice(0, 3).map((r) => r.arrived));
    expect(routes[3].hits()).toBe(0);
    expect(session.pending("a").map((p) => p.state)).toEqual(["running", "running", "running", "queued"]);

    routes[1].release();
    await routes[3].arrived;
    expect(session.pending("a").map((p) => p.subject)).toEqual([
      "https://www.example.com/q1",
      "https://www.example.com/q3",
      "https://www.example.com/q4",
    ]);
    for (const r of routes) r.release();
    const done = await Promise.all(asked);
    expect(done.map((r) => r.status)).toEqual(["ok", "ok", "ok", "ok"]);
  });
});

describe("session: the hard deadline", () => {
  it("lands a timeout past the deadline, aborts the request, and never lands twice", async () => {
    const stuck = held("/stuck");
    const asked = session.read("a", "https://www.example.com/stuck");
    await stuck.arrived;
    clock.advance(3000);
    expect((await asked).status).toBe("pending");
    clock.advance(17_000);
    const landing = await mail.next();
    expect(landing.result.status).toBe("timeout");
    expect(landing.keepAs).toBe("(you tried to read https://www.example.com/stuck: timeout)");
    expect(session.pending("a")).toEqual([]);
    await until(() => stuck.dropped());
    stuck.release();
    await session.close();
    expect(mail.landed).toHaveLength(1);
  });

  it("a lookup still queued at its deadline lands a timeout without ever being requested", async () => {
    const routes = ["/d1", "/d2", "/d3", "/d4"].map((path) => held(path));
    const asked = ["/d1", "/d2", "/d3", "/d4"].map((path) =>
      session.read("a", `https://www.example.com${path}`),
    );
    await Promise.all(routes.slice(0, 3).map((r) => r.arrived));
    clock.advance(20_000);
    const done = await Promise.all(asked);
    expect(done.map((r) => r.status)).toEqual(["pending", "pending", "pending", "pending"]);
    await until(() => mail.landed.length === 4);
    expect(mail.landed.map((l) => l.result.status)).toEqual(["timeout", "timeout", "timeout", "timeout"]);
    expect(routes[3].hits()).toBe(0);
  });
});

describe("session: answer", () => {
  it("answers a question in the turn, with its keepAs line", async () => {
    web.route(
      "html.duckduckgo.com",
      "/html/",
      results([
        { title: "Zugspitze facts", url: "https://www.example.com/zug" },
        { title: "Zugspitze glacier", url: "https://www.example.com/zug2" },
        { title: "Zugspitze weather", url: "https://www.example.com/zug3" },
      ]),
    );
    for (const path of ["/zug", "/zug2", "/zug3"])
      web.route(
        WWW,
        path,
        page("Zugspitze facts", ["The Zugspitze is 2,962 metres high, Germany's highest peak."]),
      );
    const res = await session.answer("a", "How high is the Zugspitze?");
    expect(res.status).toBe("ok");
    expect("keepAs" in res && res.keepAs).toBe('(you looked up "How high is the Zugspitze?")');
    expect(session.liveState("a")).toContain(
      'searched "How high is the Zugspitze?", just now: Zugspitze facts',
    );
  });
});

describe("session: cache and close", () => {
  it("reading the same page again is answered from the reader's cache, with no request", async () => {
    web.route(WWW, "/again", page("Again", ["A page worth reading twice in the same quarter hour."]));
    const first = await session.read("a", "https://www.example.com/again");
    const second = await session.read("b", "https://www.example.com/again");
    expect(first.status).toBe("ok");
    expect(second.status).toBe("ok");
    expect((first as ReadResult).cached).toBe(false);
    expect((second as ReadResult).cached).toBe(true);
    expect(hitsOf("/again")).toBe(1);
  });

  it("close() ends a waiting turn with a failure, cancels pending lookups without landing them", async () => {
    const waiting = held("/waiting");
    const pendingOne = held("/pending-one");
    const told = session.read("a", "https://www.example.com/pending-one");
    await pendingOne.arrived;
    clock.advance(3000);
    expect((await told).status).toBe("pending");
    const turn = session.read("b", "https://www.example.com/waiting");
    await waiting.arrived;
    await session.close();
    const res = await turn;
    expect(res.status).toBe("error");
    expect(mail.landed).toEqual([]);
    expect(session.pending("a")).toEqual([]);
    expect((await session.search("a", "anything")).status).toBe("error");
  });
});

async function pendingRead(path: string) {
  const route = held(path);
  const asked = session.read("a", `https://www.example.com${path}`);
  await route.arrived;
  clock.advance(3000);
  const res = await asked;
  if (res.status !== "pending") throw new Error(`expected pending, got ${res.status}`);
  return { route, id: res.id };
}

describe("session: following a pending lookup", () => {
  it("a follow-up turn gets the result in turn, and then it is not delivered again", async () => {
    const { route, id } = await pendingRead("/slow");
    const followed = session.follow("a", id);
    expect(followed).toBeDefined();
    route.release();
    const res = await followed;
    expect(res).toMatchObject({ status: "ok", id, title: "Page /slow" });
    expect((res as ReadResult & { keepAs: string }).keepAs).toBe("(you read https://www.example.com/slow)");
    await session.close();
    expect(mail.landed).toEqual([]);
    expect(session.follow("a", id)).toBeUndefined();
  });

  it("a follow-up turn that outlasts the wait is told pending again, and the lookup still lands", async () => {
    const { route, id } = await pendingRead("/slower");
    const followed = session.follow("a", id);
    clock.advance(3000);
    expect(await followed).toMatchObject({ status: "pending", id });
    route.release();
    expect(await mail.next()).toMatchObject({ id, conversationId: "a", kind: "read" });
  });

  it("another conversation cannot follow a lookup it did not ask for", async () => {
    const { id } = await pendingRead("/mine");
    expect(session.follow("b", id)).toBeUndefined();
    expect(session.follow("a", "no-such-id")).toBeUndefined();
  });
});

describe("session: withdrawing a lookup", () => {
  it("stops a lookup nobody else holds; nothing lands", async () => {
    const { route, id } = await pendingRead("/given-up");
    session.withdraw("a", id);
    expect(session.pending("a")).toEqual([]);
    await until(() => route.dropped());
    await session.close();
    expect(mail.landed).toEqual([]);
  });

  it("keeps the lookup for another conversation that asked for it too", async () => {
    const route = held("/shared");
    const url = "https://www.example.com/shared";
    const a = session.read("a", url);
    const b = session.read("b", url);
    await route.arrived;
    clock.advance(3000);
    const [pa, pb] = await Promise.all([a, b]);
    session.withdraw("a", pa.id);
    expect(session.pending("a")).toEqual([]);
    route.release();
    const landing = await mail.next();
    expect(landing).toMatchObject({ id: pb.id, conversationId: "b" });
    expect(mail.landed).toHaveLength(1);
  });

  it("leaves a lookup alone while a turn of the same conversation still waits on it", async () => {
    const { route, id } = await pendingRead("/still-wanted");
    const followed = session.follow("a", id);
    session.withdraw("a", id);
    route.release();
    expect(await followed).toMatchObject({ status: "ok", id });
  });
});

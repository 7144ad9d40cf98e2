import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ReadResult } from "../../src/read/read.js";
import { createSession, type Session } from "../../src/session/session.js";
import { createWebsift, type Websift } from "../../src/websift.js";
import { type SimWeb, startSimWeb } from "../simweb/index.js";
import { heldRoute, inbox, manualClock, page, until } from "./harness.js";

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

const held = (path: string) => {
  const route = heldRoute(
    web,
    "www.example.com",
    path,
    page(`Page ${path}`, [`Page ${path} has a first paragraph long enough to keep.`]),
  );
  releases.push(route.release);
  return route;
};

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
    expect((res as ReadResult & { keepAs: string }).keepAs).toContain("Page /slow");
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

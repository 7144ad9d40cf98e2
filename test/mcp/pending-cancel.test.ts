import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ClientLookups } from "../../src/mcp/pending-lookups.js";
import { LookupProgress } from "../../src/mcp/pending-progress.js";
import { LookupTaskStore } from "../../src/mcp/pending-tasks.js";
import { SESSION_TOOLS, type SessionTool } from "../../src/mcp/pending-tools.js";
import { createSession } from "../../src/session/session.js";
import type { ToolOutput } from "../../src/surface/tools.js";
import type { Websift } from "../../src/websift.js";
import { heldPage, until } from "../session/harness.js";
import { type SimWeb, startSimWeb } from "../simweb/index.js";
import { startTask as startTaskOn, websiftFor } from "./harness.js";

// Driven without a transport, so the test knows exactly when a call is waiting on its lookup.
let web: SimWeb;
let websift: Websift;
let lookups: ClientLookups;
const releases: (() => void)[] = [];
const fetchTool = SESSION_TOOLS.get("web_fetch") as SessionTool;

beforeAll(async () => {
  web = await startSimWeb();
  websift = websiftFor(web);
});
afterAll(async () => {
  await websift.close();
  await web.close();
});
afterEach(async () => {
  for (const release of releases.splice(0)) release();
  await lookups.close();
  web.reset();
});

const slowPage = () => heldPage(web, releases, "Held");

const live = () => new AbortController().signal;

let tasks: LookupTaskStore;
/** One client's lookups as createMcpServer wires them. */
function clientLookups(options: { waitMs: number; lookupTimeoutMs: number; maxConcurrent: number }) {
  const progress = new LookupProgress();
  const session = createSession(progress.around(websift), options);
  tasks = new LookupTaskStore(session.mailbox.retention);
  return new ClientLookups({ session, progress, tasks });
}

async function landed(id: string): Promise<ToolOutput> {
  for (;;) {
    const out = await lookups.result(id, { signal: live() });
    if (out.structured.status !== "pending") return out;
  }
}

describe("MCP cancellation of session lookups", () => {
  it("a cancelled call whose lookup's id the client never got stops the lookup", async () => {
    lookups = clientLookups({ waitMs: 30_000, lookupTimeoutMs: 60_000, maxConcurrent: 2 });
    const route = slowPage();
    const abort = new AbortController();
    const call = lookups.call(fetchTool, { url: route.url }, { signal: abort.signal });
    await route.arrived;
    abort.abort();
    expect(await call).toBeUndefined();
    await until(() => route.dropped());
  });

  it("a cancelled call does not stop a lookup the client was told is still running: web_result returns it", async () => {
    lookups = clientLookups({ waitMs: 200, lookupTimeoutMs: 60_000, maxConcurrent: 2 });
    const route = slowPage();
    const first = await lookups.call(fetchTool, { url: route.url }, { signal: live() });
    expect(first?.structured).toMatchObject({ status: "pending" });
    const id = String(first?.structured.id);

    // The same page asked again joins the running lookup; that call is cancelled.
    const abort = new AbortController();
    const again = lookups.call(fetchTool, { url: route.url }, { signal: abort.signal });
    abort.abort();
    expect(await again).toBeUndefined();
    // So is a web_result waiting on it.
    const stop = new AbortController();
    const waiting = lookups.result(id, { signal: stop.signal });
    stop.abort();
    expect((await waiting).structured).toMatchObject({ status: "pending", id });

    route.release();
    const out = await landed(id);
    expect(out.isError).toBe(false);
    expect(out.text).toContain("Held page");
    expect(route.dropped()).toBe(false);
  });

  it("a cancelled call does not stop a lookup a task of the same client awaits: the task gets its result", async () => {
    lookups = clientLookups({ waitMs: 30_000, lookupTimeoutMs: 60_000, maxConcurrent: 2 });
    const route = slowPage();
    const task = await startTaskOn(lookups, tasks, route.url);
    await route.arrived;

    // The same page asked by a plain call, which is then cancelled: it shares the lookup the task awaits.
    const abort = new AbortController();
    const call = lookups.call(fetchTool, { url: route.url }, { signal: abort.signal });
    abort.abort();
    expect(await call).toBeUndefined();

    route.release();
    await until(() => task.statuses.length > 0);
    expect(task.statuses).toEqual(["completed"]);
    expect(JSON.stringify(await task.result())).toContain("Held page");
    expect(route.dropped()).toBe(false);
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ClientLookups } from "../../src/mcp/pending-lookups.js";
import { LookupProgress } from "../../src/mcp/pending-progress.js";
import { LookupTaskStore } from "../../src/mcp/pending-tasks.js";
import { SESSION_TOOLS, type SessionTool } from "../../src/mcp/pending-tools.js";
import { Mailbox } from "../../src/session/mailbox.js";
import { createSession } from "../../src/session/session.js";
import { MemoryMailboxStore } from "../../src/store/mailbox-store.js";
import type { ToolOutput } from "../../src/surface/tools.js";
import type { Websift } from "../../src/websift.js";
import { heldPage, manualClock, until } from "../session/harness.js";
import { type SimWeb, startSimWeb } from "../simweb/index.js";
import { startTask, textOf, websiftFor } from "./harness.js";

// Driven without a transport, so the test decides when each client is away and when it comes back.
let web: SimWeb;
let websift: Websift;
const opened: ClientLookups[] = [];
const releases: (() => void)[] = [];
const fetchTool = SESSION_TOOLS.get("web_fetch") as SessionTool;
const live = () => new AbortController().signal;

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
  await Promise.all(opened.splice(0).map((lookups) => lookups.close()));
  web.reset();
});

const slowPage = () => heldPage(web, releases, "Mailed");

/** One MCP client as createMcpServer wires it: a wait of 0, so every call replies "still running" at once. */
function client(mailbox?: Mailbox, now?: () => number, waitMs = 0) {
  const progress = new LookupProgress();
  const session = createSession(progress.around(websift), {
    waitMs,
    lookupTimeoutMs: 60_000,
    maxConcurrent: 4,
    mailbox,
  });
  const tasks = new LookupTaskStore(session.mailbox.retention, now);
  const lookups = new ClientLookups({ session, progress, tasks });
  opened.push(lookups);
  return { lookups, tasks, session };
}

async function pendingId(lookups: ClientLookups, url: string): Promise<string> {
  const out = (await lookups.call(fetchTool, { url }, { signal: live() })) as ToolOutput;
  expect(out.structured).toMatchObject({ status: "pending" });
  return String(out.structured.id);
}

async function landedIn(mailbox: Mailbox, conversationId: string, id: string): Promise<void> {
  for (;;) {
    if (await mailbox.find(conversationId, id)) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const UNKNOWN = /^web_result: no running or landed lookup/;

describe("MCP web_result and tasks are views of the session's mailbox", () => {
  it("a result that lands while the client is away is handed once through web_result, not again through the task", async () => {
    const { lookups, tasks } = client();
    const route = slowPage();
    const id = await pendingId(lookups, route.url);
    // A task of the same client asks for the same page: it joins the lookup the id names.
    const task = await startTask(lookups, tasks, route.url);
    await route.arrived;

    route.release();
    await until(() => task.statuses.length > 0);
    expect(task.statuses).toEqual(["completed"]);

    const got = await lookups.result(id, { signal: live() });
    expect(got.isError).toBe(false);
    expect(got.text).toContain("The mailed page has a first paragraph");
    const viaTask = await task.result();
    expect(viaTask.isError).toBe(true);
    expect(textOf(viaTask)).toMatch(/already returned to this client by web_result/);
    expect(textOf(viaTask)).not.toContain("Mailed page");
    expect((await lookups.result(id, { signal: live() })).text).toMatch(UNKNOWN);
    expect(route.hits()).toBe(1);
  });

  it("the task that asks first takes the landing; web_result then finds nothing, and the task reads it again", async () => {
    const { lookups, tasks } = client();
    const route = slowPage();
    const id = await pendingId(lookups, route.url);
    const task = await startTask(lookups, tasks, route.url);
    route.release();
    await until(() => task.statuses.length > 0);

    const viaTask = await task.result();
    expect(viaTask.isError).toBeFalsy();
    expect(textOf(viaTask)).toContain("Mailed page");
    expect((await lookups.result(id, { signal: live() })).text).toMatch(UNKNOWN);
    // tasks/result may be asked again for the same task: it is the same landing, not a second delivery.
    const unfenced = (text: string) => text.replace(/nonce=\w+/g, "nonce=N");
    expect(unfenced(textOf(await task.result()))).toBe(unfenced(textOf(viaTask)));
  });

  it("a result a call got in its turn is not handed again through a task awaiting the same lookup", async () => {
    const { lookups, tasks } = client(undefined, undefined, 600_000);
    const route = slowPage();
    const task = await startTask(lookups, tasks, route.url);
    await route.arrived;
    const call = lookups.call(fetchTool, { url: route.url }, { signal: live() });
    route.release();
    const inTurn = (await call) as ToolOutput;
    expect(inTurn.text).toContain("Mailed page");

    await until(() => task.statuses.length > 0);
    expect(task.statuses).toEqual(["completed"]);
    const viaTask = await task.result();
    expect(textOf(viaTask)).toMatch(/already returned to this client by a call/);
    expect(textOf(viaTask)).not.toContain("Mailed page");
  });

  it("a foreign conversation never sees a landing, though both clients share one mailbox", async () => {
    const mailbox = new Mailbox();
    try {
      const owner = client(mailbox);
      const other = client(mailbox);
      other.lookups.conversationOf(undefined);
      const route = slowPage();
      const id = await pendingId(owner.lookups, route.url);
      route.release();
      const conversation = owner.lookups.conversationOf(undefined);
      await landedIn(mailbox, conversation, id);

      expect((await other.lookups.result(id, { signal: live() })).text).toMatch(UNKNOWN);
      // Not even through its own conversation's part of the mailbox: the id is looked up in its own only.
      expect(await mailbox.take(other.lookups.conversationOf(undefined), id)).toBeUndefined();
      const got = await owner.lookups.result(id, { signal: live() });
      expect(got.text).toContain("Mailed page");
    } finally {
      await Promise.all(opened.splice(0).map((lookups) => lookups.close()));
      await mailbox.close();
    }
  });

  it("expiry and cap are one setting, the mailbox's: web_result and tasks keep what it keeps, no longer", async () => {
    const clock = manualClock(Date.UTC(2026, 11, 1, 12));
    const mailbox = new Mailbox({
      store: new MemoryMailboxStore({ keepMs: 60_000, perConversation: 1 }, clock.now),
      clock,
    });
    try {
      const { lookups, tasks } = client(mailbox, clock.now);
      // A task's ttl is capped at the mailbox's keep time, whatever the client asks.
      const asked = await tasks.createTask({ ttl: 3_600_000 }, 1, { method: "tools/call", params: {} });
      expect(asked.ttl).toBe(60_000);

      const conversation = lookups.conversationOf(undefined);
      const first = slowPage();
      const second = slowPage();
      const one = await pendingId(lookups, first.url);
      const two = await pendingId(lookups, second.url);
      first.release();
      await landedIn(mailbox, conversation, one);
      second.release();
      await landedIn(mailbox, conversation, two);
      // The cap: one landing per conversation, the older went first.
      expect((await lookups.result(one, { signal: live() })).text).toMatch(UNKNOWN);

      // The keep time: past it, neither the landing nor a task is there any more.
      const task = await startTask(lookups, tasks, slowPage().url);
      clock.advance(60_001);
      expect((await lookups.result(two, { signal: live() })).text).toMatch(UNKNOWN);
      expect(await tasks.getTask(task.taskId)).toBeNull();
    } finally {
      await Promise.all(opened.splice(0).map((lookups) => lookups.close()));
      await mailbox.close();
    }
  });
});

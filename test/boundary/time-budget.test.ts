import { getEventListeners } from "node:events";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Deadline } from "../../src/core/deadline.js";
import type { Provider } from "../../src/search/provider.js";
import { createSession, type SessionOptions, type SessionWebsift } from "../../src/session/session.js";
import { createWebsift, type Websift } from "../../src/websift.js";
import { heldRoute, inbox, manualClock } from "../session/harness.js";
import { type SimWeb, startSimWeb } from "../simweb/index.js";

/**
 * One spelling of a time budget across the library: `timeoutMs` for a call's whole budget, `deadline` for a
 * Deadline the caller holds. Old spellings still work for one minor version and say so once on stderr.
 */
let web: SimWeb;
let websift: Websift;
const warnings: Error[] = [];
const onWarning = (w: Error) => warnings.push(w);
beforeAll(async () => {
  web = await startSimWeb();
  process.on("warning", onWarning);
});
afterAll(async () => {
  process.off("warning", onWarning);
  await web.close();
});
beforeEach(() => {
  warnings.length = 0;
  websift = createWebsift({ ...web.netConfig, env: {}, settings: { ddgRetryDelayMs: 5 } });
});
afterEach(async () => {
  await websift.close();
  web.reset();
});

const PAGE = "https://slow.example.org/article";
const hang = (): Promise<void> => new Promise<void>(() => {});
/** Warnings are emitted on the next tick: let them arrive before looking. */
const renamed = async () => {
  await new Promise((resolve) => setImmediate(resolve));
  return warnings.filter((w) => (w as Error & { code?: string }).code === "websift-option-name");
};

describe("a call's time budget", () => {
  it("read: timeoutMs bounds the read, and it answers timeout", async () => {
    web.route("slow.example.org", "/article", hang);
    const page = await websift.read(PAGE, { timeoutMs: 150, render: "never" });
    expect(page.status).toBe("timeout");
    expect(await renamed()).toHaveLength(0);
  });

  it("a signal given to many calls keeps no listener once each call is over, and still cancels a running one", async () => {
    web.route("slow.example.org", "/done", {
      headers: { "content-type": "text/html" },
      body: "<html><body><article><h1>Done</h1><p>The page has been read in full by now.</p></article></body></html>",
    });
    const app = new AbortController();
    for (let i = 0; i < 3; i++) {
      expect(
        (await websift.read("https://slow.example.org/done", { signal: app.signal, render: "never" })).status,
      ).toBe("ok");
      expect((await websift.search(`zugspitze glacier ${i}`, { signal: app.signal })).status).toBeDefined();
    }
    expect(getEventListeners(app.signal, "abort")).toHaveLength(0);
    const held = heldRoute(web, "slow.example.org", "/article", { body: "late" });
    const running = websift.read(PAGE, { signal: app.signal, render: "never" });
    await held.arrived;
    app.abort();
    const cut = await running;
    expect(cut.status).toBe("error");
    expect(JSON.stringify(cut.error)).toMatch(/cancel/i);
    held.release();
    expect(getEventListeners(app.signal, "abort")).toHaveLength(0);
  });

  it("read, search, answer and research run inside a Deadline the caller holds: one already over sends nothing", async () => {
    const over = () => {
      const d = Deadline.after(60_000);
      d.abort();
      return d;
    };
    const page = await websift.read(PAGE, { deadline: over(), render: "never" });
    const search = await websift.search("zugspitze glacier", { deadline: over(), cache: false });
    const answer = await websift.answer("zugspitze glacier", { deadline: over() });
    const research = await websift.research("zugspitze glacier", { deadline: over(), maxHops: 1 });
    for (const status of [page.status, search.status, answer.status, research.status])
      expect(status).not.toBe("ok");
    expect(web.requests).toHaveLength(0);
  });

  it("read: a number in deadline (the old spelling of timeoutMs) still bounds the read, with one warning", async () => {
    web.route("slow.example.org", "/article", hang);
    const first = await websift.read(PAGE, { deadline: 150, render: "never" });
    const again = await websift.read(`${PAGE}?again`, { deadline: 150, render: "never" });
    expect(first.status).toBe("timeout");
    expect(again.status).toBe("timeout");
    const said = await renamed();
    expect(said).toHaveLength(1);
    expect(said[0].name).toBe("DeprecationWarning");
    expect(said[0].message).toMatch(/deadline as a number of ms is deprecated, use timeoutMs/);
  });
});

/** An engine that never answers: only its cap ends its step. */
function stalled(caps: Pick<Provider, "timeoutMs" | "budgetMs">): Provider {
  return {
    name: "stalled",
    kind: "keyless",
    paid: false,
    native: {},
    ...caps,
    search: () => new Promise(() => {}),
  };
}
async function stalledStep(config: Parameters<typeof createWebsift>[0]) {
  const w = createWebsift({ ...web.netConfig, env: {}, ...config });
  try {
    const res = await w.search("harbour tides", { provider: "stalled", timeoutMs: 60_000, cache: false });
    return res.attempted[0];
  } finally {
    await w.close();
  }
}

describe("a provider's step cap", () => {
  it("Provider.timeoutMs caps its step inside a longer search budget", async () => {
    const step = await stalledStep({ providers: [stalled({ timeoutMs: 100 })] });
    expect(step).toMatchObject({ provider: "stalled", status: "timeout" });
    expect(await renamed()).toHaveLength(0);
  });

  it("providerTimeoutMs overrides it by name", async () => {
    const step = await stalledStep({
      providers: [stalled({ timeoutMs: 60_000 })],
      providerTimeoutMs: { stalled: 100 },
    });
    expect(step).toMatchObject({ provider: "stalled", status: "timeout" });
    expect(await renamed()).toHaveLength(0);
  });

  it("the old names Provider.budgetMs and WebsiftConfig.budgets still cap it, each with one warning", async () => {
    for (let i = 0; i < 2; i++) {
      expect(await stalledStep({ providers: [stalled({ budgetMs: 100 })] })).toMatchObject({
        status: "timeout",
      });
      // Layered over providerTimeoutMs spread beneath it (serve puts the config file's caps there).
      const named = await stalledStep({
        providers: [stalled({ timeoutMs: 60_000 })],
        providerTimeoutMs: { stalled: 60_000 },
        budgets: { stalled: 100 },
      });
      expect(named).toMatchObject({ status: "timeout" });
    }
    const said = (await renamed()).map((w) => w.message);
    expect(said).toEqual([
      expect.stringMatching(/Provider\.budgetMs is deprecated, use Provider\.timeoutMs/),
      expect.stringMatching(/WebsiftConfig\.budgets is deprecated, use providerTimeoutMs/),
    ]);
  });
});

describe("a session's times", () => {
  const stuck: SessionWebsift = {
    search: () => new Promise<never>(() => {}),
    read: () => new Promise<never>(() => {}),
    answer: () => new Promise<never>(() => {}),
  };
  /** A turn waits its wait, then goes on; the lookup lands at its budget as a timeout that names it. */
  async function timesOf(options: SessionOptions) {
    const clock = manualClock();
    const mail = inbox();
    const session = createSession(stuck, { clock, onLanded: mail.onLanded, ...options });
    const turn = session.search("c1", "harbour tides");
    let answered = false;
    void turn.then(() => {
      answered = true;
    });
    clock.advance(999);
    await new Promise((resolve) => setImmediate(resolve));
    const beforeWait = answered;
    clock.advance(1);
    expect((await turn).status).toBe("pending");
    clock.advance(4000);
    const landed = await mail.next();
    const closing = session.close();
    clock.advance(10_000);
    await closing;
    return { beforeWait, landed };
  }

  it("waitMs and lookupTimeoutMs: the turn waits 1 s, the lookup lands at 5 s as a timeout", async () => {
    const { beforeWait, landed } = await timesOf({ waitMs: 1000, lookupTimeoutMs: 5000 });
    expect(beforeWait).toBe(false);
    expect(landed.result).toMatchObject({
      status: "timeout",
      error: expect.stringMatching(/longer than 5 s/),
    });
    expect(await renamed()).toHaveLength(0);
  });

  it("the old names waitSeconds and deadlineSeconds say the same in seconds, each with one warning", async () => {
    for (let i = 0; i < 2; i++) {
      const { beforeWait, landed } = await timesOf({ waitSeconds: 1, deadlineSeconds: 5 });
      expect(beforeWait).toBe(false);
      expect(landed.result).toMatchObject({
        status: "timeout",
        error: expect.stringMatching(/longer than 5 s/),
      });
    }
    expect((await renamed()).map((w) => w.message)).toEqual([
      expect.stringMatching(/SessionOptions\.waitSeconds is deprecated, use waitMs/),
      expect.stringMatching(/SessionOptions\.deadlineSeconds is deprecated, use lookupTimeoutMs/),
    ]);
  });
});

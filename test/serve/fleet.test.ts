import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ddgResultsPage } from "../ground/answer/ddg-page.js";
import {
  ddgChallenge,
  type SimProxy,
  type SimWeb,
  startProxy,
  startSimWeb,
  TEST_CA_PATH,
} from "../simweb/index.js";
import { RedisServer } from "../store/redis-server.js";
import { type EventStream, gate, openEvents, serve } from "./harness.js";

// Three `websift serve` processes, as an operator starts them behind a load balancer, sharing one real
// redis-server: one cache, one memory of blocks, one rate limit per key, one mailbox of conversations. Their
// requests reach the simulated web through a real forward proxy. npm test builds dist/ first.
const MAIN = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
const TOKEN = "test-SECRET-fleet-token-0427";
const auth = { authorization: `Bearer ${TOKEN}` };

interface Instance {
  url: string;
  child: ChildProcess;
  stderr(): string;
  /** Resolves when the instance logs a line matching `pattern` at or after `from` (an offset into stderr). */
  logged(pattern: RegExp, from: number): Promise<void>;
  exited: Promise<number | null>;
  post(path: string, body: unknown): Promise<Record<string, unknown>>;
}

let web: SimWeb;
let proxy: SimProxy;
let redis: RedisServer;
let dir: string;
const fleet: Instance[] = [];

function startInstance(env: Record<string, string> = {}): Promise<Instance> {
  const child = spawn(process.execPath, [MAIN, "serve", "--port", "0", "--json", "--grace", "1"], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: dir,
      HTTPS_PROXY: proxy.url,
      HTTP_PROXY: proxy.url,
      NODE_EXTRA_CA_CERTS: TEST_CA_PATH,
      WEBSIFT_STORE: "redis",
      WEBSIFT_REDIS_URL: redis.url,
      WEBSIFT_SERVE_TOKEN: TOKEN,
      ...env,
    },
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  const awaited = new Set<() => boolean>();
  child.stderr?.on("data", (d) => {
    stderr += d;
    for (const check of awaited) if (check()) awaited.delete(check);
  });
  const logged = (pattern: RegExp, from: number) =>
    new Promise<void>((resolve) => {
      const check = () => {
        const seen = pattern.test(stderr.slice(from));
        if (seen) resolve();
        return seen;
      };
      if (!check()) awaited.add(check);
    });
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (d) => {
      out += d;
      const at = out.indexOf("\n");
      if (at < 0) return;
      const { url } = JSON.parse(out.slice(0, at)) as { url: string };
      resolve({
        url,
        child,
        stderr: () => stderr,
        logged,
        exited,
        async post(path, body) {
          // The library's shape beside the model's text: the tests look at attempts and titles.
          const res = await fetch(`${url}${path}?raw=1`, {
            method: "POST",
            headers: { "content-type": "application/json", ...auth },
            body: JSON.stringify(body),
          });
          expect(res.status).toBeLessThan(300);
          return (await res.json()) as Record<string, unknown>;
        },
      });
    });
    exited.then((code) => reject(new Error(`serve exited (${code}) before listening: ${stderr}`)));
  });
}

const health = async (i: Instance) =>
  (await (await fetch(`${i.url}/v1/health`, { headers: auth })).json()) as {
    store: { degraded: boolean };
    mailbox: { degraded: boolean };
  };
/**
 * Resolves once the instance's store is on Redis: a process starting on a busy machine can miss its first
 * connect's timeout and serve from its in-process fallback until the retry lands, and it logs both.
 */
async function onRedis(i: Instance): Promise<void> {
  const mark = i.stderr().length;
  if ((await health(i)).store.degraded) await i.logged(/store: redis is back/, mark);
}
const conversation = async (i: Instance) => (await i.post("/v1/conversations", {})).conversation_id as string;
const events = (i: Instance, cid: string, headers: Record<string, string> = {}) =>
  openEvents(`${i.url}/v1/conversations/${cid}/events`, { ...auth, ...headers });
/** Where each instance's log stands now: `logged` from here waits for what the next event makes it say. */
const logMarks = (instances: Instance[]) => instances.map((i) => i.stderr().length);

const HTML = { "content-type": "text/html; charset=utf-8" };
const article = (title: string) =>
  `<html><head><title>${title}</title></head><body><main><article><h1>${title}</h1><p>${"Every instance of the fleet shares one store and one mailbox of conversations. ".repeat(5)}</p></article></main></body></html>`;
/** A page the simulated web holds until the test opens its door. */
function heldPage(path: string, title: string) {
  const door = gate();
  let reached = () => {};
  const arrived = new Promise<void>((resolve) => {
    reached = resolve;
  });
  web.route("www.example.com", path, async () => {
    reached();
    await door.wait;
    return { headers: HTML, body: article(title) };
  });
  return { door, arrived };
}
const results = () =>
  ddgResultsPage([
    { title: "Fleet one", url: "https://www.example.com/f1", snippet: "fleet shared store" },
    { title: "Fleet two", url: "https://www.example.com/f2", snippet: "fleet shared store" },
    { title: "Fleet three", url: "https://www.example.com/f3", snippet: "fleet shared store" },
  ]);

beforeAll(async () => {
  web = await startSimWeb();
  proxy = await startProxy(web);
  redis = await RedisServer.start();
  dir = mkdtempSync(join(tmpdir(), "websift-fleet-"));
  // A short turn, so a lookup held by the simulated web answers "pending" at once; quick DuckDuckGo retries.
  writeFileSync(
    join(dir, "websift.config.json"),
    JSON.stringify({ waitSeconds: 0.05, providers: { ddgRetryDelayMs: 5 } }),
  );
  fleet.push(...(await Promise.all([startInstance(), startInstance(), startInstance()])));
  await Promise.all(fleet.map(onRedis));
}, 60_000);
afterAll(async () => {
  for (const i of fleet) if (i.child.exitCode === null) i.child.kill("SIGTERM");
  await Promise.all(fleet.map((i) => i.exited));
  await redis?.kill();
  await proxy?.close();
  await web?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});
afterEach(() => web.reset());

describe("three websift serve processes on one Redis", () => {
  it("are healthy and share one search cache", async () => {
    const [a, b] = fleet as [Instance, Instance];
    for (const i of fleet) expect(await health(i)).toMatchObject({ store: { degraded: false } });
    web.route("html.duckduckgo.com", "/html/", { headers: HTML, body: results() });
    expect(await a.post("/v1/search", { query: "fleet cache" })).toMatchObject({ status: "ok" });
    const asked = web.requests.length;
    expect(await b.post("/v1/search", { query: "fleet cache" })).toMatchObject({
      status: "ok",
      cached: true,
    });
    expect(web.requests.length).toBe(asked);
  });

  it("a lookup started through one instance lands on the stream held on another", async () => {
    const [a, b] = fleet as [Instance, Instance];
    const cid = await conversation(b);
    const stream = await events(a, cid);
    const page = heldPage("/fleet-across", "Across the fleet");
    try {
      const pending = await b.post("/v1/read", {
        url: "https://www.example.com/fleet-across",
        conversation_id: cid,
      });
      expect(pending.status).toBe("pending");
      page.door.open();
      const landed = await stream.next();
      expect(landed.id).toBe(pending.id);
      expect(landed.data).toMatchObject({ status: "ok", conversation_id: cid });
      expect(landed.data.text).toMatch(/Across the fleet/);
    } finally {
      stream.close();
    }
  });

  it("a block learned by one instance is honoured by the others at once", async () => {
    const [a, b, c] = fleet as [Instance, Instance, Instance];
    web.route("html.duckduckgo.com", "/html/", ddgChallenge(web, 202));
    web.route("lite.duckduckgo.com", "/lite/", ddgChallenge(web, 202));
    const regions = () =>
      web.requests
        .filter((r) => r.host.endsWith("duckduckgo.com"))
        .map((r) => new URLSearchParams(r.body).get("kl") ?? r.url.searchParams.get("kl"));
    const first = await a.post("/v1/search", { query: "fleet block one" });
    expect((first.attempted as Array<{ provider: string; status: string }>)[0]).toMatchObject({
      provider: "duckduckgo",
      status: "blocked",
    });
    const cooledByA = regions();
    expect(cooledByA.length).toBeGreaterThan(0);
    web.requests.length = 0;
    await b.post("/v1/search", { query: "fleet block two" });
    // B asks none of the regions A found blocked.
    for (const region of regions()) expect(cooledByA).not.toContain(region);
    web.requests.length = 0;
    const third = await c.post("/v1/search", { query: "fleet block three" });
    expect(regions()).toHaveLength(0);
    expect(JSON.stringify(third.attempted)).toMatch(/every region is cooling/);
  });

  it("a paid key's rate limit is shared, not multiplied by the instance count", async () => {
    // Another fleet on the same Redis with a Brave key allowing one request every 30 s.
    const env = { BRAVE_API_KEY: "test-SECRET-brave-fleet", BRAVE_RATE_PER_SEC: "0.033" };
    const paid = await Promise.all([startInstance(env), startInstance(env), startInstance(env)]);
    try {
      await Promise.all(paid.map(onRedis));
      web.route("api.search.brave.com", "/res/v1/web/search", {
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          web: { results: [{ title: "Brave one", url: "https://www.example.com/b1", description: "paid" }] },
        }),
      });
      const answers = await Promise.all(
        paid.map((i, n) => i.post("/v1/search", { query: `fleet paid ${n}`, provider: "brave" })),
      );
      expect(web.requests.filter((r) => r.host === "api.search.brave.com")).toHaveLength(1);
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses).toEqual(["ok", "rate_limited", "rate_limited"]);
      // Told by the shared limiter (or by the suspension its answer left in the store) to wait, never sent.
      for (const r of answers.filter((r) => r.status === "rate_limited"))
        expect(JSON.stringify(r)).toMatch(/rate limit/i);
    } finally {
      for (const i of paid) i.child.kill("SIGTERM");
      await Promise.all(paid.map((i) => i.exited));
    }
  });

  it("Redis killed mid-run and restarted: no failed request, no lost landing, streams hear the fleet again", async () => {
    const [a, b, c] = fleet as [Instance, Instance, Instance];
    web.route("html.duckduckgo.com", "/html/", { headers: HTML, body: results() });
    const cid = await conversation(b);
    const stream = await events(a, cid);
    const during = heldPage("/fleet-outage", "Landed during the outage");
    let down = false;
    try {
      const beforeOutage = logMarks(fleet);
      down = true;
      await redis.kill();
      // Each instance says when it notices; then its health says so too.
      await Promise.all(
        fleet.map((i, n) => i.logged(/mailbox: redis unavailable/, beforeOutage[n] as number)),
      );
      for (const i of fleet) expect(await health(i)).toMatchObject({ mailbox: { degraded: true } });
      // Searches carry on from the local fallback.
      for (const i of fleet)
        expect(await i.post("/v1/search", { query: "fleet outage" })).toMatchObject({ status: "ok" });
      const pending = await b.post("/v1/read", {
        url: "https://www.example.com/fleet-outage",
        conversation_id: cid,
      });
      expect(pending.status).toBe("pending");
      during.door.open();
      // Landed on B while Redis is away: kept there, and written through once it is back.
      await during.arrived;
      const beforeReturn = logMarks(fleet);
      await redis.start();
      down = false;
      const landed = await stream.next();
      expect(landed.id).toBe(pending.id);
      expect(landed.data).toMatchObject({ status: "ok" });
      expect(landed.data.text).toMatch(/Landed during the outage/);

      // Subscribed again: a landing from the third instance reaches A over the channel.
      await Promise.all(
        fleet.flatMap((i, n) => [
          i.logged(/mailbox: redis is back/, beforeReturn[n] as number),
          i.logged(/store: redis is back/, beforeReturn[n] as number),
        ]),
      );
      for (const i of fleet)
        expect(await health(i)).toMatchObject({ store: { degraded: false }, mailbox: { degraded: false } });
      const after = heldPage("/fleet-after", "After the restart");
      const later = await c.post("/v1/read", {
        url: "https://www.example.com/fleet-after",
        conversation_id: cid,
      });
      expect(later.status).toBe("pending");
      after.door.open();
      expect((await stream.next()).id).toBe(later.id);
    } finally {
      stream.close();
      if (down) await redis.start();
    }
  });

  it("one instance killed mid-lookup: the others serve, a client reconnecting elsewhere gets its results and the lost lookup as a named failure", async () => {
    const victim = await startInstance();
    const [a, b] = fleet as [Instance, Instance];
    const cid = await conversation(victim);
    let stream: EventStream | undefined = await events(victim, cid);
    try {
      const seen = heldPage("/fleet-seen", "Seen before the crash");
      const away = heldPage("/fleet-away", "Landed while away");
      const lost = heldPage("/fleet-lost", "Never finishes");
      const first = await victim.post("/v1/read", {
        url: "https://www.example.com/fleet-seen",
        conversation_id: cid,
      });
      seen.door.open();
      const got = await stream.next();
      expect(got.id).toBe(first.id);
      stream.close();
      stream = undefined;
      // Away from the stream: one lands, one is still running when the instance dies.
      const second = await victim.post("/v1/read", {
        url: "https://www.example.com/fleet-away",
        conversation_id: cid,
      });
      const third = await victim.post("/v1/read", {
        url: "https://www.example.com/fleet-lost",
        conversation_id: cid,
      });
      expect([second.status, third.status]).toEqual(["pending", "pending"]);
      away.door.open();
      await Promise.all([away.arrived, lost.arrived]);
      // The landing is in Redis once a stream on another instance hears it (replayed, or live over the channel).
      const replay = await events(b, cid, { "last-event-id": first.id as string });
      try {
        expect((await replay.next()).id).toBe(second.id);
      } finally {
        replay.close();
      }
      victim.child.kill("SIGKILL");
      await victim.exited;

      expect(await a.post("/v1/search", { query: "fleet after a crash" })).toHaveProperty("status");
      stream = await events(a, cid, { "last-event-id": first.id as string });
      const replayed = await stream.next();
      expect(replayed.id).toBe(second.id);
      expect(replayed.data).toMatchObject({ status: "ok" });
      expect(replayed.data.text).toMatch(/Landed while away/);
      const failed = await stream.next();
      expect(failed.id).toBe(third.id);
      expect(failed.data).toMatchObject({ status: "error", kind: "read" });
      expect(failed.data.text).toMatch(/the instance running this lookup stopped before it finished/);
      lost.door.open();
    } finally {
      stream?.close();
      if (victim.child.exitCode === null) victim.child.kill("SIGKILL");
    }
  }, 30_000);
});

describe("an instance started while Redis is unreachable", () => {
  it("still serves, says the store and the mailbox are degraded, and delivers landings within the instance", async () => {
    const alone = await serve(web, {
      env: { WEBSIFT_STORE: "redis", WEBSIFT_REDIS_URL: "redis://127.0.0.1:1" },
    });
    const page = heldPage("/alone", "Alone");
    const cid = await alone.conversation();
    const stream = await openEvents(`${alone.url}/v1/conversations/${cid}/events`);
    try {
      const state = await (await fetch(`${alone.url}/v1/health`)).json();
      expect(state.store).toMatchObject({ backend: "redis", degraded: true });
      expect(state.mailbox).toMatchObject({ backend: "redis", degraded: true });
      const pending = await (
        await alone.post("/v1/read", { url: "https://www.example.com/alone", conversation_id: cid })
      ).json();
      expect(pending.status).toBe("pending");
      page.door.open();
      const landed = await stream.next();
      expect(landed.data).toMatchObject({ id: pending.id, status: "ok" });
      expect(landed.data.text).toMatch(/Alone/);
    } finally {
      stream.close();
      await alone.close();
    }
  });
});

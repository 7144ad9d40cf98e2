import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { RedisMailboxStore } from "../../src/store/redis-mailbox.js";
import { heldPage } from "../session/harness.js";
import { type SimProxy, type SimWeb, startProxy, startSimWeb, TEST_CA_PATH } from "../simweb/index.js";
import { RedisServer } from "../store/redis-server.js";
import { type ToolResult, textOf } from "./harness.js";

// Two `websift mcp --http` processes on one real redis-server, as an operator runs them behind a load balancer;
// their requests reach the simulated web through a real forward proxy. npm test builds dist/ first.
const MAIN = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
const CONVERSATION = "test-conversation-fleet-0427";
const UNKNOWN = /^web_result: no running or landed lookup/;

interface Instance {
  url: string;
  child: ChildProcess;
  exited: Promise<number | null>;
}

let web: SimWeb;
let proxy: SimProxy;
let redis: RedisServer;
let dir: string;
/** Hears every landing of the fleet over its channel, as an instance does. */
let listener: RedisMailboxStore;
const releases: (() => void)[] = [];
const clients: Client[] = [];
const instances: Instance[] = [];

function startInstance(): Promise<Instance> {
  const child = spawn(process.execPath, [MAIN, "mcp", "--http", "--port", "0"], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: dir,
      HTTPS_PROXY: proxy.url,
      HTTP_PROXY: proxy.url,
      NODE_EXTRA_CA_CERTS: TEST_CA_PATH,
      WEBSIFT_STORE: "redis",
      WEBSIFT_REDIS_URL: redis.url,
      // Every call replies "still running" at once: results are taken with web_result.
      WEBSIFT_MCP_WAIT_SECONDS: "0",
    },
    cwd: dir,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr?.on("data", (d) => {
      stderr += d;
      const url = /MCP server listening on (\S+)/.exec(stderr)?.[1];
      if (url) {
        const instance = { url, child, exited };
        instances.push(instance);
        resolve(instance);
      }
    });
    exited.then((code) => reject(new Error(`websift mcp exited (${code}) before listening: ${stderr}`)));
  });
}

async function connect(instance: Instance, conversation?: string): Promise<Client> {
  const headers: Record<string, string> = conversation ? { "websift-conversation": conversation } : {};
  const client = new Client({ name: "websift-fleet-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(instance.url), { requestInit: { headers } }),
  );
  clients.push(client);
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as ToolResult;

async function pendingFetch(client: Client, url: string): Promise<string> {
  const r = await call(client, "web_fetch", { url });
  expect(r.structuredContent).toMatchObject({ status: "pending" });
  return String(r.structuredContent?.id);
}

/** Resolves when the fleet's channel carries the landing `id`. */
function landed(id: string): Promise<unknown> {
  return new Promise((resolve) => {
    const stop = listener.listen((_conversation, item) => {
      if (item.id !== id) return;
      stop();
      resolve(item.body);
    });
  });
}

beforeAll(async () => {
  web = await startSimWeb();
  proxy = await startProxy(web);
  redis = await RedisServer.start();
  dir = mkdtempSync(join(tmpdir(), "websift-mcp-fleet-"));
  listener = new RedisMailboxStore({ url: redis.url, log: () => {} });
  await new Promise<void>((resolve) => {
    const stop = listener.listen(
      () => {},
      () => {
        stop();
        resolve();
      },
    );
  });
}, 30_000);
afterEach(async () => {
  for (const release of releases.splice(0)) release();
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
  for (const i of instances.splice(0)) {
    if (i.child.exitCode === null) i.child.kill("SIGTERM");
    await i.exited;
  }
  web.reset();
});
afterAll(async () => {
  await listener?.close();
  await redis?.kill();
  await proxy?.close();
  await web?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("websift mcp --http, two instances on one Redis", () => {
  it("a named conversation's result landed on one instance is taken once through the other", async () => {
    const [a, b] = await Promise.all([startInstance(), startInstance()]);
    const onA = await connect(a, CONVERSATION);
    const page = heldPage(web, releases, "Fleet");
    const id = await pendingFetch(onA, page.url);
    const heard = landed(id);
    page.release();
    await heard;

    expect(textOf(await call(await connect(b), "web_result", { id }))).toMatch(UNKNOWN);
    const onB = await connect(b, CONVERSATION);
    const got = await call(onB, "web_result", { id });
    expect(got.isError).toBeFalsy();
    expect(textOf(got)).toContain("The fleet page has a first paragraph");
    expect(textOf(await call(onA, "web_result", { id }))).toMatch(UNKNOWN);
  }, 60_000);

  it("an instance killed mid-lookup: the conversation reconnecting on another gets the lookup as a named failure", async () => {
    const [a, b] = await Promise.all([startInstance(), startInstance()]);
    const onA = await connect(a, CONVERSATION);
    const page = heldPage(web, releases, "Lost");
    const id = await pendingFetch(onA, page.url);
    await page.arrived;
    const heard = landed(id);
    a.child.kill("SIGKILL");
    await a.exited;
    // B's reaper finds A's lease once A's heartbeat has lapsed, and lands it as a failure of its kind.
    await heard;

    const onB = await connect(b, CONVERSATION);
    const got = await call(onB, "web_result", { id });
    expect(got.isError).toBe(true);
    expect(textOf(got)).toMatch(/the instance running this lookup stopped before it finished/);
  }, 60_000);
});

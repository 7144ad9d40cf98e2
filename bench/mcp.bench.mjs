// MCP surface: cold start of `websift mcp` to an answered initialize over stdio; the MCP layer's own time per
// call over the library call (Streamable HTTP and in-process, simulated web at a fixed latency); 8 concurrent
// sessions × 120 calls; and what the three tools cost a model in tokens (o200k, via gpt-tokenizer).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { countTokens } from "gpt-tokenizer";
import { register } from "tsx/esm/api";

register();
const { startSimWeb, startProxy, TEST_CA_PATH } = await import("../test/simweb/index.ts");
const { createWebsift } = await import("../dist/websift.js");
const { MemoryStore } = await import("../dist/store/store.js");
const { createMcpServer } = await import("../dist/mcp/server.js");
const { startMcpHttp } = await import("../dist/mcp/http.js");

const quick = process.argv.includes("--quick");
const LATENCY_MS = 50;

/** The tide-table pages every measured call reads, each URL fresh so no page-cache hit hides the work. */
async function startWeb() {
  const web = await startSimWeb();
  const page = (n) =>
    `<html><head><title>Tide tables ${n}</title></head><body><main><article><h1>Tide tables</h1>${"<p>A tide table lists the times and heights of high and low water for one harbour, day by day.</p>".repeat(20)}</article></main></body></html>`;
  web.route("www.example.com", /^\/tides\/\d+$/, (req) => ({
    headers: { "content-type": "text/html" },
    body: page(req.path),
  }));
  web.setLatency(LATENCY_MS);
  const websift = createWebsift({ ...web.netConfig, env: {}, store: new MemoryStore(), timeoutMs: 15_000 });
  return { web, websift };
}

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const pct = (xs, p) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const f = (x) => x.toFixed(2);
const p50 = (xs) => pct(xs, 50);

// 1. Cold start: spawn → initialize answered, with web access off so nothing leaves the machine.
function coldStart() {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ["dist/cli/main.js", "mcp"], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, WEBSIFT_ENABLED: "0" },
      stdio: ["pipe", "pipe", "ignore"],
    });
    let out = "";
    child.stdout.on("data", (c) => {
      out += c;
      if (out.includes('"id":1')) {
        const ms = performance.now() - t0;
        child.kill();
        resolve(ms);
      }
    });
    child.on("error", reject);
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } } })}\n`,
    );
  });
}
const cold = [];
for (let i = 0; i < (quick ? 3 : 9); i++) cold.push(await coldStart());

// 2–4 against the simulated web.
const { web, websift } = await startWeb();
let n = 0;
const nextUrl = () => `https://www.example.com/tides/${n++}`; // fresh URL: no page-cache hit on either side

// The servers get the same instance with read() timed from inside, so each call's overhead is its wall time
// minus the library time spent within that very call, free of the latency jitter between two calls.
let inner = 0;
const timed = Object.create(websift);
timed.read = async (...args) => {
  const t0 = performance.now();
  const r = await websift.read(...args);
  inner = performance.now() - t0;
  return r;
};
const http = await startMcpHttp({ websift: timed, port: 0, maxConcurrentCalls: 8 });
const httpClient = new Client({ name: "bench", version: "1" });
await httpClient.connect(new StreamableHTTPClientTransport(new URL(http.url)));
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await createMcpServer({ websift: timed }).connect(serverSide);
const memClient = new Client({ name: "bench", version: "1" });
await memClient.connect(clientSide);

const callMcp = async (client) => {
  const r = await client.callTool({ name: "web_fetch", arguments: { url: nextUrl() } });
  if (r.isError) throw new Error(r.content[0].text);
};
const callLib = async () => {
  const r = await websift.read(nextUrl());
  if (r.status !== "ok") throw new Error(r.error?.message);
};
for (let i = 0; i < 5; i++) {
  await callLib();
  await callMcp(httpClient);
  await callMcp(memClient);
}
const lib = [];
const overHttp = [];
const overMem = [];
const runs = quick ? 20 : 80;
const time = async (fn, into) => {
  const t0 = performance.now();
  await fn();
  into.push(performance.now() - t0);
};
const overhead = async (client, into) => {
  const t0 = performance.now();
  await callMcp(client);
  into.push(performance.now() - t0 - inner);
};
// What any HTTP transport costs on this machine: a bare loopback POST round trip with fetch, no MCP.
const bare = createServer((req, res) => {
  req.resume();
  req.on("end", () => res.end("{}"));
});
await new Promise((resolve) => bare.listen(0, "127.0.0.1", resolve));
const bareUrl = `http://127.0.0.1:${bare.address().port}/`;
const roundTrip = [];
for (let i = 0; i < runs; i++) {
  await time(callLib, lib);
  await overhead(httpClient, overHttp);
  await overhead(memClient, overMem);
  await time(async () => (await fetch(bareUrl, { method: "POST", body: "{}" })).text(), roundTrip);
}
bare.close();

// 3. Concurrent sessions against `websift mcp --http` as users run it: the built CLI in a process of its own,
// reaching the simulated web through a real forward proxy (as test/cli does), so the RSS read from /proc is
// the server's alone, not the clients' or the simulated web's.
const sessions = 8;
const perSession = quick ? 30 : 120;
const proxy = await startProxy(web);
/** Peak (VmHWM) and current (VmRSS) resident set of a process, in MB. */
function rssOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1]);
  return { peak: kb("VmHWM") / 1024, now: kb("VmRSS") / 1024 };
}
async function concurrentRun() {
  const server = spawn(process.execPath, ["dist/cli/main.js", "mcp", "--http", "--port", "0"], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HTTPS_PROXY: proxy.url,
      HTTP_PROXY: proxy.url,
      NODE_EXTRA_CA_CERTS: TEST_CA_PATH,
      WEBSIFT_STORE: "memory",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const url = await new Promise((resolve, reject) => {
    let err = "";
    server.stderr.on("data", (c) => {
      err += c;
      const m = /listening on (\S+)/.exec(err);
      if (m) resolve(m[1]);
    });
    server.on("exit", (code) => reject(new Error(`websift mcp exited ${code}: ${err}`)));
  });
  const ready = rssOf(server.pid);
  let errors = 0;
  let fresh = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: sessions }, async () => {
      const c = new Client({ name: "bench-session", version: "1" });
      await c.connect(new StreamableHTTPClientTransport(new URL(url)));
      for (let i = 0; i < perSession; i++) {
        const r = await c
          .callTool({ name: "web_fetch", arguments: { url: `https://www.example.com/tides/${fresh++}` } })
          .catch(() => ({ isError: true }));
        if (r.isError) errors++;
      }
      await c.close();
    }),
  );
  const ms = performance.now() - t0;
  const after = rssOf(server.pid);
  server.kill();
  return { errors, ms, readyMb: ready.now, peakMb: after.peak, endMb: after.now };
}
/** A bare Node process, for scale: what any Node server costs before it loads a line of its own. */
async function bareNodeMb() {
  const node = spawn(process.execPath, ["-e", "process.stdout.write('up'); setInterval(() => {}, 1000)"], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  await new Promise((resolve) => node.stdout.once("data", resolve));
  const { now } = rssOf(node.pid);
  node.kill();
  return now;
}
const bareMb = await bareNodeMb();
const concurrent = [];
for (let i = 0; i < 3; i++) concurrent.push(await concurrentRun());
await proxy.close();
const median = (key) => p50(concurrent.map((r) => r[key]));
const errors = concurrent.reduce((sum, r) => sum + r.errors, 0);

// 4. Tokens of what tools/list puts in front of a model.
const { tools } = await memClient.listTools();
const toolTokens = countTokens(JSON.stringify(tools));
const perTool = tools.map((t) => `${t.name} ${countTokens(JSON.stringify(t))}`).join(", ");

await httpClient.close();
await memClient.close();
await http.close();
await websift.close();
void web.close();

console.log(`## MCP server

Cold start is \`node dist/cli/main.js mcp\` spawned until its initialize reply (web access off), ${cold.length} runs.
Per-call overhead: wall time of a \`web_fetch\` of a fresh URL through MCP minus the \`websift.read\` time inside
that same call (simulated web at a fixed ${LATENCY_MS} ms latency), ${runs} calls per transport, interleaved. The concurrent run is ${sessions} Streamable HTTP
sessions × ${perSession} calls (fresh URLs) against \`websift mcp --http\` (the built CLI, in-memory store) in a
process of its own, reaching the simulated web through a forward proxy; RSS is read from /proc/<pid>/status of the
server alone, median of ${concurrent.length} fresh servers.

| measure | value | target |
| --- | ---: | --- |
| cold start to initialize answered (stdio), median | ${f(p50(cold))} ms | |
| library \`read\` per call, p50 | ${f(p50(lib))} ms | |
| MCP overhead per call, in-process transport (the MCP layer itself), p50 | ${f(p50(overMem))} ms | < 3 ms |
| MCP overhead per call, Streamable HTTP, p50 | ${f(p50(overHttp))} ms | |
| of which a bare loopback HTTP POST round trip (fetch, no MCP), p50 | ${f(p50(roundTrip))} ms | |
| ${sessions} sessions × ${perSession} calls, ${concurrent.length} runs: errors | ${errors} | 0 |
| ${sessions} sessions × ${perSession} calls: wall time, median | ${f(median("ms"))} ms | |
| a bare \`node\` process, for scale (VmRSS) | ${bareMb.toFixed(0)} MB | |
| server process RSS when ready (VmRSS), median | ${median("readyMb").toFixed(0)} MB | |
| server process peak RSS over the run (VmHWM), median | ${median("peakMb").toFixed(0)} MB | < 150 MB |
| server process RSS after the run (VmRSS), median | ${median("endMb").toFixed(0)} MB | |
| tools/list tokens (${tools.length} tools, schemas + descriptions, o200k) | ${toolTokens} | < 1,500 |
| per tool | ${perTool} | |`);
process.exit(0);

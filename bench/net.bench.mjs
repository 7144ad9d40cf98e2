// Overhead of websift's guarded client (`net`) over a bare undici `request`, both on keep-alive connections to
// the same loopback server (a separate process, so the server does not share the client's event loop).
// Rounds alternate bare / net; each side's figure is the median over rounds. Target: net costs < 10% throughput.
import { fork } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Agent, request } from "undici";

const dist = fileURLToPath(new URL("../dist/", import.meta.url));
if (!existsSync(`${dist}net/client.js`)) {
  console.error("bench/net: dist/ is missing; run `npm run build` first (npm run bench does)");
  process.exit(1);
}
const { createNet } = await import(`${dist}net/client.js`);
const { Deadline } = await import(`${dist}core/deadline.js`);

const quick = process.argv.includes("--quick");
const ROUNDS = quick ? 3 : 7;
const ROUND_MS = quick ? 700 : 2500;
const CONCURRENCY = 8;
const BODY_BYTES = 2048;

// --- the server, in a child process --------------------------------------------------------------------------
if (process.argv[2] === "--server") {
  const http = await import("node:http");
  const body = Buffer.from(`<!doctype html><html><body>${"x".repeat(BODY_BYTES - 40)}</body></html>`);
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": body.length });
    res.end(body);
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, "127.0.0.1", () => process.send({ port: server.address().port }));
  process.on("disconnect", () => process.exit(0));
} else {
  await main();
}

async function main() {
  const child = fork(fileURLToPath(import.meta.url), ["--server"], {
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const port = await new Promise((resolve) => child.once("message", (m) => resolve(m.port)));

  const agent = new Agent({ keepAliveTimeout: 60_000 });
  const bareUrl = `http://127.0.0.1:${port}/`;
  const bare = async () => {
    const res = await request(bareUrl, { dispatcher: agent });
    await res.body.arrayBuffer();
    if (res.statusCode !== 200) throw new Error(`bare: HTTP ${res.statusCode}`);
  };

  // The production client; only name resolution and the dial target are injected (as the tests do).
  const net = createNet({
    resolve: async () => ["93.184.215.14"],
    connectTo: () => ({ host: "127.0.0.1", port }),
    env: {},
  });
  const guarded = async () => {
    const r = await net.request("http://bench.example.com/", { deadline: Deadline.after(10_000) });
    if (!r.ok || r.status !== 200) throw new Error(`net: ${r.ok ? `HTTP ${r.status}` : r.message}`);
  };

  async function round(fn, ms) {
    const latencies = [];
    const end = performance.now() + ms;
    let count = 0;
    const worker = async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        await fn();
        latencies.push(performance.now() - t0);
        count++;
      }
    };
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const cpu = process.cpuUsage(cpu0);
    const elapsed = (performance.now() - t0) / 1000;
    latencies.sort((a, b) => a - b);
    const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
    return { rps: count / elapsed, p50: pct(50), p99: pct(99), cpuUs: (cpu.user + cpu.system) / count };
  }

  // Warm-up: JIT, connections, the DNS cache.
  await round(bare, quick ? 300 : 1000);
  await round(guarded, quick ? 300 : 1000);

  const results = { bare: [], net: [] };
  for (let i = 0; i < ROUNDS; i++) {
    const order = i % 2 ? ["net", "bare"] : ["bare", "net"];
    for (const side of order) results[side].push(await round(side === "bare" ? bare : guarded, ROUND_MS));
  }
  await net.close();
  await agent.close();
  child.disconnect();
  child.kill();

  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const summary = (side) => ({
    rps: median(results[side].map((r) => r.rps)),
    p50: median(results[side].map((r) => r.p50)),
    p99: median(results[side].map((r) => r.p99)),
    cpuUs: median(results[side].map((r) => r.cpuUs)),
  });
  const b = summary("bare");
  const n = summary("net");
  const cost = 1 - n.rps / b.rps;
  const cpuCost = 1 - b.cpuUs / n.cpuUs;
  const verdict = (c) => (c < 0.1 ? "meets" : "misses");
  const f0 = (x) => x.toFixed(0);
  const f2 = (x) => x.toFixed(2);
  console.log(`## net overhead over bare undici (loopback, keep-alive)

GET of a ${BODY_BYTES}-byte HTML page from a loopback server in another process, ${CONCURRENCY} requests in flight, ${ROUNDS} alternating rounds of ${ROUND_MS} ms per side; medians over rounds. \`net\` runs its whole policy on every request (URL policy, vetted-DNS cache, pinned connector, redirect handling, byte caps, deadline); only name resolution and the dial target are injected.

| client | requests/s | p50 ms | p99 ms | client CPU µs / request |
| --- | ---: | ---: | ---: | ---: |
| bare undici \`request\` | ${f0(b.rps)} | ${f2(b.p50)} | ${f2(b.p99)} | ${f0(b.cpuUs)} |
| websift \`net\` | ${f0(n.rps)} | ${f2(n.p50)} | ${f2(n.p99)} | ${f0(n.cpuUs)} |
| ratio net / bare | ${f2(n.rps / b.rps)} | ${f2(n.p50 / b.p50)} | ${f2(n.p99 / b.p99)} | ${f2(n.cpuUs / b.cpuUs)} |

Throughput cost of the policy: **${(cost * 100).toFixed(1)}%** measured (target: under 10%, ${verdict(cost)} it); from client CPU per request, which other load on the machine disturbs less: **${(cpuCost * 100).toFixed(1)}%** (${verdict(cpuCost)} it). On a busy machine (see the load average above) wall-clock figures swing by several times between rounds; the CPU figure is the steadier one.

Per round (requests/s, bare / net): ${results.bare.map((r, i) => `${f0(r.rps)} / ${f0(results.net[i].rps)}`).join("; ")}.`);
}

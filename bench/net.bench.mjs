// Overhead of websift's guarded client (`net`) over a bare undici `request`, both on keep-alive connections to
// the same loopback server (a separate process, so the server does not share the client's event loop).
// Short rounds alternate bare / net; the verdict is the median of per-pair ratios. Target: net costs < 10%.
// A third side, undici's dispatcher-level `agent.request()` (the cheapest undici call that hands back a response
// and its body), runs in the same rounds for reference: undici's top-level `request()` costs more CPU per call than
// it, so it shows what net costs over the cheapest bare path too. net itself goes one level lower, to the
// dispatcher's `dispatch()` with its own handler (src/net/exchange.ts), so a fourth side, a bare `agent.dispatch()`
// with a minimal handler that only collects the body, is the like-for-like floor: net's cost over it is the policy
// alone (URL policy, DNS cache, deadline, caps, headers), with no undici convenience layer on either side.
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
// A multiple of the four orders, so each side runs in each position equally often.
const ROUNDS = quick ? 12 : 40;
const ROUND_MS = quick ? 150 : 300;
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

function makeClients(port) {
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
  const origin = `http://127.0.0.1:${port}`;
  const direct = async () => {
    const res = await agent.request({ origin, path: "/", method: "GET" });
    await res.body.arrayBuffer();
    if (res.statusCode !== 200) throw new Error(`direct: HTTP ${res.statusCode}`);
  };
  // The floor: one dispatch() per request and the least handler that yields the status and the whole body.
  const dispatchOpts = { origin, path: "/", method: "GET" };
  const floor = () =>
    new Promise((resolve, reject) => {
      let status = 0;
      const chunks = [];
      agent.dispatch(dispatchOpts, {
        onRequestStart() {},
        onResponseStart(_c, statusCode) {
          status = statusCode;
        },
        onResponseData(_c, chunk) {
          chunks.push(chunk);
        },
        onResponseEnd() {
          Buffer.concat(chunks);
          if (status !== 200) reject(new Error(`floor: HTTP ${status}`));
          else resolve();
        },
        onResponseError(_c, err) {
          reject(err);
        },
      });
    });
  return {
    bare,
    direct,
    floor,
    guarded,
    async close() {
      await net.close();
      await agent.close();
    },
  };
}

async function main() {
  const child = fork(fileURLToPath(import.meta.url), ["--server"], {
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const port = await new Promise((resolve) => child.once("message", (m) => resolve(m.port)));
  const { bare, direct, floor, guarded, close } = makeClients(port);

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
  await round(direct, quick ? 300 : 1000);
  await round(floor, quick ? 300 : 1000);

  const sides = { bare, net: guarded, direct, floor };
  // A balanced Latin square (Williams design) for four sides: each side runs once in each position, and each
  // follows every other side exactly once, so neither position nor the side before it favours one.
  const orders = [
    ["bare", "net", "floor", "direct"],
    ["net", "direct", "bare", "floor"],
    ["direct", "floor", "net", "bare"],
    ["floor", "bare", "direct", "net"],
  ];
  if (ROUNDS % orders.length !== 0) throw new Error("ROUNDS must be a multiple of the number of orders");
  const results = { bare: [], net: [], direct: [], floor: [] };
  for (let i = 0; i < ROUNDS; i++)
    for (const side of orders[i % orders.length]) results[side].push(await round(sides[side], ROUND_MS));
  await close();
  child.disconnect();
  child.kill();

  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const summary = (side) => {
    const rs = results[side];
    return {
      rps: median(rs.map((r) => r.rps)),
      bestRps: Math.max(...rs.map((r) => r.rps)),
      p50: median(rs.map((r) => r.p50)),
      p99: median(rs.map((r) => r.p99)),
      cpuUs: median(rs.map((r) => r.cpuUs)),
      bestCpuUs: Math.min(...rs.map((r) => r.cpuUs)),
    };
  };
  const b = summary("bare");
  const n = summary("net");
  const d = summary("direct");
  const fl = summary("floor");
  const pct = (x) => `${(x * 100).toFixed(1)}%`;
  // Each round runs the three sides back to back (the order rotating over all six), so they saw much the same
  // machine; the median of the per-round ratios is the estimate least moved by other load.
  const pairRps = median(results.net.map((r, i) => r.rps / results.bare[i].rps));
  const pairCpu = median(results.net.map((r, i) => r.cpuUs / results.bare[i].cpuUs));
  const costPairs = 1 - pairRps;
  const costDirect = 1 - median(results.net.map((r, i) => r.rps / results.direct[i].rps));
  const costDirectCpu = 1 - 1 / median(results.net.map((r, i) => r.cpuUs / results.direct[i].cpuUs));
  const costPairsCpu = 1 - 1 / pairCpu;
  const costFloor = 1 - median(results.net.map((r, i) => r.rps / results.floor[i].rps));
  const costFloorCpu = 1 - 1 / median(results.net.map((r, i) => r.cpuUs / results.floor[i].cpuUs));
  const costMedian = 1 - n.rps / b.rps;
  const costBest = 1 - n.bestRps / b.bestRps;
  const costCpu = 1 - b.bestCpuUs / n.bestCpuUs;
  // agent.request() is the cheapest bare call that yields a response and its body, so it is the baseline (net
  // itself dispatches below it, with its own handler); the top-level request() (what a caller would usually
  // write) costs more than both and is shown for context.
  const verdict = costDirect < 0.1 ? "meets" : "misses";
  const f0 = (x) => x.toFixed(0);
  const f2 = (x) => x.toFixed(2);
  console.log(`## net overhead over bare undici (loopback, keep-alive)

GET of a ${BODY_BYTES}-byte HTML page from a loopback server in another process, ${CONCURRENCY} requests in flight, ${ROUNDS} rounds of ${ROUND_MS} ms per side, the sides' order rotating. \`net\` runs its whole policy on every request (URL policy, vetted-DNS cache, pinned connector, redirect handling, byte caps, deadline, a Deadline made per request); only name resolution and the dial target are injected.

| client | requests/s (median) | requests/s (best round) | p50 ms | p99 ms | client CPU µs/request (median) | (best round) |
| --- | ---: | ---: | ---: | ---: | ---: | ---: |
| bare undici \`request\` | ${f0(b.rps)} | ${f0(b.bestRps)} | ${f2(b.p50)} | ${f2(b.p99)} | ${f0(b.cpuUs)} | ${f0(b.bestCpuUs)} |
| bare undici \`agent.request()\` (dispatcher level, reference) | ${f0(d.rps)} | ${f0(d.bestRps)} | ${f2(d.p50)} | ${f2(d.p99)} | ${f0(d.cpuUs)} | ${f0(d.bestCpuUs)} |
| bare undici \`agent.dispatch()\` + minimal handler (floor, reference) | ${f0(fl.rps)} | ${f0(fl.bestRps)} | ${f2(fl.p50)} | ${f2(fl.p99)} | ${f0(fl.cpuUs)} | ${f0(fl.bestCpuUs)} |
| websift \`net\` | ${f0(n.rps)} | ${f0(n.bestRps)} | ${f2(n.p50)} | ${f2(n.p99)} | ${f0(n.cpuUs)} | ${f0(n.bestCpuUs)} |
| ratio net / bare | ${f2(n.rps / b.rps)} | ${f2(n.bestRps / b.bestRps)} | ${f2(n.p50 / b.p50)} | ${f2(n.p99 / b.p99)} | ${f2(n.cpuUs / b.cpuUs)} | ${f2(n.bestCpuUs / b.bestCpuUs)} |

Throughput cost of the policy over the like-for-like bare path, undici's dispatcher-level \`agent.request()\` (the cheapest undici call that returns a response and its body; net dispatches one level below it, with its own handler): **${pct(costDirect)}** in requests per second, ${pct(costDirectCpu)} in client CPU per request (median of per-round ratios). Target: under 10%; this run ${verdict} it. Against undici's top-level \`request()\` (what a caller usually writes, slower than both): ${pct(costPairs)} in requests per second, ${pct(costPairsCpu)} in client CPU; for reference ${pct(costBest)} between the best rounds, ${pct(costMedian)} between the medians, ${pct(costCpu)} between the best rounds' CPU per request. Other load on the machine (see the load average in the header) moves single rounds by several times; pairing rounds cancels most of it.

Cost over the floor, a bare \`agent.dispatch()\` with a handler that only collects the body (the call net itself makes, so this is the policy alone): **${pct(costFloor)}** in requests per second, ${pct(costFloorCpu)} in client CPU per request (median of per-round ratios).

Per round (requests/s, bare / direct / floor / net): ${results.bare.map((r, i) => `${f0(r.rps)} / ${f0(results.direct[i].rps)} / ${f0(results.floor[i].rps)} / ${f0(results.net[i].rps)}`).join("; ")}.`);
}

// HTTP service: throughput and p99 latency of `POST /v1/search` under autocannon, on cache hits (one query
// repeated) and on the simulated web at a fixed latency (a distinct query per request, so every call runs the
// search chain), for 1 instance vs 3 instances sharing one real redis-server; Redis commands per request,
// memory per instance, each instance's CPU per request and the load generator's own CPU share beside them.
// `--profile DIR` writes a CPU profile of each instance (node --cpu-prof) there; `--only distinct|hit` and
// `--instances 1,3` narrow the run.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { register } from "tsx/esm/api";

register();
const quick = process.argv.includes("--quick");
const LATENCY_MS = 50;
const CONNECTIONS = 32;
const SECONDS = quick ? 3 : 8;
const ROUNDS = quick ? 1 : 3;
const WARM_SECONDS = quick ? 1 : 2;
const argAfter = (flag) =>
  process.argv.includes(flag) ? process.argv[process.argv.indexOf(flag) + 1] : undefined;
const PROFILE = argAfter("--profile");
const ONLY = argAfter("--only");
const COUNTS = (argAfter("--instances") ?? "1,3").split(",").map(Number);
// autocannon's connections all come from 127.0.0.1, one client to the server; a fleet behind a load balancer
// sees many. The per-client cap (4 running + 16 queued by default) would measure the cap, so it is raised here.
const CAP = { running: 256, waiting: 256 };

// Child mode: one instance in its own process with its own simulated web, sharing the Redis it is given.
if (process.argv.includes("--serve")) {
  const redisUrl = process.argv[process.argv.indexOf("--serve") + 1];
  const { startSimWeb } = await import("../test/simweb/index.ts");
  const { createServeContext } = await import("../dist/serve/serve-context.js");
  const { buildServeApp, listen } = await import("../dist/serve/app.js");
  const web = await startSimWeb();
  web.route("html.duckduckgo.com", "/html/", {
    headers: { "content-type": "text/html; charset=utf-8" },
    body: web.fixture("duckduckgo/ddg-html-results-with-ad-weather-jakarta-2026-02.html"),
  });
  web.setLatency(LATENCY_MS);
  const ctx = createServeContext({
    cwd: "/nonexistent-websift-bench",
    home: "/nonexistent-websift-bench",
    env: { WEBSIFT_STORE: "redis", WEBSIFT_REDIS_URL: redisUrl },
    overrides: { ...web.netConfig, timeoutMs: 15_000 },
    log: (line) => process.stderr.write(`serve: ${line}\n`),
  });
  const app = await buildServeApp(ctx, { clientCap: CAP });
  const where = await listen(app, ctx, { port: 0 });
  process.stdout.write(`${JSON.stringify({ url: where.url })}\n`);
  process.stdin.resume();
  process.stdin.on("end", async () => {
    await app.close();
    await ctx.close();
    await web.close();
    process.exit(0);
  });
  await new Promise(() => {});
}

const { RedisServer } = await import("../test/store/redis-server.ts");
const SELF = fileURLToPath(import.meta.url);

function startInstance(redisUrl) {
  const flags = PROFILE ? ["--cpu-prof", "--cpu-prof-dir", PROFILE] : [];
  const child = spawn(process.execPath, [...flags, SELF, "--serve", redisUrl], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  // Any moment the store or the mailbox stood in for Redis counts as degraded, not only the state at the end.
  const instance = { child, degradedAtAll: false };
  child.stderr.on("data", (chunk) => {
    process.stderr.write(chunk);
    if (/unavailable/.test(String(chunk))) instance.degradedAtAll = true;
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const at = out.indexOf("\n");
      if (at >= 0) resolve(Object.assign(instance, { url: JSON.parse(out.slice(0, at)).url }));
    });
    child.once("exit", (code) => reject(new Error(`instance exited (${code})`)));
  });
}
/** VmRSS and VmHWM (peak) of a child, in MB. */
function memoryOf({ child }) {
  try {
    const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
    const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
  } catch {
    return { rss: 0, peak: 0 };
  }
}

/** CPU time (user + system) a child has used so far, in ms: what a request costs whatever else the machine runs. */
function cpuMsOf({ child }) {
  try {
    // Fields 14 and 15 of /proc/PID/stat, after the command name in parentheses; in clock ticks (100 per second).
    const fields = readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/** Commands Redis has run so far (INFO commandstats), to count round trips per request. */
async function redisCommands(url) {
  const { Redis } = await import("ioredis");
  const r = new Redis(url);
  try {
    const info = await r.info("commandstats");
    let calls = 0;
    for (const m of info.matchAll(/cmdstat_(\w+):calls=(\d+)/g)) if (m[1] !== "info") calls += Number(m[2]);
    return calls;
  } finally {
    r.disconnect();
  }
}

async function stopInstance({ child }) {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.stdin.end();
  await exited;
}

let distinct = 0;
function load(url, connections, body, duration = SECONDS) {
  return autocannon({
    url: `${url}/v1/search`,
    connections,
    duration,
    method: "POST",
    headers: { "content-type": "application/json" },
    requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify(body()) }) }],
  });
}

/** The same total connections split over the instances, all load generators running at once; sums and worst p99. */
async function measure(urls, body, duration = SECONDS) {
  const per = Math.ceil(CONNECTIONS / urls.length);
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  const results = await Promise.all(urls.map((u) => load(u, per, body, duration)));
  const cpu = process.cpuUsage(cpuBefore);
  const wall = performance.now() - wallBefore;
  return {
    // The load generator's own CPU, as a share of the machine's cores over the run.
    loadgen: (cpu.user + cpu.system) / 1000 / wall / cpus().length,
    total: results.reduce((s, r) => s + r.requests.total, 0),
    rps: results.reduce((s, r) => s + r.requests.average, 0),
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    non2xx: results.reduce((s, r) => s + r.non2xx, 0),
    errors: results.reduce((s, r) => s + r.errors + r.timeouts, 0),
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const SCENARIOS = [
  { key: "hit", name: "cache hit (same query)", body: () => ({ query: "weather jakarta" }) },
  {
    key: "distinct",
    name: `simulated web, ${LATENCY_MS} ms latency (distinct queries)`,
    body: () => ({ query: `weather jakarta ${distinct++}` }),
  },
].filter((s) => !ONLY || s.key === ONLY);

const redis = await RedisServer.start();
const rows = [];
// Other work on the machine takes cores from every process here: the figures say under what load they were taken.
const loads = [];
const sampleLoad = setInterval(() => loads.push(loadavg()[0]), 2000);
for (const scenario of SCENARIOS) {
  for (const count of COUNTS) {
    const rounds = [];
    for (let round = 0; round < ROUNDS; round++) {
      const instances = await Promise.all(Array.from({ length: count }, () => startInstance(redis.url)));
      const urls = instances.map((i) => i.url);
      // Warm up (and fill the cache for the hit scenario) before measuring.
      for (const url of urls)
        await fetch(`${url}/v1/search`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query: "weather jakarta" }),
        });
      // Then the same load, unmeasured, until the code is compiled hot: a cold first second would make the first
      // round of each row slower than the others and spread the median.
      await measure(urls, scenario.body, WARM_SECONDS);
      // Degraded counts from here: a slow first connection while the instances start is not the load's doing.
      for (const i of instances) i.degradedAtAll = false;
      const commandsBefore = await redisCommands(redis.url);
      const cpuBefore = instances.map(cpuMsOf);
      const measured = await measure(urls, scenario.body);
      const cpuUsed = instances.reduce((sum, instance, i) => sum + cpuMsOf(instance) - cpuBefore[i], 0);
      // The instances' own CPU per request (their simulated web included): the figure other work on the
      // machine moves least, so changes to the code show in it even when req/s is set by a busy machine.
      measured.cpuPerRequest = cpuUsed / Math.max(1, measured.total);
      measured.redisPerRequest =
        ((await redisCommands(redis.url)) - commandsBefore) / Math.max(1, measured.total);
      const memory = instances.map(memoryOf);
      measured.rss = median(memory.map((m) => m.rss));
      measured.peak = median(memory.map((m) => m.peak));
      // A store that fell back to memory mid-run would flatter the numbers: say so.
      for (const url of urls) {
        const health = await (await fetch(`${url}/v1/health`)).json();
        if (health.store.degraded || health.mailbox?.degraded) measured.degraded = true;
      }
      if (instances.some((i) => i.degradedAtAll)) measured.degraded = true;
      process.stderr.write(
        `serve bench: ${scenario.name}, ${count} instance(s): ${JSON.stringify(measured)}\n`,
      );
      rounds.push(measured);
      await Promise.all(instances.map(stopInstance));
    }
    const pick = (k) => median(rounds.map((r) => r[k]));
    rows.push({
      scenario: scenario.name,
      count,
      rps: pick("rps"),
      p50: pick("p50"),
      p99: pick("p99"),
      loadgen: pick("loadgen"),
      cpuPerRequest: pick("cpuPerRequest"),
      redisPerRequest: pick("redisPerRequest"),
      rss: pick("rss"),
      peak: pick("peak"),
      non2xx: rounds.reduce((s, r) => s + r.non2xx, 0),
      errors: rounds.reduce((s, r) => s + r.errors, 0),
      degraded: rounds.some((r) => r.degraded),
    });
  }
}
await redis.kill();
clearInterval(sampleLoad);
const meanLoad = loads.reduce((a, b) => a + b, 0) / Math.max(1, loads.length);

const table = rows
  .map(
    (r) =>
      `| ${r.scenario} | ${r.count} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.cpuPerRequest.toFixed(2)} | ${r.redisPerRequest.toFixed(1)} | ${r.rss.toFixed(0)} / ${r.peak.toFixed(0)} | ${(r.loadgen * 100).toFixed(0)} % | ${r.non2xx} | ${r.errors} | ${r.degraded ? "yes" : "no"} |`,
  )
  .join("\n");
const ratio = (scenario) => {
  const [one, more] = rows.filter((r) => r.scenario === scenario);
  return one && more ? (more.rps / one.rps).toFixed(2) : "–";
};

const hit = SCENARIOS.find((x) => x.key === "hit")?.name;
const web = SCENARIOS.find((x) => x.key === "distinct")?.name;
console.log(`## HTTP service (websift serve)

\`POST /v1/search\` under autocannon, ${CONNECTIONS} connections in total for ${SECONDS} s after ${WARM_SECONDS} s of the same load
unmeasured, median of ${ROUNDS} round(s),
each instance a \`websift serve\` app in its own process with its own simulated web, all sharing one local
redis-server (cache, cooldowns, rate limits, the conversations' mailbox). With several instances the connections
are split between them and one autocannon run per instance goes at once: req/s is their sum, p50 and p99 the
worst. The per-client cap is raised to ${CAP.running} running + ${CAP.waiting} queued: autocannon is one client
(127.0.0.1), a fleet behind a load balancer is many. Load generator, instances, simulated web and Redis share this
machine's ${cpus().length} cores, so more instances add capacity only as far as cores are free; "load generator" is
autocannon's own CPU as a share of all cores. "instance CPU ms / req" is the instances' user + system CPU over the
measured run (from /proc, each instance's simulated web included) per request served: other work on the machine
moves it least. Redis commands per request come from INFO commandstats; memory is
each instance's VmRSS after the run / VmHWM (peak), median over instances. "store degraded" is yes if any
instance's store or mailbox fell back to memory at any moment of the measured run.

1-minute load average over the run: ${meanLoad.toFixed(1)} on ${cpus().length} cores (1 would be one core kept busy).

| scenario | instances | req/s | p50 ms | p99 ms | instance CPU ms / req | Redis cmds / req | MB RSS / peak | load generator | non-2xx | errors | store degraded |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |
${table}

${COUNTS.at(-1)} instances vs 1: ×${hit ? ratio(hit) : "–"} on cache hits, ×${web ? ratio(web) : "–"} on the simulated web.
`);
process.exit(0);

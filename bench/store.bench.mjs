// Cache-hit throughput per store backend: gets/s of one search-cache entry (a ~4 KB JSON response) that is
// already stored, 1 call in flight (a CLI) and 16 in flight (a server). Redis is a redis-server started here on
// a loopback port; sqlite is a file in a temporary directory. Each figure is the median of several rounds.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const dist = fileURLToPath(new URL("../dist/", import.meta.url));
if (!existsSync(`${dist}store/open-store.js`)) {
  console.error("bench/store: dist/ is missing; run `npm run build` first (npm run bench does)");
  process.exit(1);
}
const { MemoryStore } = await import(`${dist}store/store.js`);
const { SqliteStore } = await import(`${dist}store/sqlite.js`);
const { RedisStore } = await import(`${dist}store/redis.js`);

const quick = process.argv.includes("--quick");
const ROUNDS = quick ? 3 : 7;
const ROUND_MS = quick ? 300 : 1000;
const CONCURRENCIES = [1, 16];

const entry = {
  at: Date.now(),
  response: {
    status: "ok",
    results: Array.from({ length: 10 }, (_, i) => ({
      title: `Result ${i} about the query`,
      url: `https://example.com/page/${i}`,
      snippet:
        "A snippet of about two hundred characters that stands in for what a search engine returns. ".repeat(
          3,
        ),
      rank: i + 1,
      providers: ["brave", "duckduckgo"],
    })),
    attempts: [{ provider: "brave", status: "ok", ms: 412, count: 10 }],
  },
};

async function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function startRedis() {
  const port = await freePort();
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  await new Promise((resolve, reject) => {
    let out = "";
    child.once("error", reject);
    child.stdout.on("data", (chunk) => {
      out += chunk;
      if (out.includes("Ready to accept connections")) resolve();
    });
  });
  return { url: `redis://127.0.0.1:${port}`, child };
}

async function round(store, key, concurrency) {
  const end = performance.now() + ROUND_MS;
  let count = 0;
  const worker = async () => {
    while (performance.now() < end) {
      for (let i = 0; i < 50; i++) {
        if ((await store.get(key)) === undefined) throw new Error(`${store.kind}: cache miss`);
        count++;
      }
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return count / ((performance.now() - t0) / 1000);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const dir = mkdtempSync(join(tmpdir(), "websift-store-bench-"));
const redis = await startRedis();
// Opened one at a time: the memory rounds never yield to the event loop, which would starve a waiting connect.
const openers = [
  () => new MemoryStore(),
  () => new SqliteStore(join(dir, "state.db")),
  () => new RedisStore({ url: redis.url, log: (line) => process.stderr.write(`${line}\n`) }),
];
const rows = [];
try {
  for (const open of openers) {
    const store = open();
    const key = "search:bench";
    await store.set(key, entry, 3_600_000);
    const row = { kind: store.kind };
    for (const concurrency of CONCURRENCIES) {
      await round(store, key, concurrency); // warm-up: JIT, statement cache, connection
      const rates = [];
      for (let i = 0; i < ROUNDS; i++) rates.push(await round(store, key, concurrency));
      row[concurrency] = median(rates);
    }
    if (store.status?.().degraded) throw new Error(`${store.kind} degraded during the bench`);
    rows.push(row);
    await store.close();
  }
} finally {
  redis.child.kill();
  rmSync(dir, { recursive: true, force: true });
}

const f = (x) => Math.round(x).toLocaleString("en-US");
console.log(`## Store: cache-hit throughput

\`get\` of one stored search-cache entry (${JSON.stringify(entry).length} bytes of JSON), parsed back into an object (memory hands back the stored object itself); median of ${ROUNDS} rounds of ${ROUND_MS} ms after a warm-up. Redis is a local redis-server over loopback TCP; sqlite is a WAL file on local disk.

| backend | gets/s, 1 in flight | gets/s, 16 in flight |
| --- | ---: | ---: |
${rows.map((r) => `| ${r.kind} | ${f(r[1])} | ${f(r[16])} |`).join("\n")}
`);

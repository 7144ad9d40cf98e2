// The caller's event loop while websift reads large pages: event-loop delay (p99, perf_hooks) while 8 reads of
// 1–3 MB pages run at once through the production read path (net on loopback, the page pool), against the same 8
// pages extracted on the loop as before the pool; the time to extract a 3 MB page; and what a page costs inline
// and on the pool by size, which sets the size below which pages stay inline.
// Targets: p99 < 20 ms while the 8 reads run; a 3 MB page extracted in ≤ 300 ms, and extraction time linear in
// the page's size (0.5 to 3 MB).
import { fork } from "node:child_process";
import { existsSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

const dist = fileURLToPath(new URL("../dist/", import.meta.url));
if (!existsSync(`${dist}read/page-pool.js`)) {
  console.error("bench/event-loop: dist/ is missing; run `npm run build` first (npm run bench does)");
  process.exit(1);
}
const { createNet } = await import(`${dist}net/client.js`);
const { read } = await import(`${dist}read/read.js`);
const { MemoryStore } = await import(`${dist}store/store.js`);
const { settingsFromEnv } = await import(`${dist}config/load.js`);
const { extractMarkdown } = await import(`${dist}read/extract/index.js`);
const { extractPage, closePagePool, INLINE_BELOW_CHARS } = await import(`${dist}read/page-pool.js`);
const { Deadline } = await import(`${dist}core/deadline.js`);

const quick = process.argv.includes("--quick");
const loadAtStart = os
  .loadavg()
  .map((l) => l.toFixed(2))
  .join(", ");
const ROUNDS = quick ? 3 : 7;
const MB = 1024 * 1024;
const SIZES = [1, 1.3, 1.6, 2, 2.3, 2.6, 2.8, 3].map((m) => Math.round(m * MB));

const sentence = (i) =>
  `Sentence ${i} of the report says that the harbour, rebuilt in granite after the storm, still serves the fleet.`;
/** An article page of about `bytes`: navigation, a long article of paragraphs with links, a footer. */
function articlePage(bytes, seed) {
  const nav = Array.from({ length: 40 }, (_, i) => `<li><a href="/s${i}">Section ${i}</a></li>`).join("");
  const parts = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const p = `<p>${sentence(seed * 1e6 + i)} ${sentence(i + 1)} See <a href="/n${i}">note ${i}</a>.</p>`;
    parts.push(i % 12 === 0 ? `<h2>Part ${i}</h2>${p}` : p);
    size += p.length;
  }
  return `<!doctype html><html><head><title>Report ${seed}</title></head><body><nav><ul>${nav}</ul></nav><main><article><h1>Report ${seed}</h1>${parts.join("")}</article></main><footer>© Example</footer></body></html>`;
}

const pages = SIZES.map((b, i) => articlePage(b, i));

// The server runs in a child process, so serving the pages does not count against this process's loop.
if (process.argv.includes("--server")) {
  const bodies = pages.map((p) => Buffer.from(p));
  const server = http.createServer((req, res) => {
    const i = Number(req.url.split("/").pop());
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(bodies[i] ?? "");
  });
  server.listen(0, "127.0.0.1", () => process.send(server.address().port));
  process.on("disconnect", () => process.exit(0));
  await new Promise(() => {});
}
const child = fork(fileURLToPath(import.meta.url), ["--server"], {
  stdio: ["ignore", "ignore", "inherit", "ipc"],
});
const port = await new Promise((r) => child.once("message", r));
const net = createNet({
  resolve: async () => ["93.184.215.14"],
  connectTo: () => ({ host: "127.0.0.1", port }),
});

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (ns) => ns / 1e6;

async function loopDelayWhile(work) {
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  // Sampling starts on the loop's next turn; work started at once would hold it before the first sample.
  await new Promise((r) => setTimeout(r, 50));
  const t0 = performance.now();
  await work();
  const wall = performance.now() - t0;
  // A loop held to the end records its delay only when a timer runs again.
  await new Promise((r) => setTimeout(r, 10));
  h.disable();
  return { p99: ms(h.percentile(99)), max: ms(h.max), wall };
}

// Warm both paths once (module loading, the pool's threads, JIT).
await read(`http://pages.example.com/p/0`, { render: "never" }, ctx());
await extractMarkdown(pages[0], "http://pages.example.com/p/0");

function ctx() {
  return { net, store: new MemoryStore(), config: settingsFromEnv({}), log: () => {} };
}

// Extraction on the loop first, in a process that holds nothing else yet (the rounds below leave the page cache
// and the pages' garbage behind).
const biggest = pages.at(-1);
// Once before timing, as a server that has read large pages before: the first one also grows the heap to fit.
await extractMarkdown(biggest, "http://pages.example.com/p/7");
const extract3 = [];
const extract3Cpu = [];
for (let r = 0; r < ROUNDS; r++) {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  await extractMarkdown(biggest, "http://pages.example.com/p/7");
  const c = process.cpuUsage(c0);
  extract3.push(performance.now() - t0);
  extract3Cpu.push((c.user + c.system) / 1000);
}
// Extraction time by page size, on the loop: linear in the size means about the same ms per MB at each.
const bySizeMB = [];
for (const mb of [0.5, 1, 2, 3]) {
  const html = articlePage(Math.round(mb * MB), 42);
  await extractMarkdown(html, "http://pages.example.com/s");
  const wall = [];
  const cpu = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    await extractMarkdown(html, "http://pages.example.com/s");
    const c = process.cpuUsage(c0);
    wall.push(performance.now() - t0);
    cpu.push((c.user + c.system) / 1000);
  }
  bySizeMB.push({ mb, wall: median(wall), cpu: median(cpu) });
}
const pooled = [];
const inline = [];
const looking = [];
const cached = ctx();
await Promise.all(
  pages.map((_, i) =>
    read(`http://pages.example.com/p/${i}`, { render: "never", timeoutMs: 60_000 }, cached),
  ),
);
let statuses = new Set();
for (let r = 0; r < ROUNDS; r++) {
  pooled.push(
    await loopDelayWhile(async () => {
      const c = ctx();
      const got = await Promise.all(
        pages.map((_, i) =>
          read(`http://pages.example.com/p/${i}`, { render: "never", timeoutMs: 60_000 }, c),
        ),
      );
      statuses = new Set([...statuses, ...got.map((g) => g.status)]);
    }),
  );
  inline.push(
    await loopDelayWhile(async () => {
      await Promise.all(pages.map((html, i) => extractMarkdown(html, `http://pages.example.com/p/${i}`)));
    }),
  );
  // The same 8 reads asking for passages, from the page cache the first round filled: sizing alone.
  looking.push(
    await loopDelayWhile(async () => {
      await Promise.all(
        pages.map((_, i) =>
          read(
            `http://pages.example.com/p/${i}`,
            { render: "never", timeoutMs: 60_000, lookingFor: "storm granite" },
            cached,
          ),
        ),
      );
    }),
  );
}

const pool3 = [];
for (let r = 0; r < ROUNDS; r++) {
  const t0 = performance.now();
  await extractPage(biggest, "http://pages.example.com/p/7", Deadline.after(60_000));
  pool3.push(performance.now() - t0);
}

// Inline or on the pool, by page size: the pool costs a copy and a message each way.
const bySize = [];
for (const kb of [16, 32, 64, 128, 256]) {
  const html = articlePage(kb * 1024, 99);
  const once = async (f) => {
    const t = [];
    for (let r = 0; r < ROUNDS * 2; r++) {
      const t0 = performance.now();
      await f();
      t.push(performance.now() - t0);
    }
    return median(t);
  };
  const inl = await once(() => extractMarkdown(html, "http://pages.example.com/x"));
  // The pool path forced: a deadline and the pool's runner via a page over the inline size.
  const { runOnPool } = await import(`${dist}read/page-pool.js`);
  const onPool = await once(() =>
    runOnPool("extract", { html, url: "http://pages.example.com/x" }, Deadline.after(60_000), "x"),
  );
  bySize.push({ kb, inl, onPool });
}

await closePagePool();
await net.close();
child.disconnect();

const f = (x) => x.toFixed(1);
const out = [
  "## Event loop while large pages are read",
  "",
  `8 reads at once of article pages of ${SIZES.map((b) => (b / MB).toFixed(1)).join(", ")} MB through read() (net on loopback, render off); median of ${ROUNDS} rounds; ${os.availableParallelism()} cores. Statuses: ${[...statuses].join(", ")}.`,
  "",
  "| | event-loop delay p99 | max | wall time of the 8 |",
  "| --- | --- | --- | --- |",
  `| read() (large pages on the page pool) | **${f(median(pooled.map((p) => p.p99)))} ms** | ${f(median(pooled.map((p) => p.max)))} ms | ${f(median(pooled.map((p) => p.wall)))} ms |`,
  `| the same 8 pages extracted on the loop (as before the pool) | ${f(median(inline.map((p) => p.p99)))} ms | ${f(median(inline.map((p) => p.max)))} ms | ${f(median(inline.map((p) => p.wall)))} ms |`,
  `| the same 8 reads with \`lookingFor\`, from the page cache (passages chosen on the pool) | ${f(median(looking.map((p) => p.p99)))} ms | ${f(median(looking.map((p) => p.max)))} ms | ${f(median(looking.map((p) => p.wall)))} ms |`,
  "",
  `Extracting the ${(SIZES.at(-1) / MB).toFixed(1)} MB page: **${f(median(extract3))} ms** on the loop (${f(median(extract3Cpu))} ms of CPU), ${f(median(pool3))} ms on the pool (copy to the thread included). Target: delay p99 < 20 ms, a 3 MB page ≤ 300 ms.`,
  "",
  `Extraction time by page size, on the loop (median of ${ROUNDS}; CPU is the process's user and system time, which load on the machine inflates less than wall time):`,
  "",
  "| page | wall | CPU | CPU per MB |",
  "| --- | --- | --- | --- |",
  ...bySizeMB.map((s) => `| ${s.mb} MB | ${f(s.wall)} ms | ${f(s.cpu)} ms | ${f(s.cpu / s.mb)} ms |`),
  "",
  `Inline or on the pool, by page size (median of ${ROUNDS * 2}); pages under ${INLINE_BELOW_CHARS / 1024} KB stay inline:`,
  "",
  "| page | inline | on the pool |",
  "| --- | --- | --- |",
  ...bySize.map((s) => `| ${s.kb} KB | ${f(s.inl)} ms | ${f(s.onPool)} ms |`),
  "",
  `Load average (1, 5, 15 min) at the start: ${loadAtStart}; at the end: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(", ")} (the machine is shared: a loaded machine inflates every wall time here).`,
];
console.log(out.join("\n"));

// Repeat reads and robots.txt on the simulated web, every reply 80 ms late (a far server's round trip), a page
// of about 400 KB of HTML:
// 1. A repeat read past the page's freshness that the site answers 304 costs one round trip and no parsing,
//    against the whole read a page without a validator costs again.
// 2. robots.txt costs an automated read one round trip on the first page of a host, none after (kept a day).
import { register } from "tsx/esm/api";

register();
// tsx's loader hooks resolve a module off the main thread: a lazy import() (robots-parser's) made while nothing
// else holds the event loop would let Node end the run with "unsettled top-level await" (exit 13).
setInterval(() => {}, 60_000);
const { startSimWeb } = await import("../test/simweb/index.ts");
const { createNet } = await import("../dist/net/client.js");
const { read } = await import("../dist/read/read.js");
const { settingsFromEnv } = await import("../dist/config/load.js");
const { MemoryStore } = await import("../dist/store/store.js");

const quick = process.argv.includes("--quick");
const runs = quick ? 3 : 9;
const RTT_MS = 80;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const paragraph = (i) =>
  `<p>Paragraph ${i} of the harbour's history: the granite breakwater, the fish market by the quay, the lifeboat station and the small boats that use the harbour today, told at length.</p>`;
const HTML = `<!doctype html><html lang="en"><head><title>Harbour</title></head><body><main><article><h1>Harbour</h1>${Array.from({ length: 2400 }, (_, i) => paragraph(i)).join("\n")}</article></main></body></html>`;

const web = await startSimWeb();
web.setLatency(() => RTT_MS);
web.route("www.example.com", /^\/(tagged|plain)\/\d+$/, (req) => {
  const tagged = req.path.startsWith("/tagged");
  if (tagged && req.headers["if-none-match"] === '"h1"')
    return { status: 304, headers: { etag: '"h1"', "cache-control": "max-age=60" } };
  return {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "max-age=60",
      ...(tagged ? { etag: '"h1"' } : {}),
    },
    body: HTML,
  };
});
for (let i = 0; i < runs; i++)
  web.route(`host${i}.example.org`, "/page", { headers: { "content-type": "text/html" }, body: HTML });

const net = createNet(web.netConfig);
const timed = async (fn) => {
  const t0 = performance.now();
  const out = await fn();
  if (out.status !== "ok") throw new Error(`read failed: ${out.status} ${out.error?.message ?? ""}`);
  return { ms: performance.now() - t0, out };
};

const cold = [];
const fresh = [];
const revalidated = [];
const unvalidated = [];
for (let i = 0; i < runs; i++) {
  let now = Date.now();
  const ctx = { net, store: new MemoryStore(), config: settingsFromEnv({}), log: () => {}, now: () => now };
  const opts = { render: "never" };
  cold.push((await timed(() => read(`https://www.example.com/tagged/${i}`, opts, ctx))).ms);
  fresh.push((await timed(() => read(`https://www.example.com/tagged/${i}`, opts, ctx))).ms);
  await read(`https://www.example.com/plain/${i}`, opts, ctx);
  now += 61_000;
  const again = await timed(() => read(`https://www.example.com/tagged/${i}`, opts, ctx));
  if (again.out.attempts[0]?.provider !== "revalidated") throw new Error("not revalidated");
  revalidated.push(again.ms);
  unvalidated.push((await timed(() => read(`https://www.example.com/plain/${i}`, opts, ctx))).ms);
}

const firstOfHost = [];
const laterOfHost = [];
const ignored = [];
for (let i = 0; i < runs; i++) {
  const ctx = { net, store: new MemoryStore(), config: settingsFromEnv({}), log: () => {} };
  const opts = { render: "never", robots: "automated" };
  ignored.push((await timed(() => read(`https://host${i}.example.org/page`, { render: "never" }, ctx))).ms);
  const ctx2 = { ...ctx, store: new MemoryStore() };
  firstOfHost.push((await timed(() => read(`https://host${i}.example.org/page`, opts, ctx2))).ms);
  // Another page of the host: its robots.txt is kept, the page is not.
  web.route(`host${i}.example.org`, "/other", { headers: { "content-type": "text/html" }, body: HTML });
  laterOfHost.push((await timed(() => read(`https://host${i}.example.org/other`, opts, ctx2))).ms);
}
await net.close();
await web.close();

const f = (x) => x.toFixed(1);
console.log(`## Repeat reads and robots.txt

Simulated web, every reply ${RTT_MS} ms late, a page of ${(HTML.length / 1024).toFixed(0)} KiB of HTML (\`max-age=60\`), median of ${runs} runs.

| read | median ms |
| --- | ---: |
| first read of the page | ${f(median(cold))} |
| repeat within its freshness (page cache) | ${f(median(fresh))} |
| repeat past its freshness, ETag → 304 (revalidated) | ${f(median(revalidated))} |
| repeat past its freshness, no validator (read again) | ${f(median(unvalidated))} |
| a user's read of a new host (robots.txt not asked) | ${f(median(ignored))} |
| an automated read of a new host (robots.txt fetched first) | ${f(median(firstOfHost))} |
| an automated read of another page of that host (robots.txt kept) | ${f(median(laterOfHost))} |`);
process.exit(0);

// Search chain overhead over the providers' own latency, and DuckDuckGo page parse time.
// The simulated web answers DuckDuckGo with a recorded results page after an injected 100–400 ms; our own time
// per search is the wall time minus that injected latency (net, parsing, chain, merge). Target: < 5 ms at p50.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

register();
const { startSimWeb } = await import("../test/simweb/index.ts");
const { createNet } = await import("../dist/net/client.js");
const { searchChain } = await import("../dist/search/chain.js");
const { duckduckgo, parseDuckDuckGoHtml } = await import("../dist/search/providers/duckduckgo.js");
const { MemoryStore } = await import("../dist/store/store.js");

const quick = process.argv.includes("--quick");
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const pct = (xs, p) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

const web = await startSimWeb();
const fixture = "duckduckgo/ddg-html-results-openai-news-2026-02.html";
web.route("html.duckduckgo.com", "/html/", {
  headers: { "content-type": "text/html; charset=utf-8" },
  body: web.fixture(fixture),
});
let injected = 0;
web.setLatency(() => {
  injected = 100 + Math.floor(Math.random() * 300);
  return injected;
});
const net = createNet(web.netConfig);
const config = {
  providers: [duckduckgo],
  ctx: { net, env: {}, store: new MemoryStore(), log: () => {}, settings: {} },
};
const runs = quick ? 15 : 60;
const overhead = [];
await searchChain("openai news", { cache: false }, config); // warm-up: TLS session, JIT
for (let i = 0; i < runs; i++) {
  const t0 = performance.now();
  const res = await searchChain("openai news", { cache: false }, config);
  const wall = performance.now() - t0;
  if (res.status !== "ok") throw new Error(`search failed: ${res.error}`);
  overhead.push(wall - injected);
}
await net.close();
// simweb's close waits on idle keep-alive sockets; the numbers are in, so the process just ends.
void web.close();

// Parse time per DuckDuckGo page (every recorded html/lite page), warm.
const dir = fileURLToPath(new URL("../../shared/fixtures/providers/duckduckgo/", import.meta.url));
const pages = readdirSync(dir)
  .filter((f) => f.startsWith("ddg-html-results"))
  .map((f) => readFileSync(dir + f, "utf8"));
for (const p of pages) parseDuckDuckGoHtml(p);
const parse = [];
for (let i = 0; i < (quick ? 10 : 40); i++)
  for (const p of pages) {
    const t0 = performance.now();
    parseDuckDuckGoHtml(p);
    parse.push(performance.now() - t0);
  }

const f = (x) => x.toFixed(2);
console.log(`## Search chain

DuckDuckGo through the chain against the simulated web with 100–400 ms injected latency, ${runs} searches, cache off.
Our own time = wall time − injected latency (guarded net on a keep-alive TLS connection, parsing, chain, merge).

| measure | p50 ms | p95 ms | target |
| --- | ---: | ---: | --- |
| chain overhead per search | ${f(median(overhead))} | ${f(pct(overhead, 95))} | < 5 ms at p50 |
| parse one DuckDuckGo HTML page (${pages.length} recorded pages) | ${f(median(parse))} | ${f(pct(parse, 95))} | |`);
process.exit(0);

// Answer latency on the simulated web with injected latencies.
// 1. The answer takes no longer than the slowest request it truly needed plus 50 ms: the search (DuckDuckGo and the
//    Instant Answer API run in parallel) and then the top page; the other two pages are read in parallel and
//    must not add to it.
// 2. The three-page cascade (top two pages are cookie walls) is at least 2.5x faster than reading them one by one.
// 3. What an answer costs a model in tokens (o200k): the envelope's text, and the structured result (the JSON a
//    client like Codex hands its model), for a dated page of 1500 characters of passages and five results.
//    `node bench/answer.bench.mjs --tokens-only [dist dir]` measures only this, against another build.
import { register } from "tsx/esm/api";

register();
const { startSimWeb } = await import("../test/simweb/index.ts");
const { ddgResultsPage, article } = await import("../test/ground/answer/ddg-page.ts");
const tokensOnly = process.argv.includes("--tokens-only");
const distDir = (tokensOnly && process.argv.find((a, i) => i > 1 && !a.startsWith("--"))) || "../dist";
const distUrl = (file) => (distDir.startsWith("/") ? `file://${distDir}/${file}` : `${distDir}/${file}`);
const { createWebsift } = await import(distUrl("websift.js"));
const { answerView } = await import(distUrl("ground/model-view.js"));
const { countTokens } = await import("gpt-tokenizer");

const quick = process.argv.includes("--quick");
const runs = quick ? 3 : 9;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const HTML = { "content-type": "text/html; charset=utf-8" };
const QUERY = "zugspitze glacier height";
const RELEVANT = [
  "The Zugspitze is the highest peak of Germany, at 2,962 metres.",
  "Its glacier has been shrinking for decades.",
];
const WALL = ["We value your privacy. Accept all to continue browsing."];

const web = await startSimWeb();

// 3. Envelope tokens. Before: this same scenario on main before numbered sources (dc1e8a2), measured with
// `--tokens-only /path/to/that/dist`.
const BEFORE = { text: 553, structured: 596 };
const ENVELOPE_PARAGRAPHS = [
  "The Zugspitze is the highest peak of the Wetterstein Mountains and of Germany, at 2,962 metres.",
  "Its glacier, the Northern Schneeferner, has been shrinking for decades and may vanish by 2030.",
  ...Array.from(
    { length: 12 },
    (_, i) =>
      `Section ${i + 1}: the Zugspitze glacier and its height are measured each year by the Bavarian survey, whose report ${i + 1} lists the summit, the snow and the ice in detail.`,
  ),
];
async function envelopeTokens() {
  web.reset();
  web.route("html.duckduckgo.com", "/html/", {
    headers: HTML,
    body: ddgResultsPage(
      Array.from({ length: 5 }, (_, i) => ({
        title: `Zugspitze glacier report ${i + 1}`,
        url: `https://www.example.com/report-${i + 1}`,
        snippet: "Zugspitze glacier height",
      })),
    ),
  });
  web.route("api.duckduckgo.com", "/", {
    headers: { "content-type": "application/x-javascript" },
    body: "{}",
  });
  const dated = article("Zugspitze glacier report", ENVELOPE_PARAGRAPHS).replace(
    "<head>",
    '<head><meta property="article:published_time" content="2026-01-05T09:00:00Z">',
  );
  for (let i = 1; i <= 5; i++) web.route("www.example.com", `/report-${i}`, { headers: HTML, body: dated });
  const websift = createWebsift({ ...web.netConfig, env: {}, settings: { ddgRetryDelayMs: 5 } });
  const out = await websift.answer(QUERY);
  await websift.close();
  if (out.status !== "ok") throw new Error(`envelope answer failed: ${out.status}`);
  const view = answerView(out).structured;
  return { text: countTokens(out.envelope), structured: countTokens(JSON.stringify(view)) };
}
const tokens = await envelopeTokens();
if (tokensOnly) {
  console.log(JSON.stringify(tokens));
  process.exit(0);
}

function serve(pages, latency) {
  web.reset();
  web.route("html.duckduckgo.com", "/html/", {
    headers: HTML,
    body: ddgResultsPage(
      Object.keys(pages).map((p, i) => ({
        title: `Zugspitze glacier ${i}`,
        url: `https://www.example.com${p}`,
        snippet: "Zugspitze glacier height",
      })),
    ),
  });
  web.route("api.duckduckgo.com", "/", {
    headers: { "content-type": "application/x-javascript" },
    body: "{}",
  });
  for (const [path, paragraphs] of Object.entries(pages))
    web.route("www.example.com", path, { headers: HTML, body: article(`Page ${path}`, paragraphs) });
  web.setLatency((req) => latency[req.host === "www.example.com" ? req.path : req.host] ?? 0);
}

async function timed(fn) {
  const websift = createWebsift({ ...web.netConfig, env: {}, settings: { ddgRetryDelayMs: 5 } });
  const t0 = performance.now();
  const out = await fn(websift);
  const ms = performance.now() - t0;
  await websift.close();
  return { ms, out };
}

// 1. Needed path: max(DDG 200, instant 100) + top page 300 = 500 ms; pages two and three are slower still.
const needed = {
  "html.duckduckgo.com": 200,
  "api.duckduckgo.com": 100,
  "/one": 300,
  "/two": 450,
  "/three": 600,
};
serve({ "/one": RELEVANT, "/two": RELEVANT, "/three": RELEVANT }, needed);
const neededMs = Math.max(200, 100) + 300;
const answerTimes = [];
for (let i = 0; i < runs; i++) {
  const { ms, out } = await timed((w) => w.answer(QUERY));
  if (out.status !== "ok") throw new Error(`answer failed: ${out.status}`);
  answerTimes.push(ms);
}

// 2. Cascade vs one by one: pages 1 and 2 are walls, page 3 answers; 400 ms each.
const slow = { "html.duckduckgo.com": 0, "api.duckduckgo.com": 0, "/w1": 400, "/w2": 400, "/ok": 400 };
serve({ "/w1": WALL, "/w2": WALL, "/ok": RELEVANT }, slow);
const cascadeTimes = [];
const sequentialTimes = [];
for (let i = 0; i < runs; i++) {
  const c = await timed((w) => w.answer(QUERY));
  if (c.out.status !== "ok") throw new Error(`cascade answer failed: ${c.out.status}`);
  const search = await timed((w) => w.search(QUERY));
  const s = await timed(async (w) => {
    for (const p of ["/w1", "/w2", "/ok"])
      await w.read(`https://www.example.com${p}`, { maxChars: 1500, lookingFor: QUERY });
  });
  cascadeTimes.push(c.ms);
  sequentialTimes.push(search.ms + s.ms);
}
void web.close();

const f = (x) => x.toFixed(0);
const pct = (now, before) => `${now >= before ? "+" : ""}${(((now - before) / before) * 100).toFixed(0)}%`;
const ratio = median(sequentialTimes) / median(cascadeTimes);
console.log(`## Answer latency

Simulated web with injected latencies, median of ${runs} runs, a fresh instance (cold caches) each run.

| scenario | median ms | bound | verdict |
| --- | ---: | --- | --- |
| answer, needed path = max(DDG 200, instant 100) + top page 300 (pages 2–3 at 450/600 ms) | ${f(median(answerTimes))} | ≤ ${neededMs + 50} (needed ${neededMs} + 50) | ${median(answerTimes) <= neededMs + 50 ? "met" : "missed"} |
| cascade of 3 pages, top two are cookie walls, 400 ms each | ${f(median(cascadeTimes))} | | |
| same search, then the 3 pages read one by one | ${f(median(sequentialTimes))} | | |
| speed-up of the cascade | ${ratio.toFixed(2)}× | ≥ 2.5× | ${ratio >= 2.5 ? "met" : "missed"} |

### Envelope size

One answer from a dated page (1500 characters of passages) with five search results, tokens in o200k
(gpt-tokenizer). Before: the same scenario on main before numbered sources (dc1e8a2). Budget: the text the model
reads grows by at most 15% (numbers, dates, the lookup's time); the structured result adds the sources' passage
links, which only clients reading \`structuredContent\` send on.

| what the model is handed | before | now | change | bound | verdict |
| --- | ---: | ---: | ---: | --- | --- |
| envelope text (MCP text, CLI stdout) | ${BEFORE.text} | ${tokens.text} | ${pct(tokens.text, BEFORE.text)} | ≤ +15% | ${tokens.text <= BEFORE.text * 1.15 ? "met" : "missed"} |
| structured result (JSON of structuredContent, \`--json\`, HTTP) | ${BEFORE.structured} | ${tokens.structured} | ${pct(tokens.structured, BEFORE.structured)} | | |`);
process.exit(0);

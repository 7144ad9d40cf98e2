// The extraction dev loop: websift's extractor from src/, in process, on one half of one set, per page type.
// Fast enough to run after every rule (the dev half of wcxb/dev in ~30 s); `npm run bench` is the full run.
//
//   npx tsx bench/extract-dev.mjs [--set wcxb|trafilatura|readability] [--half dev|held|all] [--type forum]
//                                 [--baseline defuddle-linkedom] [--save out.json] [--diff before.json]
//                                 [--show N]
//
// --half: the FNV-1a hash split the bench reports (even: dev). Rules are motivated by dev pages only; held-out
//   is looked at only to accept or revert a rule, never page by page.
// --baseline: a scorer baseline's outputs, computed once per set and half and cached under the temp folder.
// --save / --diff: per-page word F1 of this run, and the pages that moved most against a saved run.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";

const repo = fileURLToPath(new URL("..", import.meta.url));
const shared = process.env.WEBSIFT_SHARED ?? resolve(repo, "../shared");
const evalLib = join(shared, "tools/extract-eval/lib");
const { loadDataset } = await import(pathToFileURL(join(evalLib, "datasets.mjs")).href);
const { readHtml } = await import(pathToFileURL(join(evalLib, "decode.mjs")).href);
const { pageWordScores, pageCounts, aggregate, segmentCounts } = await import(
  pathToFileURL(join(evalLib, "metrics.mjs")).href
);

const argv = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : dflt;
};
const setName = opt("set", "wcxb");
const which = opt("half", "dev");
const onlyType = opt("type", undefined);
const baseline = opt("baseline", undefined);
const show = Number(opt("show", "0"));
const dirs = {
  wcxb: join(shared, "bench/extraction/wcxb/dev"),
  trafilatura: join(shared, "bench/extraction/trafilatura"),
  readability: join(shared, "bench/extraction/readability"),
};
const ds = loadDataset(dirs[setName]);

export function half(id) {
  let h = 2166136261;
  for (const c of id) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return h % 2 === 0 ? "dev" : "held";
}
const items = ds.items.filter(
  (it) => (which === "all" || half(it.id) === which) && (!onlyType || it.pageType === onlyType),
);

async function websift() {
  const { extractMarkdown } = await import(pathToFileURL(join(repo, "src/read/extract/index.ts")).href);
  return async (html, url) => (await extractMarkdown(html, url)).markdown;
}

async function baselineOutputs() {
  const cacheDir = join(os.tmpdir(), "websift-extract-dev");
  mkdirSync(cacheDir, { recursive: true });
  const file = join(cacheDir, `${baseline}-${setName}.json`);
  const cached = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
  const missing = items.filter((it) => !(it.id in cached));
  if (missing.length) {
    const scorer = readdirScorer();
    const mod = await import(pathToFileURL(join(scorer, `baselines/${baseline}.mjs`)).href);
    for (const it of missing) {
      try {
        cached[it.id] = String((await mod.extract(readHtml(it.file), it.url)) ?? "");
      } catch {
        cached[it.id] = "";
      }
    }
    writeFileSync(file, JSON.stringify(cached));
  }
  return cached;
}

function readdirScorer() {
  const found = readdirSync(os.tmpdir())
    .filter((n) => n.startsWith("websift-extract-eval-"))
    .map((n) => join(os.tmpdir(), n))
    .find((d) => existsSync(join(d, "node_modules/.installed")));
  if (!found) throw new Error("no installed scorer copy in the temp folder: run `npm run bench` once");
  return found;
}

const outputs = new Map();
const times = [];
if (baseline) {
  const cached = await baselineOutputs();
  for (const it of items) outputs.set(it.id, cached[it.id] ?? "");
} else {
  const run = await websift();
  await run(readHtml(items[0].file), items[0].url);
  for (const it of items) {
    const html = readHtml(it.file);
    const t0 = performance.now();
    let text = "";
    try {
      text = await run(html, it.url);
    } catch (e) {
      console.error(`${it.id}: ${e?.message ?? e}`);
    }
    times.push(performance.now() - t0);
    outputs.set(it.id, text);
  }
}

const per = {};
const groups = new Map();
for (const it of items) {
  const pred = outputs.get(it.id) ?? "";
  let score;
  if (ds.metric === "segments") {
    const c = segmentCounts(it.with ?? [], it.without ?? [], pred);
    score = { counts: c };
  } else {
    const [p, r, f] = pageWordScores(it.truth, pred);
    score = { p, r, f, shingle: pageCounts(it.truth, pred, 4), empty: !pred.trim() };
  }
  per[it.id] = { type: it.pageType ?? "all", ...score, empty: !pred.trim() };
  const g = groups.get(it.pageType ?? "all") ?? [];
  g.push(it.id);
  groups.set(it.pageType ?? "all", g);
}

function summary(ids) {
  const rows = ids.map((id) => per[id]);
  const empty = rows.filter((r) => r.empty).length;
  if (ds.metric === "segments") {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (const r of rows) {
      tp += r.counts[0];
      fp += r.counts[1];
      fn += r.counts[2];
    }
    const p = tp / (tp + fp || 1);
    const rc = tp / (tp + fn || 1);
    return { n: rows.length, f: (2 * tp) / (2 * tp + fp + fn || 1), p, r: rc, empty };
  }
  const mean = (k) => rows.reduce((a, r) => a + r[k], 0) / (rows.length || 1);
  const sh = aggregate(rows.map((r) => r.shingle)).f1;
  return { n: rows.length, f: mean("f"), p: mean("p"), r: mean("r"), sh, empty };
}

const label = ds.metric === "segments" ? "segments" : "word";
console.log(
  `${baseline ?? "websift"} on ${setName} (${which} half${onlyType ? `, ${onlyType}` : ""}), ${label}:`,
);
const all = [...groups.keys()].sort();
for (const t of [...all, ...(all.length > 1 ? ["ALL"] : [])]) {
  const ids = t === "ALL" ? items.map((it) => it.id) : groups.get(t);
  const s = summary(ids);
  const shTxt = s.sh === undefined ? "" : `  sh4 ${s.sh.toFixed(4)}`;
  console.log(
    `  ${t.padEnd(14)} n=${String(s.n).padStart(4)}  F1 ${s.f.toFixed(4)}  P ${s.p.toFixed(4)}  R ${s.r.toFixed(4)}${shTxt}  empty ${s.empty}`,
  );
}
if (times.length) {
  const sorted = [...times].sort((a, b) => a - b);
  const q = (x) => sorted[Math.min(sorted.length - 1, Math.ceil(x * sorted.length) - 1)].toFixed(1);
  console.log(`  ms p50 ${q(0.5)}  p95 ${q(0.95)}  max ${sorted.at(-1).toFixed(0)}`);
}

const save = opt("save", undefined);
if (save)
  writeFileSync(
    save,
    JSON.stringify(
      Object.fromEntries(
        Object.entries(per).map(([id, r]) => [
          id,
          { type: r.type, f: r.f ?? r.counts, out: outputs.get(id) },
        ]),
      ),
    ),
  );
const diff = opt("diff", undefined);
if (diff && existsSync(diff) && ds.metric !== "segments") {
  const before = JSON.parse(readFileSync(diff, "utf8"));
  const moved = Object.entries(per)
    .filter(([id]) => before[id])
    .map(([id, r]) => [id, r.type, before[id].f, r.f])
    .filter(([, , a, b]) => Math.abs(a - b) > 0.005)
    .sort((x, y) => x[3] - x[2] - (y[3] - y[2]));
  const up = moved.filter((m) => m[3] > m[2]).length;
  console.log(`  moved vs ${diff}: ${up} up, ${moved.length - up} down`);
  for (const [id, t, a, b] of [...moved.slice(0, 8), ...moved.slice(-8)])
    console.log(`    ${id} ${t} ${a.toFixed(3)} -> ${b.toFixed(3)}`);
}
if (show) {
  const worst = Object.entries(per)
    .sort((a, b) => a[1].f - b[1].f)
    .slice(0, show);
  for (const [id, r] of worst)
    console.log(`    worst ${id} ${r.type} F1 ${r.f.toFixed(3)} P ${r.p.toFixed(3)} R ${r.r.toFixed(3)}`);
}

// Per-kind breakdown of the trafilatura extraction set.
//
//   node bench/page-kinds.mjs --label            re-derive bench/page-kinds.json (id → kind) from the pages
//   npx tsx bench/page-kinds.mjs [src/read/extract/index.ts]
//                                                segment F1 / P / R per kind for extractMarkdown from that path
//
// The labels come from a transparent heuristic, first match wins (hand overrides in OVERRIDES, from a hand
// check of a sample): schema.org types (JSON-LD @type, microdata itemtype, og:type=product), then URL
// patterns, then structural cues (forum software markers, repeated teaser cards, a generator meta).
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const SET = process.env.TRAF ?? "/work/shared/bench/extraction/trafilatura";
const EVAL = process.env.EVAL ?? "/work/shared/tools/extract-eval/lib";
const { loadDataset } = await import(`${EVAL}/datasets.mjs`);
const { readHtml } = await import(`${EVAL}/decode.mjs`);
const { scoreSegments } = await import(`${EVAL}/metrics.mjs`);

export const KINDS = [
  "article",
  "blog",
  "forum",
  "product",
  "docs",
  "listing",
  "service",
  "recipe",
  "event",
  "other",
];

// Hand corrections after checking a sample of the heuristic's labels (id prefix → kind).
const OVERRIDES = {
  "Koncesjonowana opozycja -Leszek Ja\u017cd\u017cewski - Libert\u00e9!.html": "article",
  "achtundvierzig.hypotheses.org.822.html": "blog",
  "bauemotion.de-schneereampflicht.html": "article",
  "bergsteigen.com-skibergsteigen.html": "article",
  "buero-hoppe.de.baumgutachten.html": "service",
  "businessjargons.com.leadership.html": "docs",
  "deleuze.enacademic.com.micropolitics.html": "docs",
  "financescout24.de.autokredit.html": "service",
  "for-me-online.de-pubert\u00e4t.html": "article",
  "gdp.de-Wertsch\u00e4tzung.html": "article",
  "giromatch.com.kredit.html": "service",
  "github.com.yapapi.html": "docs",
  "greenpeace.de.nachhaltigleben.html": "service",
  "hundeverein-kreisunna.de.html": "service",
  "jodel.com.advertising.html": "service",
  "kas.de-nordmazedonien.html": "article",
  "knowledge-on-air.de.koa039.html": "blog",
  "kochbar.de.schneiden.html": "article",
  "livenet.ch-sprache.html": "article",
  "mein-haustier.de-hund.html": "article",
  "nalas-loewenseiten.info.m.html": "docs",
  "omeda.de-paxlovid.html": "docs",
  "pcgamer.com.darkest.html": "article",
  "pcgamer.com.skyrim.html": "article",
  "qualisys.eu.gefahrstoff.html": "service",
  "reisen-mit-dem-internet.de.emden-21416.html": "article",
  "rueda.wikidot.com.enchufla.html": "docs",
  "selbstversorger.de-Huhn.html": "article",
  "siegfried-marcus-berufsschule.at.kft.html": "service",
  "smava.de.privatkredit.html": "service",
  "theoriginalcopy.de.baby.html": "blog",
  "verivox.de.finanzierung.html": "service",
  "wikimediafoundation.org.turkey.html": "article",
};

function schemaTypes(html) {
  const types = new Set();
  for (const m of html.matchAll(/"@type"\s*:\s*(\[[^\]]*\]|"[^"]*")/g))
    for (const t of m[1].matchAll(/"([^"]+)"/g)) types.add(t[1].replace(/^.*[/#]/, "").toLowerCase());
  for (const m of html.matchAll(/itemtype\s*=\s*["']?https?:\/\/schema\.org\/(\w+)/gi))
    types.add(m[1].toLowerCase());
  if (/<meta[^>]+property=["']og:type["'][^>]+content=["'](?:og:)?product/i.test(html)) types.add("product");
  return types;
}

const has = (types, ...names) => names.some((n) => types.has(n));

export function classify(url, html) {
  const t = schemaTypes(html);
  const u = url.replace(/^hard::/, "").toLowerCase();
  let path = u;
  try {
    path = new URL(u).pathname + new URL(u).search;
  } catch {}
  // 1. schema.org: the page's own statement of what it is.
  const story = has(t, "newsarticle", "article", "blogposting", "reportagenewsarticle", "liveblogposting");
  if (has(t, "recipe")) return "recipe";
  if (has(t, "qapage", "discussionforumposting")) return "forum";
  if (has(t, "product") && !story) return "product";
  if (has(t, "event", "musicevent", "sportsevent", "businessevent", "educationevent") && !story)
    return "event";
  if (has(t, "techarticle", "apireference")) return "docs";
  // 2. URL patterns.
  if (
    /\/forums?\/|\/foren\/|\/\/(?:forums?|foren|board|community)\.|forumieren|viewtopic|showthread|\/threads?\/|\/topics?\/\d|\/t\/|\/questions\/\d/.test(
      u,
    )
  )
    return "forum";
  if (/rezept|recipe|recette|receta/.test(u)) return "recipe";
  if (
    /\/(?:products?|produkte?|shop|p|artikel-\d)\/|\/dp\/|\.(?:de|com|at|ch)\/[a-z0-9-]+-\d{5,}$/.test(
      path,
    ) &&
    !/news|nachricht/.test(u)
  )
    return "product";
  if (
    /\/(?:docs?|documentation|manual|handbuch|reference|api|lexikon|glossar|wiki|faq|hilfe|help|kb|knowledge)\b|wiki\.|wikipedia|fandom|baike\.|docs\./.test(
      u,
    )
  )
    return "docs";
  if (/\/(?:events?|veranstaltung\w*|termine?|kalender)\//.test(path)) return "event";
  if (has(t, "blogposting") || /blog|wordpress\.com|blogspot\.|\/posts?\//.test(u)) return "blog";
  if (has(t, "newsarticle", "reportagenewsarticle", "analysisnewsarticle", "opinionnewsarticle"))
    return "article";
  if (
    /\/(?:news|nachrichten|aktuell\w*|artikel|article|story|presse\w*|press|meldung\w*|magazin\w*|noticias?|politik|wirtschaft|sport|kultur)\b/.test(
      path,
    )
  )
    return "article";
  if (/\/20\d\d\/\d{1,2}\/|\d{6,}(?:\.html?)?$|_article\d+|\.read$/.test(path)) return "article";
  // A long hyphenated slug names one story.
  const last = path.split(/[/?#]/).filter(Boolean).pop() ?? "";
  if (story || last.split("-").length >= 4) return "article";
  // 3. Structure.
  const articles = (html.match(/<article\b/gi) ?? []).length;
  const teasers = (
    html.match(/class=["'][^"']*\b(?:teaser|card|post-item|product-item|tile|grid-item)\b/gi) ?? []
  ).length;
  if (has(t, "collectionpage", "itemlist", "searchresultspage") || articles >= 5 || teasers >= 12)
    return "listing";
  if (has(t, "article")) return "article";
  if (/\/(?:category|kategorie|tag|archiv\w*|themen|topics?|uebersicht|overview)\b/.test(path))
    return "listing";
  if (has(t, "localbusiness", "professionalservice", "service", "aboutpage", "contactpage")) return "service";
  if (
    /\/(?:leistungen|services?|ueber-uns|about|unternehmen|angebot\w*|kontakt|team|impressum|company)\b|index\.html?$|^\/$/.test(
      path,
    )
  )
    return "service";
  return "other";
}

function loadTraf() {
  return loadDataset(SET).items;
}

if (process.argv[2] === "--label") {
  const out = {};
  const counts = {};
  for (const it of loadTraf()) {
    const kind = OVERRIDES[it.id] ?? classify(it.url, readHtml(it.file));
    out[it.id] = kind;
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  writeFileSync(join(here, "page-kinds.json"), `${JSON.stringify(out, null, 1)}\n`);
  console.log(counts);
} else {
  const src = resolve(process.argv[2] ?? join(here, "../src/read/extract/index.ts"));
  const { extractMarkdown } = await import(pathToFileURL(src).href);
  const kinds = JSON.parse(readFileSync(join(here, "page-kinds.json"), "utf8"));
  const byKind = {};
  for (const it of loadTraf()) {
    let pred = "";
    try {
      pred = (await extractMarkdown(readHtml(it.file), it.url)).markdown;
    } catch {}
    const kind = kinds[it.id] ?? "other";
    const row = { id: it.id, with: it.with ?? [], without: it.without ?? [], pred };
    for (const k of [kind, "all"]) {
      byKind[k] ??= [];
      byKind[k].push(row);
    }
  }
  console.log("| kind | pages | F1 | P | R |\n| --- | --- | --- | --- | --- |");
  for (const k of [...KINDS, "all"]) {
    if (!byKind[k]) continue;
    const s = scoreSegments(byKind[k]);
    console.log(
      `| ${k} | ${byKind[k].length} | ${s.f1.toFixed(3)} | ${s.precision.toFixed(3)} | ${s.recall.toFixed(3)} |`,
    );
  }
}

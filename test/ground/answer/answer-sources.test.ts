import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { answerView } from "../../../src/ground/model-view.js";
import { daysBefore } from "../../../src/ground/sources.js";
import {
  findTextDirective,
  PageText,
  parseTextDirective,
  wordsOf,
} from "../../../src/ground/text-fragment.js";
import { createWebsift, type Websift } from "../../../src/websift.js";
import { type SimWeb, startSimWeb } from "../../simweb/index.js";
import { expectFencedSources } from "../hostile-web.js";
import { ddgResultsPage } from "./ddg-page.js";

let web: SimWeb;
let websift: Websift;
beforeAll(async () => {
  web = await startSimWeb();
});
afterAll(async () => {
  await web.close();
});
beforeEach(() => {
  websift = createWebsift({ ...web.netConfig, env: {}, settings: { ddgRetryDelayMs: 5 } });
});
afterEach(async () => {
  await websift.close();
  web.reset();
});

const HTML = { "content-type": "text/html; charset=utf-8" };
const QUERY = "zugspitze glacier height";

function serveResults(urls: string[]) {
  web.route("html.duckduckgo.com", "/html/", {
    headers: HTML,
    body: ddgResultsPage(
      urls.map((url, i) => ({ title: `Result ${i + 1}`, url, snippet: "Zugspitze glacier" })),
    ),
  });
}

/** A page as sites write them: chrome around the article, markup inside it that markdown writes otherwise. */
function page(head: string, paragraphs: string[]): string {
  return `<!DOCTYPE html><html lang="de"><head><meta charset="utf-8"><title>Zugspitze — the facts</title>${head}</head><body>
<nav><a href="/">Home</a> <a href="/z">The Zugspitze is here</a></nav>
<main><article><h1>Zugspitze — the facts</h1>
${paragraphs.map((p) => `<p>${p}</p>`).join("\n")}
</article></main><footer>The Zugspitze is a trademark of nobody. © Example</footer></body></html>`;
}

const PARAGRAPHS = [
  "The Zugspitze is the highest peak of the <b>Wetterstein</b> Mountains and of Germany, at 2,962&nbsp;metres.",
  "The Zugspitze is also home to a <a href='/glacier'>glacier</a>, the Northern Schneeferner, which may vanish by 2030.",
  "Der Gletscher am Zugspitzplatt schrumpft: „Bis 2030 ist er weg“, sagen Forscher über das Eis – 3 °C wärmer.",
  "Its height was first measured in 1820 by Josef Naus, whose party reached the summit on 27 August.",
];

/** The folded words of a range the spec's matching finds for a link. */
function wordsAt(blocks: PageText, link: string): string[] {
  const d = parseTextDirective(link.slice(link.indexOf(":~:") + 3));
  const r = d && findTextDirective(blocks, d);
  if (!r) return [];
  const parts: string[] = [];
  for (let b = r.start.block; b <= r.end.block; b++)
    parts.push(
      blocks.blocks[b].slice(
        b === r.start.block ? r.start.offset : 0,
        b === r.end.block ? r.end.offset : undefined,
      ),
    );
  return wordsOf(parts.join(" ")).map((w) => w.folded);
}

describe("answer: numbered, dated sources with passages a user can check", () => {
  it("every passage is the page's own text, opened by its source's number, with a link to it on the page", async () => {
    serveResults(["https://www.example.com/facts", "https://www.example.com/other"]);
    web.route("www.example.com", "/facts", {
      headers: HTML,
      body: page(
        `<meta property="article:published_time" content="2026-01-05T09:00:00+01:00">
         <script type="application/ld+json">{"@type":"Article","dateModified":"2026-02-01"}</script>`,
        PARAGRAPHS,
      ),
    });
    web.route("www.example.com", "/other", { status: 500, body: "" });
    const res = await websift.answer(QUERY, { maxChars: 4000 });
    expect(res.status).toBe("ok");
    const [read, searched] = res.sources;
    expect(read).toMatchObject({
      n: 1,
      read: true,
      url: "https://www.example.com/facts",
      published: { date: "2026-01-05", from: "meta:article:published_time" },
      modified: { date: "2026-02-01", from: "json-ld" },
    });
    expect(searched).toMatchObject({ n: 2, read: false, url: "https://www.example.com/other" });
    expect(searched.passages).toBeUndefined();

    // Verbatim: each passage stands in the page's extracted text as it is.
    const whole = await websift.read("https://www.example.com/facts", {
      maxChars: 100_000,
      links: false,
      pageText: true,
    });
    const passages = read.passages ?? [];
    expect(passages.length).toBeGreaterThan(0);
    for (const p of passages) expect(whole.markdown).toContain(p.text);
    expect(passages.map((p) => p.text).join("\n\n")).toContain("Bis 2030 ist er weg");

    // Each link opens at exactly its passage's words on the page as a browser holds it, repeated starts
    // ("The Zugspitze is" stands in the menu, two paragraphs and the footer) and non-ASCII text included.
    const blocks = new PageText(whole.pageText ?? []);
    for (const p of passages) {
      expect(p.link, p.text).toMatch(/^https:\/\/www\.example\.com\/facts#:~:text=/);
      expect(wordsAt(blocks, p.link!)).toEqual(wordsOf(p.text).map((w) => w.folded));
    }

    // The model's text: numbers and one URL per source, no fragment links; the lookup's time.
    expect(res.envelope).not.toContain(":~:");
    expect(res.envelope.match(/https:\/\/www\.example\.com\/facts/g)).toHaveLength(1);
    expect(res.envelope).toMatch(/looked up \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    expect(res.envelope).toContain(
      "Sources read:\n[1] Zugspitze — the facts — https://www.example.com/facts (published 2026-01-05, modified 2026-02-01)\nSearch results, not read:\n[2] Result 2 — https://www.example.com/other",
    );
    const fenced = /<<<WEB_CONTENT[^\n]*\n([\s\S]*)\n<<<END_WEB_CONTENT/.exec(res.envelope)?.[1] ?? "";
    expect(fenced.startsWith("[1] ")).toBe(true);
    expect(res.lookedUpAt).toBeDefined();
    expect(res.newestSourceDays).toBeUndefined();

    // Structured results carry the links, fenced like the text.
    const view = answerView(res).structured;
    expectFencedSources(view.sources, view.text);
    expect(view.sources?.list[0]).toMatchObject({
      n: 1,
      read: true,
      published: "2026-01-05",
      publishedFrom: "meta:article:published_time",
      passages: passages.map((p) => ({ link: p.link })),
    });
    expect(view.sources?.list[1]).toEqual({
      n: 2,
      read: false,
      title: "Result 2",
      url: "https://www.example.com/other",
    });
  });

  it("a page without dates states none; for a current question the envelope says it cannot tell", async () => {
    serveResults(["https://www.example.com/undated"]);
    web.route("www.example.com", "/undated", { headers: HTML, body: page("", PARAGRAPHS) });
    const res = await websift.answer("latest zugspitze glacier height");
    expect(res.status).toBe("ok");
    expect(res.sources[0].published).toBeUndefined();
    expect(res.sources[0].modified).toBeUndefined();
    expect(res.envelope).toContain("None of the sources states its date");
    expect(res.newestSourceDays).toBeUndefined();
  });

  it("Last-Modified dates a page that states no date, named as such", async () => {
    serveResults(["https://www.example.com/static"]);
    web.route("www.example.com", "/static", {
      headers: { ...HTML, "last-modified": "Mon, 05 Jan 2026 10:00:00 GMT" },
      body: page("", PARAGRAPHS),
    });
    const res = await websift.answer(QUERY);
    expect(res.sources[0].modified).toEqual({ date: "2026-01-05", from: "http-last-modified" });
  });

  it("for a current question, a comparably relevant newer page wins over an older top result", async () => {
    const day = (ago: number) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10);
    serveResults(["https://www.example.com/old", "https://www.example.com/new"]);
    const dated = (d: string) => `<meta property="article:published_time" content="${d}">`;
    web.route("www.example.com", "/old", { headers: HTML, body: page(dated("2019-03-01"), PARAGRAPHS) });
    web.route("www.example.com", "/new", { headers: HTML, body: page(dated(day(3)), PARAGRAPHS) });

    const current = await websift.answer("current zugspitze glacier height");
    expect(current.sources[0]).toMatchObject({ url: "https://www.example.com/new", read: true });
    expect(current.newestSourceDays).toBe(daysBefore(day(3), new Date(current.lookedUpAt!)));
    expect(current.envelope).toContain(
      `The newest source is dated ${day(3)}, ${current.newestSourceDays} days`,
    );

    const timeless = await websift.answer(QUERY);
    expect(timeless.sources[0]).toMatchObject({ url: "https://www.example.com/old" });
    expect(timeless.envelope).not.toContain("The newest source");
  });

  it("a newer page that is clearly less relevant does not win", async () => {
    serveResults(["https://www.example.com/old", "https://www.example.com/thin"]);
    web.route("www.example.com", "/old", {
      headers: HTML,
      body: page(`<meta property="article:published_time" content="2019-03-01">`, PARAGRAPHS),
    });
    web.route("www.example.com", "/thin", {
      headers: HTML,
      body: page(`<meta property="article:published_time" content="2026-11-30">`, [
        "A page about the Zugspitze cable car timetable and nothing else of note, for visitors in the winter season.",
      ]),
    });
    const res = await websift.answer("latest zugspitze glacier height");
    expect(res.sources[0]).toMatchObject({ url: "https://www.example.com/old" });
  });
});

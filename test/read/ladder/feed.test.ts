import { readFileSync } from "node:fs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { pageView } from "../../../src/ground/model-view.js";
import { read } from "../../../src/read/read.js";
import { article, html, PARAGRAPHS, type ReadHarness, startReadHarness } from "./harness.js";

let h: ReadHarness;
beforeAll(async () => {
  h = await startReadHarness();
});
afterAll(() => h.close());
beforeEach(() => h.sim.reset());

const SITE = "harbour.example.org";
const never = { render: "never" as const };
const fixture = (name: string) =>
  readFileSync(new URL(`../../fixtures/formats/feed/${name}`, import.meta.url), "utf8");

describe("read: feeds", () => {
  it("reads an RSS feed as its items, never as XML, through the feed reader", async () => {
    h.sim.route(SITE, "/feed.xml", {
      headers: { "content-type": "application/rss+xml; charset=utf-8" },
      body: fixture("rss2-channel.xml"),
    });
    const page = await read(`https://${SITE}/feed.xml`, never, h.ctx());
    expect(page).toMatchObject({ status: "ok", source: "feed", title: "Lowmouth Harbour News" });
    expect(page.attempts.map((a) => [a.provider, a.status])).toEqual([
      ["fetch", "ok"],
      ["feed", "ok"],
    ]);
    expect(page.markdown).toMatch(/^# Lowmouth Harbour News\n\n/);
    expect(page.markdown).toContain(
      "## Spring tides this weekend\nhttps://harbour.example.org/2026/12/spring-tides",
    );
    expect(page.markdown).not.toMatch(/<(item|channel|description|\?xml)/);
    expect(page.links).toContain("https://harbour.example.org/2026/11/lifeboat");
  });

  it("knows an Atom feed served as text/xml, and a JSON Feed served as JSON", async () => {
    h.sim.route(SITE, "/atom", { headers: { "content-type": "text/xml" }, body: fixture("atom.xml") });
    h.sim.route(SITE, "/feed.json", {
      headers: { "content-type": "application/json" },
      body: fixture("jsonfeed.json"),
    });
    const atom = await read(`https://${SITE}/atom`, never, h.ctx());
    expect(atom).toMatchObject({ status: "ok", source: "feed", title: "Tide Tables Explained" });
    const json = await read(`https://${SITE}/feed.json`, never, h.ctx());
    expect(json).toMatchObject({ status: "ok", source: "feed", title: "The Breakwater Log" });
    expect(json.markdown).toContain("JSON Feed · 2 items");
  });

  it("decodes an XML feed by the charset its server names, before the XML declaration; JSON stays UTF-8", async () => {
    // "Новости порта" in windows-1251: not UTF-8, and windows-1252 (the undeclared guess) makes it mojibake.
    const cp1251 = Buffer.from([
      0xcd, 0xee, 0xe2, 0xee, 0xf1, 0xf2, 0xe8, 0x20, 0xef, 0xee, 0xf0, 0xf2, 0xe0,
    ]);
    const rss = (declaration: string) =>
      Buffer.concat([
        Buffer.from(`${declaration}<rss version="2.0"><channel><title>`),
        cp1251,
        Buffer.from(`</title><link>https://${SITE}/</link><item><title>A</title></item></channel></rss>`),
      ]);
    const served = (body: Buffer, type: string) => ({ headers: { "content-type": type }, body });
    h.sim.route(SITE, "/named", served(rss(""), "application/rss+xml; charset=windows-1251"));
    h.sim.route(
      SITE,
      "/both",
      served(rss(`<?xml version="1.0" encoding="UTF-8"?>`), "text/xml; charset=cp1251"),
    );
    h.sim.route(SITE, "/declared", served(rss(`<?xml version="1.0" encoding="windows-1251"?>`), "text/xml"));
    h.sim.route(
      SITE,
      "/json",
      served(Buffer.from(fixture("jsonfeed.json")), "application/feed+json; charset=koi8-r"),
    );
    for (const path of ["/named", "/both", "/declared"]) {
      const page = await read(`https://${SITE}${path}`, never, h.ctx());
      expect([path, page.status, page.title]).toEqual([path, "ok", "Новости порта"]);
    }
    const json = await read(`https://${SITE}/json`, never, h.ctx());
    expect(json).toMatchObject({ status: "ok", source: "feed", title: "The Breakwater Log" });
  });

  it("reads a billion-laughs feed at its own size", async () => {
    h.sim.route(SITE, "/lol", {
      headers: { "content-type": "application/rss+xml" },
      body: fixture("billion-laughs.xml"),
    });
    const page = await read(`https://${SITE}/lol`, never, h.ctx());
    expect(page).toMatchObject({ status: "ok", source: "feed" });
    expect(page.totalChars).toBeLessThan(fixture("billion-laughs.xml").length);
    expect(page.markdown).not.toContain("lollol");
  });

  it("says which feeds an HTML page names in its head, as absolute URLs, fenced in the model's view", async () => {
    const head = [
      `<link rel="alternate" type="application/rss+xml" title="Posts" href="/feed.xml">`,
      `<link rel="alternate" type="application/atom+xml" href="https://${SITE}/atom?x=1&amp;y=2">`,
      `<link rel="alternate" type="application/feed+json" href="feed.json">`,
      `<link rel="alternate" type="application/rss+xml" href="/feed.xml">`,
      `<link rel="stylesheet" type="text/css" href="/site.css">`,
      `<link rel="alternate" hreflang="de" href="/de/">`,
      `<link rel="alternate" type="application/rss+xml" href="javascript:alert(1)">`,
    ].join("");
    h.sim.route(SITE, "/news/", html(article("News", PARAGRAPHS), head));
    const page = await read(`https://${SITE}/news/`, never, h.ctx());
    expect(page).toMatchObject({ status: "ok", source: "extracted-html" });
    expect(page.feeds).toEqual([
      `https://${SITE}/feed.xml`,
      `https://${SITE}/atom?x=1&y=2`,
      `https://${SITE}/news/feed.json`,
    ]);
    const view = pageView(page.url, page).structured as { text: string };
    const fenced = view.text.slice(view.text.indexOf("<<<WEB_CONTENT"));
    expect(fenced).toContain(`\n\nFeeds: https://${SITE}/feed.xml https://${SITE}/atom?x=1&y=2`);

    h.sim.route(SITE, "/plain", html(article("Plain", PARAGRAPHS)));
    const plain = await read(`https://${SITE}/plain`, never, h.ctx());
    expect(plain.feeds).toBeUndefined();
    expect((pageView(plain.url, plain).structured as { text: string }).text).not.toContain("Feeds:");
  });
});

import { describe, expect, it } from "vitest";
import { parseDuckDuckGoHtml } from "../../../src/search/serp/duckduckgo-pages.js";

// The HTML page is tokenized without decoding entities; what is kept (titles, snippets, dates, links, the
// classes and ids the parser tests) is decoded after, and must read exactly as a decoding tokenizer reads it.
const block = (inner: { href: string; title: string; snippet: string; date?: string; cls?: string }) =>
  `<div class="result results_links ${inner.cls ?? ""}"><div class="links_main result__body">
  <h2 class="result__title"><a rel="nofollow" class="result__a" href="${inner.href}">${inner.title}</a></h2>
  ${inner.date ? `<div class="result__extras"><span class="result__extras__url">${inner.date}</span></div>` : ""}
  <a class="result__snippet" href="${inner.href}">${inner.snippet}</a></div></div>`;
const page = (...blocks: string[]) =>
  `<!DOCTYPE html><html><body><div id="links" class="results">${blocks.join("\n")}</div></body></html>`;
const hitsOf = (html: string) => {
  const parsed = parseDuckDuckGoHtml(html);
  if (parsed.kind !== "results") throw new Error(`expected results, got ${parsed.kind}`);
  return parsed.hits;
};

describe("DuckDuckGo HTML page entities", () => {
  it("decodes named, numeric and hex references in titles and snippets, across inline tags", () => {
    const [hit] = hitsOf(
      page(
        block({
          href: "https://example.com/a",
          title: "Tom &amp; Jerry: &eacute;t&eacute; &#8212; <b>fish &amp;</b> chips &#x263A;",
          snippet: "Caf&eacute; &lt;open&gt; &hellip; &quot;daily&quot;",
        }),
      ),
    );
    expect(hit).toMatchObject({
      title: "Tom & Jerry: été — fish & chips ☺",
      snippet: 'Café <open> … "daily"',
    });
  });

  it("reads legacy references without a semicolon in text, and leaves text that only looks like one", () => {
    const [hit] = hitsOf(
      page(
        block({
          href: "https://example.com/b",
          title: "AT&T &copy 2024",
          snippet: "R&D &amp;c &notareference;",
        }),
      ),
    );
    expect(hit?.title).toBe("AT&T © 2024");
    expect(hit?.snippet).toBe("R&D &c ¬areference;");
  });

  it("decodes a link's references as an attribute: &amp; is &, a legacy name before = stays as written", () => {
    const hits = hitsOf(
      page(
        block({ href: "https://example.com/c?x=1&amp;y=2", title: "one", snippet: "s" }),
        block({ href: "https://example.com/d?a=1&copy=2", title: "two", snippet: "s" }),
        block({
          href: "//duckduckgo.com/l/?uddg=https%3A%2F%2Fexample.com%2Fe&amp;rut=abc",
          title: "three",
          snippet: "s",
        }),
      ),
    );
    expect(hits.map((h) => h.url)).toEqual([
      "https://example.com/c?x=1&y=2",
      "https://example.com/d?a=1&copy=2",
      "https://example.com/e",
    ]);
  });

  it("still decodes entities left double-escaped by the engine, and reads dates and classes through them", () => {
    const hits = hitsOf(
      page(
        block({
          href: "https://example.com/f",
          title: "&amp;quot;quoted&amp;quot;",
          snippet: "s",
          date: "2026&#45;02&#45;13T00:00:00",
        }),
        // An ad whose class is written with a reference is still an ad.
        block({ href: "https://example.com/ad", title: "ad", snippet: "s", cls: "result&#45;&#45;ad" }),
      ),
    );
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ title: '"quoted"', date: "2026-02-13" });
  });
});

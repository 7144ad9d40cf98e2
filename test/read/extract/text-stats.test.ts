import { describe, expect, it } from "vitest";
import { findFirst, parseHtml } from "../../../src/read/extract/dom.js";
import { TextStatsIndex } from "../../../src/read/extract/text-stats.js";

function statsOf(html: string) {
  const doc = parseHtml(`<html><body>${html}</body></html>`);
  const body = findFirst(doc, (el) => el.name === "body")!;
  return { body, stats: new TextStatsIndex(body) };
}

describe("text statistics", () => {
  it("counts every character but the page's white space, and the commas of four scripts", () => {
    // Spaces, tabs, newlines, carriage returns, form feeds and no-break spaces are white; other controls,
    // punctuation around the comma's code and letters of any script are characters.
    const text = "a,\tb\n\r\f\u00a0c\u0001-+\u00a1é，、،\u060b\u060d字";
    const { body, stats } = statsOf(`<p>${text}</p>`);
    expect(stats.of(body).chars).toBe(15);
    expect(stats.of(body).commas).toBe(4);
  });

  it("counts link text by its weight: a same-page link's a third or so", () => {
    const { body, stats } = statsOf(`<p>Read <a href="/x">more here</a> or <a href="#n">see note</a>.</p>`);
    const s = stats.of(body);
    expect(s.chars).toBe(4 + 8 + 2 + 7 + 1);
    expect(s.linkChars).toBeCloseTo(8 + 7 * 0.3, 10);
    expect(s.paragraphs).toBe(1);
  });
});

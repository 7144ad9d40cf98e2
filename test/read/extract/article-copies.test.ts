import { describe, expect, it } from "vitest";
import { extractMarkdown } from "../../../src/read/extract/index.js";

const SENTENCE =
  "The council will repave the harbour road in March, closing one lane at a time so that the ferry traffic keeps moving.";

describe("articles: the article carried twice", () => {
  it("reads once a paragraph the template renders for narrow and for wide screens, and keeps short repeats", async () => {
    const copy = (cls: string) =>
      `<div class="${cls}"><h2>Roadworks</h2><p>${SENTENCE}</p><p>Read more</p></div>`;
    const { markdown } = await extractMarkdown(
      `<html><head><meta property="og:type" content="article"></head><body><main><h1>Harbour news</h1>` +
        `<p>A first paragraph that only the wide layout carries, about the harbour's new ferry timetable.</p>` +
        `${copy("lg:hidden")}${copy("hidden lg:block")}</main></body></html>`,
      "https://news.example.org/2026/harbour-road",
    );
    expect(markdown.split(SENTENCE).length - 1).toBe(1);
    expect(markdown.split("Roadworks").length - 1).toBe(2);
  });
});

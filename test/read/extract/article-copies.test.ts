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

describe("pages of no declared kind: the article carried twice", () => {
  const para = (n: number) =>
    `<p>Step ${n} of the guide explains how the harbour's ferry timetable changes in winter, and which crossings stop.</p>`;

  it("reads once a run of blocks said again in the same order (a second template of the whole text)", async () => {
    const body = [1, 2, 3, 4].map(para).join("");
    const { markdown } = await extractMarkdown(
      `<html><body><main><h1>Ferry guide</h1><div class="lg:hidden">${body}</div><div class="hidden lg:block">${body}</div></main></body></html>`,
      "https://ferries.example.org/winter",
    );
    expect(markdown.split("Step 3 of the guide").length - 1).toBe(1);
  });

  it("keeps a single block said twice (a parameter's description under each signature)", async () => {
    const note =
      "<p>The timeout is in milliseconds; zero waits for ever, and a negative value is an error raised at once.</p>";
    const { markdown } = await extractMarkdown(
      `<html><body><main><h1>connect</h1><h2>connect(host)</h2>${note}${para(1)}<h2>connect(host, port)</h2>${note}${para(2)}</main></body></html>`,
      "https://ferries.example.org/client",
    );
    expect(markdown.split("The timeout is in milliseconds").length - 1).toBe(2);
  });
});

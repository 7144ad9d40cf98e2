import { describe, expect, it } from "vitest";
import { findAll, parseHtml } from "../../../src/read/extract/dom.js";
import { extractMarkdown } from "../../../src/read/extract/index.js";
import { classWeight } from "../../../src/read/extract/main-content.js";

const PROSE =
  "The compiler checks every borrow at build time, so a whole family of memory errors never reaches the running program, and the team found that this changed how they reviewed code.";

describe("extractMarkdown: an article's footnotes", () => {
  const page = (notes: string) =>
    `<html><head><title>What people love about it</title></head><body><nav><a href="/">Home</a> <a href="/blog">Blog</a></nav>` +
    `<main><article><h1>What people love about it</h1>` +
    `<p>${PROSE} Reliability came first<sup class="footnote-reference"><a href="#fn-1" id="fr-1">1</a></sup>.</p>`.repeat(
      4,
    ) +
    `${notes}</article></main><footer><p>© 2025 The Team</p></footer></body></html>`;

  it("keeps a notes section whose notes link back to where they are cited", async () => {
    const notes =
      `<section class="footnotes"><ol class="footnotes-list"><li id="fn-1"><p>In the survey, most respondents said they wanted to keep using the language next year. <a href="#fr-1" class="footnote-backref">↩</a></p></li>` +
      `<li id="fn-2"><p>Measured on the project's own continuous integration machines. <a href="#fr-2">↩</a></p></li></ol></section>`;
    const { markdown } = await extractMarkdown(
      page(notes),
      "https://blog.example.org/2025/12/what-people-love",
    );
    expect(markdown).toContain("most respondents said they wanted to keep using");
    expect(markdown).toContain("continuous integration machines");
  });

  it("still drops small print named 'footnote' that links back to nothing", async () => {
    const notes = `<div class="footnote"><p>Prices exclude tax. <a href="/terms">Terms apply</a></p></div>`;
    const { markdown } = await extractMarkdown(
      page(notes),
      "https://blog.example.org/2025/12/what-people-love",
    );
    expect(markdown).toContain("Reliability came first");
    expect(markdown).not.toContain("Prices exclude tax");
  });

  it("gives a notes block whose only jump is to the page's top the weight of its name", async () => {
    const notes = `<div class="footnote"><p>Prices exclude tax and shipping, which the checkout adds. <a href="#top">Back to top</a></p></div>`;
    const { markdown } = await extractMarkdown(
      page(notes).replace("<body>", '<body id="top">'),
      "https://blog.example.org/2025/12/what-people-love",
    );
    expect(markdown).toContain("Reliability came first");
    expect(markdown).not.toContain("Prices exclude tax");
  });

  it("still counts the other names of a notes section that links back", () => {
    const doc = parseHtml(
      `<body><p>Cited here<sup id="fr-1"><a href="#fn-1">1</a></sup>.</p><section class="footnotes hid"><ol><li id="fn-1">A note. <a href="#fr-1">↩</a></li></ol></section><section class="footnotes"><ol><li id="fn-2">A note. <a href="#fr-1">↩</a></li></ol></section></body>`,
    );
    const [hidden, shown] = findAll(doc, (el) => el.name === "section");
    expect(classWeight(hidden!)).toBeLessThan(0);
    expect(classWeight(shown!)).toBe(0);
  });
});

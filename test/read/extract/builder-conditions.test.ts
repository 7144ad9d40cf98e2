import { describe, expect, it } from "vitest";
import { extractMarkdown } from "../../../src/read/extract/index.js";

const para = (label: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `<p>${label} paragraph ${i + 1} explains how a studio owner sets the price of a class, weighs rent against the number of students, and decides when to raise it.</p>`,
  ).join("");

describe("extractMarkdown: a site builder's false visibility condition", () => {
  it("drops a Webflow block published with w-condition-invisible (its gated copy of the article)", async () => {
    const html =
      `<html><body><div class="main"><div class="layout__normal"><div class="w-richtext">${para("Open", 4)}</div></div>` +
      `<div class="layout__gated w-condition-invisible"><div class="w-richtext">${para("Gated", 4)}</div></div></div></body></html>`;
    const { markdown } = await extractMarkdown(html, "https://studio.example.com/blog/pricing");
    expect(markdown).toContain("Open paragraph 4");
    expect(markdown).not.toContain("Gated paragraph");
  });

  it("keeps a block whose class only mentions a condition", async () => {
    const html = `<html><body><article class="w-condition-visible">${para("Shown", 3)}</article></body></html>`;
    const { markdown } = await extractMarkdown(html, "https://studio.example.com/blog/pricing");
    expect(markdown).toContain("Shown paragraph 3");
  });
});

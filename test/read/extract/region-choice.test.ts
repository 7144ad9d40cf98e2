import { describe, expect, it } from "vitest";
import { extractMarkdown } from "../../../src/read/extract/index.js";

// The choice between the chosen content and the prose region around it, between the shares that settle it.

const PROSE =
  "The council reviewed the plan in detail, heard the residents, and asked the planners for a revised budget. " +
  "Several members said that the schedule, the costs, and the traffic study still needed work before a vote.";

function page(body: string): string {
  return `<!doctype html><html lang="en"><head><title>Plan</title></head><body>${body}</body></html>`;
}

function paragraphs(n: number, tag: string): string {
  return Array.from({ length: n }, (_, i) => `<p>${tag} ${i}: ${PROSE}</p>`).join("");
}

const URL = "https://example.org/plan";

describe("extractMarkdown: primary or prose region", () => {
  it("takes the region when what it adds is running prose, though the content held most of the page's text", async () => {
    const { markdown } = await extractMarkdown(
      page(
        `<div class="wrap"><div class="main"><div class="body">${paragraphs(5, "Body")}</div></div>` +
          `<div class="bottom"><div class="notes">${paragraphs(3, "Closing")}</div></div></div>`,
      ),
      URL,
    );
    expect(markdown).toContain("Body 4:");
    expect(markdown).toContain("Closing 2:");
  });

  it("keeps the content when what the region adds is mostly links, though the content held little of the text", async () => {
    const links = Array.from(
      { length: 30 },
      (_, i) => `<li><a href="/service-${i}">Another service of the firm number ${i} in the list</a></li>`,
    ).join("");
    const blurb = "Our firm has served clients in the region for many decades and we are proud of our work";
    const { markdown } = await extractMarkdown(
      page(
        `<div class="wrap"><div class="column"><div class="body">${paragraphs(3, "Body")}</div></div>` +
          `<div class="more"><ul>${links}</ul></div><div class="about"><p>About us. ${blurb}.</p><p>${blurb}.</p><p>${blurb}.</p>` +
          `<p>${blurb}.</p><p>${blurb}.</p><p>${blurb}.</p><p>${blurb}.</p></div></div>`,
      ),
      URL,
    );
    expect(markdown).toContain("Body 2:");
    expect(markdown).not.toContain("About us.");
  });
});

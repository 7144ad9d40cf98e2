import { describe, expect, it } from "vitest";
import { findFirst, parseHtml } from "../../../src/read/extract/dom.js";
import { extractMarkdown } from "../../../src/read/extract/index.js";
import { largestItemRun } from "../../../src/read/extract/item-list.js";
import { TextStatsIndex } from "../../../src/read/extract/text-stats.js";

const TOOLS = ["Lathe", "Planer", "Router", "Jointer", "Bandsaw", "Drill press", "Sander", "Mitre saw"];

// A ranking whose rows are striped: every other row carries another background class.
function ranking(rows: number): string {
  const out: string[] = [];
  for (let i = 0; i < rows; i++) {
    const stripe = i % 2 ? "bg-slate-50" : "bg-transparent";
    out.push(
      `<div class="flex entry-row ${stripe}"><span>${i + 1}.</span> <a class="name" href="/tools/${i}">${TOOLS[i % TOOLS.length]} ${i + 1}</a> <span>${(9 - i / 10).toFixed(1)}</span> <button>Compare</button></div>`,
    );
  }
  return `<!doctype html><html><head><title>Top ranked workshop tools</title></head><body>
<nav><a href="/">Toolrank</a> <a href="/categories">Categories</a></nav>
<div class="wrap"><div class="intro"><h2>Compare top ranked workshop tools</h2><p>See how the tools rank by their score.</p></div>
<div class="list">${out.join("\n")}</div></div></body></html>`;
}

describe("a listing's run of items", () => {
  it("takes striped rows as one run: a class that only some items carry is a state, not another kind", () => {
    const doc = parseHtml(ranking(30));
    const body = findFirst(doc, (el) => el.name === "body")!;
    const run = largestItemRun(body, new TextStatsIndex(body));
    expect(run?.items.length).toBe(30);
  });

  it("keeps every row of a striped ranking on a listing page", async () => {
    const { markdown } = await extractMarkdown(
      ranking(30),
      "https://toolrank.example.com/categories/workshop/rankings",
    );
    expect(markdown).toContain("Planer 2");
    expect(markdown).toContain("Router 3");
    expect(markdown).toContain("Mitre saw 24");
  });
});

import { describe, expect, it } from "vitest";
import { extractMarkdown } from "../../../src/read/extract/index.js";

// A store's grid whose cards end in a row of tag links written side by side with nothing between them: a browser
// draws them apart (each a padded chip), so each is a word of its own.
describe("links set side by side", () => {
  it("reads a row of adjacent tag links as separate words", async () => {
    const tags = ["Strategy", "Roguelike", "Co-op", "Survival"];
    const cards = Array.from(
      { length: 8 },
      (_, i) =>
        `<div class="game"><h3><a href="/app/${i}">Frontier Outpost ${i + 1}</a></h3><p>Build a camp at the edge of the map and keep it alive through the winter.</p>` +
        `<div class="chips">${tags.map((t) => `<a href="/tags/${t}">${t}</a>`).join("")}</div></div>`,
    ).join("");
    const html = `<!doctype html><html><head><title>Co-op games</title></head><body><main><h1>Co-op games</h1><div class="grid">${cards}</div></main></body></html>`;
    const { markdown } = await extractMarkdown(html, "https://store.example.com/category/coop/");
    expect(markdown).toContain("Strategy Roguelike Co-op Survival");
    expect(markdown).not.toContain("StrategyRoguelike");
  });
});

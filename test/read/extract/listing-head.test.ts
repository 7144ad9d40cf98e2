import { describe, expect, it } from "vitest";
import { extractMarkdown } from "../../../src/read/extract/index.js";

// A category page whose headline and intro stand in a hero of their own, above the main column that holds the
// grid: the grid is the content, and it should come with what says what it lists.
const NAMES = ["Two-burner stove", "Canister stove", "Wood stove", "Liquid-fuel stove", "Induction hob"];

function page(head: string): string {
  const cards = Array.from(
    { length: 12 },
    (_, i) =>
      `<li class="card"><h3><a href="/p/${i}">${NAMES[i % 5]} model ${i + 1}</a></h3><p>Boils a litre in ${3 + (i % 4)} minutes, packs down small, and lights in the wind.</p></li>`,
  ).join("");
  return `<!doctype html><html><head><title>Camp stoves for sale | Outfitter</title></head><body><header><a href="/">Outfitter</a></header>
${head}<main><div class="results"><ul class="grid">${cards}</ul></div></main><footer><p>© Outfitter</p></footer></body></html>`;
}

describe("a listing's head", () => {
  it("keeps the headline's intro that stands above the grid in a wrapper of its own", async () => {
    const html = page(
      '<div class="category-hero"><h1>Camp stoves</h1><p>From a quick coffee to a group dinner, a stove for every trip.</p></div>',
    );
    const { markdown } = await extractMarkdown(html, "https://outfitter.example.com/c/camp-stoves");
    expect(markdown).toContain("a stove for every trip");
    expect(markdown).toContain("Liquid-fuel stove model 4");
    expect(markdown.indexOf("a stove for every trip")).toBeLessThan(markdown.indexOf("model 1"));
  });

  it("leaves out a long or link-heavy block around the headline (a menu of sibling categories)", async () => {
    const menu = Array.from(
      { length: 12 },
      (_, i) => `<a href="/c/${i}">Cooking category number ${i}</a>`,
    ).join(" ");
    const html = page(`<div class="category-hero"><h1>Camp stoves</h1><p>${menu}</p></div>`);
    const { markdown } = await extractMarkdown(html, "https://outfitter.example.com/c/camp-stoves");
    expect(markdown).toContain("Liquid-fuel stove model 4");
    expect(markdown).not.toContain("Cooking category number 3");
  });
});

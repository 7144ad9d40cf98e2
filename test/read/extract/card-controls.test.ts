import { describe, expect, it } from "vitest";
import { extractMarkdown } from "../../../src/read/extract/index.js";

// A shop's category grid whose cards carry controls beside the product's name and price: a "Compare" checkbox's
// label, a quantity field's label, an "Add to cart" link drawn as a button and a "Quick View" overlay.
const NAMES = ["Canvas Gear Bag", "Cutlery Roll", "Camp Kettle", "Folding Stool", "Tarp Shelter"];

function grid(card: (i: number) => string): string {
  const cards = Array.from({ length: 10 }, (_, i) => card(i)).join("\n");
  return `<!doctype html><html><head><title>Outdoor gear</title></head><body><header><a href="/">Bush Co</a></header>
<main><h1>Outdoor gear</h1><ul class="products">${cards}</ul></main><footer><p>© Bush Co</p></footer></body></html>`;
}

describe("a listing's card controls", () => {
  it("drops the labels and buttons of each card and keeps its name and price", async () => {
    const html = grid(
      (i) =>
        `<li class="product"><a href="/p/${i}" class="thumb"><img src="/i/${i}.jpg" alt=""><div class="btn btn-quickview">Quick View</div></a>` +
        `<h2><a href="/p/${i}">${NAMES[i % NAMES.length]} ${i + 1}</a></h2><span class="price">$${30 + i}.00</span>` +
        `<div class="compare"><label><input type="checkbox"> Compare</label></div>` +
        `<label for="q${i}">Qty:</label><input id="q${i}" type="number" value="1">` +
        `<a href="/cart?add=${i}" role="button" class="add_to_cart">Add to cart</a></li>`,
    );
    const { markdown } = await extractMarkdown(
      html,
      "https://bush.example.com/product-category/outdoor-gear/",
    );
    expect(markdown).toContain("Camp Kettle 3");
    expect(markdown).toContain("$37.00");
    for (const control of ["Quick View", "Compare", "Qty:", "Add to cart"])
      expect(markdown).not.toContain(control);
  });

  it("keeps a card that is itself a button, with all its text", async () => {
    const html = grid(
      (i) =>
        `<li class="game" role="button" tabindex="0"><h2><a href="/app/${i}">${NAMES[i % NAMES.length]} Adventure ${i + 1}</a></h2>` +
        `<p>A cooperative survival game for up to four players, in a world that changes every night.</p><span class="price">$${10 + i}.99</span></li>`,
    );
    const { markdown } = await extractMarkdown(html, "https://store.example.com/category/coop/");
    expect(markdown).toContain("Folding Stool Adventure 4");
    expect(markdown).toContain("A cooperative survival game");
  });
});

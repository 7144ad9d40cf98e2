import { describe, expect, it } from "vitest";
import { extractMarkdown } from "../../../src/read/extract/index.js";
import { isPrice } from "../../../src/read/extract/price.js";

describe("a price", () => {
  it("is read with its currency's code first, a label before it or the tax it includes", () => {
    for (const t of [
      "EUR 163.12",
      "US $394.99",
      "Sale price $799",
      "€49.99VAT included",
      "19,99 € inkl. MwSt.",
    ])
      expect(isPrice(t), t).toBe(true);
  });

  it("is not any short line with a figure", () => {
    for (const t of ["USB 3.0", "ABC 2024", "VAT included", "Add to cart", "2024"])
      expect(isPrice(t), t).toBe(false);
  });

  it("stays on a product page though its line is shorter than a fragment", async () => {
    const sentence =
      "A jacket of faux leather with a turn-down collar, a zip and a chest pocket, cut straight to a normal length, " +
      "lined in polyester and washable at thirty degrees on a gentle cycle.";
    const { markdown } = await extractMarkdown(
      "<!doctype html><html><head><title>Shop</title></head><body><main><h1>Faux leather jacket</h1>" +
        `<div class="price"><p><span>€49.99</span><span>VAT included</span></p></div><p>${sentence}</p><p>${sentence}</p></main></body></html>`,
      "https://example.org/products/faux-leather-jacket",
    );
    expect(markdown).toContain("€49.99");
  });
});

import { describe, expect, it } from "vitest";
import { parseHtml } from "../../../src/read/extract/dom.js";
import { pageKind } from "../../../src/read/extract/page-kind.js";

const card = (name: string) =>
  `<div itemscope itemtype="http://schema.org/Product"><a href="/${name}" itemprop="name">${name}</a></div>`;

const page = (main: string) =>
  `<!doctype html><html><head><title>Shop</title></head><body>${main}` +
  `<section><h2>You may also like</h2>${["Classic", "Minimal", "Voyager"].map(card).join("")}</section></body></html>`;

describe("a product page that marks up its recommendations as Products", () => {
  it("is the product whose microdata holds the page's headline", () => {
    const main =
      '<div itemscope itemtype="http://schema.org/Product"><h1 itemprop="name">Classic II</h1><p>$168.00</p></div>';
    expect(
      pageKind(parseHtml(page(main)), "https://example.org/mens-view-all/moon-silver/28000436.html"),
    ).toBe("product");
  });

  it("is still a listing when the headline is outside every declared Product", () => {
    expect(pageKind(parseHtml(page("<h1>Watches</h1>")), "https://example.org/watches/all.html")).toBe(
      "listing",
    );
  });
});

import { describe, expect, it } from "vitest";
import { findFirst, isTag, parseHtml } from "../../../src/read/extract/dom.js";
import { extractMarkdown } from "../../../src/read/extract/index.js";
import { isPricedRun } from "../../../src/read/extract/priced-items.js";
import { TextStatsIndex } from "../../../src/read/extract/text-stats.js";

// A shop's category page: a grid of product cards (each a link, a short name and a price) beside the
// category's prose (an intro, a buyer's guide, an FAQ). The prose scores as the content; the products are
// what the page lists.

const NAMES = ["Black Dress Shoes", "Brown Loafers", "Navy Icon Socks", "Gray Icon Socks", "Tan Crew Socks"];

function page(body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shoes and socks</title></head><body>
<header><a href="/">Tux &amp; Co</a> <a href="/cart">Cart</a></header>${body}
<footer><p>© Tux &amp; Co. Free returns within 30 days.</p></footer></body></html>`;
}

const GUIDE = `<div class="guide"><h2>About our dress shoes and socks</h2>
<p>Our selection of dress shoes, tuxedo shoes and socks caters to a variety of tastes, from classic patent leather
to softer suede, so that every ensemble is finished from head to toe with the same care as the suit itself.</p>
<p>Each pair is cleaned, inspected and polished between rentals, and the sizes run true, with half sizes offered
in the most asked-for styles; socks are new with every order and are yours to keep after the event.</p>
<p>If you are unsure of a size, order two and send back the pair that does not fit, at no cost, within a week of
the event; our stylists will also match the shoes to the rest of the outfit when you ask them to.</p></div>`;

function cards(linked: "whole" | "name"): string {
  const out: string[] = [];
  for (let i = 0; i < 12; i++) {
    const name = `${NAMES[i % NAMES.length]} ${i + 1}`;
    const price = `$${14 + i}`;
    out.push(
      linked === "whole"
        ? `<div class="tile"><a href="/p/${i}"><img src="/i/${i}.jpg" alt=""><h3>${name}</h3><span>${price}</span></a></div>`
        : `<div class="tile"><a href="/p/${i}"><img src="/i/${i}.jpg" alt=""></a><h3><a href="/p/${i}">${name}</a></h3><span class="amount">${price}</span></div>`,
    );
  }
  return `<div class="tiles">${out.join("\n")}</div>`;
}

describe("a shop's grid beside the category's prose", () => {
  it("a grid whose cards are one link each (name and price inside it) is no menu: it joins the prose", async () => {
    const html = page(
      `<main><div class="intro">${GUIDE}</div><div class="products">${cards("whole")}</div></main>`,
    );
    const { markdown } = await extractMarkdown(html, "https://tux.example.com/collection/shoes-and-socks");
    expect(markdown).toContain("Our selection of dress shoes");
    expect(markdown).toContain("Gray Icon Socks 9");
    expect(markdown).toContain("$25");
  });

  it("on a page that declares nothing, the grid is taken beside a longer buyer's guide, in the page's order", async () => {
    const html = page(
      `<div class="cols"><div class="results">${cards("name")}</div><div class="seo">${GUIDE}</div></div>`,
    );
    const { markdown } = await extractMarkdown(html, "https://tux.example.com/shoes-and-socks");
    expect(markdown).toContain("Tan Crew Socks 10");
    expect(markdown).toContain("$23");
    expect(markdown).toContain("If you are unsure of a size");
    expect(markdown.indexOf("Black Dress Shoes 1")).toBeLessThan(
      markdown.indexOf("Our selection of dress shoes"),
    );
  });

  it("a grid holding more than half the prose's text, though less than it, still joins it", async () => {
    const tiles = Array.from(
      { length: 16 },
      (_, i) =>
        `<div class="tile"><a href="/p/${i}"><img src="/i/${i}.jpg" alt=""><h3>${NAMES[i % NAMES.length]}, size ${i + 5}</h3><span>$${14 + i}.00</span></a></div>`,
    ).join("\n");
    const html = page(`<main>${GUIDE}<div class="products"><div class="tiles">${tiles}</div></div></main>`);
    const { markdown } = await extractMarkdown(html, "https://tux.example.com/collection/shoes-and-socks");
    expect(markdown).toContain("Our selection of dress shoes");
    expect(markdown).toContain("Tan Crew Socks, size 14");
    expect(markdown).toContain("$28.00");
  });

  it("a run of links without prices beside the prose is still a menu, left out", async () => {
    const menu = NAMES.map((n, i) => `<li><a href="/c/${i}">${n}</a></li>`).join("");
    const html = page(`<main><ul class="cats">${menu}${menu}</ul>${GUIDE}</main>`);
    const { markdown } = await extractMarkdown(html, "https://tux.example.com/collection/shoes-and-socks");
    expect(markdown).toContain("Our selection of dress shoes");
    expect(markdown).not.toContain("Brown Loafers");
  });
});

describe("a priced run", () => {
  function run(html: string): boolean {
    const doc = parseHtml(`<ul>${html}</ul>`);
    const ul = findFirst(doc, (el) => el.name === "ul")!;
    const items = ul.children.filter(isTag);
    return isPricedRun(items, new TextStatsIndex(ul));
  }

  it("is one whose items mostly show a price, split over elements or as the open end of a range", () => {
    const split = `<li><a href="/p">Radeon RX 9060</a> <p>$<strong>459</strong><sup>.99</sup> <abbr>–</abbr></p></li>`;
    expect(run(split.repeat(3) + `<li><a href="/q">Radeon RX 9070</a></li>`)).toBe(true);
    expect(run(`<li><a href="/p">Radeon RX 9060</a> <b>Save 5%</b></li>`.repeat(4))).toBe(false);
    expect(run(`<li><a href="/p">Radeon</a> from $459 to $799, see all</li>`.repeat(4))).toBe(false);
  });
});

describe("a value drawn for the eye and said again for screen readers", () => {
  it("keeps the drawn sale prices that WooCommerce hides from screen readers beside their spoken copy", async () => {
    const card = (i: number) =>
      `<li class="product"><h2><a href="/p/${i}">Gear Bag ${i}</a></h2><span class="price">` +
      `<del aria-hidden="true"><span class="amount">$${30 + i}.00</span></del> ` +
      `<span class="screen-reader-text">Original price was: $${30 + i}.00.</span>` +
      `<ins aria-hidden="true"><span class="amount">$${20 + i}.50</span></ins>` +
      `<span class="screen-reader-text">Current price is: $${20 + i}.50.</span></span></li>`;
    const grid = Array.from({ length: 8 }, (_, i) => card(i)).join("");
    const html = page(`<main><h1>Outdoor gear</h1><ul class="products">${grid}</ul></main>`);
    const { markdown } = await extractMarkdown(
      html,
      "https://bush.example.com/product-category/outdoor-gear/",
    );
    expect(markdown).toContain("$35.00");
    expect(markdown).toContain("$25.50");
  });

  it("keeps a rating's count drawn inside a link whose aria-label says it again, and nothing its label does not say", async () => {
    const card = (i: number) =>
      `<li class="product"><h2><a href="/p/${i}">Gear Bag ${i}</a></h2><span class="price">$${20 + i}.00</span>` +
      `<a href="/p/${i}#reviews" aria-label="4.${i} out of 5 stars, ${i + 1},204 ratings"><i aria-hidden="true" class="stars"></i>` +
      `<span aria-hidden="true">${i + 1},204</span><span aria-hidden="true">SECRET-INSTRUCTION</span></a></li>`;
    const grid = Array.from({ length: 8 }, (_, i) => card(i)).join("");
    const html = page(`<main><h1>Outdoor gear</h1><ul class="products">${grid}</ul></main>`);
    const { markdown } = await extractMarkdown(
      html,
      "https://bush.example.com/product-category/outdoor-gear/",
    );
    expect(markdown).toContain("3,204");
    expect(markdown).not.toContain("SECRET-INSTRUCTION");
  });

  it("still drops an aria-hidden block with no screen-reader copy beside it", async () => {
    const html = page(
      `<main>${GUIDE}<p aria-hidden="true">SECRET-INSTRUCTION</p><p>Sizes run true.</p></main>`,
    );
    const { markdown } = await extractMarkdown(html, "https://tux.example.com/about-shoes");
    expect(markdown).not.toContain("SECRET-INSTRUCTION");
  });
});

describe("a card's parts in a grid whose cards name their own categories", () => {
  it("keeps each card's caption although each card's class list differs by the product's categories", async () => {
    const cats = ["on-sale", "cooking", "storage", "travel"];
    const card = (i: number) =>
      `<li class="product type-product status-publish product_cat-${cats[i % 4]} product_tag-${cats[(i + 1) % 4]}">` +
      `<a href="/p/${i}"><img src="/i/${i}.jpg" alt=""></a><span class="onsale">-30%</span><div class="product-caption">` +
      `<h3><a href="/p/${i}">Cutlery Roll ${i}</a></h3><div class="short-description">A canvas roll for the camp kitchen…</div>` +
      `<span class="price">$${40 + i}.00</span></div></li>`;
    const grid = Array.from({ length: 8 }, (_, i) => card(i)).join("");
    const html = page(`<main><h1>Outdoor gear</h1>${GUIDE}<ul class="products">${grid}</ul></main>`);
    const { markdown } = await extractMarkdown(
      html,
      "https://bush.example.com/product-category/outdoor-gear/",
    );
    for (let i = 0; i < 8; i++) expect(markdown).toContain(`Cutlery Roll ${i}`);
    expect(markdown).toContain("$47.00");
  });
});

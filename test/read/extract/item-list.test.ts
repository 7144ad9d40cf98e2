import { describe, expect, it } from "vitest";
import { cleanTree } from "../../../src/read/extract/clean.js";
import { findFirst, parseHtml, textContent } from "../../../src/read/extract/dom.js";
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

// A shop's category grid whose cards put each product's name and price in a block named "product-caption",
// and a gallery of captioned pictures (linked images whose whole text is their caption) under an article.
function shopGrid(cards: number): string {
  const out: string[] = [];
  for (let i = 0; i < cards; i++)
    out.push(
      `<li class="product type-product post-${100 + i}"><span class="badge">-30%</span><a href="/p/${i}"><img src="/i/${i}.jpg" alt=""></a><div class="product-caption"><h2><a href="/p/${i}">${TOOLS[i % TOOLS.length]} kit ${i + 1}</a></h2><p>A sturdy tool for the workshop, number ${i + 1}.</p><span class="price">$${20 + i}.00</span></div></li>`,
    );
  return `<!doctype html><html><head><title>Outdoor gear</title></head><body>
<header><a href="/">Shop</a></header><main><h1>Outdoor gear</h1><p>${"Everything for a weekend outside, from tents to tools, packed and shipped the same day. ".repeat(4)}</p><ul class="products grid">${out.join("\n")}</ul></main>
<footer><p>Shop footer</p></footer></body></html>`;
}

describe("a card's own parts", () => {
  it("keeps a name that every card of a grid carries around its title block (a shop's product caption)", async () => {
    const { markdown } = await extractMarkdown(shopGrid(8), "https://shop.example.com/outdoor-gear/");
    expect(markdown).toContain("Planer kit 2");
    expect(markdown).toContain("A sturdy tool for the workshop, number 7.");
    expect(markdown).toContain("$27.00");
  });

  it("still drops a gallery's captions, where the caption is the whole card", () => {
    const slides = TOOLS.slice(0, 6)
      .map(
        (t, i) =>
          `<div class="gal-slide col-md-4"><a href="/gallery/${i}"><div class="img"><img src="/g/${i}.jpg" alt=""><div class="caption"><span>4 November 2021</span><h4>${t} fair ${i}</h4></div></div></a></div>`,
      )
      .join("\n");
    const prose =
      "The workshop fair drew more visitors than ever, and the makers showed their newest tools. ".repeat(8);
    const doc = parseHtml(
      `<!doctype html><html><body><div class="news"><h1>The fair</h1><p>${prose}</p></div><div class="gallery-slider row">${slides}</div></body></html>`,
    );
    cleanTree(doc);
    const text = textContent(doc);
    expect(text).toContain("more visitors than ever");
    expect(text).not.toContain("Planer fair 1");
  });
});

// A shop's grid whose cards state each product's rating in a rating-named caption, beside a star widget of words.
function ratedGrid(cards: number): string {
  const out: string[] = [];
  for (let i = 0; i < cards; i++)
    out.push(
      `<li class="tile"><a href="/p/${i}"><h2>${TOOLS[i % TOOLS.length]} boot ${i + 1}</h2></a><span class="price">$${90 + i}.00</span><span class="rating-caption">Rated 4.${i} out of 5 stars</span><div class="rating-widget"><a href="/rate/${i}">Rate this boot</a></div></li>`,
    );
  return `<!doctype html><html><body><main><h1>Hiking boots</h1><ul class="tiles">${out.join("\n")}</ul></main></body></html>`;
}

describe("a card's rating", () => {
  it("keeps a rating stated as a figure in every card of a grid, as its price is kept", () => {
    const doc = parseHtml(ratedGrid(6));
    cleanTree(doc);
    const text = textContent(doc);
    expect(text).toContain("Rated 4.2 out of 5 stars");
    expect(text).toContain("Rated 4.5 out of 5 stars");
  });

  it("still drops a rating widget of words to click", () => {
    const doc = parseHtml(ratedGrid(6));
    cleanTree(doc);
    expect(textContent(doc)).not.toContain("Rate this boot");
  });
});

// A blog's category archive: the category's long description, then its posts as cards of a linked title only,
// each as short and all-link as a menu's entry.
function titleCardArchive(): string {
  const sentence = (i: number) =>
    `<p>Going without plastic starts small, step ${i}: a bottle you refill, a bag you carry, a jar you bring to the market, and a habit that grows from there.</p>`;
  const titles = [
    "Eight easy swaps",
    "Refill a jar",
    "Compost at home",
    "Mend a shirt",
    "Skip the straw",
    "Shop in bulk",
  ];
  return `<!doctype html><html><head><title>For beginners</title></head><body>
<header><nav><a href="/">Home</a> <a href="/blog">Blog</a></nav></header>
<div class="wrap"><h1>For beginners</h1><div class="description">${[1, 2, 3, 4, 5, 6, 7].map(sentence).join("")}</div>
<div class="posts">${titles
    .map(
      (t, i) =>
        `<article class="excerpt"><a href="/p/${i}"><img src="/i${i}.jpg" alt=""></a><h2><a href="/p/${i}">${t}</a></h2></article>`,
    )
    .join("")}</div></div>
<footer><p>Blog footer</p></footer></body></html>`;
}

describe("a listing of title-only cards", () => {
  it("keeps the cards beside the category's description, though each is all link", async () => {
    const { markdown } = await extractMarkdown(
      titleCardArchive(),
      "https://blog.example.com/category/beginners/",
    );
    expect(markdown).toContain("a habit that grows from there");
    expect(markdown).toContain("Compost at home");
    expect(markdown).toContain("Shop in bulk");
  });

  it("does not take them for a list on a page that does not say it is a listing", async () => {
    const doc = parseHtml(titleCardArchive());
    const body = findFirst(doc, (el) => el.name === "body")!;
    const stats = new TextStatsIndex(body);
    expect(largestItemRun(body, stats)).toBeUndefined();
    expect(largestItemRun(body, stats, true)?.items.length).toBe(6);
  });
});

describe("a card's header", () => {
  it("keeps the header of every card of an archive, though it is all the card's text", () => {
    const cards = TOOLS.map(
      (t, i) =>
        `<article class="excerpt"><a href="/p/${i}"><img src="/i${i}.jpg" alt=""></a><header class="excerpt-header"><h2><a href="/p/${i}">Restoring an old ${t.toLowerCase()}</a></h2></header></article>`,
    ).join("\n");
    const doc = parseHtml(
      `<!doctype html><html><body><header class="site-header"><a href="/">Workshop blog</a></header><div class="posts">${cards}</div></body></html>`,
    );
    cleanTree(doc);
    const text = textContent(doc);
    expect(text).toContain("Restoring an old planer");
    expect(text).toContain("Restoring an old sander");
    expect(text).not.toContain("Workshop blog");
  });
});

// A component framework's card: the title block sits five named layers below the card, in a wrapper whose name
// ends in "header" (a BEM element and modifier), as every card of the grid has it.
function layeredGrid(cards: number): string {
  const out: string[] = [];
  for (let i = 0; i < cards; i++)
    out.push(
      `<li class="item-card"><div class="item-card__body"><div class="item-card__wrapper"><div class="item-card__signals"><div class="item-card__signals__header"><div class="signal signal--header"><h3><a href="/itm/${i}">${TOOLS[i % TOOLS.length]} set ${i + 1} with case</a></h3></div></div><div class="item-card__price">$${40 + i}.00</div></div></div></div></li>`,
    );
  return `<!doctype html><html><body><header class="site-header"><a href="/">Market</a></header><main><h1>Workshop tools</h1><ul class="results">${out.join("\n")}</ul></main></body></html>`;
}

describe("a card's title block deep in its layers", () => {
  it("keeps a header-named title block five layers below each card of a grid", () => {
    const doc = parseHtml(layeredGrid(8));
    cleanTree(doc);
    const text = textContent(doc);
    expect(text).toContain("Router set 3 with case");
    expect(text).toContain("Sander set 7 with case");
    expect(text).not.toContain("Market");
  });
});

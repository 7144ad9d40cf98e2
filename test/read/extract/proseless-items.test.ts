import { describe, expect, it } from "vitest";
import { findFirst, parseHtml } from "../../../src/read/extract/dom.js";
import { extractMarkdown } from "../../../src/read/extract/index.js";
import { itemRuns } from "../../../src/read/extract/item-list.js";
import { TextStatsIndex } from "../../../src/read/extract/text-stats.js";

const TOPICS = ["Robots", "Chips", "Phones", "Drones", "Batteries", "Satellites", "Browsers", "Games"];

// Story cards whose whole text is their link (headline and summary inside one <a>), as section fronts build them.
function cards(section: number, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const topic = TOPICS[(section + i) % TOPICS.length];
    out.push(
      `<div class="card"><a href="/story/${section}-${i}"><h3>${topic} story ${section}.${i} makes the news</h3><p>What changed for ${topic.toLowerCase()} this week, and who it affects.</p></a></div>`,
    );
  }
  return `<section class="block"><h2>Section ${section}</h2><div class="grid">${out.join("")}</div></section>`;
}

// A section front with no running prose of its own: its content is its cards. CMSs declare such pages
// articles too (Open Graph's type on every page).
function sectionFront(declared = ""): string {
  return `<!doctype html><html><head><title>Technology</title>${declared}</head><body>
<header><a href="/">News</a> <a href="/tech">Tech</a></header>
<main><h1>Technology</h1>${cards(1, 5)}${cards(2, 5)}${cards(3, 5)}</main>
<footer><p>News footer</p></footer></body></html>`;
}

// An article that declares nothing, with prose of its own and a grid of linked teasers under it, inside the same container.
function articleWithTeasers(): string {
  const para = (i: number) =>
    `<p>The council met on Tuesday to discuss the new cycling lanes, number ${i}, which residents have asked for since the spring, and agreed to fund a first stretch along the river before the winter.</p>`;
  return `<!doctype html><html><head><title>Cycling lanes</title></head><body>
<main><article><h1>Council agrees to fund cycling lanes</h1>${[1, 2, 3, 4, 5].map(para).join("")}${cards(9, 5)}</article></main>
</body></html>`;
}

// A short article (two paragraphs: less running prose than a listing may hold) with a teaser grid under it.
function shortArticleWithTeasers(): string {
  const para = (i: number) =>
    `<p>The council met on Tuesday to discuss the new cycling lanes, part ${i}, which residents have asked for since the spring, and agreed to fund a first stretch along the river.</p>`;
  return `<!doctype html><html><head><title>Cycling lanes</title><meta property="og:type" content="article"></head><body>
<main><article><h1>Council agrees to fund cycling lanes</h1>${para(1)}${para(2)}${cards(9, 4)}</article></main>
</body></html>`;
}

const OG_ARTICLE = `<meta property="og:type" content="article">`;

describe("a page with no running prose of its own", () => {
  it("keeps the cards of every run in its content, though each card is all link", async () => {
    const { markdown } = await extractMarkdown(sectionFront(), "https://news.example.com/technology");
    expect(markdown).toContain("Chips story 1.0 makes the news");
    expect(markdown).toContain("What changed for phones this week");
    expect(markdown).toContain("Batteries story 2.2 makes the news");
    expect(markdown).toContain("Batteries story 3.1 makes the news");
  });

  it("keeps the cards of a section front that declares itself an article", async () => {
    const { markdown } = await extractMarkdown(
      sectionFront(OG_ARTICLE),
      "https://news.example.com/technology",
    );
    expect(markdown).toContain("Chips story 1.0 makes the news");
    expect(markdown).toContain("Batteries story 3.1 makes the news");
  });

  it("still prunes the teaser grid of a short article, which is not most of its content", async () => {
    const { markdown } = await extractMarkdown(
      shortArticleWithTeasers(),
      "https://news.example.com/cycling-lanes",
    );
    expect(markdown).toContain("agreed to fund a first stretch along the river");
    expect(markdown).not.toContain("makes the news");
  });

  it("still prunes a teaser grid under an article that has prose of its own", async () => {
    const { markdown } = await extractMarkdown(
      articleWithTeasers(),
      "https://news.example.com/cycling-lanes",
    );
    expect(markdown).toContain("agreed to fund a first stretch along the river");
    expect(markdown).not.toContain("makes the news");
  });
});

describe("runs of items", () => {
  it("tells alike items from layout siblings that share no class name", () => {
    const doc = parseHtml(`<body><div class="page">
<div class="top-bar"><a href="/">Menu</a> and a few words of a top bar</div>
<div class="search-overlay"><a href="/s">Search</a> all results, none found</div>
<div class="content-wrap"><a href="/a">Story</a> and the content of the page</div>
<div class="footer-links"><a href="/f">Imprint</a> and the footer's lines</div></div>
<ul>${TOPICS.map((t) => `<li class="item"><a href="/${t}">${t}</a> in brief, a line of text</li>`).join("")}</ul></body>`);
    const body = findFirst(doc, (el) => el.name === "body")!;
    const runs = itemRuns(body, new TextStatsIndex(body));
    const named = runs.filter((r) => r.named);
    expect(named.map((r) => r.parent.name)).toEqual(["ul"]);
    expect(runs.find((r) => r.parent.attribs.class === "page")?.named).toBe(false);
  });
});

// A recipe index: the category's description, then carousels of cards that are each one link (a photo, the
// rating line and the title), no run of them the larger part of the page.
function recipeIndex(): string {
  const dishes = ["Crispy Tofu Bowls", "Lemon Salmon Bites", "Chickpea Tacos", "Garlic Potato Wedges"];
  const carousel = (shelf: number) =>
    `<section><h2>Shelf ${shelf} of favourites</h2><div class="carousel">${[0, 1, 2, 3, 4]
      .map(
        (i) =>
          `<article class="cell"><span>${10 + i} reviews / 4.${i} average</span><a href="/r/${shelf}-${i}"><img src="/p${i}.jpg" alt=""><h3>${dishes[(shelf + i) % dishes.length]} number ${shelf}.${i}</h3></a></article>`,
      )
      .join("")}</div></section>`;
  return `<!doctype html><html><head><title>Air fryer recipes</title></head><body>
<header><nav><a href="/">Home</a> <a href="/recipes">Recipes</a> <a href="/about">About</a></nav></header>
<div class="site-inner"><section><div class="intro"><h1>Air fryer recipes</h1><p>Crisp, quick and easy: these are the dinners we make most in the air fryer, with little oil and a short clean-up afterwards.</p></div></section>
${[1, 2, 3].map(carousel).join("")}</div>
<footer><p>Recipe site footer</p></footer></body></html>`;
}

describe("a listing whose best container is its intro", () => {
  it("keeps the cards of the runs in the region around the intro", async () => {
    const { markdown } = await extractMarkdown(
      recipeIndex(),
      "https://recipes.example.com/category/air-fryer/",
    );
    expect(markdown).toContain("these are the dinners we make most");
    expect(markdown).toContain("Lemon Salmon Bites number 1.0");
    expect(markdown).toContain("Chickpea Tacos number 3.3");
  });
});

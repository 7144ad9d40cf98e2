import { describe, expect, it } from "vitest";
import { extractMarkdown } from "../../../src/read/extract/index.js";

const DESCRIPTION =
  "<p>The microphone pairs a dynamic capsule with a built-in active preamp, so it needs no in-line booster, and " +
  "its bass roll-off and presence controls suit a wide range of voices, from a podcast host to a singer.</p>" +
  "<p>An internal air suspension isolates it from the stand, and a close-talk windscreen ships with it, which " +
  "makes a separate pop filter unnecessary for most speech and vocals in a home studio.</p>";

const REVIEW =
  "I use it every day for audiobooks, mounted on a boom arm over my desk, and the sound is warm, clear and quiet, " +
  "even with the cheap interface I had before; buy good cables, though.";

const page = (reviews: string) =>
  '<!doctype html><html><head><title>Shop</title></head><body><main><section class="product">' +
  `<h1>Active dynamic microphone</h1>${DESCRIPTION}${reviews}</section></main></body></html>`;

describe("product pages: buyers' reviews without a heading", () => {
  it("drops the block the shop names for its reviews", async () => {
    const reviews = `<section class="product-reviews"><div class="product-reviews__list">${[1, 2, 3]
      .map((n) => `<article class="product-review"><p>${REVIEW} (${n})</p></article>`)
      .join("")}</div></section>`;
    const { markdown } = await extractMarkdown(page(reviews), "https://example.org/products/sm7db");
    expect(markdown).toContain("built-in active preamp");
    expect(markdown).not.toContain("audiobooks");
  });

  it("keeps a testimonial named as one review card, not as a reviews section", async () => {
    const cards = [1, 2, 3].map((n) => `<div class="review-card"><p>${REVIEW} (${n})</p></div>`).join("");
    const { markdown } = await extractMarkdown(page(cards), "https://example.org/products/sm7db");
    expect(markdown).toContain("audiobooks");
  });

  it("keeps a block so named that holds the page's headline", async () => {
    const { markdown } = await extractMarkdown(
      '<!doctype html><html><head><title>Shop</title></head><body><main><div class="reviews">' +
        `<h1>Active dynamic microphone</h1>${DESCRIPTION}</div></main></body></html>`,
      "https://example.org/products/sm7db",
    );
    expect(markdown).toContain("built-in active preamp");
  });
});

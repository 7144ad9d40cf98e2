import { describe, expect, it } from "vitest";
import { extractMarkdown } from "../../../src/read/extract/index.js";

const DESCRIPTION =
  "These trail gaiters keep grit and snow out of a runner's shoes. A stretch cuff hugs the ankle without " +
  "slipping, a hook clips to the laces, and a strap under the arch holds them in place on steep, loose ground.";

const declaration = (description: string) =>
  '<script type="application/ld+json">' +
  JSON.stringify({
    "@context": "https://schema.org",
    "@type": "Product",
    name: "Trail gaiters",
    description,
    offers: { "@type": "Offer", price: "24.00", priceCurrency: "USD" },
  }) +
  "</script>";

// The buy box is drawn; the description would be drawn by script from the declaration.
const page = (body: string, description = DESCRIPTION) =>
  `<!doctype html><html><head><title>Trail gaiters</title>${declaration(description)}</head><body><main>` +
  '<div class="product"><h1>Trail gaiters</h1><p>$24.00</p><p>Ships within two business days from our ' +
  `warehouse; returns are free for thirty days.</p>${body}</div></main></body></html>`;

describe("product pages: the description declared in JSON-LD", () => {
  it("is read after the name when the page does not show it", async () => {
    const { markdown } = await extractMarkdown(page(""), "https://example.org/products/trail-gaiters");
    expect(markdown).toContain("stretch cuff hugs the ankle");
    expect(markdown.indexOf("Trail gaiters")).toBeLessThan(markdown.indexOf("stretch cuff"));
  });

  it("is not read twice when the page shows it", async () => {
    const { markdown } = await extractMarkdown(
      page(`<div class="description"><p>${DESCRIPTION}</p></div>`),
      "https://example.org/products/trail-gaiters",
    );
    expect(markdown.split("stretch cuff hugs the ankle").length).toBe(2);
  });

  it("leaves a tagline-length description to the page", async () => {
    const { markdown } = await extractMarkdown(
      page("", "Keeps grit out of your shoes."),
      "https://example.org/products/trail-gaiters",
    );
    expect(markdown).not.toContain("Keeps grit out");
  });

  it("is not read on a page that is no product's", async () => {
    const html = page("").replace('"@type":"Product"', '"@type":"Thing"');
    const { markdown } = await extractMarkdown(html, "https://example.org/about/gaiters");
    expect(markdown).not.toContain("stretch cuff hugs the ankle");
  });
});

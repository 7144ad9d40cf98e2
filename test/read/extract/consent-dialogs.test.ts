import { describe, expect, it } from "vitest";
import { extractMarkdown } from "../../../src/read/extract/index.js";

const COOKIE_TOOL =
  '<section role="dialog" aria-modal="true"><header>Customize Your Cookie Settings</header>' +
  "<p>Cookies are small data files that allow a website to collect and store data on your computer or phone, " +
  "and they help us to provide important features and functionality on our websites and apps.</p>" +
  "<p>Performance cookies collect information about how you use a website, like which pages you visited and " +
  "which links you clicked on, to improve the site; analytics services count them for us.</p>" +
  "<p>Targeting cookies track your online activity to help advertisers deliver more relevant advertising, and " +
  "they may share that information with other organizations; manage your preferences below.</p></section>";

describe("a cookie consent dialog", () => {
  it("is not taken for the content of a page whose own text is short", async () => {
    const { markdown } = await extractMarkdown(
      "<!doctype html><html><head><title>Shop</title></head><body>" +
        '<div class="product-main"><h1>Roadcase for four lights</h1><p>Expected availability: 2-4 weeks</p></div>' +
        `${COOKIE_TOOL}</body></html>`,
      "https://example.org/c/product/1825729-REG/roadcase.html",
    );
    expect(markdown).toContain("Roadcase for four lights");
    expect(markdown).not.toContain("Cookie");
  });

  it("is told by its words: another dialog of a short page may still be read", async () => {
    const { markdown } = await extractMarkdown(
      "<!doctype html><html><head><title>Shop</title></head><body><h1>Roadcase</h1>" +
        '<div role="dialog"><p>A quick view of the roadcase, which holds four lights in foam, rolls on four wheels ' +
        "and locks with two latches; its lid is a table for the lights' controller during a show.</p>" +
        "<p>It is made of birch plywood under a laminate, with steel corners, and weighs 31 kilograms empty.</p></div>" +
        "</body></html>",
      "https://example.org/c/product/1/roadcase.html",
    );
    expect(markdown).toContain("birch plywood");
  });
});

import { describe, expect, it } from "vitest";
import { extractMarkdown } from "../../../src/read/extract/index.js";

const PROSE =
  "This paragraph explains what the reader is about to install and why the package is needed for the exercises of the chapter.";

describe("extractMarkdown: what a class list names", () => {
  it("does not read a Tailwind arbitrary selector's class names as the element's own (GitBook's code blocks)", async () => {
    const code = (text: string) =>
      `<pre class="relative overflow-auto p-2 [grid-area:2/1] [html.theme-bold.sidebar-filled_&amp;]:bg-tint-base rounded-md"><code>${text}</code></pre>`;
    const html =
      `<html><body><main><h1>Guide</h1><p>${PROSE}</p>${code("$ npm i @mostly-adequate/support")}` +
      `<p>${PROSE}</p>${code("$ npm run ch04")}<p>${PROSE}</p></main></body></html>`;
    const { markdown } = await extractMarkdown(html, "https://guide.example.io/book");
    expect(markdown).toContain("$ npm i @mostly-adequate/support");
    expect(markdown).toContain("$ npm run ch04");
  });

  it("still reads a plain class that names a sidebar", async () => {
    const html =
      `<html><body><main><h1>Guide</h1><p>${PROSE}</p><div class="sidebar-filled">SIDEBAR-TEXT</div>` +
      `<p>${PROSE}</p></main></body></html>`;
    const { markdown } = await extractMarkdown(html, "https://guide.example.io/book");
    expect(markdown).not.toContain("SIDEBAR-TEXT");
  });

  it("reads a modifier inside a class name as the page's layout, not the element (WordPress's section-with-header)", async () => {
    const section = (title: string) =>
      `<div class="wp-block-group section-with-header"><h2>${title}</h2><p>${PROSE}</p></div>`;
    const html =
      `<html><body><main><h1>The blog</h1><p>${PROSE}</p><p>${PROSE}</p><p>${PROSE}</p>` +
      `${section("Latest from the blog")}${section("Engineering notes")}` +
      `${section("Product updates")}</main></body></html>`;
    const { markdown } = await extractMarkdown(html, "https://blog.example.com/");
    expect(markdown).toContain("Engineering notes");
    expect(markdown).toContain("Product updates");
  });

  it("still reads a class that names a page header, whatever it is with", async () => {
    const html =
      `<html><body><div class="site-header-with-search">HEADER-TEXT</div><main><h1>Guide</h1><p>${PROSE}</p>` +
      `<p>${PROSE}</p></main></body></html>`;
    const { markdown } = await extractMarkdown(html, "https://guide.example.io/book");
    expect(markdown).not.toContain("HEADER-TEXT");
  });
});

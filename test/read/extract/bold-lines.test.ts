import { describe, expect, it } from "vitest";
import { extractMarkdown } from "../../../src/read/extract/index.js";

const PROSE =
  "Brushing twice a day and flossing daily are the habits that matter most, and a fluoride paste helps the enamel resist the acids of the day.";

describe("extractMarkdown: a line set all in bold", () => {
  it("keeps a site builder's bold line over its paragraph as the section's heading", async () => {
    const step = (title: string) =>
      `<div class="row"><p class="txt"><span><strong><span>${title}</span></strong></span></p></div>` +
      `<div class="row"><p class="txt"><span>${PROSE}</span></p></div>`;
    const html =
      `<html><head><title>New year, new smile</title></head><body><header><a href="/">Home</a></header><main><article><h1>New year, new smile</h1>` +
      `${step("1. Brush and floss")}${step("2. See your dentist")}${step("3. Quit Tobacco Use")}` +
      `</article></main></body></html>`;
    const { markdown } = await extractMarkdown(html, "https://dental.example.com/post/new-year-new-smile");
    expect(markdown).toContain("3. Quit Tobacco Use");
    expect(markdown).toContain("2. See your dentist");
  });

  it("still drops a short fragment in plain type", async () => {
    const html =
      `<html><body><main><article><h1>New year, new smile</h1><p>${PROSE}</p><p>${PROSE}</p>` +
      `<div class="row"><span>Share on</span></div><p>${PROSE}</p></article></main></body></html>`;
    const { markdown } = await extractMarkdown(html, "https://dental.example.com/post/new-year-new-smile");
    expect(markdown).not.toContain("Share on");
  });

  it("drops a bold line of chrome that stands over no prose", async () => {
    const html =
      `<html><body><main><article><h1>New year, new smile</h1><p>${PROSE}</p><p>${PROSE}</p>` +
      `<div><strong>Trending now</strong></div><ul><li><a href="/a">Whitening at home</a></li><li><a href="/b">Braces for adults</a></li></ul>` +
      `<p>${PROSE}</p><div class="w"><b>Download our app</b></div><div><b>Loading comments…</b></div>` +
      `</article></main></body></html>`;
    const { markdown } = await extractMarkdown(html, "https://dental.example.com/post/new-year-new-smile");
    expect(markdown).toContain("fluoride paste");
    expect(markdown).not.toContain("Trending now");
    expect(markdown).not.toContain("Download our app");
    expect(markdown).not.toContain("Loading comments");
  });
});

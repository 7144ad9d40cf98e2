import { describe, expect, it } from "vitest";
import { extractMarkdown } from "../../../src/read/extract/index.js";

const PROSE =
  "Composting food scraps at home keeps them out of landfills, where they would rot without air and give off methane, and it returns their nutrients to the soil of the garden.";

const page = (heading: string) =>
  `<html><body><header><a href="/">Shop</a></header><main><article><h1>Zero waste for beginners</h1>` +
  `${`<p>${PROSE}</p>`.repeat(5)}<h2>${heading}</h2><ol>` +
  `<li><a href="https://www.goingzerowaste.example/">Going Zero Waste</a></li>` +
  `<li><a href="https://www.plasticfreejuly.example/">Plastic Free July</a></li>` +
  `<li><a href="https://www.zerowastehome.example/">Zero Waste Home</a></li></ol></article></main></body></html>`;

describe("extractMarkdown: an article's list of sources", () => {
  it("keeps a list of links under a 'References' heading", async () => {
    const { markdown } = await extractMarkdown(
      page("References"),
      "https://shop.example.com/blogs/zero-waste",
    );
    expect(markdown).toContain("Plastic Free July");
  });

  it("still prunes the same list under another heading", async () => {
    const { markdown } = await extractMarkdown(
      page("Shop our favourites"),
      "https://shop.example.com/blogs/zero-waste",
    );
    expect(markdown).not.toContain("Plastic Free July");
  });

  it("reads a list after words under the heading as the heading's section, not as its list of sources", async () => {
    const { markdown } = await extractMarkdown(
      page("Sources").replace("</h2><ol>", "</h2>Shop the brands we love:<ol>"),
      "https://shop.example.com/blogs/zero-waste",
    );
    expect(markdown).not.toContain("Plastic Free July");
  });
});

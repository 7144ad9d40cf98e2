import { describe, expect, it } from "vitest";
import { extractMarkdown } from "../../../src/read/extract/index.js";

const DESCRIPTION =
  "<p>These headphones use planar magnetic drivers in open-back cups, so they sound wide and natural, and their " +
  "leather headband spreads the weight over the head for long listening sessions at a desk or in a studio.</p>";

const fact = (label: string, tip: string, value: string) =>
  `<div class="overview-item"><h4>${label} <tool-tip class="tool-tip"><span class="visually-hidden">More ` +
  `information</span><div class="tool-tip__content">${tip}</div></tool-tip></h4><p>${value}</p></div>`;

describe("a tooltip's hidden text", () => {
  it("is not read into the label it explains", async () => {
    const html =
      '<!doctype html><html><head><title>Headphones</title><meta property="og:type" content="product"></head>' +
      `<body><main><h1>Planar headphones</h1>${DESCRIPTION}` +
      fact(
        "Back design",
        "Open-back designs leak sound and isolate poorly from the room around you.",
        "Open-back",
      ) +
      fact(
        "Driver type",
        "A driver is the part of a headphone that moves air to make sound.",
        "Planar magnetic",
      ) +
      `${DESCRIPTION.replace("These", "The")}</main></body></html>`;
    const { markdown } = await extractMarkdown(html, "https://example.org/products/planar");
    expect(markdown).toContain("Back design");
    expect(markdown).toContain("Open-back");
    expect(markdown).not.toContain("leak sound");
    expect(markdown).not.toContain("moves air");
  });

  it("is not read from an ARIA tooltip in an article either", async () => {
    const html =
      "<!doctype html><html><head><title>Notes</title></head><body><article><h1>Listening notes</h1>" +
      `${DESCRIPTION}<p>The <span>impedance<span role="tooltip">Impedance is resistance to alternating ` +
      `current.</span></span> is high, so a dedicated amplifier helps.</p>${DESCRIPTION}</article></body></html>`;
    const { markdown } = await extractMarkdown(html, "https://example.org/notes");
    expect(markdown).toContain("dedicated amplifier");
    expect(markdown).not.toContain("alternating current");
  });
});

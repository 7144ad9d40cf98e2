import { describe, expect, it } from "vitest";
import { extractMarkdown } from "../../../src/read/extract/index.js";

const PROSE =
  "The committee met on Tuesday to review the proposal, which had been discussed for months, and agreed on a timeline. " +
  "Members noted that the budget, the staffing plan, and the schedule all needed more work before the final vote.";

function page(body: string): string {
  return `<!doctype html><html lang="en"><head><title>Math</title></head><body><article><p>${PROSE}</p>${body}<p>${PROSE}</p></article></body></html>`;
}

const URL = "https://example.org/math";

describe("extractMarkdown: MathML becomes LaTeX", () => {
  it("converts inline and display MathML to $…$ and $$…$$", async () => {
    const inline =
      '<math xmlns="http://www.w3.org/1998/Math/MathML"><msup><mi>x</mi><mn>2</mn></msup><mo>+</mo><mn>1</mn></math>';
    const display =
      '<math xmlns="http://www.w3.org/1998/Math/MathML" display="block"><mfrac><mi>a</mi><mi>b</mi></mfrac></math>';
    const { markdown } = await extractMarkdown(
      page(
        `<p>The square ${inline} grows, and so does the ratio:${display}which ends the proof of the claim made above.</p>`,
      ),
      URL,
    );
    expect(markdown).toContain("The square $x^{2} + 1$ grows");
    expect(markdown).toContain("$$\\frac{a}{b}$$");
    expect(markdown).not.toMatch(/x 2 \+ 1/);
  });

  it("prefers the TeX annotation the page kept", async () => {
    const math =
      "<math><semantics><mrow><mi>E</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup></mrow>" +
      '<annotation encoding="application/x-tex">E = mc^2</annotation></semantics></math>';
    const { markdown } = await extractMarkdown(
      page(`<p>Einstein wrote ${math} in his famous paper of that year.</p>`),
      URL,
    );
    expect(markdown).toContain("Einstein wrote $E = mc^2$ in his famous paper");
  });

  it("still drops MathML that is hidden", async () => {
    const math = "<math><mi>SECRETVARIABLE</mi></math>";
    const { markdown } = await extractMarkdown(
      page(`<p>Visible sentence about the topic at hand here. <span style="display:none">${math}</span></p>`),
      URL,
    );
    expect(markdown).not.toContain("SECRETVARIABLE");
  });
});

import { describe, expect, it } from "vitest";
import { extractMarkdown } from "../../../src/read/extract/index.js";

const DESCRIPTION =
  "<p>These trail gaiters keep grit and snow out of a runner's shoes. A stretch cuff hugs the ankle without " +
  "slipping, a hook clips to the laces, and a strap under the arch holds them in place on steep, loose ground.</p>";

const page = (kind: string, states: string) =>
  `<!doctype html><html><head><title>Trail gaiters</title><meta property="og:type" content="${kind}"></head>` +
  `<body><main><h1>Trail gaiters</h1><p>$24.00</p>${DESCRIPTION}<div class="notify"><h3>Notify me when back ` +
  `in stock</h3><p>Leave your address and we will write once the next batch is in the warehouse.</p>${states}` +
  `</div>${DESCRIPTION.replace("These", "Our")}</main></body></html>`;

const STATES =
  '<div class="form-error"><p>Oops! Something went wrong. Please try again.</p></div>' +
  '<div class="field-error"><p>Please enter a valid postal code.</p></div>';

describe("product pages: a form's error states", () => {
  it("drops the messages a script shows when a submission fails", async () => {
    const { markdown } = await extractMarkdown(
      page("product", STATES),
      "https://example.org/products/gaiters",
    );
    expect(markdown).toContain("stretch cuff hugs the ankle");
    expect(markdown).not.toContain("Something went wrong");
    expect(markdown).not.toContain("valid postal code");
  });

  it("keeps a longer sentence that mentions an error in passing", async () => {
    const prose =
      "<p>If the strap ever snaps on the trail, something went wrong in our stitching: send the pair back and we " +
      "will replace it at no cost, with a note on what we changed since.</p>";
    const { markdown } = await extractMarkdown(
      page("product", prose),
      "https://example.org/products/gaiters",
    );
    expect(markdown).toContain("something went wrong in our stitching");
  });

  it("keeps a heading and sentences that only open like a message", async () => {
    const blocks =
      "<h2>Oops! All Berries</h2><p>Codes are case sensitive. Please try again with capital letters.</p>" +
      "<p>There was a problem with early batches' hinges; all units since 2021 carry the new steel pin.</p>";
    const { markdown } = await extractMarkdown(
      page("product", blocks),
      "https://example.org/products/gaiters",
    );
    expect(markdown).toContain("Oops! All Berries");
    expect(markdown).toContain("Codes are case sensitive");
    expect(markdown).toContain("early batches' hinges");
  });
});

import { describe, expect, it } from "vitest";
import { extractMarkdown } from "../../../src/read/extract/index.js";

const PROSE =
  "This paragraph explains what the reader is about to install and why the package is needed for the exercises of the chapter.";

describe("extractMarkdown: a section's id made from its heading", () => {
  it("does not read a documentation section's id ('tooling', from its heading) as a toolbar's name", async () => {
    const section = (id: string, title: string, n: number) =>
      `<section id="${id}"><h2>${title}<a class="headerlink" href="#${id}">¶</a></h2>${`<p>${PROSE}</p>`.repeat(n)}</section>`;
    const html =
      `<html><body><div class="body" role="main"><section id="guide"><h1>Guide</h1>${section("setup", "Setup", 8)}` +
      `<section id="tooling"><h2>Tooling<a class="headerlink" href="#tooling">¶</a></h2><p>Many of the technical aspects of this process can be automated using b4, documented at &lt;<a href="https://b4.docs.kernel.org/en/latest/">https://b4.docs.kernel.org/en/latest/</a>&gt;. This can help with things like tracking dependencies, running checkpatch and with formatting and sending mails.</p></section>` +
      `</section></div></body></html>`;
    const { markdown } = await extractMarkdown(
      html,
      "https://www.kernel.org/doc/html/latest/process/guide.html",
    );
    expect(markdown).toContain("## Tooling");
    expect(markdown).toContain("automated using b4");
  });
});

import { describe, expect, it } from "vitest";
import { htmlFragmentToMarkdown } from "../../../src/read/extract/fragment.js";

describe("htmlFragmentToMarkdown: an API's HTML body as markdown", () => {
  it("keeps every block (nothing is chosen or pruned), code fenced, links moved out", async () => {
    const got = await htmlFragmentToMarkdown(
      `Use <code>flat()</code>:<pre><code class="lang-js">const a = [[1], [2]].flat();</code></pre>
       <p>See <a href="/docs/flat">the docs</a>.</p><ul><li>one</li><li>two</li></ul>
       <script>alert(1)</script><style>p{}</style>`,
      "https://example.com/q/1",
    );
    expect(got.markdown).toContain("Use `flat()`:");
    expect(got.markdown).toMatch(/```(js)?\nconst a = \[\[1\], \[2\]\]\.flat\(\);\n```/);
    expect(got.markdown).toContain("See the docs.");
    expect(got.markdown).toMatch(/- one\n- two/);
    expect(got.markdown).not.toMatch(/alert|p\{\}/);
    expect(got.links).toEqual(["https://example.com/docs/flat"]);
  });

  it("gives an empty text for an empty body", async () => {
    expect(await htmlFragmentToMarkdown("", "https://example.com/")).toEqual({ markdown: "", links: [] });
  });
});

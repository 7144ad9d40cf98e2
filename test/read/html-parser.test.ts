import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Handler, Parser } from "htmlparser2";
import { describe, expect, it } from "vitest";
import { LinearParser, parseDocument } from "../../src/core/html-parser.js";
import { growth } from "./array-work.js";

// websift parses with its own subclass of htmlparser2's Parser (src/core/html-parser.ts) because upstream's
// open-tag stack is quadratic in nesting depth. These check that it is linear, counted in array steps (upstream
// moves the whole stack on every open and scans it from the front on every close), and that it emits exactly
// the events of htmlparser2's own Parser.

type Event = [string, ...unknown[]];

function events(ParserClass: typeof Parser | typeof LinearParser, html: string, chunks = 1): Event[] {
  const out: Event[] = [];
  const record =
    (name: string) =>
    (...args: unknown[]) =>
      out.push([name, ...args]);
  const cbs: Partial<Handler> = {
    onopentagname: record("opentagname"),
    onopentag: record("opentag"),
    onclosetag: record("closetag"),
    ontext: record("text"),
    oncomment: record("comment"),
    onprocessinginstruction: record("pi"),
    onend: record("end"),
  };
  const parser = new ParserClass(cbs, { decodeEntities: true });
  const size = Math.ceil(html.length / chunks);
  for (let at = 0; at < html.length; at += size) parser.write(html.slice(at, at + size));
  parser.end();
  return out;
}

const nested = (n: number) => `<div>${"<div>".repeat(n)}deep${"</div>".repeat(n)}</div>`;

describe("the HTML parser is linear in nesting depth", () => {
  const cases: [string, (n: number) => string][] = [
    ["nested elements, closed", nested],
    ["nested elements, never closed", (n) => `${"<span>".repeat(n)}deep`],
    ["stray closing tags under a deep stack", (n) => `${"<b>".repeat(n)}${"</i>".repeat(n)}`],
    ["closing tags that each close many", (n) => `${"<i><b>".repeat(n)}${"</i>".repeat(n)}`],
    ["nested foreign content", (n) => `${"<svg><title>t</title>".repeat(n)}<path/>${"</svg>".repeat(n)}`],
  ];
  for (const [name, make] of cases)
    it(`${name}: 4× the depth is about 4× the steps`, async () => {
      const ratio = await growth((n) => () => parseDocument(make(n)), 2000);
      expect(ratio).toBeLessThan(5);
    });
});

describe("the HTML parser emits exactly htmlparser2's events", () => {
  const tricky = [
    "<p>one<p>two<div>three</div><li>a<li>b</ul>",
    "<table><tr><td>1<td>2<tr><th>h</table><tbody><tfoot>",
    "<select><option>a<option>b<optgroup><option>c</select><input><button>x</button>",
    "<dl><dt>t<dd>d<dt>u</dl><ruby>x<rt>y<rp>z</ruby>",
    "</p></br><br/><p/>text</b></div>",
    "<svg><circle/><title>t<b/>x</title><rect/></svg><div/>after</math></svg>",
    "<math><mi>x</mi><annotation-xml><svg/></annotation-xml></math>",
    "<h1>a<h2>b<p>c<h3>d</p></p>",
    "<a><div><span>x</a>y</span></div><body><head><script>if (a<b) x()</script>",
    "<!DOCTYPE html><?xml x?><!-- c --><![CDATA[ d ]]><div>&amp;&lt;</DIV>",
    `${"<div>".repeat(40)}unclosed<span>and <em>more`,
  ];
  it("on pages that exercise implied closes, stray closes, void, self-closing and foreign elements", () => {
    for (const html of tricky) expect(events(LinearParser, html)).toEqual(events(Parser, html));
  });

  it("when the page is written in chunks, and after a reset", () => {
    for (const html of tricky) expect(events(LinearParser, html, 7)).toEqual(events(Parser, html, 7));
    const again: Event[] = [];
    const parser = new LinearParser({
      onclosetag: (name, implied) => again.push(["closetag", name, implied]),
    });
    parser.write("<div><svg><p>left open");
    parser.reset();
    parser.end("<p>x</p><svg><b/></svg>");
    expect(again).toEqual([
      ["closetag", "p", false],
      ["closetag", "b", true],
      ["closetag", "svg", false],
    ]);
  });

  it("on every HTML fixture of the test suite", () => {
    const folders = ["test/fixtures/page-kinds", "test/fixtures/providers"];
    let pages = 0;
    for (const folder of folders)
      for (const entry of readdirSync(folder, { recursive: true, encoding: "utf8" })) {
        if (!entry.endsWith(".html")) continue;
        const html = readFileSync(join(folder, entry), "utf8");
        expect(events(LinearParser, html), entry).toEqual(events(Parser, html));
        pages++;
      }
    expect(pages).toBeGreaterThan(20);
  });
});

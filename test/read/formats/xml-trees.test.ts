import { describe, expect, it } from "vitest";
import { Deadline } from "../../../src/core/deadline.js";
import { parseDocument } from "../../../src/core/html-parser.js";
import { readXml, textContent } from "../../../src/read/formats/xml.js";
import {
  attr,
  attributeByLocalName,
  childElements,
  findElement,
  findElements,
  firstChild,
  localName,
} from "../../../src/read/formats/xml-elements.js";
import {
  attribute,
  childrenNamed,
  parseXml,
  rootElement,
  textOf,
} from "../../../src/read/formats/xml-tree.js";
import { CappedZip, ZIP_LIMITS } from "../../../src/read/formats/zip.js";
import { makeZip } from "./make-zip.js";

const tree = (xml: string) => parseDocument(xml, { xmlMode: true });

async function officePart(xml: string) {
  const opened = await CappedZip.open(
    makeZip([{ name: "part.xml", data: xml }]),
    Deadline.after(30_000),
    ZIP_LIMITS,
  );
  if (!opened.ok) throw new Error(opened.message);
  const part = await readXml(opened.zip, "part.xml");
  if (!part.ok) throw new Error(part.message);
  return part.doc;
}

describe("XML elements by local name", () => {
  it("drops a namespace prefix, and leaves a bare name as it is", () => {
    expect(localName("atom:link")).toBe("link");
    expect(localName("link")).toBe("link");
  });

  it("finds an attribute by local name, the unprefixed one before a prefixed one", () => {
    expect(attributeByLocalName({ "table:name": "Tides" }, "name")).toBe("Tides");
    expect(attributeByLocalName({ "x:name": "prefixed", name: "bare" }, "name")).toBe("bare");
    expect(attributeByLocalName({ "table:style": "a" }, "name")).toBeUndefined();
  });

  it("walks children, first children and descendants by local name, in document order", () => {
    const doc = tree('<w:doc><w:p id="1"><w:p id="2"/></w:p><x:r/><w:p id="3"/></w:doc>');
    const root = childElements(doc)[0];
    expect(childElements(root).map((el) => el.name)).toEqual(["w:p", "x:r", "w:p"]);
    expect(childElements(root, "p").map((el) => attr(el, "id"))).toEqual(["1", "3"]);
    expect(firstChild(root, "r")?.name).toBe("x:r");
    expect(firstChild(undefined, "r")).toBeUndefined();
    expect(findElements(doc, "p").map((el) => attr(el, "id"))).toEqual(["1", "2", "3"]);
    expect(attr(findElement(doc, "p")!, "id")).toBe("1");
    expect(findElement(doc, "missing")).toBeUndefined();
  });
});

describe("an office part: decoded by the parser", () => {
  it("gives text and attributes with XML's entities and character references decoded once", async () => {
    const doc = await officePart(
      '<t:a t:name="R&amp;D &#38;amp;">Tides &amp;amp; &lt;moons&gt; &#8212;</t:a>',
    );
    const el = findElement(doc, "a")!;
    expect(attr(el, "name")).toBe("R&D &amp;");
    expect(textContent(el)).toBe("Tides &amp; <moons> \u2014");
  });

  it("takes a CDATA section's text as it is written", async () => {
    const doc = await officePart("<t:p><t:r>a </t:r><t:r><![CDATA[x < y & z]]></t:r><t:r> b</t:r></t:p>");
    expect(textContent(findElement(doc, "p"))).toBe("a x < y & z b");
  });
});

describe("web XML: decoded once per field", () => {
  it("decodes HTML's names in text and attributes once, and takes a CDATA section as it is", () => {
    const doc = parseXml(
      '<rss><item><title>Boats &amp;amp; &mdash; tides&nbsp;now</title><link href="a?x=1&amp;y=2"/><description><![CDATA[R&amp;D]]></description></item></rss>',
    );
    const item = childrenNamed(rootElement(doc)!, "item")[0];
    expect(textOf(childrenNamed(item, "title")[0])).toBe("Boats &amp; \u2014 tides\u00a0now");
    expect(attribute(childrenNamed(item, "link")[0], "href")).toBe("a?x=1&y=2");
    expect(textOf(childrenNamed(item, "description")[0])).toBe("R&amp;D");
  });

  it("names children exactly, or by local name after '*:'", () => {
    const feed = rootElement(parseXml("<feed><atom:entry/><entry/><dc:entry/></feed>"))!;
    expect(childrenNamed(feed, "entry").map((el) => el.name)).toEqual(["entry"]);
    expect(childrenNamed(feed, "*:entry").map((el) => el.name)).toEqual(["atom:entry", "entry", "dc:entry"]);
  });
});

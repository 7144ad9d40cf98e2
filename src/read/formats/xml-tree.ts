import render from "dom-serializer";
import type { AnyNode, Document, Element } from "domhandler";
import { decodeHTML } from "entities";
import { parseDocument } from "../../core/html-parser.js";
import { limitDepth } from "../extract/depth-limit.js";
import { childElements } from "./xml-elements.js";

/**
 * XML from the web (feeds, an API's Atom answer) as a tree, read without ever expanding an entity the document
 * declares: htmlparser2 reads a DOCTYPE's internal subset as directives and never applies it, so a billion-laughs
 * document stays its own size. Entities are left undecoded by the parser and decoded once per field here, with
 * HTML's table (a superset of XML's five and numeric references): feeds use `&nbsp;` and `&mdash;` where XML
 * has no such names, and a field's text must not be decoded twice (`&amp;lt;` is the text `&lt;`). The open-tag
 * stack is the linear one of `core/html-parser.ts`, so deep nesting costs time in proportion to its size, and
 * subtrees past the extractor's depth bound are flattened to their text, as a page's are.
 */
export function parseXml(text: string): Document {
  const doc = parseDocument(text, { xmlMode: true, decodeEntities: false });
  limitDepth(doc);
  return doc;
}

/** The document's first element (after the declaration, comments and a DOCTYPE). */
export function rootElement(doc: Document): Element | undefined {
  return childElements(doc)[0];
}

/** Child elements named `name`: exact ("dc:date"), or by local name when `name` starts with "*:" ("*:entry"). */
export function childrenNamed(el: Element, name: string): Element[] {
  if (name.startsWith("*:")) return childElements(el, name.slice(2));
  return childElements(el).filter((c) => c.name === name);
}

export function childNamed(el: Element, name: string): Element | undefined {
  return childrenNamed(el, name)[0];
}

/** An attribute's value, decoded. */
export function attribute(el: Element, name: string): string | undefined {
  const raw = el.attribs[name];
  return raw === undefined ? undefined : decodeHTML(raw);
}

/**
 * The text an element holds, all its descendants' included, decoded once: a CDATA section is taken as it is.
 * Walked with a stack, not recursion: a hostile document may nest elements a hundred thousand deep.
 */
export function textOf(el: Element | undefined): string {
  if (!el) return "";
  let out = "";
  const stack: { node: AnyNode; raw: boolean }[] = el.children
    .slice()
    .reverse()
    .map((node) => ({ node, raw: false }));
  while (stack.length > 0) {
    const { node, raw } = stack.pop()!;
    if (node.type === "text") out += raw ? node.data : decodeHTML(node.data);
    else if (node.type === "cdata" || node.type === "tag") {
      const inner = node.type === "cdata" || raw;
      for (let i = node.children.length - 1; i >= 0; i--) stack.push({ node: node.children[i], raw: inner });
    }
  }
  return out;
}

/** The child text of `name`, whitespace-trimmed, or undefined when absent or blank. */
export function childText(el: Element, name: string): string | undefined {
  return textOf(childNamed(el, name)).trim() || undefined;
}

/** An element's children as markup (Atom's `type="xhtml"` content is XHTML inline in the feed). */
export function innerMarkup(el: Element): string {
  return render(el.children, { xmlMode: false, decodeEntities: false });
}

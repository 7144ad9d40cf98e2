import type { AnyNode, Document, Element, ParentNode } from "domhandler";
import { isTag, isText } from "domhandler";
import { parseDocument } from "../../core/html-parser.js";
import { HEADINGS } from "./tags.js";

export type { AnyNode, Document, Element, ParentNode };
export { isTag, isText };

/**
 * htmlparser2 is ~4× faster than linkedom and ~3× faster than parse5 on the benchmark pages (p50). Its parser
 * runs with an open-tag stack linear in nesting depth (core/html-parser.ts), rather than behind a bound before
 * parsing, which would have to tokenize the page a second time to know its depth.
 */
export function parseHtml(html: string): Document {
  const doc = parseDocument(html, { lowerCaseTags: true, lowerCaseAttributeNames: true });
  return html.includes("<![CDATA[") ? withoutHtmlCdata(html, doc) : doc;
}

/**
 * HTML has CDATA sections only inside SVG and MathML: elsewhere a browser reads `<![CDATA[` as a bogus comment
 * that ends at the next `>`, while htmlparser2 reads on to `]]>`, and a stray one (a forum theme's) swallowed
 * a whole thread. Those openings are cut as a browser cuts them and the page is parsed again (rare pages only).
 */
function withoutHtmlCdata(html: string, doc: Document): Document {
  const options = { lowerCaseTags: true, lowerCaseAttributeNames: true, withStartIndices: true };
  if (!htmlCdataAt(doc).length) return doc;
  doc = parseDocument(html, options);
  // A cut can reveal a further opening that the first one had swallowed.
  for (let round = 0; round < 4; round++) {
    const at = htmlCdataAt(doc);
    if (!at.length) break;
    let out = "";
    let from = 0;
    for (const i of at) {
      const end = html.indexOf(">", i + 9);
      out += html.slice(from, i);
      from = end < 0 ? html.length : end + 1;
    }
    html = out + html.slice(from);
    doc = parseDocument(html, options);
  }
  return doc;
}

/** Where comments that htmlparser2 made of `<![CDATA[` outside SVG and MathML start, in document order. */
function htmlCdataAt(doc: Document): number[] {
  const at: number[] = [];
  const stack: AnyNode[] = [...doc.children];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.type === "comment" && node.data.startsWith("[CDATA[")) at.push(node.startIndex ?? -1);
    else if (isTag(node) && node.name !== "svg" && node.name !== "math") stack.push(...node.children);
  }
  return at.sort((a, b) => a - b);
}

export function attr(el: Element, name: string): string | undefined {
  return el.attribs[name];
}

/** The element's class names, in order (an empty class attribute has none). */
export function classNames(el: Element): string[] {
  return (el.attribs.class ?? "").split(/\s+/).filter(Boolean);
}

export function hasClass(el: Element, name: string): boolean {
  return classNames(el).includes(name);
}

export function removeNode(node: AnyNode): void {
  const parent = node.parent;
  if (!parent) return;
  const i = indexAmongSiblings(parent.children, node);
  if (i >= 0) parent.children.splice(i, 1);
  unlink(node);
}

/** Takes a node out of its siblings' links and its parent's reach (its place in the child array is the caller's). */
function unlink(node: AnyNode): void {
  const prev = node.prev;
  const next = node.next;
  if (prev) prev.next = next;
  if (next) next.prev = prev;
  node.parent = null;
  node.prev = null;
  node.next = null;
}

/**
 * The node's index, found along its sibling links from whichever end is nearer: pruning removes blocks from the
 * last sibling backwards, and a search from the front made a thread of 4,000 short comments quadratic. The
 * links are checked against the array (a replaced child list leaves them stale), with a search as the fallback.
 */
function indexAmongSiblings(children: AnyNode[], node: AnyNode): number {
  let back = node.prev;
  let ahead = node.next;
  for (let steps = 0; ; steps++) {
    const i = !back ? steps : !ahead ? children.length - 1 - steps : -1;
    if (i !== -1) return children[i] === node ? i : children.indexOf(node);
    back = back!.prev;
    ahead = ahead!.next;
  }
}

/**
 * Removes many nodes in one pass over each parent's children: removing thousands of siblings one by one
 * (a page of 40,000 form controls) moved the rest of the array for each of them, quadratic in the sibling count.
 * Same result as `removeNode` on each in turn.
 */
export function removeNodes(nodes: Iterable<AnyNode>): void {
  const byParent = new Map<ParentNode, Set<AnyNode>>();
  for (const node of nodes) {
    const parent = node.parent;
    if (!parent) continue;
    const doomed = byParent.get(parent) ?? new Set();
    byParent.set(parent, doomed.add(node));
  }
  for (const [parent, doomed] of byParent) {
    const children = parent.children;
    let kept = 0;
    for (const child of children) if (!doomed.has(child)) children[kept++] = child;
    children.length = kept;
    for (const node of doomed) unlink(node);
  }
}

/** Depth-first, document order; `visit` returning false skips the element's subtree. */
export function walkElements(root: ParentNode, visit: (el: Element) => boolean | undefined): void {
  const stack: AnyNode[] = [];
  for (let i = root.children.length - 1; i >= 0; i--) stack.push(root.children[i]!);
  while (stack.length) {
    const node = stack.pop()!;
    if (!isTag(node)) continue;
    if (visit(node) === false) continue;
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
}

export function findAll(root: ParentNode, match: (el: Element) => boolean): Element[] {
  const out: Element[] = [];
  walkElements(root, (el) => {
    if (match(el)) out.push(el);
    return true;
  });
  return out;
}

/** The first element in document order that matches, looking at no more than `limit` elements. */
export function findFirst(
  root: ParentNode,
  match: (el: Element) => boolean,
  limit = Number.POSITIVE_INFINITY,
): Element | undefined {
  let found: Element | undefined;
  let seen = 0;
  walkElements(root, (el) => {
    if (found || ++seen > limit) return false;
    if (match(el)) found = el;
    return !found;
  });
  return found;
}

/** Raw text of a subtree (no whitespace normalisation). */
export function textContent(node: AnyNode): string {
  if (isText(node)) return node.data;
  if (!isTag(node) && node.type !== "root") return "";
  let out = "";
  for (const child of (node as ParentNode).children) out += textContent(child);
  return out;
}

// Where collapsing whitespace changes a text: a run of two, a whitespace character other than a space (the
// rest of `\s`), or a space at either end. Most texts of a page have none, and a test costs less than a copy.
const UNCOLLAPSED = /\s\s|[\t\n\v\f\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]|^ | $/;

export function collapseWhitespace(s: string): string {
  return UNCOLLAPSED.test(s) ? s.replace(/\s+/g, " ").trim() : s;
}

/** The element right before or after `el`, across blank text only: text between them breaks the adjacency. */
export function adjacentElement(el: Element, side: "next" | "prev"): Element | undefined {
  for (let n = el[side]; n; n = n[side]) {
    if (isTag(n)) return n;
    if (isText(n) && n.data.trim()) return undefined;
  }
  return undefined;
}

export function isAncestor(a: Element, el: Element): boolean {
  for (let p = el.parent; p; p = p.parent) if (p === a) return true;
  return false;
}

export { HEADINGS };

export function isHeading(el: Element): boolean {
  return HEADINGS.has(el.name);
}

export function isInside(el: Element, names: ReadonlySet<string>): boolean {
  for (let p = el.parent; p && isTag(p); p = p.parent) if (names.has(p.name)) return true;
  return false;
}

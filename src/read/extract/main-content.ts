import type { Element } from "./dom.js";
import { findAll } from "./dom.js";

const SEMANTIC = (el: Element) =>
  el.attribs.itemprop === "articleBody" ||
  el.name === "article" ||
  el.name === "main" ||
  el.attribs.role === "main";

/** The subtrees holding the page's main content, in document order. */
export function findMainContent(body: Element): Element[] {
  const candidates = findAll(body, SEMANTIC);
  return candidates.length === 1 ? candidates : [body];
}

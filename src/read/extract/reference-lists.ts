import type { Element } from "./dom.js";
import { adjacentElement, collapseWhitespace, isHeading, textContent } from "./dom.js";

// A heading that names the article's sources.
const SOURCES =
  /^(?:references?|sources?|bibliography|works cited|citations|further reading|notes and references|quellen(?:angaben)?|literatur(?:verzeichnis)?|einzelnachweise|références|bibliographie|fuentes|referencias|bibliografía)\s*:?$/i;

/**
 * True when the list comes right after a heading naming the article's sources ("References", "Quellen"): its
 * links are the article's citations, not the site's navigation.
 */
export function isSourceList(el: Element): boolean {
  const prev = adjacentElement(el, "prev");
  return !!prev && isHeading(prev) && SOURCES.test(collapseWhitespace(textContent(prev)));
}

import type { Element } from "./dom.js";
import {
  collapseWhitespace,
  findFirst,
  isAncestor,
  isHeading,
  isTag,
  removeNodes,
  textContent,
} from "./dom.js";

/**
 * A card that renders its title block twice (one layout for narrow screens, one for wide, both in the markup)
 * says it once: within one item of a listing, a part that holds a heading and whose words repeat an earlier
 * part of the same item that holds one too, not one holding it, is that part's twin and goes (after a plain
 * overlay line, the heading stays: it is the title block a reader looks for). A repeated line without a heading
 * stays (a product's name under its picture and in its caption, a label per field); parts of different items
 * may say the same ("Free", a shop's name): each item is read on its own. Items are short (`listItemMaxChars`),
 * so reading each part's text is cheap.
 */
export function dropItemTwins(items: Iterable<Element>): void {
  const twins: Element[] = [];
  for (const item of items) {
    const seen = new Map<string, Element>();
    const visit = (el: Element): void => {
      for (const c of el.children) {
        if (!isTag(c)) continue;
        const text = collapseWhitespace(textContent(c));
        if (!text) continue;
        const first = seen.get(text);
        if (first && !isAncestor(first, c) && holdsHeading(c) && holdsHeading(first)) {
          twins.push(c);
          continue;
        }
        if (!first) seen.set(text, c);
        visit(c);
      }
    };
    visit(item);
  }
  removeNodes(twins);
}

/** A heading, or a block holding one: a title block. */
function holdsHeading(el: Element): boolean {
  return isHeading(el) || !!findFirst(el, isHeading);
}

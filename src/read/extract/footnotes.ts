import type { Element } from "./dom.js";
import { isTag } from "./dom.js";

// A name that says "notes": the article's footnotes or endnotes (`section.footnotes`, `ol.wp-block-footnotes`,
// `div.footnote-definition`).
const NOTES_NAME = /(?:^|[\s_-])(?:foot|end)-?notes?/i;

/**
 * True when the element is named for notes and holds a link back into the page (the "↩" of each note to where
 * it is cited): the article's own footnotes, which a name rule read as a page footer. Small print named
 * "footnote" (a price's asterisk, a legal line) links back to nothing and keeps its weight.
 */
export function isNoteList(el: Element): boolean {
  const names = `${el.attribs.class ?? ""} ${el.attribs.id ?? ""}`;
  return NOTES_NAME.test(names) && linksBack(el);
}

// Whether a subtree holds a link to a place on the same page, each element judged once (nested notes stay linear).
const backLinks = new WeakMap<Element, boolean>();

function linksBack(el: Element): boolean {
  let known = backLinks.get(el);
  if (known === undefined) {
    known =
      (el.name === "a" && (el.attribs.href ?? "").startsWith("#") && el.attribs.href!.length > 1) ||
      el.children.some((c) => isTag(c) && linksBack(c));
    backLinks.set(el, known);
  }
  return known;
}

import type { AnyNode, Element, ParentNode } from "./dom.js";
import { isTag, walkElements } from "./dom.js";

// A name that says "notes": the article's footnotes or endnotes (`section.footnotes`, `ol.wp-block-footnotes`,
// `div.footnote-definition`).
const NOTES_NAME = /(?:^|[\s_-])(?:foot|end)-?notes?/i;
const NOTES_TOKEN = /^(?:.*[_-])?(?:foot|end)-?notes?(?:[_-].*)?$/i;

// Where a page's own jumps lead that are no citation: its top, its landmarks, a skip link's target.
const LANDMARK_ID =
  /^(?:top|page|main|content|main-content|maincontent|header|nav|navigation|menu|footer|skip|skip-link)$/i;
// A citation marker or a note is an inline mark or a list item, never a section of the page.
const MARK_TAGS = new Set(["a", "sup", "sub", "span", "li", "cite", "p", "dt", "dd"]);

/**
 * True when the element is named for notes and holds a link back to where a note is cited (the "↩" of each
 * note): the article's own footnotes, which a name rule read as a page footer. Small print named "footnote"
 * (a price's asterisk, a legal line) links back to nothing, and a link to the page's top or a landmark is no
 * citation: both keep the name's weight.
 */
export function isNoteList(el: Element): boolean {
  const names = `${el.attribs.class ?? ""} ${el.attribs.id ?? ""}`;
  return NOTES_NAME.test(names) && linksBack(el);
}

/** The element's class or id without its notes tokens: what else its names say ("footnotes hid"). */
export function withoutNoteNames(name: string): string {
  return name
    .split(/\s+/)
    .filter((t) => !NOTES_TOKEN.test(t))
    .join(" ");
}

// Whether a subtree holds a link to a citation mark on the same page, each element judged once (nested notes
// stay linear); the page's ids are indexed once per document.
const backLinks = new WeakMap<Element, boolean>();
const idIndexes = new WeakMap<AnyNode, Map<string, Element>>();

function linksBack(el: Element): boolean {
  let known = backLinks.get(el);
  if (known === undefined) {
    known = citesMark(el) || el.children.some((c) => isTag(c) && linksBack(c));
    backLinks.set(el, known);
  }
  return known;
}

function citesMark(el: Element): boolean {
  if (el.name !== "a") return false;
  const href = el.attribs.href ?? "";
  if (!href.startsWith("#") || href.length < 2) return false;
  const id = href.slice(1);
  if (LANDMARK_ID.test(id)) return false;
  const target = idsOf(el).get(id);
  return !!target && MARK_TAGS.has(target.name);
}

function idsOf(el: Element): Map<string, Element> {
  let root: AnyNode = el;
  while (root.parent) root = root.parent;
  let ids = idIndexes.get(root);
  if (!ids) {
    const found = new Map<string, Element>();
    walkElements(root as ParentNode, (e) => {
      const id = e.attribs.id;
      if (id && !found.has(id)) found.set(id, e);
      return undefined;
    });
    ids = found;
    idIndexes.set(root, ids);
  }
  return ids;
}

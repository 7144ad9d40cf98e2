import type { Element } from "./dom.js";

// Webflow's conditional visibility: a CMS template block whose condition is false for this item is published
// with the class `w-condition-invisible`, which Webflow's own stylesheet sets to `display:none`. The condition
// is decided when the page is published, so no script or control ever shows the block: a blog template's
// gated copy of the article, or the empty "related" box of an item that has none.
const FALSE_CONDITION = /(?:^|\s)w-condition-invisible(?:\s|$)/;

/** True when a site builder published the element with a visibility condition that is false. */
export function isFalseCondition(el: Element): boolean {
  return !!el.attribs.class && FALSE_CONDITION.test(el.attribs.class);
}

import type { Document, Element } from "./dom.js";
import { classNames, removeNodes, walkElements } from "./dom.js";

// A tooltip's text is drawn only while the pointer rests on its icon ("open-back designs leak sound…" beside a
// specification's label): a stylesheet hides it, so a reader of the page does not see it, and read inline it
// runs into the label it explains. Its parts are named for it: the tooltip's own content, text or body.
// The cheap test first: most elements' classes say nothing of tooltips.
const TOOLTIP_NAME = /tool-?tip/i;
const TOOLTIP_PART = /^tool-?tips?(?:__|--|[-_])(?:content|text|body|inner|bubble)$/i;

/** Removes tooltips' hidden texts, in place. */
export function dropTooltips(doc: Document): void {
  const drop: Element[] = [];
  walkElements(doc, (el) => {
    const named =
      TOOLTIP_NAME.test(el.attribs.class ?? "") && classNames(el).some((t) => TOOLTIP_PART.test(t));
    if (named || el.attribs.role === "tooltip") {
      drop.push(el);
      return false;
    }
    return true;
  });
  removeNodes(drop);
}

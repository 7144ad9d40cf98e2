import type { Element } from "./dom.js";
import { collapseWhitespace, removeNodes, textContent, walkElements } from "./dom.js";
import { SETTINGS } from "./settings.js";

// What a card of a grid offers to do with its item rather than says about it: the caption of a form control
// (a "Compare" checkbox's label, a "Qty:" field's, a fieldset's legend "More options": the controls themselves
// were dropped with the other form controls), and a control drawn without a form element (a link or a block
// with the role of a button, or named one: "Add to cart", "Quick View", "Add to wishlist").
const CONTROL_ROLES = new Set(["button", "checkbox", "radio", "switch"]);
const BUTTON_NAME = /(?:^|\s)(?:btn|button)(?:$|\s|[-_])/i;

function isControl(el: Element): boolean {
  if (el.name === "label" || el.name === "legend") return true;
  const role = el.attribs.role?.toLowerCase();
  return (role !== undefined && CONTROL_ROLES.has(role)) || BUTTON_NAME.test(el.attribs.class ?? "");
}

/**
 * Drops the controls inside the items of a listing kept whole: short blocks that act on the item, told by their
 * markup, not by their words (a card's "Free shipping" or "Women's" is a fact its siblings share). A control
 * holding much text is the card itself made clickable, and stays.
 */
export function dropCardControls(items: Iterable<Element>): void {
  const doomed: Element[] = [];
  for (const item of items)
    walkElements(item, (el) => {
      if (!isControl(el)) return true;
      if (collapseWhitespace(textContent(el)).length > SETTINGS.cardControlMaxChars) return true;
      doomed.push(el);
      return false;
    });
  removeNodes(doomed);
}

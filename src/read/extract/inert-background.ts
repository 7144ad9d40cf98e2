import type { Element } from "./dom.js";
import { findFirst } from "./dom.js";

// A script that opens a modal (a consent screen, a sign-in prompt) marks the rest of the page
// `aria-hidden="true"` so that screen readers stay in the modal, while the page is still drawn behind it. When
// the saved page caught the modal open, the hidden part is the page itself: the element that is, or holds,
// its main landmark (react-modal hides the app's root, eBay its `<main>`). Smaller aria-hidden parts (an
// icon's label, a carousel's clones, a menu) hold no landmark and stay hidden.

const SCAN = 20_000;

/** True for an `aria-hidden` element that is the page behind a modal, not a part kept from screen readers. */
export function isInertBackground(el: Element): boolean {
  if (isMainLandmark(el)) return true;
  if (el.name !== "div" && el.name !== "body") return false;
  return !!findFirst(el, isMainLandmark, SCAN);
}

function isMainLandmark(el: Element): boolean {
  return el.name === "main" || el.attribs.role?.toLowerCase() === "main";
}

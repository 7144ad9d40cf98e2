import type { Element } from "./dom.js";
import { findFirst } from "./dom.js";

// An animation library (framer-motion, a site's own "reveal on load") renders the page on the server with the
// entrance's first frame inline, `style="opacity:0"`, and its script fades the page in. On the element that
// holds the page's main landmark or its `<h1>`, that transparency is the page before its script ran, not text
// kept from a reader; transparent parts without the page's heading (a tooltip, a menu, a line of text slipped
// in for machines) stay hidden.

const SCAN = 20_000;

const TRANSPARENT = /(?:^|;)\s*opacity\s*:\s*0(?:\.0*)?\s*(?:!important)?\s*(?:;|$)/i;
// Only transparency: with any other way of hiding beside it the element is hidden as before.
const OTHER_HIDING =
  /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse)|font-size\s*:\s*0(?:px|em|rem|%)?\s*(?:!important)?\s*(?:;|$)|(?:left|top|text-indent)\s*:\s*-\d{4,}px)/i;

/** True for a transparent element that is the page itself, waiting for its entrance animation. */
export function isFadingIn(el: Element): boolean {
  const style = el.attribs.style;
  if (!style || !TRANSPARENT.test(style) || OTHER_HIDING.test(style)) return false;
  return isPageHead(el) || !!findFirst(el, isPageHead, SCAN);
}

function isPageHead(el: Element): boolean {
  return el.name === "main" || el.name === "h1" || el.attribs.role?.toLowerCase() === "main";
}

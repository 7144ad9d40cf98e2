import type { Element } from "./dom.js";
import { isTag, isText } from "./dom.js";

// A value drawn for the eye is often hidden from screen readers and said again beside it for them alone:
// WooCommerce writes a sale's prices as `<del aria-hidden="true">$28.00</del><span class="screen-reader-text">
// Original price was: $28.00.</span>`. The drawn one is what a sighted reader sees; dropped with its
// screen-reader copy, the value is lost.

const SCREEN_READER_ONLY = /(?:^|\s)(?:sr-only|visually-hidden|screen-reader-text|visuallyhidden)(?:\s|$)/i;

/** True for an element whose next or previous sibling element (blank text between) is for screen readers only. */
export function hasScreenReaderTwin(el: Element): boolean {
  return isScreenReaderOnly(sibling(el, "next")) || isScreenReaderOnly(sibling(el, "prev"));
}

function sibling(el: Element, side: "next" | "prev"): Element | undefined {
  for (let n = el[side]; n; n = n[side]) {
    if (isTag(n)) return n;
    if (isText(n) && n.data.trim()) return undefined;
  }
  return undefined;
}

function isScreenReaderOnly(el: Element | undefined): boolean {
  return !!el?.attribs.class && SCREEN_READER_ONLY.test(el.attribs.class);
}

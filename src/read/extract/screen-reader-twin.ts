import type { AnyNode, Element } from "./dom.js";
import { adjacentElement, collapseWhitespace, isTag, isText } from "./dom.js";

// A value drawn for the eye is often hidden from screen readers and said again beside it for them alone:
// WooCommerce writes a sale's prices as `<del aria-hidden="true">$28.00</del><span class="screen-reader-text">
// Original price was: $28.00.</span>`. The drawn one is what a sighted reader sees; dropped with its
// screen-reader copy, the value is lost. Only a short value whose words its twin says again is read: an aria-hidden
// block of sentences beside an unrelated "sr-only" label (a closed drawer, a carousel's clone) stays hidden.

// Screen-reader-only helpers ("Skip to content", "Opens in new window") are never prose.
const SCREEN_READER_ONLY = /(?:^|\s)(?:sr-only|visually-hidden|screen-reader-text|visuallyhidden)(?:\s|$)/i;

/** A drawn value is a price, a count, a date: no longer than this. */
const VALUE_MAX_CHARS = 40;
/** Its twin says it in a short sentence ("Original price was: $28.00."). */
const TWIN_MAX_CHARS = 200;

/** True for an element kept for screen readers only, by the class names sites use for it. */
export function isScreenReaderOnly(el: Element | undefined): boolean {
  return !!el?.attribs.class && SCREEN_READER_ONLY.test(el.attribs.class);
}

/**
 * True for a short element whose next or previous sibling element (blank text between) is for screen readers
 * only and says the element's words again (a filter's "HDMI (1)" beside "HDMI (1 product)"), or whose link or
 * control says them in its `aria-label`.
 */
export function hasScreenReaderTwin(el: Element): boolean {
  if (labelSaysIt(el)) return true;
  const next = adjacentElement(el, "next");
  const prev = adjacentElement(el, "prev");
  if (!isScreenReaderOnly(next) && !isScreenReaderOnly(prev)) return false;
  const drawn = words(textUpTo(el, VALUE_MAX_CHARS));
  if (!drawn.length) return false;
  return [next, prev].some((twin) => {
    if (!isScreenReaderOnly(twin)) return false;
    const said = new Set(words(textUpTo(twin!, TWIN_MAX_CHARS)));
    return drawn.every((w) => said.has(w));
  });
}

/**
 * True for a short element inside a link or control whose `aria-label` (what a screen reader says for it) says the
 * element's words again: a rating's "4.7 out of 5 stars, 58,483 ratings" drawn as "58,483" beside a star icon.
 */
function labelSaysIt(el: Element): boolean {
  let holder: Element | undefined;
  for (let a = el.parent, level = 0; a && isTag(a) && level < 2; a = a.parent, level++)
    if (a.attribs["aria-label"]) {
      holder = a;
      break;
    }
  if (!holder) return false;
  const drawn = words(textUpTo(el, VALUE_MAX_CHARS));
  if (!drawn.length) return false;
  const said = new Set(words(holder.attribs["aria-label"]!.slice(0, TWIN_MAX_CHARS)));
  return drawn.every((w) => said.has(w));
}

/** The words and numbers of a text, lower-cased: "$28.00" is said again in "Original price was: $28.00.". */
function words(text: string | undefined): string[] {
  return text?.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * The element's text, whitespace collapsed, or undefined when it is empty or longer than `max` characters; at
 * most `max` nodes are read, so a hostile nest costs no more than a price does.
 */
function textUpTo(el: Element, max: number): string | undefined {
  let text = "";
  let seen = 0;
  const stack: AnyNode[] = [el];
  while (stack.length) {
    const node = stack.pop()!;
    if (isText(node)) {
      text += node.data;
      if (text.length > max * 4) return undefined;
    } else if (isTag(node)) {
      seen += node.children.length;
      if (seen > max) return undefined;
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
    }
  }
  text = collapseWhitespace(text);
  return text && text.length <= max ? text : undefined;
}

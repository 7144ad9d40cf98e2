import type { Element, ParentNode } from "./dom.js";
import { isAncestor, walkElements } from "./dom.js";

// An animation library (framer-motion, a site's own "reveal on load") renders the page on the server with the
// entrance's first frame inline, `style="opacity:0"`, and its script fades the page in. On the element that
// holds the page's main landmark and its `<h1>`, every one of them, that transparency is the page before its
// script ran, not text kept from a reader. Transparent parts beside a visible heading or landmark (a tooltip, a
// menu, text slipped in for machines, even under a heading of its own) stay hidden.

const TRANSPARENT = /(?:^|;)\s*opacity\s*:\s*0(?:\.0*)?\s*(?:!important)?\s*(?:;|$)/i;
// Only transparency: with any other way of hiding beside it the element is hidden as before.
const OTHER_HIDING =
  /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse)|font-size\s*:\s*0(?:px|em|rem|%)?\s*(?:!important)?\s*(?:;|$)|(?:left|top|text-indent)\s*:\s*-\d{4,}px)/i;

/** More main landmarks and h1s than this, and no one element is the page: none fades in. */
const MAX_HEADS = 16;

/** Each tree's main landmarks and h1s, found in one walk the first time one of its elements is asked about. */
const headsOf = new WeakMap<ParentNode, Element[] | undefined>();

/** True for a transparent element that is the page itself, waiting for its entrance animation. */
export function isFadingIn(el: Element): boolean {
  const style = el.attribs.style;
  if (!style || !TRANSPARENT.test(style) || OTHER_HIDING.test(style)) return false;
  let root: ParentNode = el;
  while (root.parent) root = root.parent;
  // A head the cleaning has taken out of the tree since is no longer the page's.
  const heads = pageHeads(root)?.filter((head) => isAncestor(root as Element, head));
  return !!heads?.length && heads.every((head) => head === el || isAncestor(el, head));
}

function pageHeads(root: ParentNode): Element[] | undefined {
  if (headsOf.has(root)) return headsOf.get(root);
  let heads: Element[] | undefined = [];
  walkElements(root, (d) => {
    if (!heads || !isPageHead(d)) return !!heads;
    heads.push(d);
    if (heads.length > MAX_HEADS) heads = undefined;
    return !!heads;
  });
  headsOf.set(root, heads);
  return heads;
}

function isPageHead(el: Element): boolean {
  return el.name === "main" || el.name === "h1" || el.attribs.role?.toLowerCase() === "main";
}

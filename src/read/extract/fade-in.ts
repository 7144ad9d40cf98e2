import type { AnyNode, Element, ParentNode } from "./dom.js";
import { isAncestor, isTag, isText } from "./dom.js";
import { SETTINGS } from "./settings.js";

// An animation library (framer-motion, a site's own "reveal on load") renders the page on the server with the
// entrance's first frame inline, `style="opacity:0"`, and its script fades the page in. On the element that
// holds the page's main landmark and its `<h1>`, every one of them, and most of the page's text, that
// transparency is the page before its script ran, not text kept from a reader. Transparent
// parts beside a visible heading or landmark (a tooltip, a menu, text slipped in for machines, even under a
// heading of its own) stay hidden.

/**
 * A page's wrapper is this close to the root or closer (depth-limit.ts flattens the tree below this depth), so
 * the walk up from a transparent element stays short however deep a hostile page nests them.
 */
const MAX_WRAPPER_DEPTH = 250;
const UNREAD = new Set(["script", "style", "template", "noscript"]);

interface PageHeads {
  heads: Element[];
  /** The elements that held every head when the tree was first asked about: their lowest common ancestor and up. */
  holders: Set<ParentNode>;
  /** Each holder's readable characters (the root is one): the page is most of the page's text. */
  chars: Map<ParentNode, number>;
}

/**
 * Each tree's heads and the elements holding them all, found the first time one of its elements is asked
 * about. A page of 100,000 transparent elements asks once each, so the answer for an element that is no holder
 * costs a set look-up, not a walk up from every head.
 */
const headsOf = new WeakMap<ParentNode, PageHeads | undefined>();

/** True for an element that is the page itself, so that a transparency on it is its entrance animation. */
export function isFadingIn(el: Element): boolean {
  let root: ParentNode = el;
  for (let depth = 0; root.parent; depth++) {
    if (depth > MAX_WRAPPER_DEPTH) return false;
    root = root.parent;
  }
  const page = pageHeads(root);
  if (!page?.holders.has(el)) return false;
  // A head the cleaning has taken out of the tree since is no longer the page's; one moved out of el is not el's.
  const heads = page.heads.filter((head) => isAncestor(root as Element, head));
  if (!heads.length || !heads.every((head) => head === el || isAncestor(el, head))) return false;
  // The page is most of the page's text: a transparent block with an <h1> of its own on a page that titles
  // itself otherwise (an <h2>, no landmark), or a transparent headline alone above visible text, is text kept
  // from the reader (an instruction in a hidden <h1> reads like any other).
  return page.chars.get(el)! * 2 >= page.chars.get(root)!;
}

/**
 * Non-blank characters of text outside scripts, styles and templates, of each holder (the lowest first, each
 * holding the one before): one walk of the tree however many holders nest, not one per holder.
 */
function holderChars(holders: ParentNode[]): Map<ParentNode, number> {
  const chars = new Map<ParentNode, number>();
  let below: ParentNode | undefined;
  for (const holder of holders) {
    let n = below ? chars.get(below)! : 0;
    for (const child of below ? holder.children.filter((c) => c !== below) : [holder])
      n += readableChars(child);
    chars.set(holder, n);
    below = holder;
  }
  return chars;
}

function readableChars(node: AnyNode): number {
  let n = 0;
  const stack: AnyNode[] = [node];
  while (stack.length) {
    const at = stack.pop()!;
    if (isText(at)) {
      for (let i = 0; i < at.data.length; i++) if (at.data.charCodeAt(i) > 32) n++;
    } else if (at.type === "root" || (isTag(at) && !UNREAD.has(at.name)))
      for (const child of (at as ParentNode).children) stack.push(child);
  }
  return n;
}

function pageHeads(root: ParentNode): PageHeads | undefined {
  if (headsOf.has(root)) return headsOf.get(root);
  const heads = findHeads(root);
  const holders = heads?.length ? commonHolders(heads) : undefined;
  const page = holders && { heads: heads!, holders: new Set(holders), chars: holderChars(holders) };
  headsOf.set(root, page);
  return page;
}

/**
 * The tree's main landmarks and h1s, or undefined when there are more than `SETTINGS.fadeInMaxHeads` or one
 * lies deeper than MAX_WRAPPER_DEPTH (a hostile nest: checking that such a head is still in the tree would walk up all of it).
 */
function findHeads(root: ParentNode): Element[] | undefined {
  const heads: Element[] = [];
  // Two stacks side by side, as in depth-limit.ts: no array allocated per element.
  const nodes: ParentNode[] = [root];
  const depths: number[] = [0];
  while (nodes.length) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    if (node !== root && isPageHead(node as Element)) {
      if (heads.length === SETTINGS.fadeInMaxHeads || depth > MAX_WRAPPER_DEPTH) return undefined;
      heads.push(node as Element);
    }
    for (let i = node.children.length - 1; i >= 0; i--) {
      const child = node.children[i]!;
      if (isTag(child)) {
        nodes.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return heads;
}

/** The elements that are or hold every one of the heads: their lowest common ancestor, then its ancestors. */
function commonHolders(heads: Element[]): ParentNode[] {
  const chain: ParentNode[] = [];
  for (let at: ParentNode | null = heads[0]!; at; at = at.parent) chain.push(at);
  const onChain = new Map(chain.map((node, i) => [node, i] as const));
  let lowest = 0;
  for (const head of heads.slice(1)) {
    let at: ParentNode | null = head;
    while (at && !onChain.has(at)) at = at.parent;
    lowest = Math.max(lowest, at ? onChain.get(at)! : chain.length);
  }
  return chain.slice(lowest);
}

function isPageHead(el: Element): boolean {
  return el.name === "main" || el.name === "h1" || el.attribs.role?.toLowerCase() === "main";
}

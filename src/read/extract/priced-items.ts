import type { Element } from "./dom.js";
import { collapseWhitespace, isTag, textContent } from "./dom.js";
import { isPrice } from "./price.js";
import { SETTINGS } from "./settings.js";
import type { TextStatsIndex } from "./text-stats.js";

// A range's open end after the price a card shows ("$669.99 –": the dearest option is on the product's page).
const RANGE_END = /\s*[–—-]\s*$/u;

// Each element's answer, kept so that a card inside a card (runs of items nested in items) is read once.
const priced = new WeakMap<Element, boolean>();

/** Whether the element holds a price of its own: a block whose whole text is one (`isPrice`). */
export function holdsPrice(el: Element, stats: TextStatsIndex): boolean {
  let found = priced.get(el);
  if (found !== undefined) return found;
  const chars = stats.of(el).chars;
  found =
    chars > 0 &&
    ((chars <= SETTINGS.priceMaxChars &&
      isPrice(collapseWhitespace(textContent(el)).replace(RANGE_END, ""))) ||
      el.children.some((c) => isTag(c) && holdsPrice(c, stats)));
  priced.set(el, found);
  return found;
}

/**
 * Whether a run of alike items is a shop's grid: most of its items carry a price. A menu's entries, a
 * section front's stories and a directory's names do not; a product card says what the product costs.
 */
export function isPricedRun(items: Element[], stats: TextStatsIndex): boolean {
  let n = 0;
  for (let i = 0; i < items.length; i++) {
    if (holdsPrice(items[i]!, stats)) n++;
    // Once the items left cannot make a majority, the rest are not read (an article's thousands of paragraphs).
    else if ((n + items.length - i - 1) * 2 <= items.length) return false;
  }
  return n * 2 > items.length;
}

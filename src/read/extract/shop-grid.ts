import type { Element, ParentNode } from "./dom.js";
import { isAncestor, isTag } from "./dom.js";
import { type ItemRun, itemRuns } from "./item-list.js";
import type { TextStatsIndex } from "./text-stats.js";

/** The page's largest run of priced items (a shop's grid of products, each with its name and price). */
export function largestPricedRun(root: Element, stats: TextStatsIndex): ItemRun | undefined {
  let best: ItemRun | undefined;
  for (const run of itemRuns(root, stats)) if (run.priced && (!best || run.chars > best.chars)) best = run;
  return best;
}

/**
 * The chosen content with a shop's grid beside it, in the page's order: a category page's prose (its intro, a
 * buyer's guide, its FAQ) scores as the content, yet the products are what the page lists. Chosen blocks inside
 * the grid are part of it.
 */
export function withGrid(picked: Element[], grid: Element): Element[] {
  if (picked.some((el) => el === grid || isAncestor(el, grid))) return picked;
  const out = picked.filter((el) => !isAncestor(grid, el));
  const at = out.findIndex((el) => precedes(grid, el));
  out.splice(at < 0 ? out.length : at, 0, grid);
  return out;
}

/** Whether `a` comes before `b` in the document (neither holds the other). */
function precedes(a: Element, b: Element): boolean {
  const chain = new Map<ParentNode, Element>();
  for (let el: Element = a; el.parent; el = el.parent as Element) {
    chain.set(el.parent, el);
    if (!isTag(el.parent)) break;
  }
  for (let el: Element = b; el.parent; el = el.parent as Element) {
    const fromA = chain.get(el.parent);
    if (fromA) {
      const kids = el.parent.children;
      return kids.indexOf(fromA) < kids.indexOf(el);
    }
    if (!isTag(el.parent)) break;
  }
  return false;
}

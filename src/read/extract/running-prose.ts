import type { ParentNode } from "./dom.js";
import { walkElements } from "./dom.js";
import type { TextStatsIndex } from "./text-stats.js";

// The sums under a root, per text index: the content's choice asks for them more than once (whether an undeclared
// page is a listing, whether its items are proseless, whether it is a landing page), and the index's counts hold
// only for the tree it read, as the sums do.
const found = new WeakMap<TextStatsIndex, { root: ParentNode; sums: Map<ParentNode, number> }>();

/**
 * Characters of long, unlinked paragraphs under each element of the subtree (the root included):
 * the running prose a reader came for, as opposed to menus, teasers and widgets.
 */
export function runningProse(root: ParentNode, stats: TextStatsIndex): Map<ParentNode, number> {
  const known = found.get(stats);
  if (known?.root === root) return known.sums;
  const sums = new Map<ParentNode, number>();
  found.set(stats, { root, sums });
  walkElements(root, (el) => {
    if (el.name !== "p") return true;
    const s = stats.of(el);
    if (s.chars < 120 || stats.linkDensity(el) > 0.3) return false;
    for (let a: ParentNode | null = el.parent; a; a = a.parent) {
      sums.set(a, (sums.get(a) ?? 0) + s.chars);
      if (a === root) break;
    }
    return false;
  });
  return sums;
}

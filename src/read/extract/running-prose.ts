import type { ParentNode } from "./dom.js";
import { walkElements } from "./dom.js";
import type { TextStatsIndex } from "./text-stats.js";

/**
 * Characters of long, unlinked paragraphs under each element of the subtree (the root included):
 * the running prose a reader came for, as opposed to menus, teasers and widgets.
 */
export function runningProse(root: ParentNode, stats: TextStatsIndex): Map<ParentNode, number> {
  const sums = new Map<ParentNode, number>();
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

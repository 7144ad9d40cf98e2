import type { Element } from "./dom.js";
import { isAncestor } from "./dom.js";
import { itemRuns } from "./item-list.js";
import type { PageKind } from "./page-kind.js";
import { runningProse } from "./running-prose.js";
import { SETTINGS } from "./settings.js";
import type { TextStatsIndex } from "./text-stats.js";

// Kinds whose content may be a list of items. A thread's posts and a product's rows have rules of their own;
// on pages that declare themselves articles it cost the article set's held-out half a teaser grid.
const LIST_KINDS: ReadonlySet<PageKind> = new Set(["listing", "unknown"]);

/**
 * On a listing, or a page that declares nothing, with no running prose of its own (a section front, a
 * category page, a directory), the chosen content is a list of items, and its items are link-dense, short
 * blocks by nature: the link-density and fragment rules of pruning, made to find widgets beside prose, would
 * remove the content itself. The items of every run of alike items
 * inside the chosen content are kept whole, with the blocks around them (`parents`); beside an article they
 * are a teaser grid and are pruned as before.
 */
export function proselessItems(
  root: Element,
  chosen: Element[],
  kind: PageKind,
  stats: TextStatsIndex,
): { items: Set<Element>; parents: Element[] } {
  const found = { items: new Set<Element>(), parents: [] as Element[] };
  if (!LIST_KINDS.has(kind)) return found;
  if ((runningProse(root, stats).get(root) ?? 0) >= SETTINGS.listUndeclaredMaxProse) return found;
  for (const run of itemRuns(root, stats)) {
    if (!run.named || !chosen.some((c) => c === run.parent || isAncestor(c, run.parent))) continue;
    found.parents.push(run.parent);
    for (const it of run.items) found.items.add(it);
  }
  return found;
}

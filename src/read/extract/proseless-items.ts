import type { Element } from "./dom.js";
import { isAncestor, isTag } from "./dom.js";
import { itemRuns } from "./item-list.js";
import type { PageKind } from "./page-kind.js";
import { runningProse } from "./running-prose.js";
import { SETTINGS } from "./settings.js";
import type { TextStatsIndex } from "./text-stats.js";

// Kinds whose content may be a list of items. A thread's posts and a product's rows have rules of their own.
const LIST_KINDS: ReadonlySet<PageKind> = new Set(["listing", "unknown", "article"]);

/**
 * On a page with no running prose of its own (a section front, a category page, a directory, a "List of …"
 * page), the chosen content is a list of items, and its items are link-dense, short blocks by nature: the
 * link-density and fragment rules of pruning, made to find widgets beside prose, would remove the content
 * itself. The items of every run of alike items inside the chosen content are kept whole, with the blocks
 * around them (`parents`); beside an article they are a teaser grid and are pruned as before. A page that
 * says it is an article (Open Graph's type, which CMSs write on every page, section fronts included) is a
 * list only where its items are most of the chosen content: a short article's teaser grid is not.
 */
export function proselessItems(
  root: Element,
  chosen: Element[],
  kind: PageKind,
  stats: TextStatsIndex,
): { items: Set<Element>; parents: Element[] } {
  const none = { items: new Set<Element>(), parents: [] as Element[] };
  if (!LIST_KINDS.has(kind)) return none;
  if ((runningProse(root, stats).get(root) ?? 0) >= SETTINGS.listUndeclaredMaxProse) return none;
  const found = { items: new Set<Element>(), parents: [] as Element[] };
  for (const run of itemRuns(root, stats)) {
    if (!run.named || (run.bare && kind !== "listing")) continue;
    if (!chosen.some((c) => c === run.parent || isAncestor(c, run.parent))) continue;
    found.parents.push(run.parent);
    for (const it of run.items) found.items.add(it);
  }
  if (
    kind === "article" &&
    itemChars(found.items, stats) < chosenChars(chosen, stats) * SETTINGS.articleListShare
  )
    return none;
  return found;
}

function chosenChars(chosen: Element[], stats: TextStatsIndex): number {
  let chars = 0;
  for (const el of chosen) chars += stats.of(el).chars;
  return chars;
}

/** The text of the items, each counted once: a run may lie inside another run's item. */
function itemChars(items: Set<Element>, stats: TextStatsIndex): number {
  let chars = 0;
  for (const it of items) {
    let nested = false;
    for (let a = it.parent; a && isTag(a) && !nested; a = a.parent) nested = items.has(a);
    if (!nested) chars += stats.of(it).chars;
  }
  return chars;
}

import type { Element } from "./dom.js";
import { classNames, isTag, walkElements } from "./dom.js";
import { isPricedRun } from "./priced-items.js";
import { SETTINGS } from "./settings.js";
import type { TextStatsIndex } from "./text-stats.js";

export interface ItemRun {
  /** The element whose children are the items. */
  parent: Element;
  items: Element[];
  chars: number;
  /**
   * The items share a class name, or none carries one. Siblings whose names differ and share none (a page's
   * top bar, search overlay and content wrapper) are grouped by tag alone and are layout, not items.
   */
  named: boolean;
  /** Most items carry a price: a shop's grid (`isPricedRun`). */
  priced: boolean;
  /**
   * Its items are all link and short, as a menu's are, and only their build says they are cards (a recipe
   * archive's linked titles): a list only where the page says it is a listing.
   */
  bare: boolean;
}

function classTokens(el: Element): string[] {
  return classNames(el).filter((t) => !/\d/.test(t));
}

/**
 * Each child's kind: its tag and those of its class names (no numbers: "post-12" and "post-14" are one kind)
 * that most of its parent's children of that tag carry. A name that only some carry marks a state or a
 * position, not another kind: striped rows ("odd", "bg-slate-50"), "first", "active", "is-sold-out".
 */
export function itemKeys(children: Element[]): Map<Element, string> {
  const perTag = new Map<string, Map<string, number>>();
  const tagCount = new Map<string, number>();
  for (const c of children) {
    tagCount.set(c.name, (tagCount.get(c.name) ?? 0) + 1);
    const counts = perTag.get(c.name) ?? new Map<string, number>();
    perTag.set(c.name, counts);
    for (const t of new Set(classTokens(c))) counts.set(t, (counts.get(t) ?? 0) + 1);
  }
  const keys = new Map<Element, string>();
  for (const c of children) {
    const counts = perTag.get(c.name)!;
    const half = tagCount.get(c.name)! / 2;
    const stable = [...new Set(classTokens(c))]
      .filter((t) => counts.get(t)! > half)
      .sort()
      .slice(0, 3);
    keys.set(c, `${c.name}.${stable.join(".")}`);
  }
  return keys;
}

// The runs found under a root, per text index: the content's choice asks for them more than once (the largest run,
// the largest priced one, the runs inside the chosen content), and the index's counts hold only for the tree it read.
const found = new WeakMap<TextStatsIndex, { root: Element; runs: ItemRun[] }>();

/**
 * The page's runs of items built alike (same tag and class names), each linked and short: the products of
 * a category page, the stories of a section front, the results of a search. Linear: every element's children
 * are grouped once.
 */
export function itemRuns(root: Element, stats: TextStatsIndex): ItemRun[] {
  const known = found.get(stats);
  if (known?.root === root) return known.runs;
  const runs: ItemRun[] = [];
  found.set(stats, { root, runs });
  walkElements(root, (el) => {
    if (el.children.length < SETTINGS.listMinItems) return true;
    const groups = new Map<string, Element[]>();
    const candidates = el.children.filter((c): c is Element => {
      if (!isTag(c)) return false;
      const s = stats.of(c);
      return s.chars > 0 && s.linkChars > 0 && s.chars <= SETTINGS.listItemMaxChars;
    });
    if (candidates.length < SETTINGS.listMinItems) return true;
    const keys = itemKeys(candidates);
    for (const c of candidates) {
      const key = keys.get(c)!;
      const g = groups.get(key);
      if (g) g.push(c);
      else groups.set(key, [c]);
    }
    for (const items of groups.values()) {
      if (items.length < SETTINGS.listMinItems) continue;
      let chars = 0;
      for (const it of items) chars += stats.of(it).chars;
      // A menu is a run of bare links; items have words besides their link (a summary), or a price, which a
      // shop's card may hold inside its one link with the product's name.
      let linkChars = 0;
      for (const it of items) linkChars += stats.of(it).linkChars;
      const priced = isPricedRun(items, stats);
      const cards = items.every((it) => isCard(it, stats));
      const bare =
        linkChars > chars * SETTINGS.listMaxLinkShare &&
        chars < items.length * SETTINGS.listBareItemChars &&
        !priced;
      if (bare && !cards) continue;
      const sharesName = keys.get(items[0]!)!.length > items[0]!.name.length + 1;
      const named = sharesName || items.every((it) => !classTokens(it).length);
      runs.push({ parent: el, items, chars, named, priced, bare });
    }
    return true;
  });
  return runs;
}

/** A teaser card: an `<article>` of its own, or a block titled by a heading (a menu's entries are bare links). */
function isCard(el: Element, stats: TextStatsIndex): boolean {
  return el.name === "article" || stats.of(el).headings > 0;
}

/** The page's largest run of items built alike (`itemRuns`); runs of bare cards only on a listing. */
export function largestItemRun(root: Element, stats: TextStatsIndex, listing = false): ItemRun | undefined {
  let best: ItemRun | undefined;
  for (const run of itemRuns(root, stats))
    if ((listing || !run.bare) && (!best || run.chars > best.chars)) best = run;
  return best;
}

import type { Element } from "./dom.js";
import { isTag, walkElements } from "./dom.js";
import { SETTINGS } from "./settings.js";
import type { TextStatsIndex } from "./text-stats.js";

export interface ItemRun {
  /** The element whose children are the items. */
  parent: Element;
  items: Element[];
  chars: number;
}

/** Tag and stable class names (no numbers: "post-12" and "post-14" are one kind). */
function itemKey(el: Element): string {
  const tokens = (el.attribs.class ?? "")
    .split(/\s+/)
    .filter((t) => t && !/\d/.test(t))
    .sort()
    .slice(0, 3);
  return `${el.name}.${tokens.join(".")}`;
}

/**
 * The page's largest run of items built alike (same tag and class names), each linked and short: the
 * products of a category page, the stories of a section front, the results of a search. Linear: every
 * element's children are grouped once.
 */
export function largestItemRun(root: Element, stats: TextStatsIndex): ItemRun | undefined {
  let best: ItemRun | undefined;
  walkElements(root, (el) => {
    if (el.children.length < SETTINGS.listMinItems) return true;
    const groups = new Map<string, Element[]>();
    for (const c of el.children) {
      if (!isTag(c)) continue;
      const s = stats.of(c);
      if (!s.chars || !s.linkChars || s.chars > SETTINGS.listItemMaxChars) continue;
      const key = itemKey(c);
      const g = groups.get(key);
      if (g) g.push(c);
      else groups.set(key, [c]);
    }
    for (const items of groups.values()) {
      if (items.length < SETTINGS.listMinItems) continue;
      let chars = 0;
      for (const it of items) chars += stats.of(it).chars;
      // A menu is a run of bare links; items have words besides their link (a summary, a price).
      let linkChars = 0;
      for (const it of items) linkChars += stats.of(it).linkChars;
      if (linkChars > chars * SETTINGS.listMaxLinkShare && chars < items.length * SETTINGS.listBareItemChars)
        continue;
      if (!best || chars > best.chars) best = { parent: el, items, chars };
    }
    return true;
  });
  return best;
}

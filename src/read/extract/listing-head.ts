import type { Element } from "./dom.js";
import { isAncestor, isTag, walkElements } from "./dom.js";
import { SETTINGS } from "./settings.js";
import type { TextStatsIndex } from "./text-stats.js";

/**
 * A listing's own head: the page's headline (its first `<h1>`) and the short intro beside it, above a list of items
 * taken as the content. The run of items replaces the container the prose scoring chose, and the headline stands
 * in a wrapper of its own (a title bar, a hero over the grid), so the list would come without saying what it
 * lists. The head is the largest block around the headline that holds none of the content; it is taken when
 * it comes before the content and is short and hardly linked (a title and a line or two, not a menu or a
 * second list).
 */
export function listingHead(picked: Element[], root: Element, stats: TextStatsIndex): Element | undefined {
  let headline: Element | undefined;
  let passed = false;
  walkElements(root, (el) => {
    if (headline || passed) return false;
    if (picked.includes(el)) {
      passed = true;
      return false;
    }
    if (el.name === "h1") headline = el;
    return !headline;
  });
  if (!headline || picked.some((el) => isAncestor(el, headline!))) return undefined;
  let head = headline;
  for (let up = head.parent; up && isTag(up) && up !== root; up = up.parent) {
    if (picked.some((el) => el === up || isAncestor(up, el))) break;
    head = up;
  }
  const s = stats.of(head);
  if (s.chars > SETTINGS.listingHeadMaxChars || s.linkChars > s.chars * SETTINGS.listingHeadMaxLinkShare)
    return undefined;
  return head;
}

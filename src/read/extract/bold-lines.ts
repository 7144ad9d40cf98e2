import type { AnyNode, Element } from "./dom.js";
import { collapseWhitespace, isTag, isText, textContent } from "./dom.js";
import { SETTINGS } from "./settings.js";
import { BOLD } from "./tags.js";
import type { TextStatsIndex } from "./text-stats.js";

/**
 * True when every word of the element is set in bold (`<p><strong>4. Quit Tobacco Use</strong></p>`) and
 * running prose follows it: a heading by its type, as site builders write one, not a fragment of chrome.
 */
export function isBoldLine(el: Element, stats: TextStatsIndex): boolean {
  let words = false;
  const visit = (node: AnyNode, bold: boolean): boolean => {
    if (isText(node)) {
      if (!node.data.trim()) return true;
      words = true;
      return bold;
    }
    if (!isTag(node)) return true;
    const inBold = bold || BOLD.has(node.name);
    return node.children.every((c) => visit(c, inBold));
  };
  if (!(visit(el, false) && words)) return false;
  const next = nextElement(el, stats);
  return (
    !!next &&
    collapseWhitespace(textContent(next)).length >= SETTINGS.boldLineProseMinChars &&
    stats.linkDensity(next) <= SETTINGS.boldLineProseMaxLinkDensity
  );
}

/** The element with words after `el`, past blank text, comments and empty boxes, or after the box `el` closes. */
function nextElement(el: Element, stats: TextStatsIndex): Element | undefined {
  let at: Element | null = el;
  for (let level = 0; at && level <= SETTINGS.boldLineWrapperLevels; level++) {
    for (let n = at.next; n; n = n.next) {
      // An empty box between blocks is a builder's spacer, not what follows.
      if (isTag(n) && stats.of(n).chars) return n;
      if (isText(n) && n.data.trim()) return undefined;
    }
    at = at.parent && isTag(at.parent) ? at.parent : null;
  }
  return undefined;
}

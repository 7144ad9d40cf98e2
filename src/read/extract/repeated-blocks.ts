import type { Element } from "./dom.js";
import { collapseWhitespace, isTag, removeNodes, textContent, walkElements } from "./dom.js";
import { SETTINGS } from "./settings.js";
import { RENDER_BLOCKS } from "./tags.js";

function isLeafBlock(el: Element): boolean {
  return RENDER_BLOCKS.has(el.name) && !el.children.some((c) => isTag(c) && RENDER_BLOCKS.has(c.name));
}

/**
 * Drops the later copies of a section of text that recurs in another container of the content: responsive
 * pages carry a mobile and a desktop copy of the same text, a "read more" panel repeats its preview in full,
 * a carousel clones its slides. A copy is a long block said before in another container next to another such
 * block: one paragraph said twice (a refrain, a summary restated) and a block repeated beside its sibling are
 * the author's and stay, as does a short one (a label, a price, "Read more"). One walk.
 */
export function dropRepeatedBlocks(roots: Element[]): void {
  const firstParent = new Map<string, Element | null>();
  const long: { el: Element; copy: boolean }[] = [];
  for (const root of roots)
    walkElements(root, (el) => {
      if (!isLeafBlock(el)) return true;
      const text = collapseWhitespace(textContent(el));
      if (text.length < SETTINGS.repeatedBlockMinChars) return false;
      const parent = firstParent.get(text);
      if (parent === undefined) firstParent.set(text, el.parent as Element | null);
      long.push({ el, copy: parent !== undefined && parent !== el.parent });
      return false;
    });
  removeNodes(long.filter((b, i) => b.copy && (long[i - 1]?.copy || long[i + 1]?.copy)).map((b) => b.el));
}

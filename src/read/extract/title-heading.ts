import type { Element } from "./dom.js";
import { collapseWhitespace, findFirst, removeNode, textContent } from "./dom.js";

const HEADLINE = new Set(["h1", "h2"]);

/**
 * Removes the content's first h1/h2 when it repeats the page title: the title is returned as metadata,
 * and a second copy costs tokens (Readability's rule: most of the heading's words are in the title).
 * Returns the roots left to render.
 */
export function dropTitleHeading(roots: Element[], title: string | undefined): Element[] {
  if (!title) return roots;
  for (const root of roots) {
    const heading = HEADLINE.has(root.name) ? root : findFirst(root, (el) => HEADLINE.has(el.name));
    if (!heading) continue;
    if (similarity(title, collapseWhitespace(textContent(heading))) <= 0.75) return roots;
    // The heading may be a root of its own (it was kept with the content that follows it).
    if (heading === root) return roots.filter((r) => r !== root);
    removeNode(heading);
    return roots;
  }
  return roots;
}

/** Share of the heading's text (by length) made of words that also occur in the title. */
function similarity(title: string, heading: string): number {
  const words = (s: string) =>
    s
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean);
  const inTitle = new Set(words(title));
  const head = words(heading);
  if (!head.length) return 0;
  const unique = head.filter((w) => !inTitle.has(w));
  return 1 - unique.join(" ").length / head.join(" ").length;
}

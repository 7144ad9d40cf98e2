import type { AnyNode, Element } from "./dom.js";
import { isTag, isText } from "./dom.js";

const BOLD = new Set(["strong", "b"]);

/**
 * True when every word of the element is set in bold (`<p><strong>4. Quit Tobacco Use</strong></p>`): a
 * heading by its type, as site builders write one, not a fragment of chrome.
 */
export function isBoldLine(el: Element): boolean {
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
  return visit(el, false) && words;
}

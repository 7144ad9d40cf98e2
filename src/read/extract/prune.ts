import type { Element } from "./dom.js";
import { removeNode, walkElements } from "./dom.js";
import { classWeight } from "./main-content.js";
import { isDataTable } from "./table.js";
import type { TextStatsIndex } from "./text-stats.js";

const CONDITIONAL = new Set([
  "div",
  "section",
  "ul",
  "ol",
  "dl",
  "table",
  "form",
  "fieldset",
  "header",
  "footer",
  "figure",
  "aside",
  "nav",
]);

/**
 * Inside the chosen content, removes blocks that read as widgets rather than
 * prose (Readability's conditional cleaning): link lists, image grids, form
 * remnants and short fragments.
 */
export function pruneContent(roots: Element[], scores: Map<Element, number>, stats: TextStatsIndex): void {
  for (const root of roots) {
    const rootChars = stats.of(root).chars;
    // Innermost first. Counts are not updated after a removal: stale counts over-estimate what
    // remains, which errs toward keeping.
    const blocks: Element[] = [];
    walkElements(root, (el) => {
      // A data table and everything in it is content (Readability's rule): its cells are short by nature.
      if (el.name === "table" && isDataTable(el)) return false;
      if (CONDITIONAL.has(el.name)) blocks.push(el);
      return el.name !== "pre";
    });
    blocks.reverse();
    for (const el of blocks) if (looksLikeWidget(el, scores, stats, rootChars)) removeNode(el);
  }
}

function looksLikeWidget(
  el: Element,
  scores: Map<Element, number>,
  stats: TextStatsIndex,
  rootChars: number,
): boolean {
  const weight = classWeight(el);
  // Layout wrappers carry misleading names ("sticky-sidebar" around the article): a block holding
  // much of the prose stays unless it is mostly links.
  if (stats.of(el).chars > rootChars * 0.3 && stats.linkDensity(el) < 0.5) return false;
  if (weight < 0 && weight + (scores.get(el) ?? 0) < 0) return true;
  const s = stats.of(el);
  if (s.commas >= 10 || s.codeBlocks > 0) return false;
  const isList = el.name === "ul" || el.name === "ol" || el.name === "dl";
  const isTable = el.name === "table";
  // An image grid, unless its list items carry sentences (a recipe's steps with a photo each).
  const textItems = s.items >= 2 && s.chars / s.items >= 40;
  if (
    s.images > 1 &&
    s.paragraphs / s.images < 0.5 &&
    s.chars < s.images * 60 &&
    el.name !== "figure" &&
    !textItems
  )
    return true;
  if (!isList && !isTable && s.items > s.paragraphs + 1 && s.headings === 0 && stats.linkDensity(el) > 0.3)
    return true;
  if (s.inputs > Math.floor(s.paragraphs / 3)) return true;
  if (!isList && !isTable && s.chars < 25 && s.headings === 0 && (s.images === 0 || s.images > 2))
    return true;
  const density = stats.linkDensity(el);
  if (weight < 25 && density > (isList ? 0.8 : 0.33)) return true;
  if (weight >= 25 && density > 0.6) return true;
  return false;
}

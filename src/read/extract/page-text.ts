import type { AnyNode, Document, Element } from "./dom.js";
import { collapseWhitespace, isTag, isText } from "./dom.js";

/**
 * The page's text as a browser lays it out for find-in-page and text fragments: the visible text of the whole
 * document (chrome included, since a browser matches a fragment against all of it), one string per block, white
 * space collapsed as CSS collapses it. A text-fragment link is built from these words, never from websift's
 * markdown, where links, math and tables are written differently. Read from the tree as parsed, before
 * cleaning takes anything away.
 */

// Elements laid out as blocks by the browser's default style sheet: a term of a text directive never spans one.
const BLOCK_TAGS = new Set(
  (
    "address article aside blockquote body caption center dd details dialog dir div dl dt fieldset figcaption " +
    "figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr html legend li listing main menu nav ol optgroup option " +
    "p plaintext pre search section summary table tbody td tfoot th thead tr ul xmp"
  ).split(" "),
);
// What the Text Fragments spec calls search-invisible, and what the browser does not render as text.
const INVISIBLE_TAGS = new Set(
  (
    "head script style template noscript title iframe img image meter object progress video audio canvas embed " +
    "picture input textarea select"
  ).split(" "),
);
// A page whose text runs past this is left without links: beyond it, a match elsewhere could not be ruled out.
export const MAX_PAGE_TEXT_CHARS = 1_000_000;

/** The visible text blocks of `doc`, or undefined for a page too large to hold whole. */
export function pageTextBlocks(doc: Document): string[] | undefined {
  const blocks: string[] = [];
  let current = "";
  let total = 0;
  const flush = () => {
    const text = collapseWhitespace(current);
    current = "";
    if (!text) return;
    blocks.push(text);
    total += text.length;
  };
  const visit = (node: AnyNode, pre: boolean): void => {
    if (total > MAX_PAGE_TEXT_CHARS) return;
    if (isText(node)) {
      if (!pre) current += node.data;
      else {
        // Preformatted lines stay lines: a term never spans one, whatever the browser makes of the breaks.
        const lines = node.data.split("\n");
        lines.forEach((line, i) => {
          if (i > 0) flush();
          current += line;
        });
      }
      return;
    }
    if (!isTag(node)) return;
    const el = node as Element;
    if (INVISIBLE_TAGS.has(el.name) || hiddenByMarkup(el)) return;
    if (el.name === "br" || el.name === "wbr") {
      if (el.name === "br") flush();
      return;
    }
    const block = BLOCK_TAGS.has(el.name);
    if (block) flush();
    const inPre = pre || el.name === "pre" || el.name === "listing" || el.name === "plaintext";
    for (const child of el.children) visit(child, inPre);
    if (block) flush();
  };
  for (const child of doc.children) visit(child, false);
  flush();
  return total > MAX_PAGE_TEXT_CHARS ? undefined : blocks;
}

/** Hidden by the page's own markup (`hidden`, an inline display:none); `hidden=until-found` is searchable. */
function hiddenByMarkup(el: Element): boolean {
  const hidden = el.attribs.hidden;
  if (hidden !== undefined && hidden.toLowerCase() !== "until-found") return true;
  const style = el.attribs.style;
  return !!style && /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\b/i.test(style);
}

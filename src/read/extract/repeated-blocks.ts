import { collapseWhitespace } from "./dom.js";
import { SETTINGS } from "./settings.js";

// Pages often carry a section twice, one copy for narrow screens and one for wide ones with CSS choosing between
// them (a shop's description and size chart, a sales page's feature list), or the whole article again in a
// second template; a reader sees one. The rendered blocks are compared as text, so the copies are found
// whatever their wrappers: a later block saying exactly what an earlier one said goes. Short blocks recur on
// their own ("Add to cart", a listing card's "Free shipping") and code repeats by nature (a tutorial shows the
// same function at each step), so both stay.

/** The blocks without the later copies of a block of at least `repeatedBlockMinChars` characters. */
export function dropRepeatedBlocks(blocks: string[]): string[] {
  const seen = new Set<string>();
  return blocks.filter((block) => {
    if (block.startsWith("```")) return true;
    const text = collapseWhitespace(block);
    if (text.length < SETTINGS.repeatedBlockMinChars) return true;
    if (seen.has(text)) return false;
    seen.add(text);
    return true;
  });
}

import type { Element } from "./dom.js";
import { SETTINGS } from "./settings.js";
import type { TextStatsIndex } from "./text-stats.js";

/** Characters a block is worth as content: its running text counts, its links count against it. */
function worth(chars: number, linkChars: number, commas: number): number {
  return chars - (1 + SETTINGS.regionLinkPenalty) * linkChars + SETTINGS.regionCommaChars * commas;
}

/**
 * Whether the prose region around the chosen content replaces it. A content holding little of the page's
 * unlinked text missed it, one holding most of it did not; between the two the text the region adds is
 * weighed against the content's own: a menu or a grid of teasers around an article adds links, the rest
 * of a split article adds sentences. A declared listing's items are links, so there the share alone decides.
 */
export function prefersRegion(
  root: Element,
  chosen: readonly Element[],
  region: Element,
  stats: TextStatsIndex,
  listing: boolean,
): boolean {
  const share = chosen.reduce((n, el) => n + stats.unlinked(el), 0) / Math.max(1, stats.unlinked(root));
  if (listing) return share < SETTINGS.listingPrimaryShare;
  if (share < SETTINGS.primaryMissedShare) return true;
  if (share >= SETTINGS.primaryHeldShare) return false;
  let chars = 0;
  let linkChars = 0;
  let commas = 0;
  for (const el of chosen) {
    const s = stats.of(el);
    chars += s.chars;
    linkChars += s.linkChars;
    commas += s.commas;
  }
  const all = stats.of(region);
  const extra = worth(all.chars - chars, all.linkChars - linkChars, all.commas - commas);
  return extra > SETTINGS.regionExtraWorth * worth(chars, linkChars, commas);
}

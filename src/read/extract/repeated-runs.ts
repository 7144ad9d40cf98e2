import { collapseWhitespace } from "./dom.js";
import { SETTINGS } from "./settings.js";

// A page that says nothing of its kind may still carry its whole article twice (a second template for another
// screen width, a print copy): several blocks in a row that say, in order, what an earlier row said. A single
// block said again is left alone there, as documentation repeats a parameter's description under each
// signature and its readers keep both.

/** The blocks without the later copies of runs of at least `SETTINGS.repeatedRunMinBlocks` blocks that repeat an earlier run in order. */
export function dropRepeatedRuns(blocks: string[]): string[] {
  const first = new Map<string, number>();
  const earlier: number[] = blocks.map((block, i) => {
    if (block.startsWith("```")) return -1;
    const text = collapseWhitespace(block);
    if (text.length < SETTINGS.repeatedBlockMinChars) return -1;
    const seen = first.get(text);
    if (seen === undefined) first.set(text, i);
    return seen ?? -1;
  });
  const drop = new Set<number>();
  for (let i = 0; i < blocks.length; ) {
    if (earlier[i]! < 0) {
      i++;
      continue;
    }
    let n = 1;
    while (i + n < blocks.length && earlier[i + n] === earlier[i]! + n) n++;
    if (n >= SETTINGS.repeatedRunMinBlocks) for (let k = 0; k < n; k++) drop.add(i + k);
    i += n;
  }
  return drop.size ? blocks.filter((_, i) => !drop.has(i)) : blocks;
}

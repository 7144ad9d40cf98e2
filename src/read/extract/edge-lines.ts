// A line of running text is a sentence: it ends in sentence punctuation, or it is long enough to be one.
const SENTENCE_END = /[.!?…。！？:：]["'»”’)\]）」』]*$/u;
// Scripts written without spaces between words: a short line is still a sentence there.
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;
const MAX_RUN = 3;
const DATE = /\b(?:\d{1,2}[./-]\d{1,2}[./-](?:\d{4}|\d{2})|\d{4}-\d{2}-\d{2})\b/;
const STRUCTURED = /^(?:#|[-*+] |\d+[.)] |> |\||```|~~~)/;

/** A short plain line that is not a sentence: a date, a byline, a label ("Kategorie: News", "Kontakt"). */
function isStub(block: string): boolean {
  if (block.length > 100 || block.includes("\n") || STRUCTURED.test(block)) return false;
  // A time stamp ("Aktualisiert: 11.04.2020, 10:27") is a stub whatever its punctuation.
  if (block.length <= 40 && DATE.test(block)) return true;
  if (SENTENCE_END.test(block) || UNSPACED.test(block) || block.includes(",")) return false;
  return block.split(/\s+/).length <= 10;
}

/**
 * A heading with nothing after it introduces nothing: it is the title of a widget that was not kept
 * ("Jetzt teilen!", "About the Author"). A heading that is a sentence (a pull quote) stays.
 */
function isClosingHeading(block: string): boolean {
  return /^#{1,6} /.test(block) && block.length <= 100 && !/\.["'»”’)]*$/u.test(block);
}

/**
 * Drops the run of short non-sentence lines after the last block of real content: what follows an
 * article's last paragraph on a page is its furniture (dates, labels, "Kontakt", "Jetzt teilen"), and an
 * article does not end on a fragment.
 */
export function trimTrailingStubs(blocks: string[]): string[] {
  let end = blocks.length;
  while (end > 1 && (isStub(blocks[end - 1]!) || isClosingHeading(blocks[end - 1]!))) end--;
  // Only when real content remains: a page of short lines (a listing, a menu card) is its own content.
  return end < blocks.length && blocks.slice(0, end).join("").length >= 200 ? blocks.slice(0, end) : blocks;
}

/**
 * The same at the start: dates, bylines and section labels above the article's first sentence, also
 * between the headline and the lead (the headings stay).
 */
export function trimLeadingStubs(blocks: string[]): string[] {
  let start = 0;
  const stubs = new Set<number>();
  for (; start < blocks.length - 1; start++) {
    const block = blocks[start]!;
    if (isStub(block)) stubs.add(start);
    else if (!/^#{1,6} /.test(block)) break;
  }
  const kept = blocks.filter((_, i) => !stubs.has(i));
  // Many short lines in a row are a list written as lines (ingredients, specifications), not furniture.
  return stubs.size && stubs.size <= MAX_RUN && kept.join("").length >= 200 ? kept : blocks;
}

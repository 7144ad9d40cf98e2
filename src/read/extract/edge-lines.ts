import { isPrice } from "./price.js";

// A line of running text is a sentence: it ends in sentence punctuation, or it is long enough to be one.
const SENTENCE_END = /[.!?…。！？:：]["'»”’)\]）」』]*$/u;
// Scripts written without spaces between words: a short line is still a sentence there.
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;
const MAX_RUN = 3;
const DATE = /\b(?:\d{1,2}[./-]\d{1,2}[./-](?:\d{4}|\d{2})|\d{4}-\d{2}-\d{2})\b/;
const STRUCTURED = /^(?:#|[-*+] |\d+[.)] |> |\||```|~~~)/;
const HEADING_LINE = /^#{1,6} /;

/** A short plain line that is not a sentence: a date, a byline, a label ("Kategorie: News", "Kontakt"). */
function isStub(block: string): boolean {
  if (block.length > 100 || block.includes("\n") || STRUCTURED.test(block) || isPrice(block)) return false;
  // A time stamp ("Aktualisiert: 11.04.2020, 10:27") is a stub whatever its punctuation.
  if (block.length <= 40 && DATE.test(block)) return true;
  if (SENTENCE_END.test(block) || UNSPACED.test(block) || block.includes(",")) return false;
  return block.split(/\s+/).length <= 10;
}

// A byline ("By Sarah Yang", "Von Anna Muster und Max Beispiel", "Autor: …"): a lead-in word and a name,
// one to four capitalised words (particles such as "van" or "de" between them), optionally a second name
// after "and/und/y/et/&", optionally a date or a source after a separator. "By Christmas, the club …" (a
// comma), "Di Maria scores …" and "Von Braun built …" (a lowercase word) are headlines or sentences.
const NAME_WORD = String.raw`\p{Lu}[\p{L}'’.-]*`;
const NAME = String.raw`${NAME_WORD}(?:\s+(?:(?:van|von|der|den|de|da|di|del|la|le|du|dos|bin|al|zu)\s+)*${NAME_WORD}){0,3}`;
const BYLINE = new RegExp(
  String.raw`^(?:[Bb]y|[Vv]on|[Pp]ar|[Pp]or|[Dd]i|[Dd]oor|[Pp]rzez|[Ww]ritten by|[Aa]ut(?:or|hor|eur)(?:in)?:?|[Tt]ext:)\s+${NAME}(?:\s+(?:and|und|y|et|e|i|&)\s+${NAME})?(?:\s*[|•·–—/]\s*.*)?$`,
  "u",
);
// A date with its year: "19 Febbraio 2020", "31. Mai 2012", "Feb 8, 2020", "16 marca 2021", "24.01.2022".
const DATED =
  /\b\d{1,2}\.?\s+\p{L}{3,12}\.?,?\s+\d{4}\b|\b\p{L}{3,12}\.?\s+\d{1,2},?\s+\d{4}\b|\b\d{1,2}[./-]\d{1,2}[./-]\d{4}\b|\b\d{4}-\d{2}-\d{2}\b/u;
// Words that introduce a publication or update date.
const PUBLISHED =
  /\b(?:published|posted|updated|last (?:updated|modified)|veröffentlicht|aktualisiert|publiziert|erstellt|stand|erschienen|erscheinungsdatum|gespeichert|pubblicato|aggiornato|publicado|actualizado|publié|mis à jour|dodano|opublikowano|zaktualizowano)(?![\p{L}\p{N}_])/iu;
// "5 min read", "Lesezeit: 4 Minuten", "3 minutes de lecture".
const READING_TIME =
  /\b\d+\s?(?:min(?:ute)?s?|minuten|minutos|minuti)\.?\s(?:read|lesezeit|lesedauer|de lecture|de lectura|di lettura)\b|\b(?:lesezeit|lesedauer|reading time)\s?:?\s?\d+/iu;

/**
 * A line about the article, not of it: a byline, a date line, a reading time. Commas do not make it a
 * sentence ("Donnerstag, 31. Mai 2012", "Feb 8, 2020").
 */
function isMetaLine(block: string, beforeProse: boolean): boolean {
  if (block.length > 100 || block.includes("\n") || STRUCTURED.test(block) || /[.!?]["'»”’)]*$/u.test(block))
    return false;
  if (block.split(/\s+/).length > 14) return false;
  if (BYLINE.test(block) || READING_TIME.test(block)) return true;
  // A date makes a line metadata when the line says so ("Veröffentlicht am …") or is little else; a date
  // under another label ("Termin: 21.02.2020, 19 Uhr") is content. A bare date after the first paragraph
  // ("Saturday, 14 June 2025" on an event page) is the content's own date, not the article's.
  if (!DATED.test(block)) return false;
  return PUBLISHED.test(block) || (beforeProse && block.split(/\s+/).length <= 5 && !block.includes(":"));
}

/** A paragraph of running text, longer than a standfirst: not a heading, a list or a short line. */
function isProse(block: string): boolean {
  return !HEADING_LINE.test(block) && !STRUCTURED.test(block) && block.length > 150;
}

// The byline and the date sit by the headline and the lead: only the first blocks are looked at.
const META_ZONE = 4;

/**
 * Byline, date and reading-time lines among the first blocks, also after the lead (standfirst): an
 * article's body does not open with "By Sarah Yang" or "Pubblicato il 19 Febbraio 2020".
 */
function dropLeadingMeta(blocks: string[]): string[] {
  let firstProse = blocks.findIndex((b) => isProse(b) && !isMetaLine(b, false));
  if (firstProse < 0) firstProse = blocks.length;
  const kept = blocks.filter((b, i) => i >= META_ZONE || !isMetaLine(b, i < firstProse));
  return kept.length < blocks.length && kept.join("").length >= 200 ? kept : blocks;
}

/**
 * A heading with nothing after it introduces nothing: it is the title of a widget that was not kept
 * ("Jetzt teilen!", "About the Author"). A heading that is a sentence (a pull quote) stays.
 */
function isClosingHeading(block: string): boolean {
  return HEADING_LINE.test(block) && block.length <= 100 && !/\.["'»”’)]*$/u.test(block);
}

/**
 * Drops the run of short non-sentence lines after the last block of real content: what follows an
 * article's last paragraph on a page is its furniture (dates, labels, "Kontakt", "Jetzt teilen"), and an
 * article does not end on a fragment.
 */
export function trimTrailingStubs(blocks: string[]): string[] {
  let end = blocks.length;
  let headings = 0;
  for (; end > 1; end--) {
    const block = blocks[end - 1]!;
    if (isClosingHeading(block)) headings++;
    else if (!isStub(block)) break;
  }
  // Several headings in a row are the page's own list ("16. Stephen Fry", "17. Alan Cumming" under pictures),
  // not the titles of widgets that were dropped.
  if (headings > MAX_RUN) return blocks;
  // Only when real content remains: a page of short lines (a listing, a menu card) is its own content.
  return end < blocks.length && blocks.slice(0, end).join("").length >= 200 ? blocks.slice(0, end) : blocks;
}

/**
 * The same at the start: dates, bylines and section labels above the article's first sentence, also
 * between the headline and the lead (the headings stay).
 */
export function trimLeadingStubs(blocks: string[]): string[] {
  return dropLeadingMeta(trimLeadingRun(blocks));
}

function trimLeadingRun(blocks: string[]): string[] {
  let start = 0;
  const stubs = new Set<number>();
  for (; start < blocks.length - 1; start++) {
    const block = blocks[start]!;
    if (isStub(block)) stubs.add(start);
    else if (!HEADING_LINE.test(block)) break;
  }
  const kept = blocks.filter((_, i) => !stubs.has(i));
  // Many short lines in a row are a list written as lines (ingredients, specifications), not furniture.
  return stubs.size && stubs.size <= MAX_RUN && kept.join("").length >= 200 ? kept : blocks;
}

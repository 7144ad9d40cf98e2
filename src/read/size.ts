import { scorePassages } from "./passages.js";

/**
 * Sizing a page's markdown for a context window. Pure functions: the reader and envelopes call them on
 * text they already hold. Lengths are String lengths (UTF-16 code units), the unit callers budget in.
 */
export type SizeMode = "passages" | "cut" | "head-tail";

export interface SizeOptions {
  /** Budget for the returned text, markers included. Default 6000; budgets under 100 count as 100. */
  maxChars?: number;
  /** What the reader is after; selects passages (mode "passages" is then the default). */
  lookingFor?: string;
  mode?: SizeMode;
  /** Where to start reading, for the next window of a long page (use a previous `nextOffset`). */
  offset?: number;
}

export interface SizedText {
  text: string;
  /** The text is not the whole page. */
  truncated: boolean;
  totalChars: number;
  /** `text.length`, markers included. */
  returnedChars: number;
  /** Page characters not in `text` after the point reached (cut), or left out anywhere (other modes). */
  remaining: number;
  /** Where the next window starts, when reading on makes sense. */
  nextOffset?: number;
}

export const DEFAULT_MAX_CHARS = 6000;
const MIN_MAX_CHARS = 100;
// Share of a passage budget that goes to the page's start, where a page says what it is.
const LEAD_SHARE = 0.25;
const ELISION = "[…]";
const HEAD_TAIL_MARKER = "[TRUNCATED]";

const truncationMarker = (reached: number, total: number) => `[TRUNCATED: ${reached} of ${total} characters]`;
const continuationNotice = (offset: number, total: number) =>
  `[CONTINUED: from character ${offset} of ${total}]`;

/** A block of markdown: a paragraph, list, table, heading or whole fenced code block. */
interface Block {
  start: number;
  end: number;
}

/**
 * Splits at blank lines, never inside a fenced code block. Spans index into `text`. With `until`, stops after
 * the first block that ends past it: a cut needs no more, and a page of a million blocks costs a million spans.
 */
export function splitBlocks(text: string, from = 0, until = Number.POSITIVE_INFINITY): Block[] {
  const blocks: Block[] = [];
  let start = -1;
  let fence: string | undefined;
  let at = from;
  while (at < text.length) {
    const newline = text.indexOf("\n", at);
    const lineEnd = newline === -1 ? text.length : newline;
    const line = text.slice(at, lineEnd);
    const fenceMark = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (fenceMark?.startsWith(fence)) fence = undefined;
    } else if (fenceMark) {
      fence = fenceMark;
    }
    if (line.trim() === "" && fence === undefined) {
      if (start !== -1) {
        const end = trimEndIndex(text, start, at);
        blocks.push({ start, end });
        if (end > until) return blocks;
      }
      start = -1;
    } else if (start === -1) {
      start = at;
    }
    at = lineEnd + 1;
  }
  if (start !== -1) blocks.push({ start, end: trimEndIndex(text, start, text.length) });
  return blocks;
}

function trimEndIndex(text: string, start: number, end: number): number {
  let e = end;
  while (e > start && /\s/.test(text[e - 1])) e--;
  return e;
}

/**
 * The longest start of `text` within `maxChars` that ends at a paragraph boundary; when even the first
 * paragraph is too long, at its last sentence end that fits (a line end in code, tables and lists), and
 * only when one sentence exceeds the budget, at a word boundary. No marker: callers add their own.
 */
export function cutAtParagraph(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return takeHead(text, 0, maxChars).text;
}

interface Piece {
  text: string;
  /** Index in the source just after the piece (past any fence closer it needed). */
  end: number;
}

/** The longest run of whole blocks from `from` within `budget`, or the cut start of the first block. */
function takeHead(source: string, from: number, budget: number): Piece {
  const blocks = splitBlocks(source, from, from + budget);
  let end = -1;
  for (const block of blocks) {
    if (block.end - from > budget) break;
    end = block.end;
  }
  if (end !== -1) return { text: source.slice(from, end), end };
  const first = blocks[0];
  if (!first) return { text: "", end: from };
  return cutBlock(source, first, budget);
}

/** The start of one block within `budget`, at the best boundary available. */
function cutBlock(source: string, block: Block, budget: number): Piece {
  const text = source.slice(block.start, block.end);
  const fenced = /^\s{0,3}(`{3,}|~{3,})/.exec(text)?.[1];
  const closer = fenced ? `\n${fenced}` : "";
  const limit = Math.max(0, budget - closer.length);
  const structured = fenced !== undefined || /^\s*(?:[|>*+-]|\d+[.)])\s?/.test(text);
  const [preferred, fallback] = structured ? [lineEnds, sentenceEnds] : [sentenceEnds, lineEnds];
  const cut = preferred(text, limit) ?? fallback(text, limit) ?? wordBoundary(text, limit);
  const piece = text.slice(0, cut).trimEnd();
  return { text: piece + (piece && closer), end: block.start + cut };
}

/** The last line end within `limit` (not at the very start). */
function lineEnds(text: string, limit: number): number | undefined {
  const at = text.lastIndexOf("\n", limit);
  return at > 0 ? at : undefined;
}

const sentences = new Intl.Segmenter(undefined, { granularity: "sentence" });
// Text segmented beyond the part that can be kept, so that a sentence boundary near the limit is the one the
// whole text has (sentence rules look ahead past a full stop for what follows it).
const SEGMENT_MARGIN = 1000;

/**
 * The last sentence end within `limit`. Only a window around the limit is segmented, lazily: each segment
 * Intl.Segmenter yields holds its own copy of the input, so segmenting a whole 200 KB log took 900 MB and a
 * block of a million headings ran the process out of memory.
 */
function sentenceEnds(text: string, limit: number): number | undefined {
  let best: number | undefined;
  for (const s of sentences.segment(text.slice(0, limit + SEGMENT_MARGIN))) {
    const end = s.index + s.segment.length;
    if (end > limit) break;
    if (end > 0) best = end;
  }
  return best;
}

function wordBoundary(text: string, limit: number): number {
  const space = text.lastIndexOf(" ", limit);
  if (space > limit / 2) return space;
  // Never split a surrogate pair.
  const code = text.charCodeAt(limit - 1);
  return code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit;
}

/** The last blocks of `source` after `after` that fit in `budget`, or the cut end of the last block. */
function takeTail(source: string, after: number, budget: number): { text: string; start: number } {
  const blocks = splitBlocks(source, after);
  const end = blocks.at(-1)?.end ?? source.length;
  let start = -1;
  for (let i = blocks.length - 1; i >= 0; i--) {
    if (end - blocks[i].start > budget) break;
    start = blocks[i].start;
  }
  if (start !== -1) return { text: source.slice(start, end), start };
  const last = blocks.at(-1);
  if (!last) return { text: "", start: source.length };
  const text = source.slice(last.start, last.end);
  const from = firstSentenceEndFrom(text, text.length - budget);
  if (from === undefined) return { text: "", start: source.length };
  return { text: text.slice(from).trimStart(), start: last.start + from };
}

/** The first sentence end at or after `min` and before the text's end, segmenting only the text's tail. */
function firstSentenceEndFrom(text: string, min: number): number | undefined {
  const windowStart = Math.max(0, min - SEGMENT_MARGIN);
  for (const s of sentences.segment(text.slice(windowStart))) {
    const end = windowStart + s.index + s.segment.length;
    if (end >= text.length) return undefined;
    if (end >= min) return end;
  }
  return undefined;
}

function skipSpace(text: string, at: number): number {
  let i = at;
  while (i < text.length && /\s/.test(text[i])) i++;
  return i;
}

/**
 * Fits a page into `maxChars`. A page that fits is returned whole; otherwise:
 * - "cut": from the start (or `offset`) up to a paragraph boundary, then `[TRUNCATED: n of m characters]`
 *   where n is how far the text reaches and `nextOffset` where the next window begins;
 * - "passages" (with `lookingFor`): the page's start first, then the paragraphs that match, in page
 *   order, with `[…]` where text was left out; no match at all reads like "cut";
 * - "head-tail": the first 75% and the last 25% of the budget with `[TRUNCATED]` between.
 */
export function sizeText(markdown: string, options: SizeOptions = {}): SizedText {
  const totalChars = markdown.length;
  const maxChars = Math.max(MIN_MAX_CHARS, Math.floor(options.maxChars ?? DEFAULT_MAX_CHARS));
  const offset = skipSpace(markdown, Math.min(Math.max(0, Math.floor(options.offset ?? 0)), totalChars));
  const notice = offset > 0 ? `${continuationNotice(offset, totalChars)}\n\n` : "";
  const budget = maxChars - notice.length;
  const mode = options.mode ?? (options.lookingFor ? "passages" : "cut");
  const result = (text: string, remaining: number, nextOffset?: number): SizedText => {
    const full = notice + text;
    const truncated = offset > 0 || remaining > 0;
    return { text: full, truncated, totalChars, returnedChars: full.length, remaining, nextOffset };
  };

  if (totalChars - offset <= budget) return result(markdown.slice(offset), 0);
  if (mode === "head-tail") return headTail(markdown, offset, budget, result);
  if (mode === "passages" && options.lookingFor) {
    const passages = selectPassages(markdown, offset, budget, options.lookingFor);
    if (passages) return result(passages.text, totalChars - offset - passages.pageChars);
  }
  const reserve = `\n\n${truncationMarker(totalChars, totalChars)}`.length;
  const head = takeHead(markdown, offset, budget - reserve);
  const next = skipSpace(markdown, head.end);
  const body = head.text ? `${head.text}\n\n` : "";
  return result(`${body}${truncationMarker(next, totalChars)}`, totalChars - next, next);
}

type Result = (text: string, remaining: number, nextOffset?: number) => SizedText;

function headTail(markdown: string, offset: number, budget: number, result: Result): SizedText {
  const separator = `\n\n${HEAD_TAIL_MARKER}\n\n`;
  const room = budget - separator.length;
  const head = takeHead(markdown, offset, Math.floor(room * 0.75));
  const next = skipSpace(markdown, head.end);
  const tail = takeTail(markdown, next, room - head.text.length);
  const omitted = Math.max(0, tail.start - next);
  return result(`${head.text}${separator}${tail.text}`.trimEnd(), omitted, next);
}

/** Page start plus matching blocks within `budget`; undefined when nothing matches. */
function selectPassages(
  markdown: string,
  offset: number,
  budget: number,
  lookingFor: string,
): { text: string; pageChars: number } | undefined {
  const blocks = splitBlocks(markdown, offset);
  const scores = scorePassages(
    blocks.map((b) => markdown.slice(b.start, b.end)),
    lookingFor,
  );
  if (!scores.some((s) => s > 0)) return undefined;

  const reserve = `\n\n${truncationMarker(markdown.length, markdown.length)}`.length;
  const room = budget - reserve;
  const pieces = new Pieces(blocks.length);
  const textOf = (i: number) => markdown.slice(blocks[i].start, blocks[i].end);
  const tryAdd = (i: number, text = textOf(i)) => {
    if (pieces.has(i)) return true;
    if (pieces.lengthWith(i, text) > room) return false;
    pieces.add(i, text);
    return true;
  };

  const leadRoom = Math.floor(room * LEAD_SHARE);
  for (let i = 0; i < blocks.length; i++) {
    if (pieces.length + textOf(i).length > leadRoom) break;
    tryAdd(i);
  }
  if (pieces.size === 0) pieces.add(0, cutBlock(markdown, blocks[0], leadRoom).text);
  // A heading whose section did not fit would announce text that is not there.
  const leadEnd = pieces.last;
  if (leadEnd > 0 && isHeading(textOf(leadEnd))) pieces.delete(leadEnd);

  const ranked = scores
    .map((score, i) => ({ score, i }))
    .filter((s) => s.score > 0 && !pieces.has(s.i))
    .sort((a, b) => b.score - a.score);
  for (const { i } of ranked) {
    const heading = isHeading(textOf(i));
    if (!tryAdd(i)) {
      const spare = room - pieces.length - ELISION.length - 4;
      if (spare > 200 && !heading) tryAdd(i, cutBlock(markdown, blocks[i], spare).text);
      continue;
    }
    // A matching paragraph reads better under its heading; a matching heading needs its paragraph.
    if (i > 0 && isHeading(textOf(i - 1))) tryAdd(i - 1);
    if (heading && i + 1 < blocks.length) tryAdd(i + 1);
  }

  const body = pieces.assemble();
  const reached = blocks[pieces.last].end;
  return { text: `${body}\n\n${truncationMarker(reached, markdown.length)}`, pageChars: pieces.chars };
}

/**
 * The chosen blocks in page order, joined by blank lines with `[…]` where blocks were left out, and the length
 * of that text kept as blocks come and go: joining the text again for every candidate made choosing passages
 * on a page of 200,000 paragraphs take 17 s.
 */
class Pieces {
  private readonly texts = new Map<number, string>();
  /** Chosen block indexes, ascending. */
  private readonly order: number[] = [];
  /** Characters of the chosen blocks' texts. */
  chars = 0;
  /** Gaps between consecutive chosen blocks, each an elision. */
  private gaps = 0;

  constructor(private readonly blockCount: number) {}

  get size(): number {
    return this.order.length;
  }

  get last(): number {
    return this.order.at(-1) ?? -1;
  }

  has(i: number): boolean {
    return this.texts.has(i);
  }

  /** Length of the assembled text. */
  get length(): number {
    return this.measure(this.order.length, this.chars, this.gaps, this.last);
  }

  /** Length of the assembled text with block `i` added as `text`. */
  lengthWith(i: number, text: string): number {
    const at = this.position(i);
    return this.measure(
      this.order.length + 1,
      this.chars + text.length,
      this.gaps + this.gapChange(at, i),
      Math.max(this.last, i),
    );
  }

  add(i: number, text: string): void {
    const at = this.position(i);
    this.gaps += this.gapChange(at, i);
    this.order.splice(at, 0, i);
    this.texts.set(i, text);
    this.chars += text.length;
  }

  delete(i: number): void {
    const text = this.texts.get(i);
    if (text === undefined) return;
    const at = this.position(i);
    this.order.splice(at, 1);
    this.gaps -= this.gapChange(at, i);
    this.texts.delete(i);
    this.chars -= text.length;
  }

  assemble(): string {
    const parts: string[] = [];
    let previous = -1;
    for (const i of this.order) {
      if (i > previous + 1 && previous !== -1) parts.push(ELISION);
      parts.push(this.texts.get(i)!);
      previous = i;
    }
    if (previous < this.blockCount - 1) parts.push(ELISION);
    return parts.join("\n\n");
  }

  /** Where `i` goes in (or is in) `order`. */
  private position(i: number): number {
    let lo = 0;
    let hi = this.order.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.order[mid]! < i) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** How many gaps `i` adds between its neighbours; `at` is its position in `order` without it. */
  private gapChange(at: number, i: number): number {
    const before = at > 0 ? this.order[at - 1] : undefined;
    const after = at < this.order.length ? this.order[at] : undefined;
    const gap = (a: number | undefined, b: number | undefined) =>
      a !== undefined && b !== undefined && b > a + 1 ? 1 : 0;
    return gap(before, i) + gap(i, after) - gap(before, after);
  }

  private measure(count: number, chars: number, gaps: number, last: number): number {
    const trailing = last < this.blockCount - 1 ? 1 : 0;
    const parts = count + gaps + trailing;
    return chars + ELISION.length * (gaps + trailing) + 2 * Math.max(0, parts - 1);
  }
}

function isHeading(block: string): boolean {
  return /^#{1,6}\s/.test(block);
}

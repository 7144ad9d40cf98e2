import { modelSafe } from "./fence.js";
import { redactSecrets } from "./redact.js";
import {
  findTextDirective,
  fragmentUrl,
  type PageText,
  type TextDirective,
  wordsOf,
} from "./text-fragment.js";

/**
 * A text-fragment link for one passage of a page's extracted text. The passage's words are found in the page's
 * own text (the browser's blocks, not the markdown), the terms are cut from that text, and a directive is kept
 * only when the spec's matching finds exactly the passage's span with it, and when nothing in its window would
 * be redacted: a link carries words of the page, and no secret or hidden character travels in one.
 */

// Words of the start (and of the end) term a link tries first; more only when fewer are not unique.
const TERM_WORDS = [3, 5, 8, 12];
// A passage this short (in words, inside one block) is one start term.
const WHOLE_TERM_WORDS = 8;
// Context words tried before the start and after the end when the terms alone are not unique.
const CONTEXT_WORDS = [1, 2, 4];
// How far alignment looks ahead to step over words one side has and the other has not (an image's alt text).
const RESYNC_PASSAGE = 12;
const RESYNC_PAGE = 40;
// Words at a passage's opening that must follow one another on the page with nothing stepped over.
const STRICT_LEAD_WORDS = 6;

interface Located {
  block: number;
  word: number;
}

/** The fragment URL of `passage` on the page at `url`, or undefined when no honest, unique one exists. */
export function passageLink(url: string, page: PageText, passage: string): string | undefined {
  const span = locateRun(page, passage);
  if (!span) return undefined;
  let directive = directiveFor(page, span.start, span.end);
  // A span no directive can single out (it ends in a paragraph the page repeats word for word right after it)
  // is opened at its start: the link highlights its first blocks instead.
  for (let b = span.end.block - 1; !directive && b >= span.start.block; b--) {
    const words = page.words(b).length;
    if (words) directive = directiveFor(page, span.start, { block: b, word: words - 1 });
  }
  return directive ? fragmentUrl(url, directive) : undefined;
}

/**
 * Where a run of the extracted text's paragraphs starts and ends on the page: its first paragraph the page shows
 * (an image's alt text is not shown) and its last one after it. What the extractor left out between them (a
 * card's date line, a share button) is inside the range a browser highlights; the passage's own words start
 * and end it.
 */
function locateRun(page: PageText, passage: string): { start: Located; end: Located } | undefined {
  const paragraphs = passage.split(/\n{2,}/).filter((p) => wordsOf(p).length);
  for (let i = 0; i < paragraphs.length; i++) {
    const first = locate(page, paragraphs[i]);
    if (!first) continue;
    for (let j = paragraphs.length - 1; j > i; j--) {
      const last = locate(page, paragraphs[j], next(page, first.end));
      if (!last) continue;
      // The range opens at the copy of its first paragraph nearest before its last: a heading that the menu
      // repeats earlier on the page must not stretch the highlight over everything in between.
      let start = first;
      for (
        let later = locate(page, paragraphs[i], next(page, start.start));
        later && before(later.end, last.start);
        later = locate(page, paragraphs[i], next(page, later.start))
      )
        start = later;
      return { start: start.start, end: last.end };
    }
    return first;
  }
  return undefined;
}

/**
 * Where the passage's first and last words stand in the page's text, at or after `from`. A place where the
 * passage fills whole blocks is preferred to one where it is only part of a block (a heading that repeats a
 * paragraph's opening).
 */
export function locate(
  page: PageText,
  passage: string,
  from: Located | undefined = { block: 0, word: 0 },
): { start: Located; end: Located } | undefined {
  if (!from) return undefined;
  const wanted = wordsOf(passage).map((w) => w.folded);
  if (!wanted.length) return undefined;
  const lead = Math.min(3, wanted.length);
  let partial: { start: Located; end: Located } | undefined;
  for (let b = from.block; b < page.blocks.length; b++) {
    if (!wanted.slice(0, lead).every((w) => page.mayHold(b, w))) continue;
    const words = page.words(b);
    for (let j = b === from.block ? from.word : 0; j < words.length; j++) {
      if (words[j].folded !== wanted[0]) continue;
      let run = 1;
      while (run < lead && j + run < words.length && words[j + run].folded === wanted[run]) run++;
      // The passage's first words, or a whole short block that is its start (a heading).
      if (run < lead && j + run < words.length) continue;
      const end = align(page, wanted, { block: b, word: j });
      if (!end) continue;
      const span = { start: { block: b, word: j }, end };
      if (j === 0 && end.word === page.words(end.block).length - 1) return span;
      partial ??= span;
    }
  }
  return partial;
}

/**
 * Walks the passage's words through the page's from `start`; the page point of its last word, if reached. Its
 * first words must follow one another as on the page, and only a few words may be stepped over in all (an
 * image's alt text, a footnote mark): a passage that only shares its opening with a block is not that block.
 */
function align(page: PageText, wanted: string[], start: Located): Located | undefined {
  let last = start;
  let i = 1;
  let skipped = 0;
  const allowed = Math.max(3, Math.floor(wanted.length * 0.15));
  let step = next(page, start);
  while (i < wanted.length) {
    if (step && page.words(step.block)[step.word].folded === wanted[i]) {
      last = step;
      i++;
      step = next(page, step);
      continue;
    }
    if (i < STRICT_LEAD_WORDS) return undefined;
    const at = resync(page, wanted, i, step);
    if (!at) return undefined;
    skipped += at.index - i + at.pageSkipped;
    if (skipped > allowed) return undefined;
    last = at.point;
    i = at.index + 1;
    step = next(page, at.point);
  }
  return last;
}

/** The next place two consecutive passage words line up again, within the look-ahead on both sides. */
function resync(
  page: PageText,
  wanted: string[],
  from: number,
  step: Located | undefined,
): { index: number; point: Located; pageSkipped: number } | undefined {
  if (!step) return undefined;
  const ahead: Located[] = [];
  for (let p: Located | undefined = step; p && ahead.length < RESYNC_PAGE; p = next(page, p)) ahead.push(p);
  for (let i = from; i < Math.min(wanted.length, from + RESYNC_PASSAGE); i++) {
    for (let k = 0; k < ahead.length; k++) {
      const p = ahead[k];
      if (page.words(p.block)[p.word].folded !== wanted[i]) continue;
      const then = ahead[k + 1];
      const pair =
        i + 1 >= wanted.length || (then && page.words(then.block)[then.word].folded === wanted[i + 1]);
      if (pair) return { index: i, point: p, pageSkipped: k };
    }
  }
  return undefined;
}

function before(a: Located, b: Located): boolean {
  return a.block < b.block || (a.block === b.block && a.word < b.word);
}

function next(page: PageText, p: Located): Located | undefined {
  if (p.word + 1 < page.words(p.block).length) return { block: p.block, word: p.word + 1 };
  for (let b = p.block + 1; b < page.blocks.length; b++)
    if (page.words(b).length) return { block: b, word: 0 };
  return undefined;
}

/** The shortest directive (by the order tried) whose match is exactly the span, built from clean windows. */
function directiveFor(page: PageText, start: Located, end: Located): TextDirective | undefined {
  const startWords = page.words(start.block);
  const endWords = page.words(end.block);
  const from = startWords[start.word].start;
  const to = endWords[end.word].end;
  const spanText = textBetween(page, start.block, from, end.block, to);
  if (redactSecrets(spanText).text !== spanText) return undefined;

  const slice = (block: number, a: number, b: number) => {
    const words = page.words(block);
    return page.blocks[block].slice(words[a].start, words[b].end);
  };
  const candidates: TextDirective[] = [];
  const sameBlock = start.block === end.block;
  if (sameBlock && end.word - start.word + 1 <= WHOLE_TERM_WORDS)
    candidates.push({ start: slice(start.block, start.word, end.word) });
  for (const k of TERM_WORDS) {
    const startLast = Math.min(start.word + k - 1, sameBlock ? end.word - 1 : startWords.length - 1);
    const endFirst = Math.max(end.word - k + 1, sameBlock ? startLast + 1 : 0);
    if (startLast < start.word || endFirst > end.word) continue;
    candidates.push({
      start: slice(start.block, start.word, startLast),
      end: slice(end.block, endFirst, end.word),
    });
  }
  const bare = [...candidates];
  const block = (b: number) => page.blocks[b];
  for (const n of CONTEXT_WORDS) {
    // Context runs up to the term itself, punctuation included: only white space may stand between them.
    const before =
      start.word - n >= 0
        ? block(start.block)
            .slice(startWords[start.word - n].start, from)
            .trimEnd()
        : undefined;
    const afterEnd =
      end.word + n < endWords.length
        ? block(end.block)
            .slice(to, endWords[end.word + n].end)
            .trimStart()
        : undefined;
    for (const d of bare) {
      if (before) candidates.push({ ...d, prefix: before });
      if (afterEnd) candidates.push({ ...d, suffix: afterEnd });
      if (before && afterEnd) candidates.push({ ...d, prefix: before, suffix: afterEnd });
    }
  }
  // A passage that opens a block may need the words that end the block before it.
  const previous = previousWords(page, start.block);
  if (start.word === 0 && previous !== undefined)
    for (const n of CONTEXT_WORDS) {
      const words = page.words(previous);
      if (n > words.length) break;
      const prefix = block(previous)
        .slice(words[words.length - n].start)
        .trimEnd();
      for (const d of bare) candidates.push({ ...d, prefix });
    }

  for (const d of candidates) {
    if (!clean(d)) continue;
    const found = findTextDirective(page, d);
    if (
      found &&
      found.start.block === start.block &&
      found.start.offset === from &&
      found.end.block === end.block &&
      found.end.offset === to
    )
      return d;
  }
  return undefined;
}

function previousWords(page: PageText, block: number): number | undefined {
  for (let b = block - 1; b >= 0; b--) if (page.words(b).length) return b;
  return undefined;
}

function textBetween(page: PageText, b0: number, o0: number, b1: number, o1: number): string {
  if (b0 === b1) return page.blocks[b0].slice(o0, o1);
  const parts = [page.blocks[b0].slice(o0)];
  for (let b = b0 + 1; b < b1; b++) parts.push(page.blocks[b]);
  parts.push(page.blocks[b1].slice(0, o1));
  return parts.join("\n");
}

/** Every term as the page has it: nothing a model-facing scrub would take out or redact. */
function clean(d: TextDirective): boolean {
  return [d.prefix, d.start, d.end, d.suffix].every((t) => t === undefined || modelSafe(t) === t);
}

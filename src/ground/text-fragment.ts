/**
 * URL Fragment Text Directives (`#:~:text=[prefix-,]start[,end][,-suffix]`): the link that opens a page scrolled
 * to a passage and highlights it. The page is modelled as the browser's find buffer sees it, a list of blocks of
 * visible text (`src/read/extract/page-text.ts`); `findTextDirective` is the spec's matching algorithm over that
 * model (case- and accent-blind, terms inside one block, word-bounded), and a directive is handed out only when
 * that algorithm finds exactly the passage it was built for.
 */

export interface TextDirective {
  prefix?: string;
  start: string;
  end?: string;
  suffix?: string;
}

/** A place in the page's text: block `block`, code unit `offset` of it. */
export interface TextPoint {
  block: number;
  offset: number;
}

export interface TextRange {
  start: TextPoint;
  end: TextPoint;
}

/**
 * A term percent-encoded as the spec requires: `-`, `,` and `&` always (they delimit the directive), and
 * everything outside the URL's unreserved set, non-ASCII as UTF-8.
 */
export function encodeTerm(term: string): string {
  return encodeURIComponent(term).replace(
    /[-!'()*~]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** `text=…` for a directive. */
export function directiveText(d: TextDirective): string {
  const parts = [
    d.prefix !== undefined ? `${encodeTerm(d.prefix)}-` : undefined,
    encodeTerm(d.start),
    d.end !== undefined ? encodeTerm(d.end) : undefined,
    d.suffix !== undefined ? `-${encodeTerm(d.suffix)}` : undefined,
  ];
  return `text=${parts.filter((p) => p !== undefined).join(",")}`;
}

/** The page's URL with the directive in its fragment (after a fragment the URL already has). */
export function fragmentUrl(url: string, d: TextDirective): string {
  const hash = url.indexOf("#");
  const base =
    hash === -1 ? `${url}#` : url.includes(":~:", hash) ? url.slice(0, url.indexOf(":~:", hash)) : url;
  return `${base}:~:${directiveText(d)}`;
}

/** Parses `text=…` back into its terms (the directive part after `:~:`); undefined when malformed. */
export function parseTextDirective(value: string): TextDirective | undefined {
  const body = value.startsWith("text=") ? value.slice(5) : undefined;
  if (!body) return undefined;
  const parts = body.split(",");
  const d: Partial<TextDirective> = {};
  try {
    if (parts[0]?.endsWith("-")) d.prefix = decodeURIComponent(parts.shift()!.slice(0, -1));
    if (parts.at(-1)?.startsWith("-")) d.suffix = decodeURIComponent(parts.pop()!.slice(1));
    if (parts.length < 1 || parts.length > 2) return undefined;
    d.start = decodeURIComponent(parts[0]);
    if (parts[1] !== undefined) d.end = decodeURIComponent(parts[1]);
  } catch {
    return undefined;
  }
  if (!d.start || d.end === "" || d.prefix === "" || d.suffix === "") return undefined;
  return d as TextDirective;
}

// Made at first use: the package root loads this module for every caller, most of whom never link a passage.
let wordSegmenter: Intl.Segmenter | undefined;
function wordSegments(text: string) {
  wordSegmenter ??= new Intl.Segmenter(undefined, { granularity: "word" });
  return wordSegmenter.segment(text);
}

/** One block folded for matching, with the way back to the block's own offsets. */
interface FoldedBlock {
  text: string;
  /**
   * For each folded code unit, the offset in the block where its character starts and ends; absent when folding
   * kept every offset (ASCII text, which only changes case).
   */
  from?: number[];
  to?: number[];
}

const ASCII = /^[\x00-\x7f]*$/;
/**
 * The page's blocks with what matching needs, computed once per block on first use: the folded text (the
 * spec compares at the base-letter level, so case and accents do not count) and the word boundaries.
 */
export class PageText {
  private readonly folded: (FoldedBlock | undefined)[];
  private readonly bounds: (Set<number> | undefined)[];
  private readonly wordLists: ({ start: number; end: number; folded: string }[] | undefined)[];

  constructor(readonly blocks: readonly string[]) {
    this.folded = blocks.map(() => undefined);
    this.bounds = blocks.map(() => undefined);
    this.wordLists = blocks.map(() => undefined);
  }

  /** Whether block `i` may hold the folded `word`: a cheap test before segmenting the block into words. */
  mayHold(i: number, word: string): boolean {
    return this.foldedBlock(i).text.includes(word);
  }

  foldedBlock(i: number): FoldedBlock {
    let f = this.folded[i];
    if (!f) {
      f = foldWithMap(this.blocks[i]);
      this.folded[i] = f;
    }
    return f;
  }

  isBoundary(block: number, offset: number): boolean {
    const text = this.blocks[block];
    if (offset <= 0 || offset >= text.length) return true;
    let set = this.bounds[block];
    if (!set) {
      set = new Set<number>();
      for (const s of wordSegments(text)) set.add(s.index);
      this.bounds[block] = set;
    }
    return set.has(offset);
  }

  /** The block's words (word-like segments), folded, with their offsets. */
  words(block: number): { start: number; end: number; folded: string }[] {
    let list = this.wordLists[block];
    if (!list) {
      list = wordsOf(this.blocks[block]);
      this.wordLists[block] = list;
    }
    return list;
  }
}

/** Word-like segments of `text` with offsets and their folded form. */
export function wordsOf(text: string): { start: number; end: number; folded: string }[] {
  const out: { start: number; end: number; folded: string }[] = [];
  for (const s of wordSegments(text))
    if (s.isWordLike) out.push({ start: s.index, end: s.index + s.segment.length, folded: fold(s.segment) });
  return out;
}

const foldCache = new Map<string, string>();

function foldChar(char: string): string {
  let f = foldCache.get(char);
  if (f === undefined) {
    f = char.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().normalize("NFC");
    if (foldCache.size < 8192) foldCache.set(char, f);
  }
  return f;
}

export function fold(text: string): string {
  if (ASCII.test(text)) return text.toLowerCase();
  let out = "";
  for (const c of text) out += foldChar(c);
  return out;
}

function foldWithMap(text: string): FoldedBlock {
  if (ASCII.test(text)) return { text: text.toLowerCase() };
  let folded = "";
  const from: number[] = [];
  const to: number[] = [];
  let i = 0;
  for (const c of text) {
    const f = foldChar(c);
    for (let k = 0; k < f.length; k++) {
      from.push(i);
      to.push(i + c.length);
    }
    folded += f;
    i += c.length;
  }
  return { text: folded, from, to };
}

const samePoint = (a: TextPoint, b: TextPoint) => a.block === b.block && a.offset === b.offset;

/**
 * The spec's "find a string in range": the first match of `query` at or after `from`, wholly inside one block,
 * starting (and ending) at a word boundary when asked.
 */
function findString(
  page: PageText,
  query: string,
  from: TextPoint,
  wordStart: boolean,
  wordEnd: boolean,
): TextRange | undefined {
  const q = fold(query);
  if (!q) return undefined;
  for (let b = from.block; b < page.blocks.length; b++) {
    const f = page.foldedBlock(b);
    const startAt = b === from.block ? from.offset : 0;
    const fromOf = (k: number) => (f.from ? f.from[k] : k);
    const toOf = (k: number) => (f.to ? f.to[k] : k + 1);
    // The folded offset of the first folded unit whose character starts at or after `startAt`.
    let k = startAt === 0 || !f.from ? startAt : f.from.findIndex((o) => o >= startAt);
    if (k === -1) continue;
    for (;;) {
      const at = f.text.indexOf(q, k);
      if (at === -1) break;
      k = at + 1;
      // A match must cover whole characters of the block.
      if (f.from && at > 0 && f.from[at] === f.from[at - 1]) continue;
      const endUnit = at + q.length - 1;
      if (f.to && endUnit + 1 < f.text.length && f.to[endUnit] === f.to[endUnit + 1]) continue;
      const start = fromOf(at);
      const end = toOf(endUnit);
      if (wordStart && !page.isBoundary(b, start)) continue;
      if (wordEnd && !page.isBoundary(b, end)) continue;
      return { start: { block: b, offset: start }, end: { block: b, offset: end } };
    }
  }
  return undefined;
}

/** The next point at or after `p` that is not white space, across block ends; undefined at the page's end. */
function nextNonWhitespace(page: PageText, p: TextPoint): TextPoint | undefined {
  let { block, offset } = p;
  while (block < page.blocks.length) {
    const text = page.blocks[block];
    while (offset < text.length && /\s/.test(text[offset])) offset++;
    if (offset < text.length) return { block, offset };
    block++;
    offset = 0;
  }
  return undefined;
}

/** The position just after the character at `p`. */
function after(page: PageText, p: TextPoint): TextPoint {
  const text = page.blocks[p.block];
  const code = text.codePointAt(p.offset) ?? 0;
  return { block: p.block, offset: p.offset + (code > 0xffff ? 2 : 1) };
}

/** The spec's "find a range from a text directive": the range a browser highlights, or undefined. */
export function findTextDirective(page: PageText, d: TextDirective): TextRange | undefined {
  let searchFrom: TextPoint = { block: 0, offset: 0 };
  for (let guard = 0; guard < 100_000; guard++) {
    let potential: TextRange | undefined;
    const mustEnd = d.end !== undefined || d.suffix === undefined;
    if (d.prefix !== undefined) {
      const prefix = findString(page, d.prefix, searchFrom, true, false);
      if (!prefix) return undefined;
      searchFrom = after(page, prefix.start);
      const matchStart = nextNonWhitespace(page, prefix.end);
      if (!matchStart) return undefined;
      potential = findString(page, d.start, matchStart, false, mustEnd);
      if (!potential) return undefined;
      if (!samePoint(potential.start, matchStart)) continue;
    } else {
      potential = findString(page, d.start, searchFrom, true, mustEnd);
      if (!potential) return undefined;
      searchFrom = after(page, potential.start);
    }
    let endSearch = potential.end;
    for (;;) {
      if (d.end !== undefined) {
        const end = findString(page, d.end, endSearch, true, d.suffix === undefined);
        if (!end) return undefined;
        potential = { start: potential.start, end: end.end };
      }
      if (d.suffix === undefined) return potential;
      const suffixStart = nextNonWhitespace(page, potential.end);
      if (!suffixStart) return undefined;
      const suffix = findString(page, d.suffix, suffixStart, false, true);
      if (!suffix) return undefined;
      if (samePoint(suffix.start, suffixStart)) return potential;
      if (d.end === undefined) break;
      endSearch = potential.end;
    }
  }
  return undefined;
}

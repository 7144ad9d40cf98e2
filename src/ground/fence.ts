import { randomBytes } from "node:crypto";
import { redactSecrets } from "./redact.js";

/**
 * The fence: the only way page text and snippets reach an LLM (DESIGN §5). Each response gets a random
 * nonce; the markers carry it, so a page cannot close the fence without guessing it. On top of that,
 * anything inside that imitates a marker is neutralised, because a model reading
 * `<<<END_WEB_CONTENT …>>>` mid-page may believe the fence ended even when the nonce does not match.
 *
 *   <<<WEB_CONTENT nonce=… source=…>>>
 *   …page text…
 *   <<<END_WEB_CONTENT nonce=…>>>
 */
export interface Fence {
  readonly nonce: string;
  /**
   * One fenced block; every block of a response shares the fence's nonce. `redacted`: the caller built `text`
   * from pieces each already stripped and redacted (search results, field by field), so redacting the whole
   * again would find nothing (redaction is idempotent) and only cost a second pass over it.
   */
  wrap(text: string, source?: string, options?: { redacted?: boolean }): string;
}

export const NEUTRALISED_MARKER = "[marker removed]";

/** A fence for one response: wrap several blocks with one shared nonce. */
export function createFence(nonce: string = randomBytes(12).toString("hex")): Fence {
  if (!/^[A-Za-z0-9_-]{8,64}$/.test(nonce)) throw new TypeError("fence nonce must be 8-64 of [A-Za-z0-9_-]");
  return {
    nonce,
    wrap(text, source, options) {
      const clean = options?.redacted ? text : modelSafe(text);
      const body = neutraliseMarkers(clean).trim();
      const { begin, end } = fenceMarkers(nonce, source);
      return `${begin}\n${body}\n${end}`;
    },
  };
}

/**
 * The fence's two markers, for a fence that is not one string: a JSON view brackets the web's words (titles,
 * links) between them, so they stand inside the fence in its serialisation as in the text.
 */
export function fenceMarkers(nonce: string, source?: string): { begin: string; end: string } {
  const label = source === undefined ? "" : ` source=${cleanSource(source)}`;
  return { begin: `<<<WEB_CONTENT nonce=${nonce}${label}>>>`, end: `<<<END_WEB_CONTENT nonce=${nonce}>>>` };
}

/** The nonce of the first fence in a text of ours, if it has one. */
export function fenceNonce(text: string): string | undefined {
  return /<<<WEB_CONTENT nonce=([A-Za-z0-9_-]{8,64})[\s>]/.exec(text)?.[1];
}

/** One fenced block with a fresh nonce: the fence exactly as envelopes use it. */
export function fenceUntrusted(text: string, options: { source?: string; nonce?: string } = {}): string {
  return createFence(options.nonce).wrap(text, options.source);
}

// Zero-width and format characters, bidi controls, Unicode tags, variation selectors and invisible
// fillers: each can hide an instruction from a human reviewer while a model still reads it, or split a
// marker so that a plain pattern misses it.
const INVISIBLE = new RegExp(
  [
    "[\\u00AD\\u061C\\u115F\\u1160\\u17B4\\u17B5\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u206F\\u3164\\uFEFF\\uFFA0\\uFFF9-\\uFFFB]",
    "[\\u{E0000}-\\u{E007F}\\u{1D173}-\\u{1D17A}]",
    // Combining characters (grapheme joiner, variation selectors) apart: inside a shared class they are
    // easy to misread as modifying their neighbour.
    "\\u034F",
    "[\\u180B-\\u180F]",
    "[\\uFE00-\\uFE0F]",
    "[\\u{E0100}-\\u{E01EF}]",
  ].join("|"),
  "gu",
);

/** Removes zero-width, bidi-control, tag and other invisible characters. */
export function stripInvisible(text: string): string {
  return text.replace(INVISIBLE, "");
}

/** Text from outside that sits in one of our own lines to a model (a URL, an error, a title): no secret, nothing invisible. */
export function modelSafe(text: string): string {
  return redactSecrets(stripInvisible(text)).text;
}

function cleanSource(source: string): string {
  const flat = neutraliseMarkers(stripInvisible(source).trim().slice(0, 500));
  // One token, so the opening marker cannot be given a second `nonce=`.
  return flat.replace(/[<>\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
}

/**
 * The skeleton a marker check reads. Compatibility normalisation folds fullwidth, mathematical and
 * circled letters to ASCII (NFKD rather than NFKC, so that combining accents come apart and drop out),
 * but it leaves other scripts alone (Cyrillic "е" is a letter of its own, not a compatibility form), so
 * a small map takes the look-alikes of the letters in our markers, and of the angle brackets, the rest
 * of the way. Entities and escapes become the character they encode; punctuation drops out, so
 * `E.N.D_W-E-B` and `ÉND` read as `endweb` and `end`.
 */
const CONFUSABLES: Record<string, string> = {
  а: "a",
  е: "e",
  ё: "e",
  о: "o",
  с: "c",
  р: "p",
  х: "x",
  у: "y",
  т: "t",
  н: "h",
  в: "b",
  к: "k",
  м: "m",
  ь: "b",
  п: "n",
  ԁ: "d",
  ԝ: "w",
  ѡ: "w",
  ш: "w",
  і: "i",
  ј: "j",
  ѕ: "s",
  ԛ: "q",
  ᴇ: "e",
  ɴ: "n",
  ᴅ: "d",
  ᴡ: "w",
  Ν: "n",
  Μ: "m",
  Κ: "k",
  Η: "h",
  ʙ: "b",
  ᴄ: "c",
  ᴏ: "o",
  ᴛ: "t",
  ε: "e",
  ο: "o",
  τ: "t",
  ν: "v",
  η: "n",
  ω: "w",
  β: "b",
  ϲ: "c",
  κ: "k",
  ι: "i",
  ρ: "p",
  δ: "d",
  օ: "o",
  ո: "n",
  ᏼ: "b",
  ꮃ: "w",
  ɗ: "d",
  ɓ: "b",
  "‹": "<",
  "›": ">",
  "«": "<<",
  "»": ">>",
  "〈": "<",
  "〉": ">",
  "⟨": "<",
  "⟩": ">",
  "❮": "<",
  "❯": ">",
  "❬": "<",
  "❭": ">",
  ᐸ: "<",
  ᐳ: ">",
  "˂": "<",
  "˃": ">",
  "≺": "<",
  "≻": ">",
  "⋖": "<",
  "⋗": ">",
  "≪": "<<",
  "≫": ">>",
  "⋘": "<<<",
  "⋙": ">>>",
  "⪡": "<<",
  "⪢": ">>",
  "《": "<<",
  "》": ">>",
};

const ENCODED_BRACKET =
  /&(?:amp;)*(?:lt|gt|#0*6[02]|#x0*3[ce]|lsaquo|rsaquo|laquo|raquo|lang|rang|LT|GT);?|%3[CcEe]|\\u003[CcEe]|\\x3[CcEe]/y;

interface Skeleton {
  text: string;
  /** For each skeleton character, the span of the original text it came from. */
  from: number[];
  to: number[];
}

function skeleton(text: string): Skeleton {
  const chars: string[] = [];
  const from: number[] = [];
  const to: number[] = [];
  const push = (folded: string, start: number, end: number) => {
    for (const c of folded) {
      chars.push(c);
      from.push(start);
      to.push(end);
    }
  };
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === 0x26 || code === 0x25 || code === 0x5c) {
      ENCODED_BRACKET.lastIndex = i;
      const encoded = ENCODED_BRACKET.exec(text);
      if (encoded) {
        push(/gt|GT|3[Ee]|62|rsaquo|raquo|rang/.test(encoded[0]) ? ">" : "<", i, i + encoded[0].length);
        i += encoded[0].length;
        continue;
      }
    }
    if (code < 0x80) {
      push(ASCII_FOLD[code], i, i + 1);
      i += 1;
      continue;
    }
    const char = String.fromCodePoint(text.codePointAt(i)!);
    push(foldChar(char), i, i + char.length);
    i += char.length;
  }
  return { text: chars.join(""), from, to };
}

const folds = new Map<string, string>();
const ASCII_FOLD = Array.from({ length: 0x80 }, (_, code) => foldChar(String.fromCharCode(code)));

function foldChar(char: string): string {
  let folded = folds.get(char);
  if (folded !== undefined) return folded;
  folded = "";
  for (const c of char.normalize("NFKD")) {
    const lower = c.toLowerCase();
    const mapped = CONFUSABLES[c] ?? CONFUSABLES[lower] ?? lower;
    if (/^[a-z0-9<>]+$/.test(mapped)) folded += mapped;
    else if (c === "\n") folded += "\n";
    else if (/\s/.test(c)) folded += " ";
    else if (/[\p{L}\p{N}]/u.test(mapped)) folded += mapped;
  }
  // Bounded: a page in an unusual script cannot grow the cache past a few thousand entries.
  if (folds.size < 8192) folds.set(char, folded);
  return folded;
}

// On the skeleton: an opening or closing marker (also as a tag, `</web_content>`, or spelled out,
// `<<END OF WEB CONTENT`), and its tail up to the closing `>>` on the same line.
// Without brackets only the joined spelling counts (END_WEB_CONTENT): "in the end, web content…" and a
// bare "web content" are ordinary prose and stay.
const OPEN = String.raw`<(?:\s*<)*\s*`;
const TAIL = String.raw`(?:[^<>\n]{0,300}>(?:\s*>)+)?`;
const MARKER = new RegExp(
  `${OPEN}(?:end\\s*(?:of\\s*)?(?:the\\s*)?)?web\\s*content${TAIL}|(?<![\\p{L}\\p{N}])endwebcontent${TAIL}|web\\s*content\\s*nonce${TAIL}`,
  "gu",
);

/** Replaces every imitation of a fence marker with a harmless notice. */
export function neutraliseMarkers(text: string): string {
  let current = text;
  // A replacement can bring two halves of a split marker together; repeat until nothing is left.
  for (let pass = 0; pass < 8; pass++) {
    const shape = skeleton(current);
    const spans = [...shape.text.matchAll(MARKER)].map((m) => [
      shape.from[m.index],
      shape.to[m.index + m[0].length - 1],
    ]);
    if (spans.length === 0) return current;
    let out = "";
    let at = 0;
    for (const [start, end] of spans) {
      out += current.slice(at, start) + NEUTRALISED_MARKER;
      at = end;
    }
    current = out + current.slice(at);
  }
  return current;
}

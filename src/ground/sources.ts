import type { PageDates, StatedDate } from "../read/extract/page-dates.js";
import { passageLink } from "./passage-link.js";
import { PageText } from "./text-fragment.js";

export type { PageDates, StatedDate };

/** One passage of a source's text as the envelope hands it on: verbatim, and where it opens on the page. */
export interface SourcePassage {
  /** The passage exactly as the page's extracted text has it. */
  text: string;
  /** The page's URL with a text directive that opens the page at this passage; absent when none is sure. */
  link?: string;
}

/**
 * A source of an answer, numbered as the envelope cites it (`[n]`). `read`: its words are in the envelope (a
 * page that was read, an instant answer's source); otherwise it was only a search result, listed apart.
 */
export interface Source {
  n: number;
  title: string;
  url: string;
  read: boolean;
  /** The days the page states, each with where it was read; HTTP Last-Modified only when it states none. */
  published?: StatedDate;
  modified?: StatedDate;
  passages?: SourcePassage[];
}

/** What a read page brings to its source. */
export interface ReadSourcePage {
  dates?: PageDates;
  lastModified?: string;
  pageText?: string[];
}

const ELISION = "[…]";
const MARKER_LINE = /^\[(?:TRUNCATED|CONTINUED)(?::[^\]]*)?\]$/;

/**
 * The passages of a sized page text: runs of the page's blocks as they stand in its extracted text, split where
 * the sizing left text out (`[…]`), without the sizing's own markers.
 */
export function passagesOf(sized: string): string[] {
  const passages: string[] = [];
  let run: string[] = [];
  const flush = () => {
    const text = run.join("\n\n").trim();
    if (text) passages.push(text);
    run = [];
  };
  for (const block of sized.split(/\n{2,}/)) {
    const line = block.trim();
    if (line === ELISION || line === "[TRUNCATED]") flush();
    else if (MARKER_LINE.test(line)) flush();
    else run.push(block);
  }
  flush();
  return passages;
}

/** The sized text with each passage opened by its source's number: `[2] The Zugspitze is …`. */
export function markPassages(sized: string, n: number): string {
  const out: string[] = [];
  let open = true;
  for (const block of sized.split(/\n{2,}/)) {
    const line = block.trim();
    if (line === ELISION || line === "[TRUNCATED]" || MARKER_LINE.test(line)) {
      out.push(block);
      open = true;
    } else if (open && line) {
      // A fence or a table must keep its first line to itself, so the number goes on a line of its own there.
      out.push(/^\s*(?:```|~~~|\|)/.test(block) ? `[${n}]\n${block}` : `[${n}] ${block}`);
      open = false;
    } else out.push(block);
  }
  return out.join("\n\n");
}

/** Each passage with its fragment link, when the page's text is known and a sure link exists. */
export function linkedPassages(
  url: string,
  passages: string[],
  pageText: string[] | undefined,
): SourcePassage[] {
  if (!pageText || !/^https?:/i.test(url)) return passages.map((text) => ({ text }));
  const page = new PageText(pageText);
  return passages.map((text) => {
    const link = passageLink(url, page, text);
    return link ? { text, link } : { text };
  });
}

// A stated day this far past the lookup is a typo or a placeholder, not a date.
const FUTURE_SLACK_MS = 36 * 3600_000;

/**
 * A read page's published and modified days: what the page states; the server's Last-Modified only when it
 * states neither (many servers send the time of the request there, so it is never preferred to the page's word).
 */
export function sourceDates(page: ReadSourcePage, lookedUpAt: Date): Pick<Source, "published" | "modified"> {
  const plausible = (d: StatedDate | undefined) =>
    d && Date.parse(d.date) <= lookedUpAt.getTime() + FUTURE_SLACK_MS ? d : undefined;
  const published = plausible(page.dates?.published);
  let modified = plausible(page.dates?.modified);
  if (modified && published && modified.date < published.date) modified = undefined;
  if (!published && !modified && page.lastModified) {
    const t = Date.parse(page.lastModified);
    if (Number.isFinite(t) && t <= lookedUpAt.getTime() + FUTURE_SLACK_MS)
      modified = { date: new Date(t).toISOString().slice(0, 10), from: "http-last-modified" };
  }
  return { ...(published ? { published } : {}), ...(modified ? { modified } : {}) };
}

/** The day a source was last stated current: modified, else published. */
export function sourceDay(s: Pick<Source, "published" | "modified">): string | undefined {
  return s.modified?.date ?? s.published?.date;
}

/** "published 2026-01-05, modified 2026-02-01", or "" for a source without dates. */
export function datesLine(s: Pick<Source, "published" | "modified">): string {
  return [
    s.published ? `published ${s.published.date}` : undefined,
    s.modified && s.modified.date !== s.published?.date ? `modified ${s.modified.date}` : undefined,
  ]
    .filter(Boolean)
    .join(", ");
}

// Words that ask for the present state of things, in the languages the query guard and relevance know.
const CURRENT =
  /\b(?:latest|newest|current(?:ly)?|recent(?:ly)?|today|tonight|now|this (?:week|month|year)|as of|up[- ]to[- ]date|aktuell(?:e[nrs]?)?|neueste[nrs]?|heute|jetzt|derzeit|ultim[oaie]|attual(?:e|i|mente)|oggi|adesso|derni(?:er|ère)s?|actuel(?:le)?s?|aujourd'hui|maintenant|últim[oa]s?|actual(?:es|mente)?|hoy|ahora|atual|hoje)\b/iu;

/** A question about what is current or latest: recent pages are preferred and the newest source's age said. */
export function asksForCurrent(query: string, lookedUpAt: Date): boolean {
  if (CURRENT.test(query)) return true;
  // This year named in the question ("node release 2026") asks for what is new too.
  return new RegExp(`\\b${lookedUpAt.getUTCFullYear()}\\b`).test(query);
}

/** Whole days from `day` (a `YYYY-MM-DD`) to the lookup. */
export function daysBefore(day: string, lookedUpAt: Date): number {
  return Math.max(0, Math.floor((lookedUpAt.getTime() - Date.parse(`${day}T00:00:00Z`)) / 86_400_000));
}

/** The lookup's own time, as the envelope states it: `2026-12-02 06:40 UTC`. */
export function lookupTime(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/**
 * The numbered sources of one answer: what its text quotes first (`[1]` …), then the search results that were
 * never opened, each URL once.
 */
export function numberSources(
  quoted: Omit<Source, "n" | "read">[],
  searched: { title: string; url: string }[],
): Source[] {
  const out: Source[] = [];
  const seen = new Set<string>();
  for (const s of quoted) {
    out.push({ ...s, n: out.length + 1, read: true });
    seen.add(s.url);
  }
  for (const s of searched) {
    if (seen.has(s.url)) continue;
    seen.add(s.url);
    out.push({ title: s.title, url: s.url, n: out.length + 1, read: false });
  }
  return out;
}

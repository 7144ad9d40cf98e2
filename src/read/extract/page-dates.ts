import type { Document, Element } from "./dom.js";
import { collapseWhitespace, findAll, textContent } from "./dom.js";

/** A date the page states, as a calendar day (`2026-01-05`), and where it was read. */
export interface StatedDate {
  date: string;
  /** `meta:<name>`, `json-ld`, `time`, `byline` or `http-last-modified`. */
  from: string;
}

export interface PageDates {
  published?: StatedDate;
  modified?: StatedDate;
}

// Meta names in the order they are trusted: the Open Graph article fields first, then schema.org microdata,
// then the older conventions.
const PUBLISHED_META = [
  "article:published_time",
  "og:published_time",
  "datepublished",
  "citation_publication_date",
  "parsely-pub-date",
  "sailthru.date",
  "publishdate",
  "publish-date",
  "pubdate",
  "date",
  "dc.date.issued",
  "dcterms.issued",
  "dc.date",
  "dcterms.created",
];
const MODIFIED_META = [
  "article:modified_time",
  "og:updated_time",
  "datemodified",
  "last-modified",
  "dcterms.modified",
  "dc.date.modified",
];
const UPDATED_WORDS =
  /\b(?:updated?|modified|revised|edited|aktualisiert|geändert|mis à jour|aggiornat[oa]|actualizad[oa]|atualizad[oa])\b/i;
const BYLINE_CLASS =
  /(?:^|[\s_-])(?:byline|dateline|date|posted|published|updated|timestamp|entry-date|post-date|article-date|meta)(?:$|[\s_-])/i;

/**
 * The page's published and modified days from what it says about itself: meta tags, then JSON-LD, then
 * `<time>` elements, then a byline's words ("Updated 5 January 2026"). A value that is not a plausible day is
 * passed over for the next source.
 */
export function readPageDates(
  doc: Document,
  meta: Map<string, string>,
  linked: { datePublished?: string; dateModified?: string },
): PageDates {
  const dates: PageDates = {};
  const pick = (kind: keyof PageDates, value: string | undefined, from: string) => {
    if (dates[kind] || !value) return;
    const date = calendarDay(value);
    if (date) dates[kind] = { date, from };
  };
  for (const name of PUBLISHED_META) pick("published", meta.get(name), `meta:${name}`);
  for (const name of MODIFIED_META) pick("modified", meta.get(name), `meta:${name}`);
  pick("published", linked.datePublished, "json-ld");
  pick("modified", linked.dateModified, "json-ld");
  if (!dates.published || !dates.modified) {
    for (const el of findAll(doc, (e) => e.name === "time" || !!e.attribs.itemprop?.match(/^date/i))) {
      const value = el.attribs.datetime ?? el.attribs.content ?? textContent(el);
      const prop = el.attribs.itemprop ?? "";
      const modified =
        /modified/i.test(prop) || UPDATED_WORDS.test(`${el.attribs.class ?? ""} ${contextOf(el)}`);
      pick(modified ? "modified" : "published", value, "time");
    }
  }
  if (!dates.published || !dates.modified) {
    for (const el of findAll(doc, (e) =>
      BYLINE_CLASS.test(`${e.attribs.class ?? ""} ${e.attribs.id ?? ""}`),
    )) {
      const text = collapseWhitespace(textContent(el));
      if (!text || text.length > 200) continue;
      for (const { day, updated } of daysInText(text))
        pick(updated ? "modified" : "published", day, "byline");
    }
  }
  return dates;
}

/** The text just before a `<time>` element in its parent ("Updated <time>…"). */
function contextOf(el: Element): string {
  const parent = el.parent as Element | null;
  if (!parent || !("children" in parent)) return "";
  const before: string[] = [];
  for (const c of parent.children) {
    if (c === el) break;
    before.push(textContent(c));
  }
  return before.join(" ").slice(-40);
}

const MONTH_NAMES = [
  "january february march april may june july august september october november december",
  "januar februar märz april mai juni juli august september oktober november dezember",
  "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",
  "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre",
  "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre",
];
let months: Map<string, number> | undefined;

/** A month's number from its name or abbreviation in the languages above; built on first use. */
function monthNumber(name: string): number | undefined {
  if (!months) {
    const table = new Map<string, number>([
      ["sept", 9],
      ["mrz", 3],
    ]);
    for (const line of MONTH_NAMES)
      for (const [i, full] of line.split(" ").entries()) {
        table.set(full, i + 1);
        if (!table.has(full.slice(0, 3))) table.set(full.slice(0, 3), i + 1);
      }
    months = table;
  }
  return months.get(name.toLowerCase());
}

const MONTH = String.raw`([A-Za-zÀ-ÿ]{3,10})\.?`;
const DAY_TEXT = [
  // 2026-01-05, 2026/01/05, 2026-01-05T10:00:00Z
  { re: /\b((?:19|20)\d\d)[-/](\d{1,2})[-/](\d{1,2})(?!\d)/, ymd: [1, 2, 3] },
  // 05.01.2026 (day first, as written wherever dots are used)
  { re: /\b(\d{1,2})\.\s?(\d{1,2})\.\s?((?:19|20)\d\d)\b/, ymd: [3, 2, 1] },
  // January 5, 2026 · Jan. 5 2026
  {
    re: new RegExp(String.raw`\b${MONTH}\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+((?:19|20)\d\d)\b`, "i"),
    ymd: [3, 1, 2],
  },
  // 5 January 2026 · 5. Januar 2026 · 5 de enero de 2026
  {
    re: new RegExp(
      String.raw`\b(\d{1,2})(?:st|nd|rd|th|er)?\.?\s+(?:de\s+)?${MONTH}\s+(?:de\s+)?((?:19|20)\d\d)\b`,
      "i",
    ),
    ymd: [3, 2, 1],
  },
];

/** A value's calendar day as the page wrote it (an ISO time keeps its own day, whatever its zone). */
export function calendarDay(value: string): string | undefined {
  const v = value.trim();
  for (const { re, ymd } of DAY_TEXT) {
    const m = re.exec(v);
    if (!m) continue;
    const day = dayOf(m[ymd[0]], m[ymd[1]], m[ymd[2]]);
    if (day) return day;
  }
  // An HTTP date (`Mon, 05 Jan 2026 10:00:00 GMT`) names its day in UTC.
  if (/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(v)) {
    const t = Date.parse(v);
    if (Number.isFinite(t)) return new Date(t).toISOString().slice(0, 10);
  }
  return undefined;
}

/** The days a byline's text names, each with whether its words say it is an update. */
function daysInText(text: string): { day: string; updated: boolean }[] {
  const found: { day: string; updated: boolean; at: number }[] = [];
  for (const { re } of DAY_TEXT) {
    const global = new RegExp(re.source, `${re.flags.replace("g", "")}g`);
    for (const m of text.matchAll(global)) {
      const day = calendarDay(m[0]);
      if (!day || found.some((f) => Math.abs(f.at - (m.index ?? 0)) < 4)) continue;
      const before = text.slice(Math.max(0, (m.index ?? 0) - 30), m.index);
      found.push({ day, updated: UPDATED_WORDS.test(before), at: m.index ?? 0 });
    }
  }
  return found.sort((a, b) => a.at - b.at);
}

function dayOf(year: string, month: string, day: string): string | undefined {
  const y = Number(year);
  const mo = /^\d+$/.test(month) ? Number(month) : monthNumber(month);
  const d = Number(day);
  if (!mo || y < 1991 || y > 2100 || mo > 12 || d < 1 || d > 31) return undefined;
  const t = new Date(Date.UTC(y, mo - 1, d));
  if (t.getUTCMonth() !== mo - 1) return undefined;
  return t.toISOString().slice(0, 10);
}

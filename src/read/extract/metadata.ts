import type { Document } from "./dom.js";
import { collapseWhitespace, findAll, findFirst, textContent } from "./dom.js";
import { forEachLinkedObject } from "./linked-data.js";
import { type PageDates, readPageDates } from "./page-dates.js";

export interface PageMetadata {
  title?: string;
  byline?: string;
  published?: string;
  lang?: string;
  siteName?: string;
  /** The published and modified days the page states, each with where it was read. */
  dates?: PageDates;
}

interface LinkedData {
  headline?: string;
  author?: string;
  datePublished?: string;
  dateModified?: string;
  publisher?: string;
  siteName?: string;
}

const ARTICLE_TYPES =
  /Article|BlogPosting|Report|Review|Recipe|WebPage|QAPage|DiscussionForumPosting|Product|Event/;

/** Reads metadata from `<head>` meta tags, JSON-LD and a few in-page conventions; call before cleaning. */
export function readMetadata(doc: Document): PageMetadata {
  const meta = metaValues(doc);
  const ld = readLinkedData(doc);
  const htmlEl = findFirst(doc, (el) => el.name === "html");
  const title =
    meta.get("og:title") ??
    meta.get("twitter:title") ??
    ld.headline ??
    documentTitle(doc) ??
    firstHeading(doc);
  const byline = meta.get("author") ?? meta.get("article:author") ?? ld.author ?? authorInPage(doc);
  const published =
    meta.get("article:published_time") ??
    meta.get("og:published_time") ??
    ld.datePublished ??
    meta.get("datepublished") ??
    meta.get("publishdate") ??
    meta.get("pubdate") ??
    meta.get("date") ??
    meta.get("dc.date.issued") ??
    meta.get("dc.date") ??
    meta.get("dcterms.created") ??
    timeInPage(doc);
  const lang =
    htmlEl?.attribs.lang?.trim() ||
    htmlEl?.attribs["xml:lang"]?.trim() ||
    meta.get("content-language") ||
    meta.get("og:locale")?.replace("_", "-");
  const siteName = meta.get("og:site_name") ?? ld.siteName ?? ld.publisher ?? meta.get("application-name");
  const dates = readPageDates(doc, meta, ld);
  return {
    ...clean({
      title,
      byline: byline && !/^https?:/.test(byline) ? byline : undefined,
      published,
      lang,
      siteName,
    }),
    ...(dates.published || dates.modified ? { dates } : {}),
  };
}

type TextFields = Omit<PageMetadata, "dates">;

function clean(m: TextFields): TextFields {
  const out: TextFields = {};
  for (const [k, v] of Object.entries(m) as [keyof TextFields, string | undefined][]) {
    const value = v ? collapseWhitespace(v) : "";
    if (value && value.length <= 300) out[k] = value;
  }
  return out;
}

function metaValues(doc: Document): Map<string, string> {
  const values = new Map<string, string>();
  for (const el of findAll(
    doc,
    (e) => e.name === "meta" || (e.name === "link" && e.attribs.rel === "author"),
  )) {
    const a = el.attribs;
    const key = (a.property ?? a.name ?? a.itemprop ?? a["http-equiv"])?.trim().toLowerCase();
    const value = (a.content ?? a.datetime)?.trim();
    if (key && value && !values.has(key)) values.set(key, value);
  }
  return values;
}

/** The `<title>` element's text: what the page declares, never guessed from the body. */
export function documentTitle(doc: Document): string | undefined {
  const el = findFirst(doc, (e) => e.name === "title");
  return el ? collapseWhitespace(textContent(el)) || undefined : undefined;
}

function firstHeading(doc: Document): string | undefined {
  const el = findFirst(doc, (e) => e.name === "h1");
  return el ? collapseWhitespace(textContent(el)) || undefined : undefined;
}

function authorInPage(doc: Document): string | undefined {
  const el = findFirst(
    doc,
    (e) =>
      e.attribs.rel === "author" ||
      e.attribs.itemprop === "author" ||
      /(?:^|\s)(?:byline|author|article-author|post-author)(?:\s|$)/i.test(e.attribs.class ?? ""),
  );
  if (!el) return undefined;
  const text = collapseWhitespace(textContent(el)).replace(/^by\s+/i, "");
  return text && text.length < 100 ? text : undefined;
}

function timeInPage(doc: Document): string | undefined {
  const el = findFirst(
    doc,
    (e) =>
      (e.name === "time" && !!e.attribs.datetime) ||
      (e.attribs.itemprop === "datePublished" && !!(e.attribs.content ?? e.attribs.datetime)),
  );
  return el ? (el.attribs.datetime ?? el.attribs.content) : undefined;
}

function readLinkedData(doc: Document): LinkedData {
  const found: LinkedData = {};
  forEachLinkedObject(doc, (obj) => visitLinkedData(obj, found));
  return found;
}

function nameOf(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) {
    const names = value.map(nameOf).filter(Boolean);
    return names.length ? names.join(", ") : undefined;
  }
  if (value && typeof value === "object" && typeof (value as { name?: unknown }).name === "string")
    return (value as { name: string }).name;
  return undefined;
}

function visitLinkedData(obj: Record<string, unknown>, found: LinkedData): void {
  const type = String(obj["@type"] ?? "");
  if (type === "WebSite" && typeof obj.name === "string") found.siteName ??= obj.name;
  if (ARTICLE_TYPES.test(type)) {
    if (typeof obj.headline === "string") found.headline ??= obj.headline;
    found.author ??= nameOf(obj.author);
    if (typeof obj.datePublished === "string") found.datePublished ??= obj.datePublished;
    if (typeof obj.dateModified === "string") found.dateModified ??= obj.dateModified;
    found.publisher ??= nameOf(obj.publisher);
  }
}

import type { Deadline } from "../core/deadline.js";
import { errorLine } from "../core/one-line.js";
import type { Attempt, Failure } from "../core/status.js";
import type { Net, NetResponse } from "../net/client.js";
import { parseContentType } from "../net/decode.js";
import type { Store } from "../store/store.js";
import { alternateLinks, FEED_TYPES } from "./alternate-links.js";
import { classifyContent, type FormatName, prettyJson } from "./content-kind.js";
import { textFromEmbeddedData } from "./embedded-data.js";
import type { PageDates } from "./extract/page-dates.js";
import { FORMAT_READERS } from "./formats/registry.js";
import { type CacheHeaders, cacheHeadersOf, conditionalHeaders, type Validators } from "./freshness.js";
import { chromiumAvailable } from "./guarded-browser.js";
import { failureForStatus } from "./http-failure.js";
import { fetchLlmsTxt, isFrontPage, type LlmsTxt, withLlmsTxt } from "./llms-txt.js";
import { extractPage } from "./page-pool.js";
import type { Renderer, RenderMode } from "./render.js";
import { proseLength } from "./shell.js";
import { readerResting, restReader, restReaderFor } from "./sites/reader-cooldown.js";
import { siteReaderFor } from "./sites/registry.js";
import type { SiteReader } from "./sites/site-reader.js";

/** Which rung produced the text, so a caller can tell a full text from a shell. */
export type ReadSource =
  | "server-markdown"
  | "alternate-markdown"
  | "extracted-html"
  | "embedded-data"
  | "rendered"
  | "site"
  | "pdf"
  | "document"
  | "feed"
  | "text"
  | "tavily-extract"
  | "exa-contents";

/** A page's whole text before sizing: what the page cache holds. */
export interface ReadDocument {
  url: string;
  finalUrl: string;
  title: string;
  /** The prose; links are kept apart in `links` and appended by read() after sizing. */
  markdown: string;
  links: string[];
  source: ReadSource;
  /** With `source: "site"`: the site reader that read it and the site's endpoint that gave the text. */
  reader?: { name: string; via: string };
  contentType: string;
  fetchedAt: string;
  lang?: string;
  byline?: string;
  published?: string;
  /** The feeds (RSS, Atom, JSON Feed) an HTML page names in its head. */
  feeds?: string[];
  /** The days the page states it was published and modified, each with where it was read. */
  dates?: PageDates;
  /** The server's Last-Modified header, a date of last resort. */
  lastModified?: string;
  /** The page's visible text in blocks, as a browser lays it out (HTML rungs only). */
  pageText?: string[];
}

export type LadderOutcome =
  | {
      ok: true;
      doc: ReadDocument;
      attempts: Attempt[];
      /** The page GET's caching headers; `revalidatable` when the text was made from that response alone. */
      http?: { headers: CacheHeaders; revalidatable: boolean };
      /** The site answered 304 to `revalidate`: `doc` is the kept one. */
      revalidated?: true;
    }
  | { ok: false; failure: Failure; attempts: Attempt[]; finalUrl?: string; contentType?: string };

export interface LadderContext {
  net: Net;
  /** Operator log: a browser that cannot start is a setup problem someone should see. */
  log(message: string): void;
  /** The shared browser; needed only when a page must be rendered. */
  renderer: () => Renderer;
  /** The site readers to ask before the generic rungs (default: every reader websift knows). */
  sites?: readonly SiteReader[];
  /** The configured keys, of which a site reader is handed those it declares. */
  keys?: Readonly<Record<string, string>>;
  /** Where site readers' rate limiters keep their slots and their rests (the read's store). */
  store: Store;
  /** The clock a reader's rest is judged on (default Date.now). */
  now?: () => number;
}

export interface LadderOptions {
  deadline: Deadline;
  render: RenderMode;
  /** A kept page past its freshness: the GET asks whether it changed, and a 304 hands `doc` back. */
  revalidate?: { validators: Validators; doc: ReadDocument };
}

// Servers that can answer in markdown (the cheapest good version) are asked to; HTML stays the usual answer.
export const READ_ACCEPT = "text/markdown, text/html;q=0.9, */*;q=0.8";
const MAX_PAGE_BYTES = 10 * 1024 * 1024;
const LLMS_TXT_BUDGET_MS = 5000;
const MAX_PRETTY_JSON_CHARS = 256 * 1024;
/**
 * The rungs whose text is made from the page's own response alone, so that a 304 for it vouches for the text;
 * alternate markdown came from another URL, a rendered page from its scripts' requests too.
 */
const FROM_RESPONSE: ReadonlySet<ReadSource> = new Set<ReadSource>([
  "server-markdown",
  "extracted-html",
  "embedded-data",
  "pdf",
  "document",
  "feed",
  "text",
]);
/** Prose a page needs to stand as a (short) page of its own once rendering has shown it is not a shell. */
const MIN_SHORT_PAGE = 100;

/**
 * The direct ladder: a site reader when one takes the URL, else (or when it fails) GET (markdown first) →
 * alternate → a format's reader (pdf, documents, feeds) or text → extract → embedded data → render.
 */
export async function runLadder(
  url: string,
  options: LadderOptions,
  ctx: LadderContext,
): Promise<LadderOutcome> {
  const { deadline } = options;
  const attempts: Attempt[] = [];
  const site = siteReaderFor(url, ctx.sites);
  if (site) {
    const read = await siteRung(site, url, ctx, deadline, attempts);
    if (read) return read;
  }
  // Fetched alongside the page, not after it; abandoned if the page fails.
  const llmsDeadline = deadline.child(LLMS_TXT_BUDGET_MS);
  const llms = isFrontPage(url)
    ? timed(() => fetchLlmsTxt(url, ctx.net, llmsDeadline).catch(() => undefined))
    : undefined;

  const asked = options.revalidate ? conditionalHeaders(options.revalidate.validators) : {};
  const fetched = await timed(() =>
    ctx.net.request(url, { deadline, headers: { accept: READ_ACCEPT, ...asked }, maxBytes: MAX_PAGE_BYTES }),
  );
  const res = fetched.value;
  if (!res.ok) {
    llmsDeadline.abort();
    attempts.push({ provider: "fetch", status: res.status, ms: fetched.ms, error: res.message });
    return { ok: false, failure: pick(res), attempts };
  }
  if (res.status === 304 && options.revalidate) {
    llmsDeadline.abort();
    attempts.push({ provider: "revalidated", status: "ok", ms: fetched.ms });
    const doc = { ...options.revalidate.doc, fetchedAt: new Date().toISOString() };
    const http = { headers: cacheHeadersOf(res.headers), revalidatable: true };
    return { ok: true, doc, attempts, http, revalidated: true };
  }
  const httpFailure = failureForStatus(res);
  if (httpFailure) {
    llmsDeadline.abort();
    attempts.push(attemptOf("fetch", fetched.ms, httpFailure));
    return {
      ok: false,
      failure: httpFailure,
      attempts,
      finalUrl: res.finalUrl,
      contentType: res.contentType,
    };
  }
  attempts.push({ provider: "fetch", status: "ok", ms: fetched.ms });

  const outcome = await fromResponse(res, url, options, ctx, attempts);
  if (outcome.ok)
    outcome.http = {
      headers: cacheHeadersOf(res.headers),
      revalidatable: FROM_RESPONSE.has(outcome.doc.source),
    };
  if (!llms) return outcome;
  if (!outcome.ok) {
    llmsDeadline.abort();
    return outcome;
  }
  const found = await llms;
  attempts.push({ provider: "llms.txt", status: found.value ? "ok" : "empty", ms: found.ms });
  if (found.value) {
    outcome.doc.markdown = withLlmsTxt(outcome.doc.markdown, found.value as LlmsTxt);
    // The page's 304 would say nothing of its llms.txt.
    if (outcome.http) outcome.http.revalidatable = false;
  }
  return outcome;
}

async function fromResponse(
  res: NetResponse,
  url: string,
  options: LadderOptions,
  ctx: LadderContext,
  attempts: Attempt[],
): Promise<LadderOutcome> {
  const content = classifyContent(res.contentType, res.bytes);
  const base = {
    url,
    finalUrl: res.finalUrl,
    contentType: res.contentType,
    fetchedAt: new Date().toISOString(),
    ...(res.headers["last-modified"] ? { lastModified: res.headers["last-modified"] } : {}),
  };
  switch (content.kind) {
    case "binary": {
      const failure: Failure = {
        status: "unsupported",
        code: "binary",
        message: `not a readable page: ${new URL(res.finalUrl).host} served ${content.type}`,
      };
      return { ok: false, failure, attempts, finalUrl: res.finalUrl, contentType: content.type };
    }
    case "markdown": {
      const markdown = res.text().trim();
      return done(attempts, {
        ...base,
        title: markdownTitle(markdown),
        markdown,
        links: [],
        source: "server-markdown",
      });
    }
    case "json":
    case "text": {
      const text = res.text();
      // Indenting a large document multiplies its size (and what the page cache holds) for little gain to a
      // reader who sees one window of it.
      const pretty = content.kind === "json" && text.length <= MAX_PRETTY_JSON_CHARS;
      const markdown = pretty ? prettyJson(text) : text.trim();
      return done(attempts, { ...base, title: fileTitle(res.finalUrl), markdown, links: [], source: "text" });
    }
    case "format":
      return fromFormat(res, content.format, base, options, attempts);
    case "html":
      return fromHtml(res, base, options, ctx, attempts);
  }
}

type Base = Pick<ReadDocument, "url" | "finalUrl" | "contentType" | "fetchedAt" | "feeds" | "lastModified">;

/**
 * The site's own reader. Its text is the page when it has one; a failure is kept in the attempts and the generic
 * rungs read the page itself, unless the read's time is gone.
 */
async function siteRung(
  site: SiteReader,
  url: string,
  ctx: LadderContext,
  deadline: Deadline,
  attempts: Attempt[],
): Promise<LadderOutcome | undefined> {
  const provider = `site:${site.name}`;
  const now = ctx.now ?? Date.now;
  const resting = await readerResting(ctx.store, site.name, now());
  if (resting) {
    const retryAfter = Math.ceil((resting.until - now()) / 1000);
    const error = `resting until ${new Date(resting.until).toISOString()} (${resting.reason})`;
    attempts.push({ provider, status: "skipped", ms: 0, error, retryAfter });
    return undefined;
  }
  const t0 = Date.now();
  let got: Awaited<ReturnType<SiteReader["read"]>>;
  try {
    got = await site.read(
      new URL(url),
      {
        net: ctx.net,
        log: ctx.log,
        keys: keysOf(site, ctx.keys),
        reserveSlot: (key, intervalMs, maxWaitMs) =>
          ctx.store.reserveSlot(`site:${site.name}:slot:${key}`, intervalMs, maxWaitMs),
        rest: (seconds, reason) => restReaderFor(ctx.store, site.name, seconds, reason, now()),
      },
      deadline,
    );
  } catch (err) {
    // A reader's bug is its own failure, not the read's: the page is read the generic way.
    ctx.log(`read: ${site.name} reader failed: ${errorLine(err)}`);
    got = { ok: false, status: "error", code: "reader_failed", message: `${site.name} reader failed` };
  }
  if (!got.ok) {
    attempts.push(attemptOf(provider, Date.now() - t0, got));
    await restReader(ctx.store, site.name, got, now());
    return deadline.expired() ? { ok: false, failure: pick(got), attempts } : undefined;
  }
  attempts.push({ provider, status: "ok", ms: Date.now() - t0 });
  const { ok: _, via, finalUrl, links, title, markdown, ...meta } = got;
  const doc: ReadDocument = {
    url,
    finalUrl: finalUrl ?? url,
    title,
    markdown,
    links: links ?? [],
    source: "site",
    reader: { name: site.name, via },
    contentType: "text/markdown",
    fetchedAt: new Date().toISOString(),
    ...metadata(meta),
  };
  return done(attempts, doc);
}

function keysOf(site: SiteReader, keys: Readonly<Record<string, string>> = {}): Record<string, string> {
  const own: Record<string, string> = {};
  for (const name of site.keyEnv ?? []) if (keys[name]) own[name] = keys[name];
  return own;
}

/** A file with a reader of its own: a PDF, an office document, a feed. */
async function fromFormat(
  res: NetResponse,
  format: FormatName,
  base: Base,
  options: LadderOptions,
  attempts: Attempt[],
): Promise<LadderOutcome> {
  const reader = FORMAT_READERS[format];
  const t0 = Date.now();
  const got = await reader.read(
    res.bytes,
    {
      url: res.finalUrl,
      contentType: res.contentType,
      charset: parseContentType(res.headers["content-type"]).charset,
      format,
    },
    options.deadline,
  );
  attempts.push(attemptOf(reader.name, Date.now() - t0, got.ok ? undefined : got));
  if (!got.ok)
    return { ok: false, failure: pick(got), attempts, finalUrl: res.finalUrl, contentType: res.contentType };
  const { ok: _, title, markdown, links, ...meta } = got;
  return done(attempts, {
    ...base,
    ...metadata(meta),
    title: title ?? fileTitle(res.finalUrl),
    markdown,
    links: links ?? [],
    source: reader.source,
  });
}

async function fromHtml(
  res: NetResponse,
  pageBase: Base,
  options: LadderOptions,
  ctx: LadderContext,
  attempts: Attempt[],
): Promise<LadderOutcome> {
  const html = res.text();
  const feeds = alternateLinks(html, res.finalUrl, FEED_TYPES);
  const base = feeds.length ? { ...pageBase, feeds } : pageBase;
  const alternate = markdownAlternate(html, res.finalUrl);
  if (alternate) {
    const got = await timed(() => fetchAlternate(alternate, ctx.net, options.deadline));
    attempts.push({ provider: "alternate-markdown", status: got.value ? "ok" : "empty", ms: got.ms });
    if (got.value) {
      const title = htmlTitle(html) ?? markdownTitle(got.value);
      return done(attempts, { ...base, title, markdown: got.value, links: [], source: "alternate-markdown" });
    }
  }

  const canRender = options.render === "always" || (options.render === "auto" && chromiumAvailable());
  if (options.render === "always") {
    const rendered = await renderRung(res, base, 0, ctx, options.deadline, attempts);
    if (typeof rendered === "object") return done(attempts, rendered);
  }

  const t0 = Date.now();
  const got = await extractPage(html, res.finalUrl, options.deadline);
  if (!got.ok) {
    attempts.push(attemptOf("extract", Date.now() - t0, got));
    return { ok: false, failure: pick(got), attempts, finalUrl: res.finalUrl, contentType: res.contentType };
  }
  const { page: extracted, shell, prose: staticProse } = got.value;
  const page = { ...base, ...metadata(extracted), title: extracted.title ?? "", links: extracted.links };
  if (!shell.shell) {
    attempts.push({ provider: "extract", status: "ok", ms: Date.now() - t0 });
    return done(attempts, { ...page, markdown: extracted.markdown, source: "extracted-html" });
  }
  attempts.push({
    provider: "extract",
    status: "unsupported",
    ms: Date.now() - t0,
    error: `JS shell: ${shell.reason}`,
  });

  const t1 = Date.now();
  const embedded = textFromEmbeddedData(html);
  const embeddedUseful = embedded && proseLength(embedded.markdown) >= 100;
  attempts.push({
    provider: "embedded-data",
    status: embeddedUseful ? "ok" : "empty",
    ms: Date.now() - t1,
    ...(embedded ? { error: embeddedUseful ? undefined : `only ${embedded.from} fragments` } : {}),
  });
  if (embedded && embeddedUseful) {
    // The document's own <title> names the page; a title found in the data may belong to a teaser beside it.
    const title = page.title || embedded.title || "";
    return done(attempts, { ...page, title, markdown: embedded.markdown, source: "embedded-data" });
  }

  if (canRender && options.render !== "always") {
    const rendered = await renderRung(res, base, staticProse, ctx, options.deadline, attempts);
    if (typeof rendered === "object") return done(attempts, rendered);
    // The browser ran the scripts and found nothing more: a short page that merely mentions JavaScript (a
    // comments widget's notice) is what it looked like. A bare "Loading…" is still not passed off as a page.
    if (rendered === "no-gain" && staticProse >= MIN_SHORT_PAGE)
      return done(attempts, { ...page, markdown: extracted.markdown, source: "extracted-html" });
  }
  const why =
    options.render === "never"
      ? "rendering is off"
      : canRender
        ? "rendering did not help"
        : "Chromium is not installed";
  const failure: Failure = {
    status: "unsupported",
    code: "needs_javascript",
    message: `needs JavaScript: ${new URL(res.finalUrl).host} serves a script shell (${shell.reason}); ${why}`,
  };
  return { ok: false, failure, attempts, finalUrl: res.finalUrl, contentType: res.contentType };
}

/** Renders the page (serving the bytes already fetched) and keeps the result only if it has more text than before. */
async function renderRung(
  res: NetResponse,
  base: Base,
  staticProse: number,
  ctx: LadderContext,
  deadline: Deadline,
  attempts: Attempt[],
): Promise<ReadDocument | "no-gain" | "failed"> {
  const t0 = Date.now();
  const rendered = await ctx.renderer().render({
    url: res.finalUrl,
    net: ctx.net,
    deadline,
    document: { url: res.finalUrl, status: res.status, headers: res.headers, body: res.bytes },
  });
  if (!rendered.ok) {
    if (rendered.code === "render_unavailable") ctx.log(`read: ${rendered.message}`);
    attempts.push(attemptOf("render", Date.now() - t0, rendered));
    return "failed";
  }
  const got = await extractPage(rendered.html, rendered.finalUrl, deadline);
  if (!got.ok) {
    attempts.push(attemptOf("render", Date.now() - t0, got));
    return "failed";
  }
  const { page: extracted, prose } = got.value;
  if (prose === 0 || prose <= staticProse) {
    attempts.push({
      provider: "render",
      status: "empty",
      ms: Date.now() - t0,
      error: "no more text after rendering",
    });
    return "no-gain";
  }
  attempts.push({ provider: "render", status: "ok", ms: Date.now() - t0 });
  return {
    ...base,
    ...metadata(extracted),
    finalUrl: rendered.finalUrl,
    title: extracted.title ?? "",
    markdown: extracted.markdown,
    links: extracted.links,
    source: "rendered",
  };
}

/** `<link rel="alternate" type="text/markdown" href>`: the site's own markdown version of this page. */
export function markdownAlternate(html: string, pageUrl: string): string | undefined {
  return alternateLinks(html, pageUrl, /^text\/(x-)?markdown$/i)[0];
}

/** The alternate is used only if it really is markdown; a soft-404 HTML page is not. */
async function fetchAlternate(url: string, net: Net, deadline: Deadline): Promise<string | undefined> {
  const res = await net.request(url, {
    deadline,
    headers: { accept: "text/markdown, text/plain;q=0.9" },
    maxBytes: MAX_PAGE_BYTES,
  });
  if (!res.ok || res.status < 200 || res.status > 299) return undefined;
  const kind = classifyContent(res.contentType, res.bytes).kind;
  if (kind !== "markdown" && kind !== "text") return undefined;
  const text = res.text().trim();
  if (!text || /^<(!doctype|html)/i.test(text)) return undefined;
  return text;
}

function done(attempts: Attempt[], doc: ReadDocument): LadderOutcome {
  return { ok: true, doc, attempts };
}

function metadata(page: Pick<ReadDocument, "lang" | "byline" | "published" | "dates" | "pageText">) {
  const out: Pick<ReadDocument, "lang" | "byline" | "published" | "dates" | "pageText"> = {};
  if (page.lang) out.lang = page.lang;
  if (page.byline) out.byline = page.byline;
  if (page.published) out.published = page.published;
  if (page.dates) out.dates = page.dates;
  if (page.pageText) out.pageText = page.pageText;
  return out;
}

function attemptOf(provider: string, ms: number, failure?: Failure): Attempt {
  if (!failure) return { provider, status: "ok", ms };
  return {
    provider,
    status: failure.status,
    ms,
    error: failure.message,
    ...(failure.retryAfter !== undefined ? { retryAfter: failure.retryAfter } : {}),
  };
}

function pick(f: Failure): Failure {
  return {
    status: f.status,
    code: f.code,
    message: f.message,
    ...(f.retryAfter !== undefined ? { retryAfter: f.retryAfter } : {}),
  };
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = Date.now();
  const value = await work();
  return { value, ms: Date.now() - t0 };
}

function markdownTitle(markdown: string): string {
  const front = /^---\n[\s\S]*?^title:\s*["']?(.+?)["']?\s*$[\s\S]*?^---$/m.exec(markdown);
  if (front) return front[1];
  return /^#\s+(.+?)\s*#*\s*$/m.exec(markdown)?.[1] ?? "";
}

function htmlTitle(html: string): string | undefined {
  const t = /<title\b[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
  return t ? decodeAttr(t.replace(/\s+/g, " ").trim()) || undefined : undefined;
}

function fileTitle(url: string): string {
  const u = new URL(url);
  const name = decodeURIComponent(u.pathname.split("/").filter(Boolean).pop() ?? "");
  return name || u.host;
}

function decodeAttr(s: string): string {
  return s
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">");
}

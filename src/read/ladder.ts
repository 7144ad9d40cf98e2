import type { Deadline } from "../core/deadline.js";
import type { Attempt, Failure } from "../core/status.js";
import type { Net, NetResponse } from "../net/client.js";
import { classifyContent, prettyJson } from "./content-kind.js";
import { textFromEmbeddedData } from "./embedded-data.js";
import type { PageDates } from "./extract/page-dates.js";
import { chromiumAvailable } from "./guarded-browser.js";
import { failureForStatus } from "./http-failure.js";
import { fetchLlmsTxt, isFrontPage, type LlmsTxt, withLlmsTxt } from "./llms-txt.js";
import { extractPage } from "./page-pool.js";
import { pdfToText } from "./pdf.js";
import type { Renderer, RenderMode } from "./render.js";
import { proseLength } from "./shell.js";

/** Which rung produced the text, so a caller can tell a full text from a shell. */
export type ReadSource =
  | "server-markdown"
  | "alternate-markdown"
  | "extracted-html"
  | "embedded-data"
  | "rendered"
  | "pdf"
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
  contentType: string;
  fetchedAt: string;
  lang?: string;
  byline?: string;
  published?: string;
  /** The days the page states it was published and modified, each with where it was read. */
  dates?: PageDates;
  /** The server's Last-Modified header, a date of last resort. */
  lastModified?: string;
  /** The page's visible text in blocks, as a browser lays it out (HTML rungs only). */
  pageText?: string[];
}

export type LadderOutcome =
  | { ok: true; doc: ReadDocument; attempts: Attempt[] }
  | { ok: false; failure: Failure; attempts: Attempt[]; finalUrl?: string; contentType?: string };

export interface LadderContext {
  net: Net;
  /** Operator log: a browser that cannot start is a setup problem someone should see. */
  log(message: string): void;
  /** The shared browser; needed only when a page must be rendered. */
  renderer: () => Renderer;
}

export interface LadderOptions {
  deadline: Deadline;
  render: RenderMode;
}

// Servers that can answer in markdown (the cheapest good version) are asked to; HTML stays the usual answer.
export const READ_ACCEPT = "text/markdown, text/html;q=0.9, */*;q=0.8";
const MAX_PAGE_BYTES = 10 * 1024 * 1024;
const LLMS_TXT_BUDGET_MS = 5000;
const MAX_PRETTY_JSON_CHARS = 256 * 1024;
/** Prose a page needs to stand as a (short) page of its own once rendering has shown it is not a shell. */
const MIN_SHORT_PAGE = 100;

/** The direct ladder: GET (markdown first) → alternate → pdf/text/binary → extract → embedded data → render. */
export async function runLadder(
  url: string,
  options: LadderOptions,
  ctx: LadderContext,
): Promise<LadderOutcome> {
  const { deadline } = options;
  const attempts: Attempt[] = [];
  // Fetched alongside the page, not after it; abandoned if the page fails.
  const llmsDeadline = deadline.child(LLMS_TXT_BUDGET_MS);
  const llms = isFrontPage(url)
    ? timed(() => fetchLlmsTxt(url, ctx.net, llmsDeadline).catch(() => undefined))
    : undefined;

  const fetched = await timed(() =>
    ctx.net.request(url, { deadline, headers: { accept: READ_ACCEPT }, maxBytes: MAX_PAGE_BYTES }),
  );
  const res = fetched.value;
  if (!res.ok) {
    llmsDeadline.abort();
    attempts.push({ provider: "fetch", status: res.status, ms: fetched.ms, error: res.message });
    return { ok: false, failure: pick(res), attempts };
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
  if (!llms) return outcome;
  if (!outcome.ok) {
    llmsDeadline.abort();
    return outcome;
  }
  const found = await llms;
  attempts.push({ provider: "llms.txt", status: found.value ? "ok" : "empty", ms: found.ms });
  if (found.value) outcome.doc.markdown = withLlmsTxt(outcome.doc.markdown, found.value as LlmsTxt);
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
    case "pdf": {
      const t0 = Date.now();
      const pdf = await pdfToText(res.bytes, { deadline: options.deadline });
      attempts.push(attemptOf("pdf", Date.now() - t0, pdf.ok ? undefined : pdf));
      if (!pdf.ok)
        return {
          ok: false,
          failure: pick(pdf),
          attempts,
          finalUrl: res.finalUrl,
          contentType: res.contentType,
        };
      const title = pdf.title ?? fileTitle(res.finalUrl);
      return done(attempts, { ...base, title, markdown: pdf.markdown, links: [], source: "pdf" });
    }
    case "html":
      return fromHtml(res, base, options, ctx, attempts);
  }
}

type Base = Pick<ReadDocument, "url" | "finalUrl" | "contentType" | "fetchedAt" | "lastModified">;

async function fromHtml(
  res: NetResponse,
  base: Base,
  options: LadderOptions,
  ctx: LadderContext,
  attempts: Attempt[],
): Promise<LadderOutcome> {
  const html = res.text();
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
  const head = html.slice(0, 200_000);
  for (const m of head.matchAll(/<link\b[^>]*>/gi)) {
    const tag = m[0];
    if (!/\brel\s*=\s*["']?[^"'>]*\balternate\b/i.test(tag)) continue;
    if (!/\btype\s*=\s*["']?text\/(x-)?markdown\b/i.test(tag)) continue;
    const href = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(tag);
    const raw = href?.[1] ?? href?.[2] ?? href?.[3];
    if (!raw) continue;
    try {
      const target = new URL(decodeAttr(raw), pageUrl);
      if (target.protocol === "http:" || target.protocol === "https:") return target.href;
    } catch {}
  }
  return undefined;
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

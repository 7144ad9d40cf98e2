import type { Settings } from "../config/settings.js";
import { callDeadline, withoutNumberDeadline } from "../core/call-budget.js";
import type { Deadline } from "../core/deadline.js";
import { errorLine } from "../core/one-line.js";
import type { Attempt, Failure, Status } from "../core/status.js";
import type { Net } from "../net/client.js";
import type { VetResult } from "../net/vet-url.js";
import type { Store } from "../store/store.js";
import type { PageDates } from "./extract/page-dates.js";
import { failedRead } from "./failed-read.js";
import { freshnessOf } from "./freshness.js";
import {
  type LadderContext,
  type LadderOptions,
  type LadderOutcome,
  type ReadDocument,
  type ReadSource,
  runLadder,
} from "./ladder.js";
import { cachedPage, cachePage, type DocumentKey, forgetPage } from "./page-cache.js";
import { sizeDocument } from "./page-pool.js";
import { createRenderer, type Renderer, type RenderMode } from "./render.js";
import { type RobotsContext, type RobotsOption, robotsDenial, robotsRule } from "./robots.js";
import { DEFAULT_MAX_CHARS, type SizeMode } from "./size.js";

export type { ReadDocument, ReadSource } from "./ladder.js";
export type { RenderMode } from "./render.js";

/** Keyed extract providers that fetchBest may try before the direct ladder. */
export type ExtractProvider = "tavily" | "exa";

export interface ReadOptions {
  /** Budget for the returned markdown, link list included (default 6000). */
  maxChars?: number;
  /** What the reader is after: the page's start, then the matching passages. */
  lookingFor?: string;
  mode?: SizeMode;
  /** Read on from this character of the page's text (the previous result's nextOffset). */
  offset?: number;
  render?: RenderMode;
  /** The read's whole budget in ms (default 20 000). */
  timeoutMs?: number;
  /**
   * The caller's own Deadline to read within (wins over `timeoutMs`). A number here is the deprecated spelling of
   * `timeoutMs`: it still works, with a warning, until the next minor version.
   */
  deadline?: Deadline | number;
  /** false: prose only, without the numbered link list (an envelope that must carry no URLs). */
  links?: boolean;
  /** The caller's cancellation (an MCP request, a closed HTTP connection); it ends the read at once. */
  signal?: AbortSignal;
  /** fetchBest only: these providers, in this order, even while paid use is frozen. */
  pin?: ExtractProvider[];
  /**
   * Whether robots.txt decides this read: `respect` (a disallowed URL is `denied`, code `robots`), `ignore`, or
   * `automated` for a read websift or a model chose (respected unless WEBSIFT_ROBOTS=ignore). Unset: a read a
   * user asked for, respected only with WEBSIFT_ROBOTS=respect.
   */
  robots?: RobotsOption;
  /** Also hand back the page's visible text in blocks (`pageText`), for text-fragment links to its passages. */
  pageText?: boolean;
}

export interface ReadContext {
  net: Net;
  store: Store;
  /** The typed settings (keys, paid use) the keyed extract providers read. */
  config: Settings;
  log(message: string): void;
  /** The browser for rendering; a process-wide one is used when absent. */
  renderer?: Renderer;
  /** The address policy for a URL about to be handed to a keyed extract provider (default: the URL alone). */
  vet?: (url: string) => Promise<VetResult>;
  /** The clock robots.txt ages and page freshness are judged on (default Date.now; tests move it by hand). */
  now?: () => number;
}

/** DESIGN §3's Page, plus the outcome. A failure is a value: status, attempts and `error`, never a throw. */
export interface ReadResult {
  url: string;
  finalUrl: string;
  title: string;
  /** Sized text with the numbered link list after the prose; empty on failure. */
  markdown: string;
  links: string[];
  /** The rung that produced the text; absent when nothing was read. */
  source?: ReadSource;
  /** With `source: "site"`: the site reader ("github") and the endpoint that gave the text ("api.github.com"). */
  reader?: { name: string; via: string };
  contentType: string;
  truncated: boolean;
  fetchedAt: string;
  cached: boolean;
  status: Status;
  attempts: Attempt[];
  /** Characters of the page's whole text (prose, before sizing). */
  totalChars: number;
  /** Characters of the text after the returned window. */
  remaining?: number;
  /** Pass as `offset` to read on. */
  nextOffset?: number;
  lang?: string;
  byline?: string;
  published?: string;
  /** The feeds (RSS, Atom, JSON Feed) the page names in its head, as absolute URLs: read one for its updates. */
  feeds?: string[];
  /** The days the page states it was published and modified, each with where it was read. */
  dates?: PageDates;
  /** The server's Last-Modified header. */
  lastModified?: string;
  /** Only when asked for (`pageText: true`) and read from HTML: the page's visible text in blocks. */
  pageText?: string[];
  error?: Failure;
}

export const DEFAULT_READ_MS = 20_000;
const MAX_LISTED_LINKS = 20;

/** Any http(s) URL to right-sized markdown through the direct ladder. */
export function read(url: string, options: ReadOptions = {}, ctx: ReadContext): Promise<ReadResult> {
  const render = options.render ?? "auto";
  return readThrough(url, options, ctx, "direct", (deadline, revalidate) =>
    runLadder(url, { deadline, render, revalidate }, ladderContext(ctx)),
  );
}

/**
 * The shared tail of read() and fetchBest(): robots.txt, page cache, obtaining the document, sizing, the link
 * list. `via` names how the document is obtained, so documents obtained differently never share a cache entry.
 * A kept page is served while fresh; after that, one with validators is handed to `obtain` to revalidate.
 */
export async function readThrough(
  url: string,
  options: ReadOptions,
  ctx: ReadContext,
  via: string,
  obtain: (deadline: Deadline, revalidate?: LadderOptions["revalidate"]) => Promise<LadderOutcome>,
): Promise<ReadResult> {
  const t0 = Date.now();
  const deadline = callDeadline(withoutNumberDeadline(options), DEFAULT_READ_MS);
  const robots: RobotsContext | undefined =
    robotsRule(options.robots, ctx.config) === "respect"
      ? { net: ctx.net, store: ctx.store, now: ctx.now ?? Date.now }
      : undefined;
  const checked: Attempt[] = [];
  const refused = (failure: Failure) => failedRead(url, failure, { attempts: checked });
  if (robots) {
    const denied = await robotsDenial(url, robots, deadline, checked);
    if (denied) return refused(denied);
  }
  const now = ctx.now ?? Date.now;
  const key: DocumentKey = { url, render: options.render ?? "auto", via };
  const kept = await cachedPage(ctx.store, key);
  // Reading on continues the version read first, fresh or not, while the page allows it (freshness.ts).
  const readingOn = (options.offset ?? 0) > 0;
  if (kept && (kept.freshUntil > now() || (readingOn && kept.readOnUntil > now()))) {
    const denied = robots && (await redirectDenial(url, kept.doc.finalUrl, robots, deadline, checked));
    if (denied) return refused(denied);
    const attempts = [...checked, { provider: "cache", status: "ok" as const, ms: Date.now() - t0 }];
    return present(kept.doc, options, attempts, true, deadline);
  }
  const revalidate = kept?.validators ? { validators: kept.validators, doc: kept.doc } : undefined;

  let outcome: LadderOutcome;
  try {
    outcome = await obtain(deadline, revalidate);
  } catch (err) {
    // The ladder returns failures as values; a throw here is a bug, reported as one rather than crashing a caller.
    const message = errorLine(err);
    ctx.log(`read: unexpected error for ${safeOrigin(url)}: ${message}`);
    outcome = {
      ok: false,
      failure: { status: "error", code: "internal", message: `read failed: ${message}` },
      attempts: [],
    };
  }
  outcome.attempts = [...checked, ...outcome.attempts];
  if (!outcome.ok) return failed(url, outcome, deadline);
  if (robots) {
    const denied = await redirectDenial(url, outcome.doc.finalUrl, robots, deadline, outcome.attempts);
    if (denied)
      return failedRead(url, denied, { finalUrl: outcome.doc.finalUrl, attempts: outcome.attempts });
  }
  // A 304 need not repeat the validators (RFC 9110 §15.4.5): the kept ones still name the kept text.
  const headers = outcome.revalidated
    ? { ...kept?.validators, ...outcome.http?.headers }
    : outcome.http?.headers;
  const freshness = freshnessOf(headers, now(), outcome.http?.revalidatable ?? false);
  if (freshness.keep && outcome.doc.markdown.trim())
    await cachePage(ctx.store, key, outcome.doc, freshness, now());
  else if (kept) await forgetPage(ctx.store, key);
  return present(outcome.doc, options, outcome.attempts, outcome.revalidated === true, deadline);
}

/**
 * A redirect to another host reads that host's page: its robots.txt has the last word. The page was fetched by
 * then (net follows redirects itself), but its text is not handed on.
 */
async function redirectDenial(
  url: string,
  finalUrl: string,
  robots: RobotsContext,
  deadline: Deadline,
  attempts: Attempt[],
): Promise<Failure | undefined> {
  if (originOf(finalUrl) === originOf(url)) return undefined;
  return robotsDenial(finalUrl, robots, deadline, attempts);
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

async function present(
  doc: ReadDocument,
  options: ReadOptions,
  attempts: Attempt[],
  cached: boolean,
  deadline: Deadline,
): Promise<ReadResult> {
  const maxChars = Math.max(200, options.maxChars ?? DEFAULT_MAX_CHARS);
  const meta = {
    url: doc.url,
    finalUrl: doc.finalUrl,
    title: doc.title,
    links: doc.links,
    source: doc.source,
    ...(doc.reader ? { reader: doc.reader } : {}),
    contentType: doc.contentType,
    fetchedAt: doc.fetchedAt,
    cached,
    attempts,
    ...(doc.lang ? { lang: doc.lang } : {}),
    ...(doc.byline ? { byline: doc.byline } : {}),
    ...(doc.published ? { published: doc.published } : {}),
    ...(doc.feeds?.length ? { feeds: doc.feeds } : {}),
    ...(doc.dates ? { dates: doc.dates } : {}),
    ...(doc.lastModified ? { lastModified: doc.lastModified } : {}),
    ...(options.pageText && doc.pageText ? { pageText: doc.pageText } : {}),
  };
  if (!doc.markdown.trim()) {
    const error: Failure = { status: "empty", code: "no_text", message: "the page has no readable text" };
    return { ...meta, markdown: "", truncated: false, status: "empty", totalChars: 0, error };
  }
  // The link list belongs to the page's first window; reading on returns prose only.
  const offset = options.offset ?? 0;
  const linkList =
    options.links !== false && offset === 0 && maxChars >= 1000
      ? numberedLinks(doc.links, Math.min(1200, Math.floor(maxChars * 0.2)))
      : "";
  const sizing = await sizeDocument(
    doc.markdown,
    { maxChars: maxChars - linkList.length, lookingFor: options.lookingFor, mode: options.mode, offset },
    deadline,
  );
  if (!sizing.ok) {
    const { ok: _, ...failure } = sizing;
    return failedRead(doc.url, failure, { finalUrl: doc.finalUrl, contentType: doc.contentType, attempts });
  }
  const sized = sizing.value;
  return {
    ...meta,
    markdown: sized.text + linkList,
    truncated: sized.truncated,
    status: "ok",
    totalChars: sized.totalChars,
    remaining: sized.remaining,
    ...(sized.nextOffset !== undefined ? { nextOffset: sized.nextOffset } : {}),
  };
}

/** "\n\nLinks:\n1. https://…" with as many of the page's links as fit in `budget` characters. */
export function numberedLinks(links: string[], budget: number): string {
  let out = "";
  let n = 0;
  for (const link of links) {
    if (n >= MAX_LISTED_LINKS) break;
    const line = `${n + 1}. ${link}\n`;
    const header = n === 0 ? "\n\nLinks:\n" : "";
    if (out.length + header.length + line.length > budget) break;
    out += header + line;
    n++;
  }
  return out.trimEnd();
}

function failed(url: string, outcome: Extract<LadderOutcome, { ok: false }>, deadline: Deadline): ReadResult {
  // A deadline that fired mid-ladder is a timeout whatever rung noticed it.
  const failure =
    deadline.expired() && !deadline.cancelled() && outcome.failure.status === "error"
      ? { status: "timeout" as const, code: "timeout", message: `timeout reading ${safeOrigin(url)}` }
      : outcome.failure;
  return failedRead(url, failure, outcome);
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "the URL";
  }
}

export function ladderContext(ctx: ReadContext): LadderContext {
  return {
    net: ctx.net,
    log: ctx.log,
    renderer: () => ctx.renderer ?? sharedRenderer(),
    keys: ctx.config.keys,
    store: ctx.store,
    ...(ctx.now ? { now: ctx.now } : {}),
  };
}

let shared: Renderer | undefined;

/** One browser for the process when the caller did not bring its own; it closes itself when idle. */
function sharedRenderer(): Renderer {
  shared ??= createRenderer();
  return shared;
}

/** Closes the process-wide browser (tests, CLI shutdown); the next render launches a new one. */
export async function closeSharedRenderer(): Promise<void> {
  const current = shared;
  shared = undefined;
  await current?.close();
}

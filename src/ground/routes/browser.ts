import type { Deadline } from "../../core/deadline.js";
import { errorLine } from "../../core/one-line.js";
import type { Attempt, Status } from "../../core/status.js";
import type { Resolve } from "../../net/url-policy.js";
import { vetUrl } from "../../net/vet-url.js";
import { extractMarkdown } from "../../read/extractor.js";
import { sizeText } from "../../read/size.js";
import type { ProviderContext, ProviderHit } from "../../search/provider.js";
import { serpOutcome } from "../../search/serp/outcome.js";
import type { AnswerResult } from "../answer.js";
import { normalEnvelope } from "../envelope.js";
import { sharedTokens } from "../relevance.js";
import { numberSources, passagesOf } from "../sources.js";
import { type BrowserEngineName, browserEngine } from "./browser-engines.js";
import { searchInTab } from "./browser-search.js";
import { type GuardedTab, openGuardedTab, within } from "./browser-tab.js";
import { routeFailure } from "./route-failure.js";

export interface BrowserRouteDeps {
  /** net (every request of the tab goes through it), config (`browser`: its engine and DevTools URL), log. */
  ctx: ProviderContext;
  /** Resolver for vetting a result's address before a user's own browser is sent to it. */
  resolve?: Resolve;
  language?: string;
  /** Overrides WEBSIFT_BROWSER_ENGINE; Google when neither is set. */
  engine?: BrowserEngineName;
  sourcesApart?: boolean;
  /** Characters of page text in the envelope (default 1500). */
  maxChars?: number;
  executablePath?: string;
}

const SOURCES = 5;
const PAGES_TRIED = 3;
/** The search may take this long; what is left of the deadline reads a result (at least READ_RESERVE_MS). */
const SEARCH_MS = 12_000;
const READ_RESERVE_MS = 3000;
/** One result page: navigation, load and text. */
const PAGE_MS = 6000;
/** After DOMContentLoaded, how long a page may take to finish loading before its DOM is read as it is. */
const PAGE_LOAD_MS = 3000;

class SearchTimeout extends Error {}

/**
 * Searches in a real Chromium (the one on screen at WEBSIFT_BROWSER_CDP_URL, else a headless one) and reads the
 * top result in the same tab. A challenge, a consent page that will not go away, or anything unrecognised is a
 * failure, so the caller falls through to the normal pipeline.
 */
export async function browserRoute(
  query: string,
  deps: BrowserRouteDeps,
  deadline: Deadline,
): Promise<AnswerResult> {
  const started = Date.now();
  const engine = browserEngine(deps.engine ?? deps.ctx.config.browser.engine);
  const provider = `browser:${engine?.name ?? "unknown"}`;
  const fail = (status: Exclude<Status, "ok">, message: string) =>
    routeFailure(query, [{ provider, status, ms: Date.now() - started, error: message }]);
  if (!engine) return fail("error", "WEBSIFT_BROWSER_ENGINE names no known engine (google, bing)");
  const cdpUrl = deps.ctx.config.browser.cdpUrl;

  let tab: GuardedTab;
  try {
    tab = await openGuardedTab({
      net: deps.ctx.net,
      deadline,
      cdpUrl,
      proxies: deps.ctx.config.net,
      executablePath: deps.executablePath,
    });
  } catch (err) {
    return fail(
      deadline.expired() ? "timeout" : "unsupported",
      `the browser is not available: ${brief(err)}`,
    );
  }
  try {
    const searchDeadline = deadline.child(Math.min(SEARCH_MS, deadline.remaining() - READ_RESERVE_MS));
    const parse = await searchInTab(tab.page, engine, query, deps.language, searchDeadline).catch((err) => {
      throw searchDeadline.expired() ? new SearchTimeout() : err;
    });
    const outcome = serpOutcome(engine.name, parse, { query, limit: SOURCES });
    if (outcome.status === "empty") return fail("empty", `${engine.name} found nothing`);
    if (outcome.status !== "ok") return fail(outcome.status, outcome.message);
    const searched: Attempt = {
      provider,
      status: "ok",
      ms: Date.now() - started,
      count: outcome.hits.length,
    };
    const { page, attempts } = await readTop(tab, outcome.hits, query, deps, deadline, !!cdpUrl);
    if (!page) return routeFailure(query, [searched, ...attempts], "partial", "no result page could be read");
    const lookedUpAt = new Date();
    const sources = numberSources(
      [{ title: page.title, url: page.url, passages: passagesOf(page.text).map((text) => ({ text })) }],
      outcome.hits,
    );
    return {
      status: "ok",
      envelope: normalEnvelope({
        query,
        sourcesApart: deps.sourcesApart,
        lookedUpAt,
        page: { n: 1, text: page.text },
        sources,
      }),
      lookedUpAt: lookedUpAt.toISOString(),
      sources,
      attempts: [searched, ...attempts],
      provider,
    };
  } catch (err) {
    if (err instanceof SearchTimeout || deadline.expired())
      return fail("timeout", `${engine.name} did not settle in time`);
    return fail("error", `the browser route failed: ${brief(err)}`);
  } finally {
    await tab.close();
  }
}

interface ReadOutcome {
  page?: { title: string; url: string; text: string; truncated: boolean };
  attempts: Attempt[];
}

/** The best-ranked result whose text shares a word with the query, read in the tab one after the other. */
async function readTop(
  tab: GuardedTab,
  hits: ProviderHit[],
  query: string,
  deps: BrowserRouteDeps,
  deadline: Deadline,
  userBrowser: boolean,
): Promise<ReadOutcome> {
  const attempts: Attempt[] = [];
  for (const hit of hits.slice(0, PAGES_TRIED)) {
    if (deadline.remaining() < 500) break;
    const t0 = Date.now();
    const note = (status: Attempt["status"], error?: string) =>
      attempts.push({ provider: "browser:read", status, ms: Date.now() - t0, ...(error ? { error } : {}) });
    // Our own browser cannot dial anything itself; a user's browser can (prefetch, preconnect), so the target
    // is vetted before the tab is sent there: as net vets it, so behind a proxy the proxy resolves the name.
    if (userBrowser) {
      const vetted = await vetUrl(hit.url, { resolve: deps.resolve, proxies: deps.ctx.config.net });
      if (!vetted.ok) {
        note("denied", vetted.reason);
        continue;
      }
    }
    const pageDeadline = deadline.child(PAGE_MS);
    try {
      const read = await within(readPage(tab, hit, pageDeadline), pageDeadline);
      if ("error" in read) {
        note(read.status, read.error);
        continue;
      }
      if (sharedTokens(query, `${read.title}\n${read.text}`) === 0) {
        note("empty", "no text about the query on the page");
        continue;
      }
      const sized = sizeText(read.text, { maxChars: deps.maxChars ?? 1500, lookingFor: query });
      note("ok");
      return { page: { ...read, text: sized.text, truncated: sized.truncated }, attempts };
    } catch (err) {
      note(pageDeadline.expired() ? "timeout" : "error", brief(err));
    } finally {
      pageDeadline.abort();
    }
  }
  return { attempts };
}

type PageText = { title: string; url: string; text: string } | { status: "error" | "empty"; error: string };

/** The tab's main content as markdown, once it has loaded (or PAGE_LOAD_MS after its DOM was ready). */
async function readPage(tab: GuardedTab, hit: ProviderHit, deadline: Deadline): Promise<PageText> {
  await tab.page.goto(hit.url, { waitUntil: "domcontentloaded", timeout: Math.max(1, deadline.remaining()) });
  await tab.page
    .waitForLoadState("load", { timeout: Math.max(1, Math.min(PAGE_LOAD_MS, deadline.remaining() - 300)) })
    .catch(() => {});
  const status = tab.traffic.documentStatus ?? 0;
  if (status >= 400) return { status: "error", error: `HTTP ${status}` };
  const url = tab.page.url();
  const extracted = await extractMarkdown(await tab.page.content(), url);
  const text = extracted.markdown.trim();
  if (!text) return { status: "empty", error: "no main text on the page" };
  return { title: extracted.title || hit.title, url, text };
}

function brief(err: unknown): string {
  return errorLine(err);
}

import { settingsFromEnv } from "../config/load.js";
import type { Settings } from "../config/settings.js";
import type { Deadline } from "../core/deadline.js";
import { warnRenamedOption } from "../core/deprecation.js";
import type { Attempt, Failure } from "../core/status.js";
import { checkUrl } from "../net/url-policy.js";
import type { VetResult } from "../net/vet-url.js";
import type { LadderOutcome, ReadDocument } from "./ladder.js";
import { runLadder } from "./ladder.js";
import { contentsWithExa } from "./providers/exa-contents.js";
import { extractWithTavily } from "./providers/tavily-extract.js";
import {
  type ExtractProvider,
  ladderContext,
  type ReadContext,
  type ReadOptions,
  type ReadResult,
  readThrough,
} from "./read.js";
import { siteReaderFor } from "./sites/registry.js";

type Extracted = { ok: true; markdown: string; title?: string; source: "tavily-extract" | "exa-contents" };
type Extractor = (
  url: string,
  ctx: ReadContext,
  deadline: Deadline,
) => Promise<Extracted | (Failure & { ok: false })>;

const EXTRACTORS: Record<ExtractProvider, { name: string; key: string; extract: Extractor }> = {
  tavily: { name: "tavily-extract", key: "TAVILY_API_KEY", extract: extractWithTavily },
  exa: { name: "exa-contents", key: "EXA_API_KEY", extract: contentsWithExa },
};
const DEFAULT_ORDER: ExtractProvider[] = ["tavily", "exa"];
// A provider may take this share of what is left, so the direct ladder still has time when it fails.
const PROVIDER_SHARE = 0.5;

/**
 * The best text money can buy, then the free ladder: Tavily extract, then Exa contents, then the direct ladder.
 * Paid providers run only when their key is set and paid use is unfrozen (WEBSIFT_ENABLE_PAID=1), or when the
 * call pins them (`pin` also fixes their order).
 */
/** A context as callers built it before the typed settings: `env` where `config` now is. */
type EnvReadContext = Omit<ReadContext, "config"> & { env: Record<string, string | undefined> };

/** `env` in the context still works, read once into the typed settings, with a warning, for one minor version. */
function settledContext(ctx: ReadContext | EnvReadContext): ReadContext {
  if ("config" in ctx && ctx.config) return ctx;
  warnRenamedOption(
    "fetchBest's context.env",
    "context.config (settingsFromEnv(env) or loadConfig().values)",
  );
  const { env, ...rest } = ctx as EnvReadContext;
  return { ...rest, config: settingsFromEnv(env ?? {}) };
}

export function fetchBest(
  url: string,
  options: ReadOptions = {},
  given: ReadContext | EnvReadContext,
): Promise<ReadResult> {
  const ctx = settledContext(given);
  // A site with a reader of its own (GitHub, Stack Exchange…) is read through its API: cleaner than a paid
  // extractor's text of the page, and free. Pinned providers are still asked.
  const order = options.pin || !siteReaderFor(url) ? extractorsFor(options.pin, ctx.config) : [];
  const render = options.render ?? "auto";
  const via = order.length ? `best:${order.join(",")}` : "direct";
  return readThrough(url, options, ctx, via, async (deadline, revalidate) => {
    // A kept page with validators was the site's own answer: the site is asked whether it changed, not a provider.
    if (revalidate) return runLadder(url, { deadline, render, revalidate }, ladderContext(ctx));
    const attempts: Attempt[] = [];
    for (const provider of options.pin ?? []) {
      if (!order.includes(provider))
        attempts.push({
          provider: EXTRACTORS[provider].name,
          status: "disabled",
          ms: 0,
          error: `${EXTRACTORS[provider].key} is not set`,
        });
    }
    if (order.length) {
      // A third party is about to be told the URL: a private or loopback one must not leave, even as a name.
      const vetted = await (ctx.vet ?? vetByUrl)(url);
      if (!vetted.ok)
        return {
          ok: false,
          failure: { status: "denied", code: vetted.code, message: vetted.reason },
          attempts,
        };
    }
    for (const provider of order) {
      const { name, extract } = EXTRACTORS[provider];
      const t0 = Date.now();
      const got = await extract(url, ctx, deadline.child(deadline.remaining() * PROVIDER_SHARE));
      const ms = Date.now() - t0;
      if (got.ok && got.markdown.trim()) {
        attempts.push({ provider: name, status: "ok", ms });
        return { ok: true, doc: providerDocument(url, got), attempts };
      }
      const error = got.ok ? "no text" : got.message;
      attempts.push({ provider: name, status: got.ok ? "empty" : got.status, ms, error });
    }
    const direct: LadderOutcome = await runLadder(url, { deadline, render }, ladderContext(ctx));
    return { ...direct, attempts: [...attempts, ...direct.attempts] };
  });
}

/** Rule 1 of the address policy, for a context that brings no resolver of its own. */
async function vetByUrl(url: string): Promise<VetResult> {
  const checked = checkUrl(url);
  return checked.ok ? { ok: true, addresses: [] } : checked;
}

/** Which keyed extractors this call may use, in order. */
export function extractorsFor(pin: ExtractProvider[] | undefined, settings: Settings): ExtractProvider[] {
  const wanted = pin ?? (settings.search.enablePaid ? DEFAULT_ORDER : []);
  return [...new Set(wanted)].filter((p) => EXTRACTORS[p] && Boolean(settings.keys[EXTRACTORS[p].key]));
}

function providerDocument(url: string, got: Extracted): ReadDocument {
  const { markdown, links } = moveLinksOut(got.markdown);
  return {
    url,
    finalUrl: url,
    title: got.title ?? "",
    markdown,
    links,
    source: got.source,
    contentType: "text/markdown",
    fetchedAt: new Date().toISOString(),
  };
}

/**
 * Provider markdown keeps links inline, where a URL costs more tokens than the words it sits on: the anchor words
 * stay, the targets join the numbered list, as for pages extracted here. Images keep only their alt text.
 */
export function moveLinksOut(markdown: string): { markdown: string; links: string[] } {
  const links: string[] = [];
  const text = markdown
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, (_, alt: string) => alt)
    .replace(/\[([^\]]+)\]\((https?:\/\/[^)\s]+)(?:\s+"[^"]*")?\)/g, (_, words: string, href: string) => {
      if (!links.includes(href)) links.push(href);
      return words;
    });
  return { markdown: text, links };
}

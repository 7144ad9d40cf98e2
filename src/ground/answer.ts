import { type CallBudget, callDeadline } from "../core/call-budget.js";
import type { Deadline } from "../core/deadline.js";
import type { Attempt, Status } from "../core/status.js";
import type { SearchResponse } from "../search/chain.js";
import { FAILURE_PRIORITY, unreachable } from "../search/failure-summary.js";
import type { SearchOptions } from "../search/options.js";
import type { ProviderAnswer } from "../search/provider.js";
import { cascade, type ReadFn } from "./cascade.js";
import {
  deniedEnvelope,
  disabledEnvelope,
  type EnvelopeParts,
  failureEnvelope,
  linksOnlyEnvelope,
  normalEnvelope,
  offlineEnvelope,
  rateLimitedEnvelope,
  type Source,
} from "./envelope.js";
import { progressLine } from "./progress.js";
import { guardQuery } from "./query-guard.js";
import {
  asksForCurrent,
  daysBefore,
  linkedPassages,
  numberSources,
  passagesOf,
  sourceDates,
  sourceDay,
} from "./sources.js";

export type Route = "browser" | "gemini-cli" | "gemini-api";

export interface AnswerOptions extends CallBudget {
  language?: string;
  route?: Route;
  /** "sources": the text carries no URLs; sources travel beside it. */
  mode?: "text" | "sources";
  /** Characters of page text in the envelope (default 1500). */
  maxChars?: number;
  onProgress?: (line: string) => void;
}

export interface AnswerResult {
  status: Status;
  envelope: string;
  /** Numbered as the envelope cites them: the sources it quotes first, then search results never read. */
  sources: Source[];
  attempts: Attempt[];
  provider?: string;
  /** When the lookup happened (ISO time); absent when none was made. */
  lookedUpAt?: string;
  /** Days from the newest read source's stated day to the lookup, for a question about what is current. */
  newestSourceDays?: number;
}

export interface AnswerDeps {
  enabled: () => boolean | Promise<boolean>;
  search: (query: string, options: SearchOptions) => Promise<SearchResponse>;
  instant: (query: string, deadline: Deadline) => Promise<{ answer?: ProviderAnswer; attempt: Attempt }>;
  read: (maxChars: number, lookingFor: string) => ReadFn;
  /** A real-time route (browser, Gemini): any failure falls through to the normal pipeline. */
  route?: (route: Route, query: string, deadline: Deadline) => Promise<AnswerResult | undefined>;
  cascadeTimeoutMs?: number;
  /** false: the operator turned the Wikipedia fallback off. */
  wikipedia?: boolean;
  /** The lookup's clock (tests pin it). */
  now?: () => Date;
}

const ROUTE_RESERVE_MS = 8000;
/** An answer's budget when its caller gives none (the library passes its own). */
const ANSWER_TIMEOUT_MS = 20_000;

/**
 * websift's main job: a question in, an honest fenced envelope out. Progress says each step once, as it
 * happens: each provider's attempt, each page read, and nothing once the answer is out (reads the cascade
 * stopped still settle later, and a caller's listener may be gone by then).
 */
export async function answer(query: string, options: AnswerOptions, deps: AnswerDeps): Promise<AnswerResult> {
  const listener = options.onProgress;
  if (!listener) return answerQuery(query, options, deps, () => {});
  let open = true;
  try {
    return await answerQuery(query, options, deps, (line) => {
      if (open) listener(line);
    });
  } finally {
    open = false;
  }
}

async function answerQuery(
  query: string,
  options: AnswerOptions,
  deps: AnswerDeps,
  progress: (line: string) => void,
): Promise<AnswerResult> {
  const apart = options.mode === "sources";
  if (!(await deps.enabled()))
    return { status: "disabled", envelope: disabledEnvelope(), sources: [], attempts: [] };
  const q = typeof query === "string" ? query.replace(/\s+/g, " ").trim() : "";
  if (!q)
    return {
      status: "error",
      envelope: failureEnvelope("", "the question is empty"),
      sources: [],
      attempts: [],
    };
  const guard = guardQuery(q);
  if (!guard.ok)
    return { status: "denied", envelope: deniedEnvelope(guard.reason), sources: [], attempts: [] };

  const deadline = callDeadline(options, ANSWER_TIMEOUT_MS);
  const attempts: Attempt[] = [];
  // One line per provider attempt; DuckDuckGo's block and emptiness in the words the voice assistant used.
  const attempted = (a: Attempt) => {
    if (a.provider === "duckduckgo" && (a.status === "blocked" || a.status === "rate_limited"))
      progress(progressLine.ddgBlocked);
    else if (a.provider === "duckduckgo" && a.status === "empty") progress(progressLine.ddgEmpty);
    else progress(progressLine.attempt(a));
  };

  if (options.route && deps.route) {
    // The route gets what is left minus a reserve, so falling through still leaves the pipeline time to answer.
    const routeBudget = Math.max(0, deadline.remaining() - ROUTE_RESERVE_MS);
    const routed = await deps.route(options.route, q, deadline.child(routeBudget)).catch(() => undefined);
    if (routed && routed.status === "ok") {
      progress(progressLine.answered(routed.provider ?? options.route));
      return routed;
    }
    if (routed) {
      attempts.push(...routed.attempts);
      routed.attempts.forEach(attempted);
    }
  }

  // Said when the search starts, not before a route that may answer alone.
  progress(progressLine.searching(q));
  const [instant, search] = await Promise.all([
    deps.instant(q, deadline.child(4000)).then((r) => {
      attempted(r.attempt);
      return r;
    }),
    deps.search(q, {
      limit: 5,
      language: options.language,
      deadline: deadline.child(),
      exclude: ["wikipedia"],
      onAttempt: attempted,
    }),
  ]);
  attempts.push(instant.attempt, ...search.attempted);
  const lookedUpAt = deps.now?.() ?? new Date();
  const current = asksForCurrent(q, lookedUpAt);
  const searched = search.results.map((r) => ({ title: r.title, url: r.url }));
  const done = (status: Status, envelope: string, sources: Source[], provider?: string): AnswerResult => {
    if (provider) progress(progressLine.answered(provider));
    const newest = current ? newestDay(sources) : undefined;
    return {
      status,
      envelope,
      sources,
      attempts,
      ...(provider ? { provider } : {}),
      lookedUpAt: lookedUpAt.toISOString(),
      ...(newest ? { newestSourceDays: daysBefore(newest, lookedUpAt) } : {}),
    };
  };
  const envelopeOf = (sources: Source[], parts: Pick<EnvelopeParts, "instant" | "page">) =>
    normalEnvelope({ query: q, sourcesApart: apart, lookedUpAt, current, sources, ...parts });

  if (instant.answer) {
    const a = instant.answer;
    const sources = numberSources(
      a.url ? [{ title: a.source ?? "Instant answer", url: a.url, passages: [{ text: a.text }] }] : [],
      searched,
    );
    const instantPart = { text: a.text, source: a.source, ...(a.url ? { n: 1 } : {}) };
    return done("ok", envelopeOf(sources, { instant: instantPart }), sources, "duckduckgo-instant");
  }

  if (search.results.length) {
    const maxChars = options.maxChars ?? 1500;
    const result = await cascade(
      q,
      search.results.slice(0, 3),
      deps.read(maxChars, q),
      deadline,
      deps.cascadeTimeoutMs ?? 8000,
      (url, a) => progress(progressLine.read(url, a)),
      current ? { lookedUpAt } : undefined,
    );
    attempts.push(...result.attempts);
    if (result.page) {
      const page = result.page.read;
      const url = page.finalUrl ?? result.page.candidate.url;
      const text = page.markdown ?? "";
      const sources = numberSources(
        [
          {
            title: page.title || result.page.candidate.title,
            url,
            ...sourceDates(page, lookedUpAt),
            passages: linkedPassages(url, passagesOf(text), page.pageText),
          },
        ],
        // The page read is listed once, under the URL it was read from.
        searched.filter((s) => s.url !== result.page?.candidate.url),
      );
      const model = search.answer
        ? {
            instant: {
              text: search.answer.text,
              source: search.answer.provider,
              modelGenerated: search.answer.modelGenerated,
            },
          }
        : {};
      return done("ok", envelopeOf(sources, { page: { n: 1, text }, ...model }), sources, search.provider);
    }
  }

  // Nothing readable: the rest of the chain (Wikipedia by the utterance's language), if time allows.
  let wiki: SearchResponse | undefined;
  if (deps.wikipedia !== false && deadline.remaining() > 1500) {
    progress(progressLine.wikipedia(options.language ?? "en", q));
    wiki = await deps.search(q, {
      provider: "wikipedia",
      language: options.language,
      deadline: deadline.child(),
      limit: 1,
      onAttempt: attempted,
    });
    attempts.push(...wiki.attempted);
    const summary =
      wiki.answer ?? (wiki.results[0] ? { text: wiki.results[0].snippet, provider: "wikipedia" } : undefined);
    if (wiki.status === "ok" && summary?.text) {
      const top = wiki.results[0];
      const sources = numberSources(
        [{ title: top?.title ?? "Wikipedia", url: top?.url ?? "", passages: [{ text: summary.text }] }],
        searched,
      );
      return done("ok", envelopeOf(sources, { page: { n: 1, text: summary.text } }), sources, "wikipedia");
    }
  }

  const sources = numberSources([], searched);
  if (sources.length)
    return done(
      "partial",
      linksOnlyEnvelope({ query: q, sourcesApart: apart, lookedUpAt, sources }),
      sources,
    );
  const failure = overallFailure(search, wiki);
  if (failure.status === "offline") return done("offline", offlineEnvelope(q), sources);
  if (failure.status === "blocked" || failure.status === "rate_limited")
    return done(failure.status, rateLimitedEnvelope(q), sources);
  if (failure.status === "empty") return done("empty", failureEnvelope(q, "no results were found"), sources);
  return done(failure.status, failureEnvelope(q, failure.error ?? "every search provider failed"), sources);
}

/** The newest day a read source states. */
function newestDay(sources: Source[]): string | undefined {
  return sources
    .filter((s) => s.read)
    .map(sourceDay)
    .filter((d): d is string => !!d)
    .sort()
    .at(-1);
}

/**
 * The search and the Wikipedia fallback ranked as the chain ranks its providers, so `answer` and a `search` of
 * the same world name the same failure: offline only when Wikipedia could not be reached either.
 */
function overallFailure(
  search: SearchResponse,
  wiki: SearchResponse | undefined,
): { status: Status; error?: string } {
  const failures = [search, ...(wiki && wiki.status !== "ok" ? [wiki] : [])];
  if (
    search.status === "offline" &&
    (!wiki || wiki.status === "offline" || (wiki.status !== "ok" && unreachable(wiki.code)))
  )
    return { status: "offline", error: search.error };
  const ranked = FAILURE_PRIORITY.map((st) => failures.find((f) => f.status === st)).find(Boolean);
  const pick = ranked ?? search;
  return { status: pick.status === "ok" ? "error" : pick.status, error: pick.error };
}

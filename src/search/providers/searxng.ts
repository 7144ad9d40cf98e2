import { oneLine, optionalLine } from "../../core/one-line.js";
import type { Failure } from "../../core/status.js";
import {
  badResponse,
  httpFailure,
  rateLimited,
  retryAfterSeconds,
  transportFailure,
} from "../../provider-http/http-errors.js";
import type { Provider, ProviderAnswer, ProviderHit, ProviderOutcome, ProviderQuery } from "../provider.js";

/** Engines that answered scripted traffic reliably in field use; `SEARXNG_ENGINES=""` lets the instance choose. */
export const DEFAULT_SEARXNG_ENGINES = "bing,360search";
const TIME_RANGE = { d: "day", w: "week", m: "month", y: "year" } as const;
const SAFESEARCH = { off: "0", moderate: "1", strict: "2" } as const;

export const searxng: Provider = {
  name: "searxng",
  kind: "self-hosted",
  paid: false,
  auto: { rank: 50 },
  keyEnv: ["SEARXNG_URL"],
  native: { language: true, safesearch: true, timeRange: true },
  // SearXNG waits on scraped engines itself, so it gets a scraped engine's budget.
  budgetMs: 9000,
  configured: (env) => Boolean(env.SEARXNG_URL?.trim()),
  async search(query, ctx, deadline) {
    const url = searxngUrl(query, ctx.env);
    if (typeof url !== "string") return url;
    const res = await ctx.net.request(url, {
      deadline,
      headers: { accept: "application/json" },
      trusted: true,
    });
    if (!res.ok) {
      // net refuses private and loopback addresses, where many SearXNG instances live; it is not weakened here.
      if (res.code === "blocked_url")
        return {
          status: "denied",
          code: "instance_refused",
          message:
            `searxng: the network guard refused SEARXNG_URL (${res.message}); an instance on a private or ` +
            "local address needs its origin trusted explicitly by the operator",
        };
      return transportFailure("searxng", res);
    }
    if (res.status === 403)
      return {
        status: "error",
        code: "json_disabled",
        message:
          "searxng answered 403: JSON output is not enabled on this instance (add `json` to search.formats in settings.yml)",
      };
    if (res.status === 429) {
      const failure = rateLimited(
        "searxng",
        retryAfterSeconds(res.headers),
        "the instance's limiter refused the request",
      );
      return {
        ...failure,
        message: `${failure.message}; for local use turn server.limiter off in settings.yml`,
      };
    }
    if (res.status !== 200) return httpFailure("searxng", res);
    const body = res.json();
    if (body === undefined) return badResponse("searxng", "a body that is not JSON");
    return parseSearxngResponse(body, query.limit);
  },
};

/** The request URL, or a failure when SEARXNG_URL is missing or not an http(s) URL. */
export function searxngUrl(query: ProviderQuery, env: Record<string, string | undefined>): string | Failure {
  const base = env.SEARXNG_URL?.trim();
  if (!base)
    return { status: "disabled", code: "not_configured", message: "searxng: SEARXNG_URL is not set" };
  let url: URL;
  try {
    url = new URL("search", base.endsWith("/") ? base : `${base}/`);
  } catch {
    return { status: "error", code: "bad_config", message: "searxng: SEARXNG_URL is not a valid URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return { status: "error", code: "bad_config", message: "searxng: SEARXNG_URL must be an http(s) URL" };
  const p = url.searchParams;
  p.set("q", query.query);
  p.set("format", "json");
  p.set("categories", "general");
  const engines = (env.SEARXNG_ENGINES ?? DEFAULT_SEARXNG_ENGINES).trim();
  if (engines) p.set("engines", engines);
  const language = searxngLanguage(query);
  if (language) p.set("language", language);
  if (query.timeRange) p.set("time_range", TIME_RANGE[query.timeRange]);
  if (query.safesearch) p.set("safesearch", SAFESEARCH[query.safesearch]);
  return url.href;
}

/** `language` wins; otherwise a DuckDuckGo-style region "us-en" becomes SearXNG's "en-US". */
function searxngLanguage(query: ProviderQuery): string | undefined {
  if (query.language && /^[a-z]{2,3}(-[A-Za-z]{2})?$/.test(query.language)) return query.language;
  const [country, lang] = (query.region ?? "").toLowerCase().split("-");
  if (!lang || !/^[a-z]{2}$/.test(lang) || !/^[a-z]{2}$/.test(country) || country === "wt") return undefined;
  return `${lang}-${country === "uk" ? "GB" : country.toUpperCase()}`;
}

interface SearxResult {
  url?: unknown;
  title?: unknown;
  content?: unknown;
  publishedDate?: unknown;
}

export function parseSearxngResponse(body: unknown, limit = 20): ProviderOutcome {
  const b = body as {
    results?: unknown;
    answers?: unknown;
    infoboxes?: unknown;
    unresponsive_engines?: unknown;
  } | null;
  if (!b || typeof b !== "object" || !Array.isArray(b.results))
    return badResponse("searxng", "JSON without a results list");
  const hits: ProviderHit[] = [];
  // number_of_results is often 0 while results is full: only the list counts.
  for (const r of b.results as SearxResult[]) {
    if (typeof r?.url !== "string" || !/^https?:\/\//i.test(r.url)) continue;
    hits.push({
      title: optionalLine(r.title, 200) ?? r.url,
      url: r.url,
      snippet: optionalLine(r.content, 600) ?? "",
      ...(typeof r.publishedDate === "string" && r.publishedDate ? { date: r.publishedDate } : {}),
    });
    if (hits.length >= limit) break;
  }
  const answer = searxngAnswer(b.answers, b.infoboxes);
  if (hits.length > 0) return { status: "ok", hits, ...(answer ? { answer } : {}) };
  const failed = unresponsiveEngines(b.unresponsive_engines);
  // Every engine failing is a degraded instance, not a search that found nothing.
  if (failed.length > 0)
    return {
      status: "error",
      code: "engines_unresponsive",
      message: `searxng returned no results because its engines failed: ${failed.join(", ")}`,
    };
  return { status: "empty", ...(answer ? { answer } : {}) };
}

function unresponsiveEngines(raw: unknown): string[] {
  if (!Array.isArray(raw)) return [];
  return raw.map((e) => {
    if (Array.isArray(e)) return e[1] ? `${e[0]} (${oneLine(String(e[1]), 80)})` : String(e[0]);
    return String(e);
  });
}

/** Recent versions send answer objects, old ones plain strings; an infobox is the fallback. */
function searxngAnswer(answers: unknown, infoboxes: unknown): ProviderAnswer | undefined {
  const first = Array.isArray(answers) ? answers[0] : undefined;
  if (typeof first === "string" && optionalLine(first, 200))
    return { text: optionalLine(first, 1000)!, kind: "answer", modelGenerated: false };
  if (first && typeof first === "object") {
    const a = first as { answer?: unknown; url?: unknown; engine?: unknown };
    const text = optionalLine(a.answer, 1000);
    if (text)
      return {
        text,
        kind: "answer",
        modelGenerated: false,
        ...(typeof a.url === "string" ? { url: a.url } : {}),
        ...(typeof a.engine === "string" ? { source: a.engine } : {}),
      };
  }
  const box = Array.isArray(infoboxes)
    ? (infoboxes[0] as { content?: unknown; infobox?: unknown; id?: unknown })
    : undefined;
  const text = optionalLine(box?.content, 1000);
  if (!text) return undefined;
  return {
    text,
    kind: "abstract",
    modelGenerated: false,
    ...(typeof box?.infobox === "string" ? { source: box.infobox } : {}),
    ...(typeof box?.id === "string" && /^https?:\/\//.test(box.id) ? { url: box.id } : {}),
  };
}

import type { z } from "zod";
import type { SearchSettings } from "../../config/settings.js";
import { lazySchema } from "../../core/lazy-zod.js";
import { oneLine, optionalLine } from "../../core/one-line.js";
import type { Failure } from "../../core/status.js";
import type { NetResponse } from "../../net/client.js";
import { badResponse, httpFailure, rateLimited, retryAfterSeconds } from "../../provider-http/http-errors.js";
import { anyField, entriesOf, listOf, maybe, maybeText } from "../../provider-http/json-fields.js";
import { keyedJson } from "../../provider-http/keyed-json.js";
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
  timeoutMs: 9000,
  configured: (settings) => Boolean(settings.search.searxngUrl),
  async search(query, ctx, deadline) {
    const url = searxngUrl(query, ctx.config.search);
    if (typeof url !== "string") return url;
    const answer = await keyedJson(
      {
        provider: "searxng",
        url,
        headers: () => ({ accept: "application/json" }),
        trusted: true,
        transportFailure: (failure) =>
          // net refuses private and loopback addresses, where many SearXNG instances live; it is not weakened here.
          failure.code === "blocked_url"
            ? {
                status: "denied",
                code: "instance_refused",
                message:
                  `searxng: the network guard refused SEARXNG_URL (${failure.message}); an instance on a private or ` +
                  "local address needs its origin trusted explicitly by the operator",
              }
            : undefined,
        failure: searxngFailure,
      },
      ctx,
      deadline,
      (body) => parseSearxngResponse(body, query.limit),
    );
    return answer.ok ? answer.value : answer.failure;
  },
};

function searxngFailure(res: NetResponse): Failure {
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
  return httpFailure("searxng", res);
}

/** The request URL, or a failure when SEARXNG_URL is missing or not an http(s) URL. */
export function searxngUrl(
  query: ProviderQuery,
  settings: Pick<SearchSettings, "searxngUrl" | "searxngEngines">,
): string | Failure {
  const base = settings.searxngUrl?.trim();
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
  const engines = (settings.searxngEngines ?? DEFAULT_SEARXNG_ENGINES).trim();
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

const SearxngAnswer = lazySchema((z) =>
  z.union([z.string(), z.object({ answer: anyField(), url: maybeText(), engine: maybeText() })]),
);
const SearxngInfobox = lazySchema((z) =>
  z.object({ content: anyField(), infobox: maybeText(), id: maybeText() }),
);
const SearxngResponse = lazySchema((z) =>
  z.object({
    results: listOf(
      z.object({ url: z.string(), title: maybeText(), content: maybeText(), publishedDate: maybeText() }),
    ),
    answers: maybe(entriesOf(SearxngAnswer())),
    infoboxes: maybe(entriesOf(SearxngInfobox())),
    unresponsive_engines: maybe(z.array(z.unknown())),
  }),
);

export function parseSearxngResponse(body: unknown, limit = 20): ProviderOutcome {
  const b = SearxngResponse().safeParse(body).data;
  if (!b) return badResponse("searxng", "JSON without a results list");
  const hits: ProviderHit[] = [];
  // number_of_results is often 0 while results is full: only the list counts.
  for (const r of b.results) {
    if (!/^https?:\/\//i.test(r.url)) continue;
    hits.push({
      title: optionalLine(r.title, 200) ?? r.url,
      url: r.url,
      snippet: optionalLine(r.content, 600) ?? "",
      ...(r.publishedDate ? { date: r.publishedDate } : {}),
    });
    if (hits.length >= limit) break;
  }
  const answer = searxngAnswer(b.answers?.[0], b.infoboxes?.[0]);
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

function unresponsiveEngines(raw: unknown[] = []): string[] {
  return raw.map((e) => {
    if (Array.isArray(e)) return e[1] ? `${e[0]} (${oneLine(String(e[1]), 80)})` : String(e[0]);
    return String(e);
  });
}

/** Recent versions send answer objects, old ones plain strings; an infobox is the fallback. */
function searxngAnswer(
  first: z.output<ReturnType<typeof SearxngAnswer>> | undefined,
  box: z.output<ReturnType<typeof SearxngInfobox>> | undefined,
): ProviderAnswer | undefined {
  if (typeof first === "string" && optionalLine(first, 200))
    return { text: optionalLine(first, 1000)!, kind: "answer", modelGenerated: false };
  if (first && typeof first === "object") {
    const text = optionalLine(first.answer, 1000);
    if (text)
      return {
        text,
        kind: "answer",
        modelGenerated: false,
        ...(first.url !== undefined ? { url: first.url } : {}),
        ...(first.engine !== undefined ? { source: first.engine } : {}),
      };
  }
  const text = optionalLine(box?.content, 1000);
  if (!text) return undefined;
  return {
    text,
    kind: "abstract",
    modelGenerated: false,
    ...(box?.infobox !== undefined ? { source: box.infobox } : {}),
    ...(box?.id !== undefined && /^https?:\/\//.test(box.id) ? { url: box.id } : {}),
  };
}

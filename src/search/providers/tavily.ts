import { lazySchema } from "../../core/lazy-zod.js";
import { optionalLine } from "../../core/one-line.js";
import { badResponse } from "../../provider-http/http-errors.js";
import { listOf, maybeText } from "../../provider-http/json-fields.js";
import { keyedJson } from "../../provider-http/keyed-json.js";
import { TAVILY_API, tavilyFailure, tavilyHeaders } from "../../provider-http/tavily-api.js";
import type { Provider, ProviderHit, ProviderOutcome, ProviderQuery } from "../provider.js";

const TIME_RANGE = { d: "day", w: "week", m: "month", y: "year" } as const;

export const tavily: Provider = {
  name: "tavily",
  kind: "keyed",
  paid: true,
  auto: { rank: 30 },
  keyEnv: ["TAVILY_API_KEY"],
  native: { timeRange: true, domains: 300 },
  timeoutMs: 5000,
  async search(query, ctx, deadline) {
    const answer = await keyedJson(
      {
        provider: "tavily",
        keyEnv: tavily.keyEnv,
        url: `${TAVILY_API}/search`,
        method: "POST",
        headers: tavilyHeaders,
        body: tavilyRequest(query),
        failure: tavilyFailure,
      },
      ctx,
      deadline,
      (body) => parseTavilyResponse(body, query.limit),
    );
    return answer.ok ? answer.value : answer.failure;
  },
};

export function tavilyRequest(query: ProviderQuery): Record<string, unknown> {
  return {
    query: query.query,
    search_depth: "basic",
    topic: "general",
    max_results: Math.min(Math.max(query.limit, 1), 20),
    ...(query.includeDomains?.length ? { include_domains: query.includeDomains.slice(0, 300) } : {}),
    ...(query.timeRange ? { time_range: TIME_RANGE[query.timeRange] } : {}),
  };
}

const TavilyResponse = lazySchema((z) =>
  z.object({
    results: listOf(
      z.object({ title: maybeText(), url: maybeText(), content: maybeText(), published_date: maybeText() }),
    ),
    answer: maybeText(),
  }),
);

export function parseTavilyResponse(body: unknown, limit = 20): ProviderOutcome {
  const b = TavilyResponse().safeParse(body).data;
  if (!b) return badResponse("tavily", "JSON without a results list");
  const hits: ProviderHit[] = [];
  for (const r of b.results) {
    if (r.url === undefined || !/^https?:\/\//i.test(r.url)) continue;
    hits.push({
      title: optionalLine(r.title, 200) ?? r.url,
      url: r.url,
      // `content` is a chunk of the page (often markdown), not a SERP snippet: keep it short.
      snippet: optionalLine(r.content, 600) ?? "",
      ...(r.published_date ? { date: r.published_date } : {}),
    });
    if (hits.length >= limit) break;
  }
  const text = optionalLine(b.answer, 2000);
  const answer = text
    ? { answer: { text, kind: "model" as const, modelGenerated: true, source: "tavily" } }
    : {};
  return hits.length > 0 ? { status: "ok", hits, ...answer } : { status: "empty", ...answer };
}

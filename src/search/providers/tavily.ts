import { optionalLine } from "../../core/one-line.js";
import type { Failure } from "../../core/status.js";
import type { NetResponse } from "../../net/client.js";
import type { Provider, ProviderHit, ProviderOutcome, ProviderQuery } from "../provider.js";
import { badResponse, httpFailure, transportFailure, withoutSecrets } from "./http-errors.js";

export const TAVILY_API = "https://api.tavily.com";
const TIME_RANGE = { d: "day", w: "week", m: "month", y: "year" } as const;

export const tavily: Provider = {
  name: "tavily",
  kind: "keyed",
  paid: true,
  auto: { rank: 30 },
  keyEnv: ["TAVILY_API_KEY"],
  native: { timeRange: true, domains: 300 },
  budgetMs: 5000,
  configured: (env) => Boolean(env.TAVILY_API_KEY),
  async search(query, ctx, deadline) {
    const key = ctx.env.TAVILY_API_KEY;
    if (!key) return { status: "disabled", code: "no_key", message: "tavily: TAVILY_API_KEY is not set" };
    const res = await ctx.net.request(`${TAVILY_API}/search`, {
      deadline,
      method: "POST",
      headers: tavilyHeaders(key),
      body: JSON.stringify(tavilyRequest(query)),
    });
    if (!res.ok) return withoutSecrets(transportFailure("tavily", res), [key]);
    if (res.status !== 200) return withoutSecrets(tavilyFailure(res), [key]);
    const body = res.json();
    if (body === undefined) return badResponse("tavily", "a body that is not JSON");
    return withoutSecrets(parseTavilyResponse(body, query.limit), [key]);
  },
};

export function tavilyHeaders(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json" };
}

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

interface TavilyResult {
  title?: unknown;
  url?: unknown;
  content?: unknown;
  published_date?: unknown;
}

export function parseTavilyResponse(body: unknown, limit = 20): ProviderOutcome {
  const b = body as { results?: unknown; answer?: unknown } | null;
  if (!b || typeof b !== "object" || !Array.isArray(b.results))
    return badResponse("tavily", "JSON without a results list");
  const hits: ProviderHit[] = [];
  for (const r of b.results as TavilyResult[]) {
    if (typeof r?.url !== "string" || !/^https?:\/\//i.test(r.url)) continue;
    hits.push({
      title: optionalLine(r.title, 200) ?? r.url,
      url: r.url,
      // `content` is a chunk of the page (often markdown), not a SERP snippet: keep it short.
      snippet: optionalLine(r.content, 600) ?? "",
      ...(typeof r.published_date === "string" && r.published_date ? { date: r.published_date } : {}),
    });
    if (hits.length >= limit) break;
  }
  const text = optionalLine(b.answer, 2000);
  const answer = text
    ? { answer: { text, kind: "model" as const, modelGenerated: true, source: "tavily" } }
    : {};
  return hits.length > 0 ? { status: "ok", hits, ...answer } : { status: "empty", ...answer };
}

/** Tavily's own codes: 432 is the plan's credit limit, 433 the pay-as-you-go limit; errors sit in detail.error. */
export function tavilyFailure(res: NetResponse): Failure {
  const body = res.json<{ detail?: { error?: unknown } | string }>();
  const detail = optionalLine(typeof body?.detail === "string" ? body.detail : body?.detail?.error, 200);
  if (res.status === 432 || res.status === 433)
    return {
      status: "quota",
      code: "quota",
      message: `tavily: ${res.status === 432 ? "plan" : "pay-as-you-go"} limit reached (HTTP ${res.status})${detail ? `: ${detail}` : ""}`,
    };
  if (res.status === 401)
    return { status: "error", code: "key_rejected", message: "tavily: key rejected (HTTP 401)" };
  return httpFailure("tavily", res, detail);
}

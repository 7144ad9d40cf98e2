import { optionalLine } from "../../core/one-line.js";
import type { Failure } from "../../core/status.js";
import type { NetResponse } from "../../net/client.js";
import type { Provider, ProviderHit, ProviderOutcome, ProviderQuery } from "../provider.js";
import { badResponse, httpFailure, transportFailure, withoutSecrets } from "./http-errors.js";

export const EXA_API = "https://api.exa.ai";
const DAYS = { d: 1, w: 7, m: 30, y: 365 } as const;
const SNIPPET_CHARS = 600;

export const exa: Provider = {
  name: "exa",
  kind: "keyed",
  paid: true,
  auto: { rank: 20 },
  keyEnv: ["EXA_API_KEY"],
  native: { timeRange: true, domains: 1200 },
  budgetMs: 5000,
  configured: (env) => Boolean(env.EXA_API_KEY),
  async search(query, ctx, deadline) {
    const key = ctx.env.EXA_API_KEY;
    if (!key) return { status: "disabled", code: "no_key", message: "exa: EXA_API_KEY is not set" };
    const res = await ctx.net.request(`${EXA_API}/search`, {
      deadline,
      method: "POST",
      headers: exaHeaders(key),
      body: JSON.stringify(exaRequest(query)),
    });
    if (!res.ok) return withoutSecrets(transportFailure("exa", res), [key]);
    if (res.status !== 200) return withoutSecrets(exaFailure(res), [key]);
    const body = res.json();
    if (body === undefined) return badResponse("exa", "a body that is not JSON");
    return withoutSecrets(parseExaResponse(body, query.limit), [key]);
  },
};

export function exaHeaders(key: string): Record<string, string> {
  return { "x-api-key": key, "content-type": "application/json", accept: "application/json" };
}

export function exaRequest(query: ProviderQuery, now = Date.now()): Record<string, unknown> {
  return {
    query: query.query,
    type: "auto",
    numResults: Math.min(Math.max(query.limit, 1), 100),
    ...(query.includeDomains?.length ? { includeDomains: query.includeDomains.slice(0, 1200) } : {}),
    ...(query.timeRange
      ? { startPublishedDate: new Date(now - DAYS[query.timeRange] * 86_400_000).toISOString() }
      : {}),
    // `text` can be a whole page: always bounded. Highlights are the better snippet when present.
    contents: {
      text: { maxCharacters: SNIPPET_CHARS },
      highlights: { numSentences: 2, highlightsPerUrl: 1, query: query.query },
    },
  };
}

interface ExaResult {
  url?: unknown;
  title?: unknown;
  publishedDate?: unknown;
  text?: unknown;
  highlights?: unknown;
  summary?: unknown;
}

export function parseExaResponse(body: unknown, limit = 100): ProviderOutcome {
  const b = body as { results?: unknown } | null;
  if (!b || typeof b !== "object" || !Array.isArray(b.results))
    return badResponse("exa", "JSON without a results list");
  const hits: ProviderHit[] = [];
  for (const r of b.results as ExaResult[]) {
    if (typeof r?.url !== "string" || !/^https?:\/\//i.test(r.url)) continue;
    // title, author and publishedDate are nullable.
    hits.push({
      title: optionalLine(r.title, 200) ?? r.url,
      url: r.url,
      snippet: exaSnippet(r),
      ...(typeof r.publishedDate === "string" && r.publishedDate ? { date: r.publishedDate } : {}),
    });
    if (hits.length >= limit) break;
  }
  return hits.length > 0 ? { status: "ok", hits } : { status: "empty" };
}

function exaSnippet(r: ExaResult): string {
  const highlights = Array.isArray(r.highlights)
    ? r.highlights.filter((x) => typeof x === "string").join(" … ")
    : "";
  return (
    optionalLine(highlights, SNIPPET_CHARS) ??
    optionalLine(r.text, SNIPPET_CHARS) ??
    optionalLine(r.summary, SNIPPET_CHARS) ??
    ""
  );
}

/** Exa errors carry `{requestId, error, tag}`; 402/403 mean the credits ran out. */
export function exaFailure(res: NetResponse): Failure {
  const body = res.json<{ error?: unknown; tag?: unknown }>();
  const tag = typeof body?.tag === "string" ? body.tag : undefined;
  const detail = optionalLine(body?.error, 200) ?? tag;
  if (res.status === 401 || tag === "INVALID_API_KEY")
    return { status: "error", code: "key_rejected", message: `exa: key rejected (HTTP ${res.status})` };
  if (res.status === 402 || res.status === 403)
    return {
      status: "quota",
      code: "quota",
      message: `exa: credits exhausted (HTTP ${res.status})${detail ? `: ${detail}` : ""}`,
    };
  return httpFailure("exa", res, detail);
}

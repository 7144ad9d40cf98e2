import { optionalLine } from "../../core/one-line.js";
import type { Failure } from "../../core/status.js";
import type { NetResponse } from "../../net/client.js";
import {
  badResponse,
  httpFailure,
  transportFailure,
  withoutSecrets,
} from "../../provider-http/http-errors.js";
import type { Provider, ProviderAnswer, ProviderHit, ProviderOutcome, ProviderQuery } from "../provider.js";

const ENDPOINT = "https://api.perplexity.ai/chat/completions";
const MODEL = "sonar";
const RECENCY = { d: "day", w: "week", m: "month", y: "year" } as const;
const MAX_DOMAINS = 20;

export const perplexity: Provider = {
  name: "perplexity",
  kind: "model",
  paid: true,
  auto: { rank: 10 },
  keyEnv: ["PERPLEXITY_API_KEY"],
  native: { timeRange: true, domains: MAX_DOMAINS },
  // A model searches, reads and writes before answering: slower than a plain search API.
  budgetMs: 10_000,
  configured: (env) => Boolean(env.PERPLEXITY_API_KEY),
  async search(query, ctx, deadline) {
    const key = ctx.env.PERPLEXITY_API_KEY;
    if (!key)
      return { status: "disabled", code: "no_key", message: "perplexity: PERPLEXITY_API_KEY is not set" };
    const res = await ctx.net.request(ENDPOINT, {
      deadline,
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        accept: "application/json",
      },
      body: JSON.stringify(perplexityRequest(query)),
    });
    if (!res.ok) return withoutSecrets(transportFailure("perplexity", res), [key]);
    if (res.status !== 200) return withoutSecrets(perplexityFailure(res), [key]);
    const body = res.json();
    if (body === undefined) return badResponse("perplexity", "a body that is not JSON");
    return withoutSecrets(parsePerplexityResponse(body, query.limit), [key]);
  },
};

export function perplexityRequest(query: ProviderQuery): Record<string, unknown> {
  return {
    model: MODEL,
    messages: [
      {
        role: "system",
        content: "Answer from current web sources. Be precise and concise; cite every claim.",
      },
      { role: "user", content: query.query },
    ],
    ...(query.includeDomains?.length
      ? { search_domain_filter: query.includeDomains.slice(0, MAX_DOMAINS) }
      : {}),
    ...(query.timeRange ? { search_recency_filter: RECENCY[query.timeRange] } : {}),
    web_search_options: { search_context_size: "low" },
    stream: false,
  };
}

interface SearchResult {
  title?: unknown;
  url?: unknown;
  date?: unknown;
  snippet?: unknown;
}

export function parsePerplexityResponse(body: unknown, limit = 20): ProviderOutcome {
  const b = body as {
    choices?: { message?: { content?: unknown } }[];
    citations?: unknown;
    search_results?: unknown;
  };
  if (!b || typeof b !== "object" || !Array.isArray(b.choices))
    return badResponse("perplexity", "JSON without choices");
  const raw = b.choices[0]?.message?.content;
  const content = typeof raw === "string" ? withoutThinking(raw) : "";
  const hits: ProviderHit[] = [];
  const seen = new Set<string>();
  const add = (hit: ProviderHit) => {
    if (seen.has(hit.url) || !/^https?:\/\//i.test(hit.url)) return;
    seen.add(hit.url);
    hits.push(hit);
  };
  // search_results (current) and citations (legacy) list the same sources in the same order, so the 1-based
  // [n] markers in the answer point into either; a capture may carry only one of them.
  for (const r of (Array.isArray(b.search_results) ? b.search_results : []) as SearchResult[]) {
    if (typeof r?.url !== "string") continue;
    add({
      title: optionalLine(r.title, 200) ?? titleFromUrl(r.url),
      url: r.url,
      snippet: optionalLine(r.snippet, 600) ?? "",
      ...(typeof r.date === "string" && r.date ? { date: r.date } : {}),
    });
  }
  const citations = Array.isArray(b.citations) ? b.citations : [];
  citations.forEach((url, i) => {
    if (typeof url === "string") add({ title: titleFromUrl(url), url, snippet: citedFor(content, i + 1) });
  });
  const answer: ProviderAnswer | undefined = content
    ? { text: content, kind: "model", modelGenerated: true, source: `perplexity (${MODEL})` }
    : undefined;
  if (hits.length > 0) return { status: "ok", hits: hits.slice(0, limit), ...(answer ? { answer } : {}) };
  return {
    status: "empty",
    ...(answer ? { answer, note: "perplexity answered without citing sources" } : {}),
  };
}

/** Reasoning models put their chain of thought in <think>…</think> (sometimes never closed) before the answer. */
export function withoutThinking(content: string): string {
  return content
    .replace(/<think>[\s\S]*?<\/think>/gi, "")
    .replace(/^\s*<think>[\s\S]*$/i, "")
    .trim();
}

/** What the answer cites source n for: the sentences carrying its [n] marker, without markers or emphasis. */
export function citedFor(content: string, n: number): string {
  const marker = `[${n}]`;
  const sentences = content.split(/(?<=[.!?]\S*)\s+|\n+/).filter((s) => s.includes(marker));
  const text = sentences
    .map((s) =>
      s
        .replace(/\[\d+\]/g, "")
        .replace(/\*\*|__/g, "")
        .replace(/^[-*]\s+/, ""),
    )
    .join(" ");
  return optionalLine(text, 300) ?? "";
}

function titleFromUrl(url: string): string {
  try {
    const u = new URL(url);
    const path = u.pathname === "/" ? "" : decodeURIComponent(u.pathname).replace(/\/$/, "");
    return `${u.hostname.replace(/^www\./, "")}${path}`.slice(0, 120);
  } catch {
    return url.slice(0, 120);
  }
}

export function perplexityFailure(res: NetResponse): Failure {
  const body = res.json<{ error?: { message?: unknown; type?: unknown } }>();
  const detail = optionalLine(body?.error?.message, 200);
  if (res.status === 401)
    return { status: "error", code: "key_rejected", message: "perplexity: key rejected (HTTP 401)" };
  return httpFailure("perplexity", res, detail);
}

import { lazySchema } from "../../core/lazy-zod.js";
import { optionalLine } from "../../core/one-line.js";
import type { Failure } from "../../core/status.js";
import type { NetResponse } from "../../net/client.js";
import { badResponse, httpFailure } from "../../provider-http/http-errors.js";
import { anyField, entriesOf, maybe, maybeListOf, maybeText } from "../../provider-http/json-fields.js";
import { keyedJson } from "../../provider-http/keyed-json.js";
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
  timeoutMs: 10_000,
  async search(query, ctx, deadline) {
    const answer = await keyedJson(
      {
        provider: "perplexity",
        keyEnv: perplexity.keyEnv,
        url: ENDPOINT,
        method: "POST",
        headers: (key) => ({
          authorization: `Bearer ${key}`,
          "content-type": "application/json",
          accept: "application/json",
        }),
        body: perplexityRequest(query),
        failure: perplexityFailure,
      },
      ctx,
      deadline,
      (body) => parsePerplexityResponse(body, query.limit),
    );
    return answer.ok ? answer.value : answer.failure;
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

const PerplexityResponse = lazySchema((z) =>
  z.object({
    choices: entriesOf(z.object({ message: maybe(z.object({ content: maybeText() })) })),
    // Positions count: the answer's [n] markers point into this list.
    citations: maybe(entriesOf(z.string())),
    search_results: maybeListOf(
      z.object({ title: maybeText(), url: z.string(), date: maybeText(), snippet: maybeText() }),
    ),
  }),
);

export function parsePerplexityResponse(body: unknown, limit = 20): ProviderOutcome {
  const b = PerplexityResponse().safeParse(body).data;
  if (!b) return badResponse("perplexity", "JSON without choices");
  const raw = b.choices[0]?.message?.content;
  const content = raw !== undefined ? withoutThinking(raw) : "";
  const hits: ProviderHit[] = [];
  const seen = new Set<string>();
  const add = (hit: ProviderHit) => {
    if (seen.has(hit.url) || !/^https?:\/\//i.test(hit.url)) return;
    seen.add(hit.url);
    hits.push(hit);
  };
  // search_results (current) and citations (legacy) list the same sources in the same order, so the 1-based
  // [n] markers in the answer point into either; a capture may carry only one of them.
  for (const r of b.search_results) {
    add({
      title: optionalLine(r.title, 200) ?? titleFromUrl(r.url),
      url: r.url,
      snippet: optionalLine(r.snippet, 600) ?? "",
      ...(r.date ? { date: r.date } : {}),
    });
  }
  (b.citations ?? []).forEach((url, i) => {
    if (url !== undefined) add({ title: titleFromUrl(url), url, snippet: citedFor(content, i + 1) });
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

const PerplexityError = lazySchema((z) => z.object({ error: maybe(z.object({ message: anyField() })) }));

export function perplexityFailure(res: NetResponse): Failure {
  const detail = optionalLine(PerplexityError().safeParse(res.json()).data?.error?.message, 200);
  if (res.status === 401)
    return { status: "error", code: "key_rejected", message: "perplexity: key rejected (HTTP 401)" };
  return httpFailure("perplexity", res, detail);
}

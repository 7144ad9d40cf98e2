import type { z } from "zod";
import { lazySchema } from "../../core/lazy-zod.js";
import { optionalLine } from "../../core/one-line.js";
import { EXA_API, exaFailure, exaHeaders } from "../../provider-http/exa-api.js";
import { badResponse } from "../../provider-http/http-errors.js";
import { listOf, maybeListOf, maybeText } from "../../provider-http/json-fields.js";
import { keyedJson } from "../../provider-http/keyed-json.js";
import type { Provider, ProviderHit, ProviderOutcome, ProviderQuery } from "../provider.js";

const DAYS = { d: 1, w: 7, m: 30, y: 365 } as const;
const SNIPPET_CHARS = 600;

export const exa: Provider = {
  name: "exa",
  kind: "keyed",
  paid: true,
  auto: { rank: 20 },
  keyEnv: ["EXA_API_KEY"],
  native: { timeRange: true, domains: 1200 },
  timeoutMs: 5000,
  async search(query, ctx, deadline) {
    const answer = await keyedJson(
      {
        provider: "exa",
        keyEnv: exa.keyEnv,
        url: `${EXA_API}/search`,
        method: "POST",
        headers: exaHeaders,
        body: exaRequest(query),
        failure: exaFailure,
      },
      ctx,
      deadline,
      (body) => parseExaResponse(body, query.limit),
    );
    return answer.ok ? answer.value : answer.failure;
  },
};

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

// title, author and publishedDate are nullable.
const ExaResult = lazySchema((z) =>
  z.object({
    url: maybeText(),
    title: maybeText(),
    publishedDate: maybeText(),
    text: maybeText(),
    highlights: maybeListOf(z.string()),
    summary: maybeText(),
  }),
);
const ExaResponse = lazySchema((z) => z.object({ results: listOf(ExaResult()) }));

export function parseExaResponse(body: unknown, limit = 100): ProviderOutcome {
  const b = ExaResponse().safeParse(body).data;
  if (!b) return badResponse("exa", "JSON without a results list");
  const hits: ProviderHit[] = [];
  for (const r of b.results) {
    if (r.url === undefined || !/^https?:\/\//i.test(r.url)) continue;
    hits.push({
      title: optionalLine(r.title, 200) ?? r.url,
      url: r.url,
      snippet: exaSnippet(r),
      ...(r.publishedDate ? { date: r.publishedDate } : {}),
    });
    if (hits.length >= limit) break;
  }
  return hits.length > 0 ? { status: "ok", hits } : { status: "empty" };
}

function exaSnippet(r: z.output<ReturnType<typeof ExaResult>>): string {
  return (
    optionalLine(r.highlights.join(" … "), SNIPPET_CHARS) ??
    optionalLine(r.text, SNIPPET_CHARS) ??
    optionalLine(r.summary, SNIPPET_CHARS) ??
    ""
  );
}

import type { Failure } from "../../core/status.js";
import type { NetResponse } from "../../net/client.js";
import { rateLimited, retryAfterSeconds } from "../../provider-http/http-errors.js";
import type { ProviderHit, ProviderOutcome, ProviderQuery } from "../provider.js";
import { looksRelevant } from "./relevance.js";

/**
 * What a result page says, decided by structure: results, an explicit no-results block, a known challenge, or a
 * page matching no layout the parser knows. Only the engine's own no-results marker may become `empty`.
 */
export type SerpParse =
  | { kind: "results"; hits: ProviderHit[] }
  | { kind: "empty" }
  | { kind: "blocked"; reason: string; code?: "challenge" }
  | { kind: "unrecognised"; reason: string };

/**
 * Failure codes a provider returns for a page that is not results:
 * `challenge` (a known block marker, `blocked`), `unknown_page` (no result blocks, no no-results marker and no
 * challenge marker: the engine's layout changed, an `error` the chain moves past), `soft_block` (results that
 * ignore the query, `blocked`).
 */
export function serpOutcome(engine: string, parse: SerpParse, query: ProviderQuery): ProviderOutcome {
  if (parse.kind === "empty") return { status: "empty" };
  if (parse.kind === "blocked")
    return {
      status: "blocked",
      code: "challenge",
      message: `${engine} did not serve results: ${parse.reason}`,
    };
  if (parse.kind === "unrecognised")
    return {
      status: "error",
      code: "unknown_page",
      message: `${engine}: unrecognised page layout (${parse.reason})`,
    };
  if (!looksRelevant(query.query, parse.hits))
    return {
      status: "blocked",
      code: "soft_block",
      message: `${engine} answered with ${parse.hits.length} results unrelated to the query (soft block)`,
    };
  return { status: "ok", hits: parse.hits.slice(0, query.limit) };
}

/** 429 ⇒ rate_limited (Retry-After honoured), 403 ⇒ blocked, other non-2xx ⇒ error; 2xx ⇒ undefined. */
export function httpStatusFailure(engine: string, res: NetResponse): Failure | undefined {
  if (res.status === 429) return rateLimited(engine, retryAfterSeconds(res.headers));
  // A scraped engine has no key to reject: its 403 is a refusal of scripted traffic.
  if (res.status === 403)
    return { status: "blocked", code: "http_403", message: `${engine} refused the request (HTTP 403)` };
  if (res.status < 200 || res.status >= 300)
    return { status: "error", code: `http_${res.status}`, message: `${engine} answered HTTP ${res.status}` };
  return undefined;
}

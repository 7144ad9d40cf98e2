import type { Failure } from "../core/status.js";
import type { NetResponse } from "../net/client.js";
import type { NetFailure } from "../net/failure.js";
import { parseRetryAfter } from "../net/retry-after.js";

/** A transport failure (DNS, TLS, timeout, guard refusal), named for the provider whose request it was. */
export function transportFailure(provider: string, failure: NetFailure): Failure {
  return {
    status: failure.status,
    code: failure.code,
    message: `${provider}: ${failure.message}`,
    ...(failure.retryAfter !== undefined ? { retryAfter: failure.retryAfter } : {}),
  };
}

/**
 * The statuses every API shares. Providers handle their own dialects first (Brave's 422 for a bad key,
 * Tavily's 432/433, SearXNG's 403) and fall back to this for the rest.
 */
export function httpFailure(provider: string, res: NetResponse, detail?: string): Failure {
  const status = res.status;
  const said = detail ? `: ${detail}` : "";
  if (status === 401 || status === 403)
    return {
      status: "error",
      code: "key_rejected",
      message: `${provider} rejected the key (HTTP ${status})${said}`,
    };
  if (status === 402)
    return { status: "quota", code: "quota", message: `${provider}: credits exhausted (HTTP 402)${said}` };
  if (status === 429) return rateLimited(provider, retryAfterSeconds(res.headers), detail);
  if (status === 408 || status === 504)
    return {
      status: "timeout",
      code: "upstream_timeout",
      message: `${provider} timed out upstream (HTTP ${status})`,
    };
  if (status >= 500)
    return { status: "error", code: "server_error", message: `${provider} failed (HTTP ${status})${said}` };
  return { status: "error", code: `http_${status}`, message: `${provider} answered HTTP ${status}${said}` };
}

export function rateLimited(provider: string, retryAfter: number | undefined, detail?: string): Failure {
  const when = retryAfter !== undefined ? `; retry in ${retryAfter}s` : "";
  return {
    status: "rate_limited",
    code: "rate_limited",
    message: `${provider} is rate limiting requests${detail ? ` (${detail})` : ""}${when}`,
    ...(retryAfter !== undefined ? { retryAfter } : {}),
  };
}

export function badResponse(provider: string, what: string): Failure {
  return { status: "error", code: "bad_response", message: `${provider} sent ${what}` };
}

/** The response's Retry-After in seconds (net's parser, shared by every layer). */
export function retryAfterSeconds(headers: Record<string, string>, now = Date.now()): number | undefined {
  return parseRetryAfter(headers["retry-after"], now);
}

/**
 * Deep copy of `value` with every secret replaced. Providers echo keys back in their error bodies ("API key
 * test-… is invalid"), so every outcome leaves a keyed provider through this.
 */
export function withoutSecrets<T>(value: T, secrets: (string | undefined)[]): T {
  const live = secrets.filter((s): s is string => typeof s === "string" && s.length >= 4);
  if (live.length === 0) return value;
  const scrub = (v: unknown): unknown => {
    if (typeof v === "string") return live.reduce((s, secret) => s.split(secret).join("[redacted]"), v);
    if (Array.isArray(v)) return v.map(scrub);
    if (v && typeof v === "object")
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, scrub(x)]));
    return v;
  };
  return scrub(value) as T;
}

/** A logger that cannot leak the given secrets. */
export function scrubbedLog(log: (message: string) => void, secrets: (string | undefined)[]) {
  return (message: string) => log(withoutSecrets(message, secrets));
}

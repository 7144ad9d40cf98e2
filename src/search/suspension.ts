import type { Failure } from "../core/status.js";
import type { Store } from "../store/store.js";

const MINUTE = 60_000;

/**
 * SearXNG-style health memory, in one table instead of in each engine: how long a provider is left alone after
 * each kind of refusal. Asking again sooner only earns a longer block.
 */
export function suspensionFor(failure: Failure): { ms: number; reason: string } | undefined {
  switch (failure.status) {
    case "error":
      // A page no parser knows may be an honest no-results page we have no capture of (Mojeek, Startpage) or a
      // changed layout: asking again within minutes reads the same page, so a short rest.
      return failure.code === "unknown_page"
        ? { ms: 5 * MINUTE, reason: "unrecognised page layout" }
        : undefined;
    case "blocked":
      // Results that ignore the query are a warning more than a wall: a shorter rest than a real challenge.
      if (failure.code === "soft_block")
        return { ms: 10 * MINUTE, reason: "results unrelated to the query (soft block)" };
      return { ms: 30 * MINUTE, reason: "challenge or CAPTCHA" };
    case "rate_limited":
      return {
        ms: failure.retryAfter ? failure.retryAfter * 1000 : 3 * MINUTE,
        reason: "rate limited (429)",
      };
    case "quota":
      return { ms: failure.retryAfter ? failure.retryAfter * 1000 : 60 * MINUTE, reason: "quota exhausted" };
    case "denied":
      return { ms: 3 * MINUTE, reason: "access denied (403)" };
    default:
      return undefined;
  }
}

export interface Suspension {
  until: number;
  reason: string;
  status: Failure["status"];
}

/** Store key of a provider's suspension. */
export const suspensionKey = (provider: string) => `suspend:${provider}`;
const key = suspensionKey;

export async function suspendedUntil(store: Store, provider: string): Promise<Suspension | undefined> {
  const s = await store.get<Suspension>(key(provider));
  return s && s.until > Date.now() ? s : undefined;
}

export async function recordFailure(
  store: Store,
  provider: string,
  failure: Failure,
): Promise<Suspension | undefined> {
  const rule = suspensionFor(failure);
  if (!rule) return undefined;
  const suspension: Suspension = { until: Date.now() + rule.ms, reason: rule.reason, status: failure.status };
  await store.set(key(provider), suspension, rule.ms);
  return suspension;
}

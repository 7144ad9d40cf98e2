import type { Failure } from "../../core/status.js";
import type { Store } from "../../store/store.js";

/** How long a reader rests after its site said "too many" without saying for how long. */
const DEFAULT_REST_MS = 60_000;
/** The longest rest a site's answer may set: a day (a daily quota), whatever a Retry-After claims. */
const MAX_REST_MS = 24 * 60 * 60 * 1000;

export interface ReaderCooldown {
  until: number;
  reason: string;
}

const key = (reader: string) => `site:${reader}:cooldown`;

/**
 * A site's API that answered with its rate limit or quota (GitHub's 60 an hour without a token, Stack Exchange's
 * daily quota, a throttle) is left alone until the time it named: asking on every read only spends the reads'
 * time and earns longer blocks, and the page itself can still be read the generic way meanwhile. Kept in the
 * store, so a fleet on one Redis rests together. Other failures concern one URL, not the reader, and are not kept.
 */
export async function restReader(store: Store, reader: string, failure: Failure, now: number): Promise<void> {
  if (failure.status !== "rate_limited" && failure.status !== "quota") return;
  // Our own limiter's queue was too long for one read: the site said nothing, and the next slot is soon.
  if (failure.code === "local_rate_limit") return;
  const reason = failure.status === "quota" ? "quota exhausted" : "rate limited";
  await restReaderFor(store, reader, failure.retryAfter, reason, now);
}

/**
 * A rest the site announced on an answer that still served (GitHub's `x-ratelimit-remaining: 0`): the next
 * request would be refused until the time it named, so the reader rests as after the refusal, one request sooner.
 */
export async function restReaderFor(
  store: Store,
  reader: string,
  seconds: number | undefined,
  reason: string,
  now: number,
): Promise<void> {
  const ms = Math.min(seconds && seconds > 0 ? seconds * 1000 : DEFAULT_REST_MS, MAX_REST_MS);
  await store.set<ReaderCooldown>(key(reader), { until: now + ms, reason }, ms);
}

export async function readerResting(
  store: Store,
  reader: string,
  now: number,
): Promise<ReaderCooldown | undefined> {
  const rest = await store.get<ReaderCooldown>(key(reader));
  return rest && rest.until > now ? rest : undefined;
}

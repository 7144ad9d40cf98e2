import type { Deadline } from "../../core/deadline.js";
import { waitForSlot } from "../../store/slot-wait.js";
import type { SiteFailure } from "./site-json.js";
import type { SiteContext } from "./site-reader.js";

/** What a call still needs of its budget once its slot comes. */
const ANSWER_MS = 2000;
/** The longest wait a site's answer may book: a day (Stack Exchange's daily quota is the longest honest one). */
const MAX_SITE_WAIT_S = 24 * 60 * 60;

/**
 * Queues a site API call for the next slot of the store's limiter under `key` (one call every `intervalMs`;
 * 0 books nothing and only honours a wait booked before, as a backoff the site asked for). A slot too far off
 * for the call's deadline is neither booked nor waited for: the caller reads the page another way, and the
 * failure says why.
 */
export async function queueForSlot(
  ctx: SiteContext,
  key: string,
  intervalMs: number,
  deadline: Deadline,
  why: (seconds: number) => string,
): Promise<SiteFailure | undefined> {
  const slot = await waitForSlot(ctx.reserveSlot, key, intervalMs, deadline, ANSWER_MS);
  if (slot.go) return undefined;
  if (slot.why === "timeout")
    return {
      ok: false,
      status: "timeout",
      code: "timeout",
      message: "the read's time ran out while queued for the API",
    };
  const retryAfter = Math.ceil(slot.waitMs / 1000);
  return {
    ok: false,
    status: "rate_limited",
    code: "local_rate_limit",
    message: why(retryAfter),
    retryAfter,
  };
}

/**
 * A wait the site itself named (a Retry-After, a backoff, a throttle's seconds), held on the limiter under `key`
 * until that long from now. A wait is a time the site named, not a slot in a queue: two answers that carried a
 * 30 s backoff at once hold the key 30 s, not 60, and a shorter one never shortens a longer one held before.
 * Nothing pending: booked at once. Pending for less: extended by what is missing, booked only if the pending
 * slot has not moved meanwhile; when it has, asked again from where it now is (a shorter wait booked at the same
 * moment must not take the place of this one).
 */
export async function bookSiteWait(
  ctx: SiteContext,
  key: string,
  seconds: number | undefined,
): Promise<void> {
  if (!seconds || seconds <= 0) return;
  const ms = Math.min(seconds, MAX_SITE_WAIT_S) * 1000;
  let pending = await ctx.reserveSlot(key, ms, 0);
  // Another answer's wait may have moved the slot between the two asks (the store is shared, each ask awaits):
  // asked again from where it now is, until it holds this wait or a longer one.
  for (let tries = 0; pending > 0 && pending < ms && tries < MAX_EXTEND_TRIES; tries++) {
    const seen = await ctx.reserveSlot(key, ms - pending, pending);
    if (seen <= pending) return;
    pending = seen;
  }
}

/** Asks to extend a held wait before leaving it as another answer moved it: each retry follows a longer one. */
const MAX_EXTEND_TRIES = 4;

import type { Deadline } from "../../core/deadline.js";
import type { SiteFailure } from "./site-json.js";
import type { SiteContext } from "./site-reader.js";

/** What a call still needs of its budget once its slot comes. */
const ANSWER_MS = 2000;

/**
 * Queues a site API call for the next slot of the store's limiter under `key` (one call every `intervalMs`;
 * 0 books nothing and only honours a wait booked before, as a backoff the site asked for). A slot too far off
 * for the call's deadline is not waited for: the caller reads the page another way, and the failure says why.
 */
export async function queueForSlot(
  ctx: SiteContext,
  key: string,
  intervalMs: number,
  deadline: Deadline,
  why: (seconds: number) => string,
): Promise<SiteFailure | undefined> {
  const wait = await ctx.reserveSlot(key, intervalMs);
  if (wait <= 0) return undefined;
  if (wait + ANSWER_MS <= deadline.remaining() && (await deadline.sleep(wait))) return undefined;
  const retryAfter = Math.ceil(wait / 1000);
  return {
    ok: false,
    status: "rate_limited",
    code: "local_rate_limit",
    message: why(retryAfter),
    retryAfter,
  };
}

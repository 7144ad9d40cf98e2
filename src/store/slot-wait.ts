import type { Deadline } from "../core/deadline.js";

export type SlotWait = { go: true } | { go: false; why: "too_far" | "timeout"; waitMs: number };

/**
 * Books the next slot of a store limiter and waits for it within the deadline, keeping `needMs` of it for the
 * call itself. A slot further off than that is neither booked nor waited for (`too_far`), so a caller that gives
 * up never pushes the queue out for those that wait; a deadline that ends the wait is `timeout`. The caller
 * words the failure.
 */
export async function waitForSlot(
  reserve: (key: string, intervalMs: number, maxWaitMs: number) => Promise<number>,
  key: string,
  intervalMs: number,
  deadline: Deadline,
  needMs: number,
): Promise<SlotWait> {
  const wait = await reserve(key, intervalMs, deadline.remaining() - needMs);
  if (wait <= 0) return { go: true };
  if (wait + needMs > deadline.remaining()) return { go: false, why: "too_far", waitMs: wait };
  if (!(await deadline.sleep(wait))) return { go: false, why: "timeout", waitMs: wait };
  return { go: true };
}

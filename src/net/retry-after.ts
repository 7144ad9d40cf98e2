/**
 * Retry-After as whole seconds from `now`: delta-seconds (a fraction, which some servers send, rounds up, so a
 * caller never comes back early) or an HTTP date (0 once it has passed). Anything else, a negative number
 * included, is no instruction at all: undefined. Every layer that honours the header reads it here.
 */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  const raw = value?.trim();
  if (!raw) return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) return Math.ceil(Number(raw));
  // Date.parse takes bare numbers ("1.5", "-1") as dates too; an HTTP date always names its day and month.
  if (!/[a-z]/i.test(raw)) return undefined;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

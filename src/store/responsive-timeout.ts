/**
 * Rejects when `work` has not settled within `ms` of time during which this process was itself responsive.
 * A fixed timer cannot tell a slow server from a busy event loop: after the loop was blocked, timers run before
 * the socket's waiting reply is read, so a saturated process would call a healthy Redis dead (and stop sharing
 * cooldowns, rate limits and landings exactly under load). Here the budget is spent in short ticks, and a tick
 * that fires late counts only its own length: the reply that arrived while the loop was busy is read first.
 */
export function withinResponsiveTime<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  const tickMs = Math.max(1, Math.min(100, ms / 4));
  return new Promise<T>((resolve, reject) => {
    let spent = 0;
    let timer: NodeJS.Timeout | undefined;
    const tick = () => {
      spent += tickMs;
      if (spent >= ms) return reject(new Error(`${what} did not answer within ${ms} ms`));
      timer = setTimeout(tick, tickMs);
    };
    timer = setTimeout(tick, tickMs);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

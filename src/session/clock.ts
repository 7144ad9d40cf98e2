/**
 * The session's sense of time. Injected so that its timing rules (the wait, the hard deadline, the memory's
 * 15 minutes) can be tested with a clock a test moves by hand instead of by sleeping.
 */
export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

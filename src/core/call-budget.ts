import { Deadline } from "./deadline.js";
import { warnRenamedOption } from "./deprecation.js";

/**
 * How a caller gives a call its time, the same in every public call: `timeoutMs`, the call's whole budget in
 * milliseconds, or `deadline`, a Deadline the caller already holds (it wins: the call runs inside it). Seconds
 * appear only at the configuration and CLI edge; a cap on one part of a call has a name of its own
 * (`fetchTimeoutMs`, `providerTimeoutMs`).
 */
export interface CallBudget {
  /** The call's whole budget in ms. */
  timeoutMs?: number;
  /** An outer Deadline to run within (wins over `timeoutMs`). */
  deadline?: Deadline;
  /** The caller's cancellation; a given `deadline` carries its own. */
  signal?: AbortSignal;
}

/** The call's one Deadline, made where the call enters and passed down to every awaited step. */
export function callDeadline(budget: CallBudget, defaultMs: number): Deadline {
  return budget.deadline ?? Deadline.fromSignal(budget.signal, budget.timeoutMs ?? defaultMs);
}

/**
 * Runs `call` within the call's one Deadline; a Deadline made here (not the caller's own) is released when the
 * call is over, so the caller's signal does not keep a listener per finished call.
 */
export async function withCallDeadline<T>(
  budget: CallBudget,
  defaultMs: number,
  call: (deadline: Deadline) => Promise<T>,
): Promise<T> {
  if (budget.deadline) return call(budget.deadline);
  const deadline = callDeadline(budget, defaultMs);
  try {
    return await call(deadline);
  } finally {
    deadline.release();
  }
}

/**
 * `ReadOptions.deadline` once took a number of ms too: that number is now `timeoutMs` (an explicit `timeoutMs`
 * wins), and a caller still passing it is told once.
 */
export function withoutNumberDeadline<T extends { timeoutMs?: number; deadline?: Deadline | number }>(
  options: T,
): Omit<T, "deadline"> & { deadline?: Deadline } {
  const { deadline } = options;
  if (typeof deadline !== "number") return options as Omit<T, "deadline"> & { deadline?: Deadline };
  warnRenamedOption("read options.deadline as a number of ms", "timeoutMs");
  return { ...options, deadline: undefined, timeoutMs: options.timeoutMs ?? deadline };
}

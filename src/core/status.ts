/** The one outcome vocabulary shared by search, read and answer (DESIGN §3). */
export const STATUSES = [
  "ok",
  "partial",
  "empty",
  "blocked",
  "rate_limited",
  "quota",
  "timeout",
  "offline",
  "denied",
  "unsupported",
  "disabled",
  "error",
] as const;
export type Status = (typeof STATUSES)[number];

/** The statuses that say a call failed: everything but an answer, part of one, or a true "nothing found". */
export const FAILURES: readonly Status[] = STATUSES.filter(
  (s) => s !== "ok" && s !== "partial" && s !== "empty",
);

/** One step taken on the way to a result. Never carries a key. */
export interface Attempt {
  provider: string;
  status: Status | "skipped";
  ms: number;
  count?: number;
  error?: string;
  /** Seconds until the provider may be asked again. */
  retryAfter?: number;
  /** `scope: "code"`: how many of the provider's results the code-domain filter removed (0 when none). */
  domain_filtered_out?: number;
}

/** A failure as a value: a stable code for programs, a one-line message for an LLM. */
export interface Failure {
  status: Exclude<Status, "ok" | "partial">;
  code: string;
  message: string;
  retryAfter?: number;
}

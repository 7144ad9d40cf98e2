import type { Attempt, Status } from "../core/status.js";
import type { ProviderOutcome } from "./provider.js";

/**
 * Most telling first: a block explains an empty answer, an empty answer never hides a block or a timeout. `empty`
 * ranks above `error` because only a recognised no-results answer is `empty` (an HTTP error or a page no parser
 * knows is `error`), and an engine that truly found nothing says more about the query than a broken one does.
 */
export const FAILURE_PRIORITY: readonly Status[] = [
  "blocked",
  "rate_limited",
  "quota",
  "timeout",
  "empty",
  "error",
  "denied",
  "unsupported",
  "offline",
];

// A name that does not resolve, a connection refused or no route at all: the host was never reached.
const UNREACHABLE_CODES = new Set(["dns", "connect", "offline"]);

/** The failure never reached its host (no name, no route, connection refused). */
export function unreachable(code: string | undefined): boolean {
  return code !== undefined && UNREACHABLE_CODES.has(code);
}

/** What the summary is built from: each step's attempt and, where it ran, its outcome. */
export interface RanStep {
  attempt: Attempt;
  outcome?: ProviderOutcome;
}

export interface FailureSummary {
  status: Status;
  error: string;
  code?: string;
  retryAfter?: number;
}

const codeOf = (outcome: ProviderOutcome | undefined) =>
  outcome && "code" in outcome ? outcome.code : undefined;

/**
 * Nothing usable: the most telling failure, and the others named beside it. Every provider that ran failing to
 * reach its host, two distinct providers at least, is `offline`: one name that does not resolve is that host's
 * trouble, every name failing (no route, or a captive or broken resolver answering NXDOMAIN for all) is the
 * machine's.
 */
export function summarizeFailures(query: string, steps: readonly RanStep[]): FailureSummary {
  const ran = steps.filter((s) => s.attempt.status !== "skipped");
  const providers = new Set(ran.map((s) => s.attempt.provider));
  if (
    ran.length > 0 &&
    (ran.every((s) => s.attempt.status === "offline") ||
      (providers.size >= 2 && ran.every((s) => unreachable(codeOf(s.outcome)))))
  )
    return {
      status: "offline",
      code: "offline",
      error: `no search engine could be reached (${[...providers].join(", ")}): the network looks offline, so web search is unavailable right now; do not claim that a search was made`,
    };
  const pick =
    FAILURE_PRIORITY.map((st) => ran.find((s) => s.attempt.status === st)).find(Boolean) ??
    steps.find((s) => s.attempt.status === "skipped");
  if (!pick) return { status: "error", error: "no search provider is available" };
  const { attempt } = pick;
  // Only skipped providers: each is resting after what it last did (a challenge, a rate limit, a page no parser
  // knew); a skip recorded without it rests after a refusal.
  const status: Status =
    attempt.status !== "skipped"
      ? attempt.status
      : pick.outcome && pick.outcome.status !== "ok" && pick.outcome.status !== "empty"
        ? pick.outcome.status
        : "rate_limited";
  const main =
    status === "empty"
      ? `no results for "${query}"${attempt.error ? ` (${attempt.error})` : ""}`
      : namedError(attempt);
  const others = ran
    .filter((s) => s !== pick && s.attempt.status !== "empty")
    .map((s) => namedError(s.attempt));
  const shown = others.slice(0, 4);
  const more = others.length > shown.length ? `; and ${others.length - shown.length} more` : "";
  const code = codeOf(pick.outcome);
  return {
    status,
    error: shown.length ? `${main}; also ${shown.join("; ")}${more}` : main,
    ...(code ? { code } : {}),
    ...(attempt.retryAfter ? { retryAfter: attempt.retryAfter } : {}),
  };
}

/**
 * The attempt's error as a sentence naming its provider. Providers already write most messages that way
 * ("bing answered HTTP 500", "duckduckgo: the name … does not resolve"): the name is added only where it is
 * missing, never twice.
 */
export function namedError(attempt: Attempt): string {
  const message = attempt.error ?? attempt.status;
  return startsWithName(message, attempt.provider) ? message : `${attempt.provider}: ${message}`;
}

function startsWithName(message: string, name: string): boolean {
  if (!message.toLowerCase().startsWith(name.toLowerCase())) return false;
  const next = message.charAt(name.length);
  return next === "" || next === ":" || next === " " || next === "(";
}

import type { Attempt, Status } from "../../core/status.js";
import type { AnswerResult } from "../answer.js";
import { failureEnvelope, rateLimitedEnvelope } from "../envelope.js";

/**
 * A route that did not answer. The pipeline only keeps its attempts and runs as usual; the envelope is there so
 * that a caller using a route on its own still hands its model an honest text.
 */
export function routeFailure(
  query: string,
  attempts: Attempt[],
  status: Exclude<Status, "ok"> = lastStatus(attempts),
  reason: string = attempts.at(-1)?.error ?? "the route failed",
): AnswerResult {
  const envelope =
    status === "blocked" || status === "rate_limited"
      ? rateLimitedEnvelope(query)
      : failureEnvelope(query, reason);
  return { status, envelope, sources: [], attempts };
}

function lastStatus(attempts: Attempt[]): Exclude<Status, "ok"> {
  const status = attempts.at(-1)?.status;
  return status && status !== "ok" && status !== "skipped" ? status : "error";
}

import { errorLine } from "../core/one-line.js";
import type { Failure } from "../core/status.js";
import type { AnswerResult } from "../ground/answer.js";
import { failureEnvelope } from "../ground/envelope.js";
import { failedRead } from "../read/failed-read.js";
import type { ReadResult } from "../read/read.js";
import type { SearchResponse } from "../search/chain.js";
import type { LookupKind } from "./lookup-key.js";

/**
 * A lookup that did not finish (past its hard deadline, the session closed, or a bug in the call) still lands,
 * as a failure of the same shape as its kind's result, so a caller handles one type per kind.
 */
export function failedLookup(
  kind: LookupKind,
  subject: string,
  failure: Failure,
): SearchResponse | ReadResult | AnswerResult {
  if (kind === "search")
    return {
      status: failure.status,
      query: subject,
      results: [],
      attempted: [],
      scope: "general",
      error: failure.message,
      code: failure.code,
    };
  if (kind === "answer")
    return {
      status: failure.status,
      envelope: failureEnvelope(subject, failure.message),
      sources: [],
      attempts: [],
    };
  return failedRead(subject, failure);
}

export const pastDeadline = (ms: number): Failure => ({
  status: "timeout",
  code: "deadline",
  message: `the lookup took longer than ${ms / 1000} s and was stopped`,
});

export const sessionClosed: Failure = {
  status: "error",
  code: "session_closed",
  message: "the session closed before the lookup finished",
};

export const shuttingDown: Failure = {
  status: "error",
  code: "shutting_down",
  message: "the service stopped before the lookup finished; ask again",
};

export const withdrawn: Failure = {
  status: "error",
  code: "withdrawn",
  message: "the lookup was given up by everyone who asked for it",
};

/** The caller's arguments were wrong: the message names the argument. */
export const badInput = (message: string): Failure => ({ status: "error", code: "bad_input", message });

export function unexpected(err: unknown): Failure {
  return { status: "error", code: "internal", message: `the lookup failed: ${errorLine(err)}` };
}

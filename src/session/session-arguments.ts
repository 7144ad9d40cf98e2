import {
  ANSWER_OPTIONS,
  asBadInput,
  CONVERSATION_ID,
  checkArgument,
  QUERY,
  READ_OPTIONS,
  SEARCH_OPTIONS,
  URL_ARGUMENT,
} from "../arguments.js";
import { badInput, failedLookup } from "./failed-lookup.js";
import { answeredAtOnce, type InTurn, type LookupResult } from "./landing.js";
import type { LookupKind } from "./lookup-key.js";

export type CheckedAsk =
  | { ok: true; options: Record<string, unknown> }
  | { ok: false; refusal: Promise<InTurn<LookupResult>> };

/** Bad arguments answer at once, as a failure of the kind's shape, before anything is queued. */
export function checkAsk(
  kind: LookupKind,
  conversationId: unknown,
  subject: unknown,
  options: unknown,
): CheckedAsk {
  const schema = kind === "search" ? SEARCH_OPTIONS : kind === "read" ? READ_OPTIONS : ANSWER_OPTIONS;
  try {
    checkArgument(kind, "conversationId", CONVERSATION_ID, conversationId);
    checkArgument(kind, kind === "read" ? "url" : "query", kind === "read" ? URL_ARGUMENT : QUERY, subject);
    return {
      ok: true,
      options: checkArgument(kind, "options", schema, options) as Record<string, unknown>,
    };
  } catch (err) {
    const shown = typeof subject === "string" ? subject : "";
    const result = failedLookup(kind, shown, badInput(asBadInput(err).message));
    return { ok: false, refusal: Promise.resolve(answeredAtOnce(kind, shown, result)) };
  }
}

/** A session's time: a number of milliseconds, 0 or more. */
export function milliseconds(value: number, name: string): number {
  if (!Number.isFinite(value) || value < 0)
    throw new RangeError(`${name} must be a number of milliseconds, 0 or more`);
  return value;
}

/** A session's time in a deprecated spelling: a number of seconds, 0 or more. */
export function seconds(value: number, name: string): number {
  if (!Number.isFinite(value) || value < 0)
    throw new RangeError(`${name} must be a number of seconds, 0 or more`);
  return value;
}

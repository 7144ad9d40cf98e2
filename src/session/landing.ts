import { randomUUID } from "node:crypto";
import type { AnswerResult } from "../ground/answer.js";
import type { ReadResult } from "../read/read.js";
import type { SearchResponse } from "../search/chain.js";
import { keepAsOf } from "./keep-as.js";
import type { LookupKind } from "./lookup-key.js";

export const PENDING_MESSAGE = "still looking, it reaches you by itself";

export type LookupResult = SearchResponse | ReadResult | AnswerResult;

export interface PendingLookup {
  status: "pending";
  id: string;
  message: string;
}
/** A result answered within the wait, with the lookup's id and the line to keep after this turn. */
export type InTurn<T> = T & { id: string; keepAs: string };

interface LandingOf<K extends LookupKind, R> {
  id: string;
  conversationId: string;
  kind: K;
  result: R;
  keepAs: string;
}
/** A lookup that outlived its turn, as it reaches the conversation that asked. */
export type Landing =
  | LandingOf<"search", SearchResponse>
  | LandingOf<"read", ReadResult>
  | LandingOf<"answer", AnswerResult>;

export interface InFlightLookup {
  id: string;
  kind: LookupKind;
  subject: string;
  askedAt: number;
  state: "queued" | "running";
}

/** A result that never became a lookup (refused arguments, a session that takes no more): its own id. */
export function answeredAtOnce(
  kind: LookupKind,
  subject: string,
  result: LookupResult,
): InTurn<LookupResult> {
  return { ...result, id: randomUUID(), keepAs: keepAsOf(kind, subject, result) };
}

/** The line to keep, even for a result it cannot describe: a landing must answer every waiter. */
export function safeKeepAs(kind: LookupKind, subject: string, result: LookupResult): string {
  try {
    return keepAsOf(kind, subject, result);
  } catch {
    return `(you looked up ${kind === "read" ? "a page" : "something"}: error)`;
  }
}

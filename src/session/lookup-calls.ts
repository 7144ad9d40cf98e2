import { Deadline } from "../core/deadline.js";
import type { AnswerOptions } from "../ground/answer.js";
import type { ReadOptions } from "../read/read.js";
import type { SearchOptions } from "../search/options.js";
import type { Websift } from "../websift.js";
import type { LookupResult } from "./landing.js";

export type SessionWebsift = Pick<Websift, "search" | "read" | "answer">;

/** One lookup's call of the library, given the lookup's own signal and what is left of its deadline. */
export type LookupCall = (signal: AbortSignal, ms: number) => Promise<LookupResult>;

// The session owns each lookup's budget and signal: a call gets them here, never from the caller's turn.
export type LookupSearchOptions = Omit<SearchOptions, "signal" | "deadline" | "timeoutMs" | "onAttempt">;
export type LookupReadOptions = Omit<ReadOptions, "deadline" | "timeoutMs">;
export type LookupAnswerOptions = Omit<AnswerOptions, "signal" | "timeoutMs" | "onProgress">;

export function searchCall(websift: SessionWebsift, query: string, options: LookupSearchOptions): LookupCall {
  return (signal, ms) => websift.search(query, { ...options, signal, timeoutMs: ms });
}

export function readCall(websift: SessionWebsift, url: string, options: LookupReadOptions): LookupCall {
  // The reader's page cache answers a page read again at once: the session adds nothing in front of it.
  return (signal, ms) => websift.read(url, { ...options, deadline: Deadline.fromSignal(signal, ms) });
}

export function answerCall(websift: SessionWebsift, query: string, options: LookupAnswerOptions): LookupCall {
  return (signal, ms) => websift.answer(query, { ...options, signal, timeoutMs: ms });
}

import type { AnswerResult } from "../ground/answer.js";
import type { ReadResult } from "../read/read.js";
import type { SearchResponse } from "../search/chain.js";
import type { LookupKind } from "./lookup-key.js";
import { quotedTitle, shownUrl } from "./one-line.js";

/**
 * The line a caller keeps in its window after the first turn instead of the whole page or result list: enough to
 * remember that it looked, and what. It sits unfenced in the window turn after turn, so it holds only words the
 * caller or websift wrote (the query, the URL it asked for, counts and statuses), never a page's title or a
 * result's: a stranger's words would otherwise outlive the fence that held them.
 */
export function keepAsRead(url: string, result: ReadResult): string {
  const where = shownUrl(url);
  if (result.status !== "ok" && result.status !== "partial")
    return `(you tried to read ${where}: ${result.status})`;
  return `(you read ${where})`;
}

export function keepAsSearch(query: string, result: SearchResponse): string {
  const asked = quotedTitle(query, 200);
  if (result.status !== "ok" && result.status !== "partial")
    return `(you searched ${asked}: ${result.status})`;
  const n = result.results.length;
  return n
    ? `(you searched ${asked}: ${n} result${n === 1 ? "" : "s"})`
    : `(you searched ${asked}: nothing found)`;
}

export function keepAsAnswer(query: string, result: AnswerResult): string {
  const asked = quotedTitle(query, 200);
  return result.status === "ok" || result.status === "partial"
    ? `(you looked up ${asked})`
    : `(you looked up ${asked}: ${result.status})`;
}

export function keepAsOf(
  kind: LookupKind,
  subject: string,
  result: SearchResponse | ReadResult | AnswerResult,
): string {
  if (kind === "read") return keepAsRead(subject, result as ReadResult);
  if (kind === "search") return keepAsSearch(subject, result as SearchResponse);
  return keepAsAnswer(subject, result as AnswerResult);
}

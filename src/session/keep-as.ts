import type { AnswerResult } from "../ground/answer.js";
import type { ReadResult } from "../read/read.js";
import type { SearchResponse } from "../search/chain.js";
import type { LookupKind } from "./lookup-key.js";
import { oneLine, quotedTitle, shownUrl } from "./one-line.js";

/** How many result titles a search's line names. */
const TOP = 3;

/**
 * The line a caller keeps in its window after the first turn instead of the whole page or result list: enough to
 * remember that it looked, and what, without carrying a stranger's text turn after turn.
 */
export function keepAsRead(url: string, result: ReadResult): string {
  const where = shownUrl(result.finalUrl || url);
  if (result.status !== "ok" && result.status !== "partial")
    return `(you tried to read ${where}: ${result.status})`;
  const title = oneLine(result.title, 150);
  return title ? `(you read ${quotedTitle(title)} ${where})` : `(you read ${where})`;
}

export function keepAsSearch(query: string, result: SearchResponse): string {
  const asked = quotedTitle(query, 200);
  if (result.status !== "ok" && result.status !== "partial")
    return `(you searched ${asked}: ${result.status})`;
  const titles = result.results
    .slice(0, TOP)
    .map((r) => oneLine(r.title, 100))
    .filter(Boolean);
  return titles.length
    ? `(you searched ${asked}: ${titles.join("; ")})`
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

import type { Attempt, Failure } from "../core/status.js";
import type { ReadResult } from "./read.js";

// Its own module, apart from the reader: the session and the surfaces build failed reads without loading the
// reader (its ladder, extraction and net) until a page is read.

/** A read that produced no text, as a value of the Page shape: every surface handles one type. */
export function failedRead(
  url: string,
  failure: Failure,
  seen: { finalUrl?: string; contentType?: string; attempts?: Attempt[] } = {},
): ReadResult {
  return {
    url,
    finalUrl: seen.finalUrl ?? url,
    title: "",
    markdown: "",
    links: [],
    contentType: seen.contentType ?? "",
    truncated: false,
    fetchedAt: new Date().toISOString(),
    cached: false,
    status: failure.status,
    attempts: seen.attempts ?? [],
    totalChars: 0,
    error: failure,
  };
}

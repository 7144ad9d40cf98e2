import type { Deadline } from "../core/deadline.js";
import type { Attempt } from "../core/status.js";
import { sharedTokens } from "./relevance.js";
import { type PageDates, sourceDates, sourceDay } from "./sources.js";

export interface CascadeCandidate {
  title: string;
  url: string;
}

export interface ReadPage {
  status: string;
  title?: string;
  finalUrl?: string;
  markdown?: string;
  truncated?: boolean;
  error?: string;
  dates?: PageDates;
  lastModified?: string;
  pageText?: string[];
}

/** For a question about what is current: wait for every page, and among comparably relevant ones take the newest. */
export interface PreferRecent {
  lookedUpAt: Date;
}
// A page sharing at least this share of the best page's words with the question counts as comparably relevant.
const COMPARABLE_RELEVANCE = 0.75;

export type ReadFn = (url: string, deadline: Deadline) => Promise<ReadPage>;

export interface CascadeResult {
  page?: { rank: number; candidate: CascadeCandidate; read: ReadPage };
  attempts: Attempt[];
}

/**
 * Reads the top candidates in parallel under one wall-clock cap and keeps the best-ranked relevant page.
 * A lower-ranked page only wins once every page above it has failed or proved irrelevant, so the race
 * stops the moment the top result is in and relevant, and a top-1 success always beats a top-2.
 */
export function cascade(
  query: string,
  candidates: CascadeCandidate[],
  read: ReadFn,
  deadline: Deadline,
  timeoutMs: number,
  onRead?: (url: string, attempt: Attempt) => void,
  recent?: PreferRecent,
): Promise<CascadeResult> {
  const cap = deadline.child(timeoutMs);
  const attempts: Attempt[] = [];
  const verdicts: (ReadPage | null | undefined)[] = candidates.map(() => undefined);
  const relevance: number[] = candidates.map(() => 0);
  return new Promise((resolve) => {
    let done = false;
    const settle = (final: boolean) => {
      if (done) return;
      if (recent) {
        if (!final && verdicts.some((v) => v === undefined)) return;
        done = true;
        cap.abort();
        const i = newestComparable(verdicts, relevance, recent.lookedUpAt);
        return resolve(
          i === -1
            ? { attempts }
            : { page: { rank: i + 1, candidate: candidates[i], read: verdicts[i]! }, attempts },
        );
      }
      for (let i = 0; i < candidates.length; i++) {
        const v = verdicts[i];
        if (v === undefined && !final) return; // a better-ranked page may still arrive
        if (v) {
          done = true;
          cap.abort();
          return resolve({ page: { rank: i + 1, candidate: candidates[i], read: v }, attempts });
        }
      }
      if (final || verdicts.every((v) => v !== undefined)) {
        done = true;
        cap.abort();
        resolve({ attempts });
      }
    };
    cap.signal.addEventListener("abort", () => settle(true), { once: true });
    candidates.forEach((candidate, i) => {
      const started = Date.now();
      read(candidate.url, cap.child())
        .catch(
          (err): ReadPage => ({ status: "error", error: err instanceof Error ? err.message : String(err) }),
        )
        .then((page) => {
          const ms = Date.now() - started;
          const text = `${page.title ?? ""}\n${page.markdown ?? ""}`;
          const shared = page.status === "ok" && page.markdown?.trim() ? sharedTokens(query, text) : 0;
          const relevant = shared > 0;
          relevance[i] = shared;
          const attempt: Attempt = {
            provider: `read:${hostOf(candidate.url)}`,
            status: relevant ? "ok" : page.status === "ok" ? "empty" : (page.status as Attempt["status"]),
            ms,
            ...(page.status === "ok" && !relevant ? { error: "page shares no word with the question" } : {}),
            ...(page.status !== "ok" && page.error ? { error: page.error } : {}),
          };
          attempts.push(attempt);
          if (!done) onRead?.(candidate.url, attempt);
          verdicts[i] = relevant ? page : null;
          settle(false);
        });
    });
    if (candidates.length === 0) settle(true);
  });
}

/** The best-ranked page unless a comparably relevant one states a newer day; -1 when none is relevant. */
function newestComparable(
  verdicts: (ReadPage | null | undefined)[],
  relevance: number[],
  lookedUpAt: Date,
): number {
  const best = Math.max(0, ...relevance.filter((_, i) => verdicts[i]));
  let pick = -1;
  let pickDay = "";
  verdicts.forEach((v, i) => {
    if (!v || relevance[i] < best * COMPARABLE_RELEVANCE) return;
    const day = sourceDay(sourceDates(v, lookedUpAt)) ?? "";
    if (pick === -1 || day > pickDay) {
      pick = i;
      pickDay = day;
    }
  });
  return pick;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "page";
  }
}

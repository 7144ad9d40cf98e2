import { type CallBudget, callDeadline } from "../core/call-budget.js";
import type { Deadline } from "../core/deadline.js";
import type { Attempt, Status } from "../core/status.js";
import {
  deniedEnvelope,
  disabledEnvelope,
  failureEnvelope,
  offlineEnvelope,
  rateLimitedEnvelope,
  WEB_NOTICE,
} from "../ground/envelope.js";
import { createFence } from "../ground/fence.js";
import { guardQuery } from "../ground/query-guard.js";
import type { ReadOptions, ReadResult } from "../read/read.js";
import type { SearchResponse } from "../search/chain.js";
import type { SearchOptions } from "../search/options.js";
import type { Turn } from "./deps.js";
import { digest } from "./digest.js";
import type { LlmClient } from "./llm.js";
import { planQueries } from "./plan.js";
import { reflect } from "./reflect.js";

export interface ResearchOptions extends CallBudget {
  /** Searches at most (default 4): the planned queries first, then one per reflection. */
  maxHops?: number;
  /** The conversation the question came from: it shapes the plan and never reaches a search engine. */
  history?: Turn[];
  /** Pages read per hop (default 2). */
  pagesPerHop?: number;
  onProgress?: (line: string) => void;
}

export interface ResearchDeps {
  websift: {
    search(query: string, options?: SearchOptions): Promise<SearchResponse>;
    read(url: string, options?: ReadOptions): Promise<ReadResult>;
  };
  llm?: LlmClient;
  now?: () => Date;
}

export interface Fact {
  text: string;
  source: { title: string; url: string };
}

export interface Hop {
  query: string;
  status: Status;
  results: { title: string; url: string; snippet: string }[];
  read: { title: string; url: string; status: Status }[];
}

export interface ResearchResult {
  status: Status;
  /** The evidence for a model: every fact fenced with its source, one nonce per result. */
  envelope: string;
  facts: Fact[];
  hops: Hop[];
  attempts: Attempt[];
  /** True when the model was missing or failed somewhere, so a rule or the passages stood in. */
  degraded: boolean;
}

/** A research's budget when its caller gives none: minutes of hops, not one page's. */
export const RESEARCH_TIMEOUT_MS = 60_000;
const HOP_SEARCH_MS = 15_000;
const PAGE_MS = 15_000;
// A hop that cannot finish a search and one read in what is left is not started.
const MIN_HOP_MS = 2_000;

/**
 * Plan, search, read the top pages, then let the model reflect: it names one focused query for the missing fact,
 * or DONE. Only planned and reflected queries, each through the query guard, go to the search engines; the
 * question and the conversation stay between the caller and its own model.
 */
export async function research(
  question: string,
  options: ResearchOptions,
  deps: ResearchDeps,
): Promise<ResearchResult> {
  const maxHops = Math.max(1, options.maxHops ?? 4);
  const deadline = callDeadline(options, RESEARCH_TIMEOUT_MS);
  const progress = options.onProgress ?? (() => {});
  const plan = await planQueries(question, options.history ?? [], { llm: deps.llm, now: deps.now, deadline });
  const attempts = [...plan.attempts];
  let degraded = plan.degraded;
  if (!plan.queries.length) {
    const reason = plan.refused[0] ?? "no query could be planned";
    return { status: "denied", envelope: deniedEnvelope(reason), facts: [], hops: [], attempts, degraded };
  }

  const pending = [...plan.queries];
  const asked = new Set<string>();
  const seenUrls = new Set<string>();
  const facts: Fact[] = [];
  const hops: Hop[] = [];
  while (pending.length && hops.length < maxHops && deadline.remaining() > MIN_HOP_MS) {
    const query = pending.shift() as string;
    if (asked.has(query.toLowerCase())) continue;
    asked.add(query.toLowerCase());
    progress(`🔎 Hop ${hops.length + 1}/${maxHops}: searching '${query}'`);
    const hop = await runHop(query, options.pagesPerHop ?? 2, seenUrls, deadline, deps);
    attempts.push(...hop.attempts);
    facts.push(...hop.facts);
    degraded ||= hop.degraded;
    hops.push(hop.hop);
    progress(
      `   ${hop.hop.results.length} results, ${hop.facts.length} pages with evidence (${facts.length} in all)`,
    );
    if (pending.length || hops.length >= maxHops) continue;
    if (!deps.llm) break;
    const next = await reflect(question, facts, deps.llm, deadline);
    attempts.push(next.attempt);
    if (next.kind === "failed") {
      degraded = true;
      break;
    }
    if (next.kind === "done") {
      progress("✅ The evidence answers the question.");
      break;
    }
    const verdict = guardQuery(next.query);
    if (!verdict.ok || asked.has(next.query.toLowerCase())) break;
    progress(`🧭 Missing a fact: next '${next.query}'`);
    pending.push(next.query);
  }
  const status = outcome(facts, hops);
  return { status, envelope: envelopeFor(question, status, facts, hops), facts, hops, attempts, degraded };
}

async function runHop(
  query: string,
  pagesPerHop: number,
  seenUrls: Set<string>,
  deadline: Deadline,
  deps: ResearchDeps,
): Promise<{ hop: Hop; facts: Fact[]; attempts: Attempt[]; degraded: boolean }> {
  const found = await deps.websift.search(query, { limit: 5, deadline: deadline.child(HOP_SEARCH_MS) });
  const results = found.results.map(({ title, url, snippet }) => ({ title, url, snippet }));
  const toRead = results.filter((r) => !seenUrls.has(r.url)).slice(0, pagesPerHop);
  for (const r of toRead) seenUrls.add(r.url);
  const digests = await Promise.all(
    toRead.map((r) =>
      digest(
        r.url,
        { lookingFor: query, deadline: deadline.child(PAGE_MS) },
        // Pages a hop found for itself: robots.txt decides them (WEBSIFT_ROBOTS).
        {
          websift: { read: (url, o) => deps.websift.read(url, { ...o, robots: "automated" }) },
          llm: deps.llm,
        },
      ),
    ),
  );
  const facts: Fact[] = [];
  digests.forEach((d, i) => {
    if (d.text.trim())
      facts.push({ text: d.text.trim(), source: { title: d.title || toRead[i].title, url: d.url } });
  });
  return {
    hop: {
      query,
      status: found.status,
      results,
      read: digests.map((d) => ({ title: d.title, url: d.url, status: d.status })),
    },
    facts,
    attempts: [...found.attempted, ...digests.flatMap((d) => d.attempts)],
    degraded: digests.some((d) => d.degraded),
  };
}

/** ok with evidence; otherwise the searches' or the reads' own failure, never "empty" for a block or a timeout. */
function outcome(facts: Fact[], hops: Hop[]): Status {
  if (facts.length) return "ok";
  const statuses = hops.flatMap((h) => [h.status, ...h.read.map((r) => r.status)]);
  return statuses.find((s) => s !== "ok" && s !== "partial" && s !== "empty") ?? "empty";
}

function envelopeFor(question: string, status: Status, facts: Fact[], hops: Hop[]): string {
  const queries = hops.map((h) => `'${h.query}'`).join(", ");
  if (status === "offline") return offlineEnvelope(question);
  if (status === "disabled") return disabledEnvelope();
  if (status === "rate_limited") return rateLimitedEnvelope(question);
  if (!facts.length && status !== "empty")
    return failureEnvelope(question, `the searches (${queries}) ended ${status}`);
  if (!facts.length) {
    return [
      WEB_NOTICE,
      `Research searched ${queries} and found nothing on it.`,
      "Tell the user nothing was found.",
    ].join("\n");
  }
  const fence = createFence();
  const blocks = facts.map((f) =>
    fence.wrap(`From "${f.source.title}" (${f.source.url}):\n${f.text}`, f.source.url),
  );
  const sources = facts.map((f, i) => `${i + 1}. ${f.source.title} — ${f.source.url}`);
  return [
    WEB_NOTICE,
    `Research for the question, in ${hops.length} search${hops.length === 1 ? "" : "es"} (${queries}). Facts found, each with its source:`,
    "",
    blocks.join("\n\n"),
    "",
    "Sources:",
    ...sources,
  ].join("\n");
}

import type { Attempt } from "../core/status.js";
import { guardQuery } from "../ground/query-guard.js";
import { cleanLine, type RouterDeps, renderHistory, type Turn } from "./deps.js";
import { llmAttempt, modelBudget } from "./llm.js";
import { isTimely } from "./search-rules.js";
import { standaloneQuery } from "./standalone.js";

export interface QueryPlan {
  /** 1 to 4 self-contained queries, each passed by the query guard; empty only when the guard refused all. */
  queries: string[];
  method: "model" | "rule";
  degraded: boolean;
  /** Why queries were dropped (the guard's reasons), for the caller's log. */
  refused: string[];
  attempts: Attempt[];
}

const PLAN_MS = 12_000;
const MAX_QUERIES = 4;
const SYSTEM = [
  "Plan web searches that together answer the user's last message.",
  "Write 1 to 4 short search queries, one per line, nothing else.",
  "Each query must stand alone: spell out names and places the conversation refers to, never 'he', 'there' or 'it'.",
  "Never copy private details of the conversation into a query, only what the search needs.",
  "Use as few queries as the question needs; a simple question needs one.",
].join(" ");

/**
 * The queries a question needs. With a model, it plans up to four from the standalone request; without one, the
 * standalone rewrite of the message is the single query. The current year joins any query whose answer changes
 * over time, and every query passes the query guard, since a plan written from a conversation can carry a path
 * or a key the user pasted.
 */
export async function planQueries(
  message: string,
  history: Turn[],
  deps: RouterDeps = {},
): Promise<QueryPlan> {
  const standalone = await standaloneQuery(message, history, deps);
  const attempts = [...standalone.attempts];
  let planned: string[] = [];
  let degraded = standalone.degraded;
  if (deps.llm) {
    const started = Date.now();
    const context = history.length ? `Conversation so far:\n${renderHistory(history)}\n\n` : "";
    const reply = await deps.llm.chat(
      [
        { role: "system", content: SYSTEM },
        { role: "user", content: `${context}Last message: ${message}\nWhat it asks: ${standalone.query}` },
      ],
      { deadline: modelBudget(deps.deadline, PLAN_MS), maxTokens: 200 },
    );
    attempts.push(llmAttempt(reply, Date.now() - started));
    if (reply.ok) planned = parseQueryLines(reply.text);
    if (!planned.length) degraded = true;
  } else degraded = true;
  const method = planned.length ? "model" : "rule";
  if (!planned.length) planned = [standalone.query];

  const year = String((deps.now ?? (() => new Date()))().getFullYear());
  const queries: string[] = [];
  const refused: string[] = [];
  for (const raw of planned) {
    const query = withYear(raw, year);
    const verdict = guardQuery(query);
    if (!verdict.ok) refused.push(verdict.reason);
    else if (!queries.some((q) => q.toLowerCase() === query.toLowerCase())) queries.push(query);
  }
  return { queries, method, degraded, refused, attempts };
}

/** One query per line of the model's reply, list marks and quotes removed, at most four. */
export function parseQueryLines(text: string): string[] {
  return text
    .split("\n")
    .map(cleanLine)
    .filter((line) => line.length > 1 && line.length <= 300)
    .slice(0, MAX_QUERIES);
}

/** "latest node.js LTS" ⇒ "latest node.js LTS 2026"; a query that already names a year keeps it. */
export function withYear(query: string, year: string): string {
  if (!isTimely(query) || /\b(19|20)\d\d\b/.test(query)) return query;
  return `${query} ${year}`;
}

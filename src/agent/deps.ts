import type { Deadline } from "../core/deadline.js";
import type { LlmClient } from "./llm.js";

/** One earlier turn of the conversation, oldest first. */
export interface Turn {
  role: "user" | "assistant";
  content: string;
}

/** What the routing functions need: a model when one is configured, a clock, and the caller's budget. */
export interface RouterDeps {
  llm?: LlmClient;
  /** Injectable clock for the year added to time-sensitive queries. */
  now?: () => Date;
  deadline?: Deadline;
}

/** The last `n` turns as plain text for a prompt, each cut short: a router needs the thread, not whole replies. */
export function renderHistory(history: Turn[], n = 6): string {
  return history
    .slice(-n)
    .map(
      (t) =>
        `${t.role === "user" ? "User" : "Assistant"}: ${t.content.replace(/\s+/g, " ").trim().slice(0, 500)}`,
    )
    .join("\n");
}

/** The first line of a model's answer, without list marks, quotes or a trailing label. */
export function cleanLine(text: string): string {
  return text
    .trim()
    .split("\n")[0]
    .replace(/^\s*(?:[-*•]|\d+[.)])\s*/, "")
    .replace(/^(?:query|search|request)\s*:\s*/i, "")
    .replace(/^["'“”«»]+|["'“”«»]+$/g, "")
    .trim();
}

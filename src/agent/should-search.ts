import type { Attempt } from "../core/status.js";
import { type RouterDeps, renderHistory, type Turn } from "./deps.js";
import { llmAttempt, modelBudget } from "./llm.js";
import { classifyMessage } from "./search-rules.js";
import { mergeFragment } from "./standalone.js";

export interface SearchDecision {
  search: boolean;
  /** "rule": a local rule decided; "model": the model did; "no-model"/"model-failed": ambiguous, so no search. */
  reason: "rule" | "model" | "no-model" | "model-failed";
  /** The rule that decided, e.g. "de:weather". */
  rule?: string;
  /** True when the model was needed but missing or failing, so the rules alone decided. */
  degraded: boolean;
  attempts: Attempt[];
}

const SHOULD_SEARCH_MS = 8_000;
const SYSTEM = [
  "You decide whether an assistant must search the web before replying to the user's last message.",
  "Answer YES only when the reply needs facts that are recent, live, local or too specific to know reliably.",
  "Answer NO for chat, opinions, writing help, general knowledge and anything the assistant can do itself.",
  "Reply with exactly one word: YES or NO.",
].join(" ");

/**
 * Local rules first: they cost nothing and cover most of what a voice assistant hears. Only an ambiguous message
 * reaches the model, and only an answer beginning with YES searches: a rambling or malformed reply is a NO,
 * because a needless search costs seconds while a missed one can still be asked for.
 */
export async function shouldSearch(
  message: string,
  history: Turn[],
  deps: RouterDeps = {},
): Promise<SearchDecision> {
  const local = classifyWithContext(message, history);
  if (local.verdict !== "ambiguous") {
    return {
      search: local.verdict === "search",
      reason: "rule",
      rule: local.rule,
      degraded: false,
      attempts: [],
    };
  }
  if (!deps.llm) return { search: false, reason: "no-model", degraded: true, attempts: [] };
  const context = history.length ? `Conversation so far:\n${renderHistory(history)}\n\n` : "";
  const started = Date.now();
  const reply = await deps.llm.chat(
    [
      { role: "system", content: SYSTEM },
      {
        role: "user",
        content: `${context}Last message: ${message}\n\nMust the assistant search the web? YES or NO.`,
      },
    ],
    { deadline: modelBudget(deps.deadline, SHOULD_SEARCH_MS), maxTokens: 5 },
  );
  const attempts = [llmAttempt(reply, Date.now() - started)];
  if (!reply.ok) return { search: false, reason: "model-failed", degraded: true, attempts };
  return { search: saysYes(reply.text), reason: "model", degraded: false, attempts };
}

/**
 * A follow-up fragment ("I'm in Jordan", "und morgen?") carries no rule of its own; merged with the previous
 * user turn it inherits that turn's topic, so "I'm in Jordan" after a weather question searches by rule.
 */
function classifyWithContext(message: string, history: Turn[]) {
  const local = classifyMessage(message);
  const previous = [...history].reverse().find((t) => t.role === "user")?.content;
  if (local.verdict !== "ambiguous" || !previous) return local;
  const merged = mergeFragment(message, previous);
  return merged.method === "rule" ? classifyMessage(merged.query) : local;
}

/** "YES", "yes.", "Yes, because…" search; "NO", "Yesterday…", "I think yes" and anything else do not. */
export function saysYes(text: string): boolean {
  return /^\W*yes(?![\p{L}\p{N}])/iu.test(text.trim());
}

import type { Attempt } from "../core/status.js";
import { cleanLine, type RouterDeps, renderHistory, type Turn } from "./deps.js";
import { llmAttempt, modelBudget } from "./llm.js";

export interface StandaloneQuery {
  query: string;
  /** "model": rewritten by the model; "rule": merged by the heuristic; "as-is": the message already stood alone. */
  method: "model" | "rule" | "as-is";
  /** True when a model was wanted but missing or failing. */
  degraded: boolean;
  attempts: Attempt[];
}

const STANDALONE_MS = 10_000;
const SYSTEM = [
  "Rewrite the user's last message as one complete, self-contained web search request.",
  "Use the conversation to fill in what the message leaves out (the topic, the place, the person), spelling names and places out in full.",
  "Keep the user's language. Reply with the request only, on one line, without quotes.",
].join(" ");

// Follow-up fragments that name only a place: "I'm in Jordan", "what about Paris?", "und in Wien?", "e a Roma?".
const PLACE_FRAGMENT =
  /^(?:(?:and in|what about|how about|i'?m in|i am in|i live in|ich bin in|ich wohne in|und in|wie ist es in|e a|e in|sono a|sono in|abito a|y en|estoy en|vivo en|et à|et en|je suis à|je suis en|j'habite à)\s+)(.+?)[.?!]*$/iu;
// Fragments that shift the time: "and tomorrow?", "und morgen?", "e domani?".
const TIME_FRAGMENT =
  /^(?:and|und|e|y|et|what about|how about)\s+(tomorrow|tonight|next week|the weekend|morgen|heute abend|am wochenende|domani|stasera|mañana|esta noche|demain|ce soir)[.?!]*$/iu;

/**
 * A follow-up fragment becomes a complete request. With a model, the model rewrites it; without one (or when
 * it fails), a fragment naming only a place or a time is merged into the previous user turn. A message that is
 * not such a fragment stands alone as written.
 */
export async function standaloneQuery(
  message: string,
  history: Turn[],
  deps: RouterDeps = {},
): Promise<StandaloneQuery> {
  const text = message.replace(/\s+/g, " ").trim();
  const previous = [...history].reverse().find((t) => t.role === "user")?.content;
  if (!previous) return { query: text, method: "as-is", degraded: false, attempts: [] };
  if (!deps.llm) return { ...mergeFragment(text, previous), degraded: true, attempts: [] };
  const started = Date.now();
  const reply = await deps.llm.chat(
    [
      { role: "system", content: SYSTEM },
      { role: "user", content: `Conversation so far:\n${renderHistory(history)}\n\nLast message: ${text}` },
    ],
    { deadline: modelBudget(deps.deadline, STANDALONE_MS), maxTokens: 80 },
  );
  const attempts = [llmAttempt(reply, Date.now() - started)];
  const rewritten = reply.ok ? cleanLine(reply.text).slice(0, 300) : "";
  if (rewritten) return { query: rewritten, method: "model", degraded: false, attempts };
  return { ...mergeFragment(text, previous), degraded: true, attempts };
}

/** The keyless rewrite: "I'm in Jordan" after "What's the weather like?" ⇒ "What's the weather like in Jordan". */
export function mergeFragment(
  message: string,
  previous: string,
): { query: string; method: "rule" | "as-is" } {
  const topic = previous
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[.?!]+$/, "");
  const time = message.match(TIME_FRAGMENT);
  if (time) return { query: `${topic} ${time[1]}`, method: "rule" };
  const place = message.match(PLACE_FRAGMENT);
  if (place && place[1].split(" ").length <= 4) {
    // "near me" / "here" in the earlier question is exactly what the place replaces.
    const located = topic.replace(
      /\s+(?:near me|around here|here|in meiner nähe|vicino a me|cerca de mí|près de moi)$/iu,
      "",
    );
    return { query: `${located} in ${place[1]}`, method: "rule" };
  }
  return { query: message, method: "as-is" };
}

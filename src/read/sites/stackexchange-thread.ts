import { counted, cutBody, dayOf, factLine } from "./site-text.js";

/**
 * A Stack Exchange question as the reader presents it, whichever source gave it (the API or the page's own
 * markup): the question, then the accepted answer first and marked, then the others by score. Plain data, so the
 * page pool's worker can hand it back.
 */
export interface SePost {
  markdown: string;
  score?: number;
  author?: string;
  /** ISO date-time. */
  created?: string;
}

export interface SeAnswer extends SePost {
  id?: number;
  accepted: boolean;
}

export interface SeThread {
  title: string;
  question: SePost & { id: number; tags: string[]; closed?: string };
  answers: SeAnswer[];
  /** The answers the question has, when the source says (more than `answers` may hold). */
  answerCount?: number;
  links: string[];
}

/** Answers shown: the accepted one and the best-scored others. */
export const MAX_ANSWERS = 10;
const QUESTION_CHARS = 20_000;
const ANSWER_CHARS = 12_000;

/** The accepted answer first, then the rest by score (ties keep the source's order), at most MAX_ANSWERS. */
export function orderAnswers(answers: SeAnswer[], linked?: number): SeAnswer[] {
  const accepted = answers.filter((a) => a.accepted);
  const others = answers
    .filter((a) => !a.accepted)
    .map((a, i) => ({ a, i }))
    .sort((x, y) => (y.a.score ?? 0) - (x.a.score ?? 0) || x.i - y.i)
    .map(({ a }) => a);
  const ordered = [...accepted, ...others];
  const shown = ordered.slice(0, MAX_ANSWERS);
  // The answer a link pointed at is shown even when its score would leave it out.
  const target = linked !== undefined ? ordered.find((a) => a.id === linked) : undefined;
  if (target && !shown.includes(target)) shown.push(target);
  return shown;
}

export function renderThread(thread: SeThread, host: string, linked?: number): string {
  const q = thread.question;
  const total = thread.answerCount ?? thread.answers.length;
  const facts = factLine([
    `Question ${q.id} on ${host}`,
    q.score !== undefined && `score ${q.score.toLocaleString("en-US")}`,
    counted(total, "answer"),
    q.author && `asked by ${q.author}`,
    dayOf(q.created),
    q.closed && `closed: ${q.closed}`,
  ]);
  const parts = [`# ${thread.title}`, facts];
  if (q.tags.length) parts.push(`Tags: ${q.tags.join(", ")}`);
  parts.push(q.markdown ? cutBody(q.markdown, QUESTION_CHARS) : "*(no question text)*");
  const shown = orderAnswers(thread.answers, linked);
  if (!shown.length) parts.push("*No answers yet.*");
  else if (!thread.answers.some((a) => a.accepted))
    parts.push("*No answer has been accepted; answers by score.*");
  for (const a of shown) {
    const heading = factLine([
      a.accepted ? "✓ Accepted answer" : "Answer",
      a.score !== undefined && `score ${a.score.toLocaleString("en-US")}`,
      a.author && `by ${a.author}`,
      dayOf(a.created),
      a.id !== undefined && a.id === linked && "the answer linked",
    ]);
    parts.push(`## ${heading}\n\n${a.markdown ? cutBody(a.markdown, ANSWER_CHARS) : "*(empty)*"}`);
  }
  const more = total - shown.length;
  if (more > 0) parts.push(`[${counted(more, "more answer")} not shown, lower scored]`);
  return parts.join("\n\n");
}

import type { AnswerResult } from "../ground/answer.js";
import { answerView, pageView, redactedRaw, searchView, type ToolOutput } from "../ground/model-view.js";
import type { ReadResult } from "../read/read.js";
import type { SearchResponse } from "../search/chain.js";
import type { Landing } from "../session/session.js";

/** A conversation's lookup answered in its turn carries its id and the line to keep (words we wrote). */
type Lookup = { id?: string; keepAs?: string };
export type Reply = Record<string, unknown> & { status: string };

/**
 * An answer of the HTTP service: the model view every surface gives (`{ status, text, …our fields }`, the text
 * fenced and redacted), plus the lookup's id and keepAs line. An app may hand the whole JSON to its model, so
 * the library's shape (page markdown, titles, snippets, attempts) is sent only to a caller that asks for it
 * with `?raw=1`, redacted and beside the same text.
 */
function reply(view: ToolOutput, result: object & Lookup, raw: boolean): Reply {
  if (raw) return { text: view.text, ...redactedRaw(result), status: view.structured.status };
  const lookup = { id: result.id, keepAs: result.keepAs };
  return JSON.parse(JSON.stringify({ ...view.structured, ...lookup }));
}

export const searchReply = (r: SearchResponse & Lookup, raw = false): Reply => reply(searchView(r), r, raw);
export const readReply = (url: string, r: ReadResult & Lookup, raw = false): Reply =>
  reply(pageView(url, r), r, raw);
export const answerReply = (r: AnswerResult & Lookup, raw = false): Reply => reply(answerView(r), r, raw);

/** A landing on a conversation's event stream: what the call would have answered in its turn, with its id. */
export function landedData(landing: Landing): Reply {
  const lookup = { id: landing.id, keepAs: landing.keepAs };
  const base = { kind: landing.kind, conversation_id: landing.conversationId };
  if (landing.kind === "search") return { ...searchReply({ ...landing.result, ...lookup }), ...base };
  if (landing.kind === "read")
    return { ...readReply(landing.result.url, { ...landing.result, ...lookup }), ...base };
  return { ...answerReply({ ...landing.result, ...lookup }), ...base };
}

import type { AnswerResult } from "../ground/answer.js";
import { webAnswer, webFetch, webSearch } from "../mcp/tools.js";
import type { ReadResult } from "../read/read.js";
import type { SearchResponse } from "../search/chain.js";
import type { Websift } from "../websift.js";

/**
 * The text a model receives for a result already in hand: the MCP tool definitions themselves render it, run
 * over a stand-in library that answers with that result. One rendering for every surface, and none copied here;
 * the HTTP service calls the library (or the session) itself because it offers options the tools do not.
 */
export async function searchText(response: SearchResponse): Promise<string> {
  const out = await webSearch.run(answering({ search: async () => response }), { query: response.query }, {});
  return out.text;
}

export async function readText(url: string, page: ReadResult): Promise<string> {
  const out = await webFetch.run(answering({ read: async () => page }), { url }, {});
  return out.text;
}

export async function answerText(query: string, result: AnswerResult): Promise<string> {
  const out = await webAnswer.run(answering({ answer: async () => result }), { query }, {});
  return out.text;
}

function answering(part: Partial<Pick<Websift, "search" | "read" | "answer">>): Websift {
  return part as Websift;
}

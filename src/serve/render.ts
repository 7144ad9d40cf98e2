import type { AnswerResult } from "../ground/answer.js";
import { renderAnswer, renderPage, renderSearch } from "../mcp/tools.js";
import type { ReadResult } from "../read/read.js";
import type { SearchResponse } from "../search/chain.js";

/** The text a model receives for a result in hand: the MCP tools' own rendering, so every surface reads alike. */
export const searchText = (response: SearchResponse): string => renderSearch(response).text;
export const readText = (url: string, page: ReadResult): string => renderPage(url, page).text;
export const answerText = (result: AnswerResult): string => renderAnswer(result).text;

import type { AnswerResult } from "../ground/answer.js";
import { answerView, pageView, searchView } from "../ground/model-view.js";
import type { ReadResult } from "../read/read.js";
import type { SearchResponse } from "../search/chain.js";

/** The text a model receives for a result in hand: the MCP tools' own rendering, so every surface reads alike. */
export const searchText = (response: SearchResponse): string => searchView(response).text;
export const readText = (url: string, page: ReadResult): string => pageView(url, page).text;
export const answerText = (result: AnswerResult): string => answerView(result).text;

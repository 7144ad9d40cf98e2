import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { AnswerResult } from "../ground/answer.js";
import { answerView, errorView, pageView, pendingView, searchView } from "../ground/model-view.js";
import type { ReadResult } from "../read/read.js";
import type { SearchResponse } from "../search/chain.js";
import type { LookupKind } from "../session/lookup-key.js";
import type {
  InTurn,
  Landing,
  LookupResult,
  PendingLookup,
  Session,
  TurnOptions,
} from "../session/session.js";
import {
  readOptionsOf,
  searchOptionsOf,
  type ToolOutput,
  webAnswer,
  webFetch,
  webSearch,
} from "../surface/tools.js";
import { VIEW_SHAPES } from "../surface/view-shapes.js";

type Asked = Promise<InTurn<LookupResult> | PendingLookup>;

/** How one web tool runs as a session lookup, and how its result reads, in its turn or when it lands later. */
export interface SessionTool {
  name: string;
  kind: LookupKind;
  /** The lookup's subject as the session names it (its query or URL), for progress lines. */
  subject(args: Record<string, unknown>): string;
  ask(session: Session, conversationId: string, args: Record<string, unknown>, turn: TurnOptions): Asked;
  /** The result as the tool reads, from what the session knows of it (a landing has no call's arguments). */
  render(subject: string, result: LookupResult): ToolOutput;
}

type SearchArgs = z.infer<z.ZodObject<typeof webSearch.input>>;
type FetchArgs = z.infer<z.ZodObject<typeof webFetch.input>>;
type AnswerArgs = z.infer<z.ZodObject<typeof webAnswer.input>>;

const searchTool: SessionTool = {
  name: webSearch.name,
  kind: "search",
  subject: (args) => (args as SearchArgs).query,
  ask(session, conversationId, raw, turn) {
    const args = raw as SearchArgs;
    return session.search(conversationId, args.query, { ...searchOptionsOf(args), ...turn }) as Asked;
  },
  render: (_subject, result) => searchView(result as SearchResponse),
};

const fetchTool: SessionTool = {
  name: webFetch.name,
  kind: "read",
  subject: (args) => (args as FetchArgs).url,
  ask(session, conversationId, raw, turn) {
    const args = raw as FetchArgs;
    return session.read(conversationId, args.url, { ...readOptionsOf(args), ...turn }) as Asked;
  },
  render: (url, result) => pageView(url, result as ReadResult),
};

const answerTool: SessionTool = {
  name: webAnswer.name,
  kind: "answer",
  subject: (args) => (args as AnswerArgs).query,
  ask(session, conversationId, raw, turn) {
    const args = raw as AnswerArgs;
    return session.answer(conversationId, args.query, { language: args.language, ...turn }) as Asked;
  },
  render: (_subject, result) => answerView(result as AnswerResult),
};

export const SESSION_TOOLS: ReadonlyMap<string, SessionTool> = new Map(
  [searchTool, fetchTool, answerTool].map((tool) => [tool.name, tool]),
);
const BY_KIND = new Map([searchTool, fetchTool, answerTool].map((tool) => [tool.kind, tool]));

/** A landing from the session's mailbox, read as the tool that asked for it would have answered in its turn. */
export function landingView(landing: Landing): ToolOutput {
  const tool = BY_KIND.get(landing.kind) as SessionTool;
  const subject = landing.kind === "read" ? landing.result.url : "";
  const result = { ...landing.result, id: landing.id, keepAs: landing.keepAs };
  return tool.render(subject, result as unknown as LookupResult);
}

/** The follow-up tool for a lookup that outlived its call. Kept short: clients send it with every model turn. */
export const webResult = {
  name: "web_result",
  title: "Result of a running lookup",
  description:
    "Get the result of a web_search, web_fetch or web_answer that replied 'still running', by the id it gave. Returns it once.",
  input: { id: z.string().min(1).max(100).describe("The id from the 'still running' reply") },
  output: VIEW_SHAPES.result,
};

/** The same view on both channels: the text, and the compact object whose `text` is that text. */
export function toolResult(out: ToolOutput): CallToolResult {
  return {
    content: [{ type: "text", text: out.text }],
    structuredContent: out.structured,
    isError: out.isError,
  };
}

export const stillRunning = pendingView;

/** A call that ended before its tool ran (a limit, a cancellation, a bug): as a tool result on both channels. */
export const errorResult = (text: string): CallToolResult => toolResult(errorView(text));

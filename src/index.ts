// The package root: the library (createWebsift, search, read, answer, research, the session) and its helpers.
// Surfaces and heavy optional parts have entries of their own (`websift/mcp`, `websift/serve`, the adapters) or
// load inside the call that needs them, so importing the root never pays for them (ARCHITECTURE.md, "Loading").
import { warnDeprecated } from "./core/deprecation.js";
import type { McpHttpOptions, McpHttpServer } from "./mcp/http.js";

export * from "./agent/index.js";
export { BadInputError } from "./arguments.js";
export type { WebAbility } from "./config/abilities.js";
export { readWebAbility, webAbilityGate, writeWebAbility } from "./config/abilities.js";
export type { LoadConfigOptions, ResolvedConfig } from "./config/load.js";
export { ConfigError, loadConfig, settingsFromEnv } from "./config/load.js";
export type { Settings } from "./config/settings.js";
export { Deadline, DeadlineExceeded } from "./core/deadline.js";

export type { Attempt, Failure, Status } from "./core/status.js";
export { STATUSES } from "./core/status.js";
export type { AnswerOptions, AnswerResult, Route } from "./ground/answer.js";
export type { Source } from "./ground/envelope.js";
export { createFence } from "./ground/fence.js";
export type { ModelView, SourcesView, SourceView, ToolOutput } from "./ground/model-view.js";
export { answerView, pageView, researchView, searchView } from "./ground/model-view.js";
export { searchMarkdown } from "./ground/search-markdown.js";
export type { SourcePassage, StatedDate } from "./ground/sources.js";
export type { Net, NetConfig, NetRequestOptions, NetResponse, NetResult } from "./net/client.js";
export { createNet } from "./net/client.js";
export type { NetCode, NetFailure } from "./net/failure.js";
export type { VetResult } from "./net/vet-url.js";
export {
  cutAtParagraph,
  extractMarkdown,
  fenceUntrusted,
  guardQuery,
  redactSecrets,
  sizeText,
  stripInvisible,
  vetUrl,
} from "./public-helpers.js";
export { fetchBest } from "./read/fetch-best.js";
export type { ReadOptions, ReadResult, ReadSource } from "./read/read.js";
export { closeSharedRenderer } from "./read/read.js";
export type { SizedText, SizeOptions } from "./read/size.js";
export type { SearchAnswer, SearchResponse } from "./search/chain.js";
export type { SearchResult } from "./search/merge.js";
export type { SearchOptions } from "./search/options.js";
export type { Provider, ProviderContext, ProviderOutcome, ProviderQuery } from "./search/provider.js";
export { providerConfigured } from "./search/provider.js";
export { PROVIDERS } from "./search/registry.js";
export { CODE_DOMAINS } from "./search/scope.js";
export type { Clock } from "./session/clock.js";
export type {
  InFlightLookup,
  InTurn,
  Landing,
  PendingLookup,
  Session,
  SessionAnswerOptions,
  SessionOptions,
  SessionReadOptions,
  SessionSearchOptions,
  SessionWebsift,
  TurnOptions,
} from "./session/session.js";
export { createSession, PENDING_MESSAGE } from "./session/session.js";
export { RECENT_HEADER } from "./session/web-memory.js";
export type { OpenStoreOptions, StatusStore, StoreStatus } from "./store/open-store.js";
export { openStore } from "./store/open-store.js";
export type { Store } from "./store/store.js";
export { MemoryStore } from "./store/store.js";
export type { Websift, WebsiftConfig } from "./websift.js";
export { createWebsift } from "./websift.js";

/** @deprecated Import `startMcpHttp` from `websift/mcp`; this alias loads it on first call. */
export async function startMcpHttp(options: McpHttpOptions): Promise<McpHttpServer> {
  warnDeprecated(
    "startMcpHttp",
    'websift: import startMcpHttp from "websift/mcp"; the root\'s startMcpHttp goes in the next minor version',
    "websift-root-export",
  );
  const { startMcpHttp: start } = await import("./mcp/http.js");
  return start(options);
}

/** @deprecated Import it from `websift/mcp`. */
export type { McpHttpOptions, McpHttpServer, McpServerOptions } from "./mcp/index.js";

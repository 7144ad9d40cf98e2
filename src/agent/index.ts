/** The agent layer's public surface: model-assisted search decisions, query plans and multi-hop research. */
export type { RouterDeps, Turn } from "./deps.js";
export { type Digest, type DigestOptions, digest } from "./digest.js";
export { type ChatMessage, createLlm, type LlmClient, type LlmFailure, type LlmReply } from "./llm.js";
export { planQueries, type QueryPlan } from "./plan.js";
export { type Fact, type Hop, type ResearchOptions, type ResearchResult, research } from "./research.js";
export { type SearchDecision, shouldSearch } from "./should-search.js";
export { type StandaloneQuery, standaloneQuery } from "./standalone.js";

import type { Deadline } from "../../core/deadline.js";
import { errorLine } from "../../core/one-line.js";
import type { Attempt } from "../../core/status.js";
import type { Provider, ProviderContext } from "../../search/provider.js";
import { gemini } from "../../search/providers/gemini.js";
import { geminiCli } from "../../search/providers/gemini-cli.js";
import type { AnswerResult } from "../answer.js";
import { normalEnvelope } from "../envelope.js";
import { routeFailure } from "./route-failure.js";

export type GeminiRoute = "gemini-cli" | "gemini-api";

export const GEMINI_SOURCE_LABEL = "Gemini (model-generated, grounded on Google Search)";

const PROVIDERS: Record<GeminiRoute, Provider> = { "gemini-cli": geminiCli, "gemini-api": gemini };
const SOURCES = 10;

/**
 * Gemini answers with Google Search grounding. The answer is a model's text, so the envelope labels it as
 * model-generated and lists the grounding links as sources. An answer without grounding links is model memory,
 * not a search: like any failure (CLI missing, login expired, quota, timeout) it falls through.
 */
export async function geminiRoute(
  kind: GeminiRoute,
  query: string,
  ctx: ProviderContext,
  deadline: Deadline,
  options: { sourcesApart?: boolean } = {},
): Promise<AnswerResult> {
  const provider = PROVIDERS[kind];
  const started = Date.now();
  const outcome = await provider.search({ query, limit: SOURCES }, ctx, deadline).catch((err: unknown) => ({
    status: "error" as const,
    code: "internal",
    message: `${provider.name} failed: ${errorLine(err)}`,
  }));
  const attempt = (status: Attempt["status"], extra: Partial<Attempt> = {}): Attempt => ({
    provider: provider.name,
    status,
    ms: Date.now() - started,
    ...extra,
  });
  if (outcome.status === "empty")
    return routeFailure(query, [
      attempt("empty", { error: `${provider.name} answered without grounding sources` }),
    ]);
  if (outcome.status !== "ok")
    return routeFailure(query, [attempt(outcome.status, { error: outcome.message })]);
  if (!outcome.answer?.text.trim() || outcome.hits.length === 0)
    return routeFailure(query, [attempt("empty", { error: `${provider.name} gave no grounded answer` })]);
  // A model's answer is no page: its grounding links are listed as searched, not read, in the model's own
  // order, which its text cites.
  const sources = outcome.hits.map((h, i) => ({ n: i + 1, title: h.title, url: h.url, read: false }));
  const lookedUpAt = new Date();
  // The CLI lists its sources under the answer; the envelope lists them itself (or keeps them apart).
  const text = outcome.answer.text.split(/^\s*\**Sources:?\**\s*$/im)[0].trim();
  return {
    status: "ok",
    envelope: normalEnvelope({
      query,
      sourcesApart: options.sourcesApart,
      lookedUpAt,
      instant: { text, source: GEMINI_SOURCE_LABEL, modelGenerated: true },
      sources,
    }),
    sources,
    lookedUpAt: lookedUpAt.toISOString(),
    attempts: [attempt("ok", { count: sources.length })],
    provider: provider.name,
  };
}

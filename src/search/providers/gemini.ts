import type { Deadline } from "../../core/deadline.js";
import { optionalLine } from "../../core/one-line.js";
import type { Failure } from "../../core/status.js";
import type { Net, NetResponse } from "../../net/client.js";
import {
  badResponse,
  httpFailure,
  scrubbedLog,
  transportFailure,
  withoutSecrets,
} from "../../provider-http/http-errors.js";
import type { Provider, ProviderAnswer, ProviderHit, ProviderOutcome } from "../provider.js";

const API = "https://generativelanguage.googleapis.com/v1beta/models";
export const DEFAULT_GEMINI_MODEL = "gemini-2.5-flash";
const REDIRECT_PREFIX = "https://vertexaisearch.cloud.google.com/grounding-api-redirect/";
/** Resolving redirect links is a courtesy: it may not eat the whole budget. */
const RESOLVE_MAX_MS = 2500;
const RESOLVE_MIN_MS = 200;

export const gemini: Provider = {
  name: "gemini",
  kind: "model",
  paid: true,
  keyEnv: ["GEMINI_API_KEY", "GOOGLE_API_KEY"],
  native: {},
  budgetMs: 10_000,
  configured: (env) => Boolean(geminiKey(env)),
  async search(query, ctx, deadline) {
    const key = geminiKey(ctx.env);
    if (!key)
      return {
        status: "disabled",
        code: "no_key",
        message: "gemini: neither GEMINI_API_KEY nor GOOGLE_API_KEY is set",
      };
    const model = ctx.env.GEMINI_MODEL?.trim() || DEFAULT_GEMINI_MODEL;
    // The model name lands in the URL path.
    if (!/^[\w.-]+$/.test(model))
      return {
        status: "error",
        code: "bad_config",
        message: "gemini: GEMINI_MODEL is not a valid model name",
      };
    const res = await ctx.net.request(`${API}/${model}:generateContent`, {
      deadline,
      method: "POST",
      headers: { "x-goog-api-key": key, "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(geminiRequest(query.query)),
    });
    if (!res.ok) return withoutSecrets(transportFailure("gemini", res), [key]);
    if (res.status !== 200) return withoutSecrets(geminiFailure(res), [key]);
    const body = res.json();
    if (body === undefined) return badResponse("gemini", "a body that is not JSON");
    const parsed = parseGeminiResponse(body, query.limit);
    if (parsed.status !== "ok") return withoutSecrets(parsed, [key]);
    const log = scrubbedLog(ctx.log, [key]);
    const hits = await resolveGroundingRedirects(parsed.hits, ctx.net, deadline, log);
    return withoutSecrets({ ...parsed, hits }, [key]);
  },
};

function geminiKey(env: Record<string, string | undefined>): string | undefined {
  return env.GEMINI_API_KEY || env.GOOGLE_API_KEY || undefined;
}

export function geminiRequest(query: string): Record<string, unknown> {
  return {
    contents: [{ role: "user", parts: [{ text: query }] }],
    tools: [{ google_search: {} }],
    systemInstruction: {
      parts: [{ text: "Search the web with Google Search and answer concisely from what you find." }],
    },
  };
}

interface Candidate {
  content?: { parts?: { text?: unknown; thought?: unknown }[] };
  finishReason?: unknown;
  groundingMetadata?: {
    groundingChunks?: { web?: { uri?: unknown; title?: unknown } }[];
    groundingSupports?: { segment?: { text?: unknown }; groundingChunkIndices?: unknown }[];
  };
}

export function parseGeminiResponse(body: unknown, limit = 20): ProviderOutcome {
  const candidates = (body as { candidates?: unknown } | null)?.candidates;
  if (!Array.isArray(candidates)) {
    const blocked = (body as { promptFeedback?: { blockReason?: unknown } } | null)?.promptFeedback
      ?.blockReason;
    if (typeof blocked === "string")
      // About this query, not the provider's health: an error, so the chain does not cool gemini down.
      return { status: "error", code: "prompt_blocked", message: `gemini refused the prompt (${blocked})` };
    return badResponse("gemini", "JSON without candidates");
  }
  const candidate = (candidates[0] ?? {}) as Candidate;
  const text = (candidate.content?.parts ?? [])
    .filter((p) => typeof p?.text === "string" && p.thought !== true)
    .map((p) => p.text as string)
    .join("")
    .trim();
  const answer: ProviderAnswer | undefined = text
    ? { text, kind: "model", modelGenerated: true, source: "gemini (Google Search grounding)" }
    : undefined;
  const grounding = candidate.groundingMetadata;
  const chunks = Array.isArray(grounding?.groundingChunks) ? grounding.groundingChunks : [];
  const supports = Array.isArray(grounding?.groundingSupports) ? grounding.groundingSupports : [];
  const hits: ProviderHit[] = [];
  const seen = new Set<string>();
  chunks.forEach((chunk, index) => {
    const uri = chunk?.web?.uri;
    if (typeof uri !== "string") return;
    const url = absoluteHttpUrl(uri);
    if (!url || seen.has(url)) return;
    seen.add(url);
    // web.title is usually the source's domain, not its page title.
    hits.push({
      title: optionalLine(chunk.web?.title, 200) ?? new URL(url).hostname,
      url,
      snippet: supportedText(supports, index),
    });
  });
  if (hits.length > 0) return { status: "ok", hits: hits.slice(0, limit), ...(answer ? { answer } : {}) };
  // Search can run and still return no groundingMetadata (seen live in 2026): an answer without sources.
  return {
    status: "empty",
    ...(answer ? { answer, note: "gemini answered without grounding sources" } : {}),
  };
}

/** The answer's sentences that Gemini says this chunk supports. */
function supportedText(
  supports: NonNullable<Candidate["groundingMetadata"]>["groundingSupports"],
  index: number,
): string {
  const texts = (supports ?? [])
    .filter((s) => Array.isArray(s?.groundingChunkIndices) && s.groundingChunkIndices.includes(index))
    .map((s) => (typeof s.segment?.text === "string" ? s.segment.text.replace(/\*\*|__/g, "") : ""))
    .filter(Boolean);
  return optionalLine(texts.join(" "), 300) ?? "";
}

function absoluteHttpUrl(raw: string): string | undefined {
  try {
    const u = new URL(raw);
    return u.protocol === "http:" || u.protocol === "https:" ? u.href : undefined;
  } catch {
    return undefined;
  }
}

export function isGroundingRedirect(url: string): boolean {
  return url.startsWith(REDIRECT_PREFIX);
}

/**
 * Grounding links are Google redirectors that expire: read each one's Location without following it (the
 * target is not fetched), all in parallel within a slice of the deadline. A link that cannot be resolved is
 * kept, labelled as a redirect in its title.
 */
export async function resolveGroundingRedirects(
  hits: ProviderHit[],
  net: Net,
  deadline: Deadline,
  log: (message: string) => void,
): Promise<ProviderHit[]> {
  if (!hits.some((h) => isGroundingRedirect(h.url))) return hits;
  const budget = Math.min(RESOLVE_MAX_MS, deadline.remaining());
  const slice = budget >= RESOLVE_MIN_MS ? deadline.child(budget) : undefined;
  let failed = 0;
  const resolved = await Promise.all(
    hits.map(async (hit) => {
      if (!isGroundingRedirect(hit.url)) return hit;
      const target = slice ? await redirectTarget(hit.url, net, slice) : undefined;
      if (target) return { ...hit, url: target };
      failed++;
      return { ...hit, title: `${hit.title} (unresolved Google redirect link)` };
    }),
  );
  slice?.abort();
  if (failed > 0)
    log(`gemini: ${failed} grounding redirect link(s) could not be resolved; kept as redirects`);
  return resolved;
}

async function redirectTarget(url: string, net: Net, deadline: Deadline): Promise<string | undefined> {
  const res = await net.request(url, { deadline, method: "HEAD", followRedirects: false });
  if (!res.ok || res.status < 300 || res.status >= 400 || !res.headers.location) return undefined;
  try {
    const target = absoluteHttpUrl(new URL(res.headers.location, url).href);
    return target && !isGroundingRedirect(target) ? target : undefined;
  } catch {
    return undefined;
  }
}

interface GoogleError {
  code?: unknown;
  message?: unknown;
  status?: unknown;
  details?: {
    "@type"?: unknown;
    retryDelay?: unknown;
    reason?: unknown;
    violations?: { quotaId?: unknown }[];
  }[];
}

export function geminiFailure(res: NetResponse): Failure {
  const error = res.json<{ error?: GoogleError }>()?.error;
  const details = Array.isArray(error?.details) ? error.details : [];
  const detail = optionalLine(error?.message, 200);
  const keyInvalid =
    details.some((d) => d?.reason === "API_KEY_INVALID") || /api key not valid/i.test(detail ?? "");
  if (res.status === 403 || keyInvalid)
    return { status: "error", code: "key_rejected", message: `gemini: key rejected (HTTP ${res.status})` };
  if (res.status === 429) {
    const retryAfter = retryDelaySeconds(details);
    const quotaIds = details
      .flatMap((d) => (Array.isArray(d?.violations) ? d.violations : []))
      .map((v) => String(v?.quotaId ?? ""));
    // A per-day quota will not come back within minutes; a per-minute one will.
    const daily = quotaIds.some((id) => /PerDay/i.test(id));
    const message = `gemini: ${daily ? "daily quota exhausted" : "rate limited"} (${String(error?.status ?? "RESOURCE_EXHAUSTED")})${retryAfter !== undefined ? `; retry in ${retryAfter}s` : ""}`;
    return {
      status: daily ? "quota" : "rate_limited",
      code: daily ? "quota" : "rate_limited",
      message,
      ...(retryAfter !== undefined ? { retryAfter } : {}),
    };
  }
  return httpFailure("gemini", res, detail);
}

function retryDelaySeconds(details: NonNullable<GoogleError["details"]>): number | undefined {
  for (const d of details) {
    if (typeof d?.retryDelay !== "string") continue;
    const m = /^(\d+(?:\.\d+)?)s$/.exec(d.retryDelay.trim());
    if (m) return Math.ceil(Number(m[1]));
  }
  return undefined;
}

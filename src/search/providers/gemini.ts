import type { z } from "zod";
import type { Deadline } from "../../core/deadline.js";
import { lazySchema } from "../../core/lazy-zod.js";
import { optionalLine } from "../../core/one-line.js";
import type { Failure } from "../../core/status.js";
import type { Net, NetResponse } from "../../net/client.js";
import { badResponse, httpFailure, scrubbedLog } from "../../provider-http/http-errors.js";
import { anyField, entriesOf, maybe, maybeListOf, maybeText } from "../../provider-http/json-fields.js";
import { keyedJson } from "../../provider-http/keyed-json.js";
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
  timeoutMs: 10_000,
  async search(query, ctx, deadline) {
    const model = ctx.config.search.geminiModel || DEFAULT_GEMINI_MODEL;
    const log = scrubbedLog(
      ctx.log,
      (gemini.keyEnv ?? []).map((name) => ctx.config.keys[name]),
    );
    const answer = await keyedJson(
      {
        provider: "gemini",
        keyEnv: gemini.keyEnv,
        url: `${API}/${model}:generateContent`,
        method: "POST",
        headers: (key) => ({
          "x-goog-api-key": key ?? "",
          "content-type": "application/json",
          accept: "application/json",
        }),
        body: geminiRequest(query.query),
        // The model name lands in the URL path.
        before: () =>
          /^[\w.-]+$/.test(model)
            ? undefined
            : {
                status: "error",
                code: "bad_config",
                message: "gemini: GEMINI_MODEL is not a valid model name",
              },
        failure: geminiFailure,
      },
      ctx,
      deadline,
      async (body) => {
        const parsed = parseGeminiResponse(body, query.limit);
        if (parsed.status !== "ok") return parsed;
        return { ...parsed, hits: await resolveGroundingRedirects(parsed.hits, ctx.net, deadline, log) };
      },
    );
    return answer.ok ? answer.value : answer.failure;
  },
};

export function geminiRequest(query: string): Record<string, unknown> {
  return {
    contents: [{ role: "user", parts: [{ text: query }] }],
    tools: [{ google_search: {} }],
    systemInstruction: {
      parts: [{ text: "Search the web with Google Search and answer concisely from what you find." }],
    },
  };
}

const Support = lazySchema((z) =>
  z.object({
    segment: maybe(z.object({ text: maybeText() })),
    groundingChunkIndices: maybe(z.array(z.unknown())),
  }),
);
type Support = z.output<ReturnType<typeof Support>>;
const Candidate = lazySchema((z) =>
  z.object({
    content: maybe(z.object({ parts: maybeListOf(z.object({ text: z.string(), thought: anyField() })) })),
    groundingMetadata: maybe(
      z.object({
        // Positions count: a support names its chunks by index.
        groundingChunks: maybe(
          entriesOf(z.object({ web: maybe(z.object({ uri: maybeText(), title: maybeText() })) })),
        ),
        groundingSupports: maybeListOf(Support()),
      }),
    ),
  }),
);
const GeminiResponse = lazySchema((z) =>
  z.object({
    candidates: maybe(entriesOf(Candidate())),
    promptFeedback: maybe(z.object({ blockReason: maybeText() })),
  }),
);

export function parseGeminiResponse(body: unknown, limit = 20): ProviderOutcome {
  const b = GeminiResponse().safeParse(body).data;
  const candidates = b?.candidates;
  if (!candidates) {
    const blocked = b?.promptFeedback?.blockReason;
    if (blocked !== undefined)
      // About this query, not the provider's health: an error, so the chain does not cool gemini down.
      return { status: "error", code: "prompt_blocked", message: `gemini refused the prompt (${blocked})` };
    return badResponse("gemini", "JSON without candidates");
  }
  const candidate = candidates[0] ?? {};
  const text = (candidate.content?.parts ?? [])
    .filter((p) => p.thought !== true)
    .map((p) => p.text)
    .join("")
    .trim();
  const answer: ProviderAnswer | undefined = text
    ? { text, kind: "model", modelGenerated: true, source: "gemini (Google Search grounding)" }
    : undefined;
  const grounding = candidate.groundingMetadata;
  const chunks = grounding?.groundingChunks ?? [];
  const supports = grounding?.groundingSupports ?? [];
  const hits: ProviderHit[] = [];
  const seen = new Set<string>();
  chunks.forEach((chunk, index) => {
    const uri = chunk?.web?.uri;
    if (uri === undefined) return;
    const url = absoluteHttpUrl(uri);
    if (!url || seen.has(url)) return;
    seen.add(url);
    // web.title is usually the source's domain, not its page title.
    hits.push({
      title: optionalLine(chunk?.web?.title, 200) ?? new URL(url).hostname,
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
function supportedText(supports: Support[], index: number): string {
  const texts = supports
    .filter((s) => s.groundingChunkIndices?.includes(index))
    .map((s) => s.segment?.text?.replace(/\*\*|__/g, "") ?? "")
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

const GoogleDetail = lazySchema((z) =>
  z.object({
    retryDelay: maybeText(),
    reason: anyField(),
    violations: maybeListOf(z.object({ quotaId: anyField() })),
  }),
);
const GoogleError = lazySchema((z) =>
  z.object({
    error: maybe(z.object({ message: anyField(), status: anyField(), details: maybeListOf(GoogleDetail()) })),
  }),
);

export function geminiFailure(res: NetResponse): Failure {
  const error = GoogleError().safeParse(res.json()).data?.error;
  const details = error?.details ?? [];
  const detail = optionalLine(error?.message, 200);
  const keyInvalid =
    details.some((d) => d.reason === "API_KEY_INVALID") || /api key not valid/i.test(detail ?? "");
  if (res.status === 403 || keyInvalid)
    return { status: "error", code: "key_rejected", message: `gemini: key rejected (HTTP ${res.status})` };
  if (res.status === 429) {
    const retryAfter = retryDelaySeconds(details);
    const quotaIds = details.flatMap((d) => d.violations).map((v) => String(v.quotaId ?? ""));
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

function retryDelaySeconds(details: z.output<ReturnType<typeof GoogleDetail>>[]): number | undefined {
  for (const d of details) {
    if (d.retryDelay === undefined) continue;
    const m = /^(\d+(?:\.\d+)?)s$/.exec(d.retryDelay.trim());
    if (m) return Math.ceil(Number(m[1]));
  }
  return undefined;
}

import { maskedValue, type ResolvedConfig } from "../config/load.js";
import type { Settings } from "../config/settings.js";
import { Deadline } from "../core/deadline.js";
import type { Failure, Status } from "../core/status.js";
import { proxyFor } from "../net/proxy.js";
import { CHROMIUM_PATH, chromiumAvailable } from "../read/guarded-browser.js";
import { unreachable } from "../search/failure-summary.js";
import {
  type Provider,
  type ProviderContext,
  type ProviderOutcome,
  providerConfigured,
  providerContext,
  providerTimeoutMs,
} from "../search/provider.js";
import { recordFailure, suspendedUntil } from "../search/suspension.js";
import type { Websift } from "../websift.js";

export interface ProviderHealth {
  name: string;
  configured: boolean;
  paid: boolean;
  /** Paid and not unfrozen: `auto` never calls it. */
  frozen: boolean;
  /** ISO time until which the provider (or a DuckDuckGo region) is left alone. */
  coolingUntil?: string;
  coolingReason?: string;
}

export interface DoctorReport {
  online: boolean | "unknown";
  duckduckgo: { status: Status; ms: number; detail: string };
  providers: ProviderHealth[];
  searxng: { configured: false } | { configured: true; url: string; answersJson: boolean; detail: string };
  proxy: { inUse: false } | { inUse: true; via: string };
  chromium: { available: boolean; path: string };
  /** Where caches, cooldowns and rate limits live; degraded when Redis or the state file is unavailable. */
  store: { backend: string; degraded: boolean; reason?: string };
  config: { file?: string; settings: { key: string; env: string; value: string; source: string }[] };
  /** `--live`: one canary query per keyless engine. */
  live?: { query: string; engines: EngineCanary[] };
}

/** What one keyless engine did with the canary query. */
export type CanaryVerdict = "answered" | "challenged" | "layout_unrecognised" | "unreachable" | "failed";

export interface EngineCanary {
  engine: string;
  verdict: CanaryVerdict;
  status: Status;
  ms: number;
  /** Results found, or the engine's failure in one line. */
  detail: string;
}

/** Every keyless engine has pages for it (recorded fixtures too), so "no results" would itself be news. */
export const CANARY_QUERY = "javascript tutorial";
const CANARY_MS = 10_000;

export interface DiagnoseOptions {
  /** Ask every keyless engine one canary query (`websift doctor --live`). */
  live?: boolean;
  /** Provider settings for the canaries beside the config file's (tests: a short DuckDuckGo retry delay). */
  settings?: Record<string, unknown>;
}

/**
 * What `websift doctor` reports: one real DuckDuckGo request (the commonest trouble is being challenged), the
 * health memory of every provider, SearXNG's JSON output, proxy and Chromium, and the resolved settings with
 * secrets shown only as set or unset.
 */
export async function diagnose(
  websift: Websift,
  config: ResolvedConfig,
  options: DiagnoseOptions = {},
): Promise<DoctorReport> {
  const settings = config.values;
  const engines = options.live ? await liveCanaries(websift, config, options.settings) : undefined;
  // With the canaries, DuckDuckGo's is the one request made to it: a second one only risks a challenge.
  const ddgCanary = engines?.find((e) => e.engine === "duckduckgo");
  const ddg = ddgCanary
    ? { status: ddgCanary.status, ms: ddgCanary.ms, detail: ddgCanary.detail }
    : await probe(websift, "duckduckgo");
  const online: DoctorReport["online"] =
    ddg.status === "offline" || (engines?.length && engines.every((e) => e.verdict === "unreachable"))
      ? false
      : ["ok", "empty", "blocked", "rate_limited"].includes(ddg.status)
        ? true
        : "unknown";

  const searxngUrl = settings.search.searxngUrl;
  let searxng: DoctorReport["searxng"] = { configured: false };
  if (searxngUrl) {
    const s = await probe(websift, "searxng");
    searxng = {
      configured: true,
      url: searxngUrl,
      answersJson: s.status === "ok" || s.status === "empty",
      detail: s.detail,
    };
  }

  const proxy = proxyFor(new URL("https://html.duckduckgo.com/"), settings.net);
  const storeStatus = (websift.store as { status?: () => DoctorReport["store"] }).status?.() ?? {
    backend: websift.store.kind,
    degraded: false,
  };
  return {
    store: storeStatus,
    online,
    duckduckgo: ddg,
    providers: await providerHealth(websift, settings),
    searxng,
    proxy: proxy ? { inUse: true, via: withoutPassword(proxy) } : { inUse: false },
    chromium: { available: chromiumAvailable(), path: CHROMIUM_PATH },
    ...(engines ? { live: { query: CANARY_QUERY, engines } } : {}),
    config: {
      file: config.file,
      settings: config.settings
        .filter((s) => s.value !== undefined)
        .map((s) => ({ key: s.key, env: s.env, value: maskedValue(s), source: s.source })),
    },
  };
}

async function probe(websift: Websift, provider: string): Promise<DoctorReport["duckduckgo"]> {
  const t0 = Date.now();
  const r = await websift.search("weather", { provider, limit: 1, cache: false, timeoutMs: 10_000 });
  const detail = r.status === "ok" ? `${r.results.length} result(s)` : (r.error ?? r.status);
  return { status: r.status, ms: Date.now() - t0, detail };
}

/**
 * One canary query to every keyless engine at once, straight to the engine rather than through the chain: a
 * canary asks even an engine the chain is resting. What it learns (a challenge, a rate limit) is written to the
 * health memory like any search's, so the next searches honour it.
 */
export async function liveCanaries(
  websift: Websift,
  config: ResolvedConfig,
  settings: Record<string, unknown> = {},
): Promise<EngineCanary[]> {
  const ctx = providerContext({
    net: websift.net,
    config: config.values,
    store: websift.store,
    log: () => {},
    settings: { ...config.values.search.tuning, ...settings },
  });
  const engines = websift.providers.filter(
    (p) => p.kind === "keyless" && providerConfigured(p, config.values),
  );
  return Promise.all(engines.map((p) => canary(p, ctx)));
}

async function canary(provider: Provider, ctx: ProviderContext): Promise<EngineCanary> {
  const t0 = Date.now();
  const deadline = Deadline.after(Math.min(CANARY_MS, providerTimeoutMs(provider) + 1000));
  const outcome: ProviderOutcome = await provider
    .search({ query: CANARY_QUERY, limit: 5 }, ctx, deadline)
    .catch((err) => ({
      status: "error" as const,
      code: "provider_error",
      message: `${provider.name} failed unexpectedly: ${err instanceof Error ? err.message : String(err)}`,
    }));
  deadline.abort();
  const ms = Date.now() - t0;
  if (outcome.status === "ok" || outcome.status === "empty") {
    const found = outcome.status === "ok" ? outcome.hits.length : 0;
    const detail = found
      ? `${found} result(s)`
      : "answer" in outcome && outcome.answer
        ? "an answer, no results"
        : "no results";
    return { engine: provider.name, verdict: "answered", status: outcome.status, ms, detail };
  }
  if (provider.cooldowns !== "self") await recordFailure(ctx.store, provider.name, outcome);
  return {
    engine: provider.name,
    verdict: verdictOf(outcome),
    status: outcome.status,
    ms,
    detail: outcome.message,
  };
}

function verdictOf(failure: Failure): CanaryVerdict {
  if (["blocked", "rate_limited", "quota"].includes(failure.status)) return "challenged";
  if (failure.status === "error" && failure.code === "unknown_page") return "layout_unrecognised";
  if (failure.status === "offline" || failure.status === "timeout" || unreachable(failure.code))
    return "unreachable";
  return "failed";
}

const VERDICT_TEXT: Record<CanaryVerdict, string> = {
  answered: "answered",
  challenged: "challenged",
  layout_unrecognised: "layout unrecognised",
  unreachable: "unreachable",
  failed: "failed",
};

/** Every provider: configured, paid and frozen, and until when it (or a DuckDuckGo region) is cooling down. */
export async function providerHealth(websift: Websift, settings: Settings): Promise<ProviderHealth[]> {
  const unfrozen = settings.search.enablePaid;
  const out: ProviderHealth[] = [];
  for (const p of websift.providers) {
    const health: ProviderHealth = {
      name: p.name,
      configured: providerConfigured(p, settings),
      paid: p.paid,
      frozen: p.paid && !unfrozen,
    };
    const suspension = await suspendedUntil(websift.store, p.name);
    if (suspension) {
      health.coolingUntil = new Date(suspension.until).toISOString();
      health.coolingReason = suspension.reason;
    } else {
      const own = await p.coolingOf?.(websift.store);
      if (own) {
        health.coolingUntil = new Date(own.until).toISOString();
        health.coolingReason = own.reason;
      }
    }
    out.push(health);
  }
  return out;
}

function withoutPassword(proxy: string): string {
  try {
    const u = new URL(proxy);
    if (u.password) u.password = "****";
    return u.toString();
  } catch {
    return "(unparseable proxy URL)";
  }
}

/** A few lines for people. */
export function doctorText(r: DoctorReport): string {
  const yes = (b: boolean) => (b ? "yes" : "no");
  const ddgLine =
    r.duckduckgo.status === "ok" || r.duckduckgo.status === "empty"
      ? `answers (${r.duckduckgo.detail}, ${r.duckduckgo.ms} ms)`
      : r.duckduckgo.status === "blocked" || r.duckduckgo.status === "rate_limited"
        ? `challenges us (${r.duckduckgo.detail}); other keyless engines are asked instead`
        : `${r.duckduckgo.status}: ${r.duckduckgo.detail}`;
  const configured = r.providers.filter((p) => p.configured && !p.frozen).map((p) => p.name);
  const frozen = r.providers.filter((p) => p.configured && p.frozen).map((p) => p.name);
  const cooling = r.providers
    .filter((p) => p.coolingUntil)
    .map((p) => `${p.name} until ${p.coolingUntil} (${p.coolingReason})`);
  const lines = [
    `online:     ${r.online === "unknown" ? "unknown" : yes(r.online)}`,
    `duckduckgo: ${ddgLine}`,
    `providers:  ${configured.join(", ") || "none"}`,
    `frozen:     ${frozen.length ? `${frozen.join(", ")} (paid; WEBSIFT_ENABLE_PAID=1 or pin one to use it)` : "none"}`,
    `cooling:    ${cooling.join("; ") || "none"}`,
    `searxng:    ${
      r.searxng.configured
        ? `${r.searxng.url} ${r.searxng.answersJson ? "answers JSON" : `does not answer JSON: ${r.searxng.detail}`}`
        : "not configured (SEARXNG_URL)"
    }`,
    `proxy:      ${r.proxy.inUse ? r.proxy.via : "none"}`,
    `chromium:   ${r.chromium.available ? `available (${r.chromium.path})` : `not found at ${r.chromium.path}; pages that need JavaScript cannot be rendered`}`,
    `store:      ${r.store.backend}${r.store.degraded ? ` (degraded: ${r.store.reason ?? "unavailable"}; working on a local fallback)` : ""}`,
    `config:     ${r.config.file ?? "no config file"}`,
    ...r.config.settings.map((s) => `  ${s.key} = ${s.value} (${s.source === "env" ? s.env : s.source})`),
  ];
  if (r.live) {
    const width = Math.max(...r.live.engines.map((e) => e.engine.length));
    lines.push(
      `live:       one canary query per keyless engine ('${r.live.query}')`,
      ...r.live.engines.map(
        (e) =>
          `  ${e.engine.padEnd(width)}  ${VERDICT_TEXT[e.verdict]}${e.verdict === "answered" ? ` (${e.detail}, ${e.ms} ms)` : `: ${e.detail}`}`,
      ),
    );
  }
  return lines.join("\n");
}

import type { Status } from "../core/status.js";
import { proxyEnvFrom, proxyFor } from "../net/proxy.js";
import { CHROMIUM_PATH, chromiumAvailable } from "../read/guarded-browser.js";
import { paidUnfrozen } from "../search/chain.js";
import { DDG_FALLBACK_REGIONS, ddgCooldownKey } from "../search/providers/duckduckgo.js";
import { suspendedUntil } from "../search/suspension.js";
import type { Websift } from "../websift.js";
import { maskedValue, type ResolvedConfig } from "./load.js";

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
}

/**
 * What `websift doctor` reports: one real DuckDuckGo request (the commonest trouble is being challenged), the
 * health memory of every provider, SearXNG's JSON output, proxy and Chromium, and the resolved settings with
 * secrets shown only as set or unset.
 */
export async function diagnose(websift: Websift, config: ResolvedConfig): Promise<DoctorReport> {
  const env = config.env;
  const ddg = await probe(websift, "duckduckgo");
  const online: DoctorReport["online"] =
    ddg.status === "offline"
      ? false
      : ["ok", "empty", "blocked", "rate_limited"].includes(ddg.status)
        ? true
        : "unknown";

  const searxngUrl = env.SEARXNG_URL;
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

  const proxy = proxyFor(new URL("https://html.duckduckgo.com/"), proxyEnvFrom(env));
  const storeStatus = (websift.store as { status?: () => DoctorReport["store"] }).status?.() ?? {
    backend: websift.store.kind,
    degraded: false,
  };
  return {
    store: storeStatus,
    online,
    duckduckgo: ddg,
    providers: await providerHealth(websift, env),
    searxng,
    proxy: proxy ? { inUse: true, via: withoutPassword(proxy) } : { inUse: false },
    chromium: { available: chromiumAvailable(), path: CHROMIUM_PATH },
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

/** Every provider: configured, paid and frozen, and until when it (or a DuckDuckGo region) is cooling down. */
export async function providerHealth(
  websift: Websift,
  env: Record<string, string | undefined>,
): Promise<ProviderHealth[]> {
  const unfrozen = paidUnfrozen(env);
  const out: ProviderHealth[] = [];
  for (const p of websift.providers) {
    const health: ProviderHealth = {
      name: p.name,
      configured: p.configured(env),
      paid: p.paid,
      frozen: p.paid && !unfrozen,
    };
    const suspension = await suspendedUntil(websift.store, p.name);
    if (suspension) {
      health.coolingUntil = new Date(suspension.until).toISOString();
      health.coolingReason = suspension.reason;
    } else if (p.name === "duckduckgo") {
      const regions: string[] = [];
      let latest = 0;
      for (const region of new Set(["us-en", ...DDG_FALLBACK_REGIONS])) {
        const c = await websift.store.get<{ until: number }>(ddgCooldownKey(region));
        if (c && c.until > Date.now()) {
          regions.push(region);
          latest = Math.max(latest, c.until);
        }
      }
      if (regions.length) {
        health.coolingUntil = new Date(latest).toISOString();
        health.coolingReason = `challenged in ${regions.join(", ")}`;
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
  return lines.join("\n");
}

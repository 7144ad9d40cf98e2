import type { Settings } from "../config/settings.js";
import type { Deadline } from "../core/deadline.js";
import { warnDeprecated, warnRenamedOption } from "../core/deprecation.js";
import type { Failure } from "../core/status.js";
import type { Net } from "../net/client.js";
import type { Store } from "../store/store.js";

export type SafeSearch = "off" | "moderate" | "strict";
export type TimeRange = "d" | "w" | "m" | "y";

/** What a provider is asked. The chain has already validated and defaulted every field. */
export interface ProviderQuery {
  query: string;
  limit: number;
  /** DuckDuckGo-style region code, e.g. "us-en", "de-de"; undefined = no preference. */
  region?: string;
  /** ISO 639-1 language code, e.g. "en", "de". */
  language?: string;
  safesearch?: SafeSearch;
  timeRange?: TimeRange;
  /** Restrict to these domains (and their subdomains) where the provider can do it natively. */
  includeDomains?: string[];
}

export interface ProviderHit {
  title: string;
  url: string;
  snippet: string;
  /** ISO date when the engine shows one. */
  date?: string;
}

/** A short direct answer: an instant answer (authoritative) or a model's synthesis (labelled as such). */
export interface ProviderAnswer {
  text: string;
  source?: string;
  url?: string;
  kind: "abstract" | "answer" | "definition" | "summary" | "model";
  /** True when a language model wrote it (Perplexity, Gemini): the caller must say so. */
  modelGenerated: boolean;
}

export type ProviderOutcome =
  | { status: "ok"; hits: ProviderHit[]; answer?: ProviderAnswer }
  | { status: "empty"; answer?: ProviderAnswer; note?: string }
  | Failure;

/** What a provider may use: the guarded client, the settings (its key in `config.keys`), the store, a logger. */
export interface ProviderContext {
  net: Net;
  /** The typed settings, loaded once (`config.keys` by the variables providers declare in `keyEnv`). */
  config: Settings;
  /** @deprecated Read `config` (a key: `config.keys[name]`); the variables as loaded, for one minor version. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  store: Store;
  /** Operator log line (stderr); never include a key or the user's query in full. */
  log(message: string): void;
  /** Overrides of provider settings from config (e.g. ddg region delay, brave rate). */
  settings: Record<string, unknown>;
}

/**
 * Where `auto` asks a provider. Lower ranks are asked first; a paid provider is asked only once paid use is
 * unfrozen. Providers of one `group` stand in for one another and form one stage at the rank of its lowest
 * member: its `lead` is asked alone, and the others (by rank, in parallel) only when the lead fails or is thin.
 */
export interface AutoPlace {
  rank: number;
  group?: string;
  /** Asked before the rest of its group; fewer results than `thinBelow` (or than asked for) and they are asked too. */
  lead?: { thinBelow: number };
}

export interface Provider {
  name: string;
  kind: "keyless" | "keyed" | "self-hosted" | "browser" | "model";
  /** Costs money per call: frozen in `auto` unless WEBSIFT_ENABLE_PAID=1. */
  paid: boolean;
  /** Its place in `auto`; without one it runs only when pinned (or called by name, like the instant answer). */
  auto?: AutoPlace;
  /** The variables that configure it (any one of them), named when it is pinned but not configured. */
  keyEnv?: readonly string[];
  /** What configures it when that is not a variable ("the gemini command on PATH"). */
  needs?: string;
  /** Options the provider applies itself; the chain post-filters the rest. */
  native: {
    region?: boolean;
    language?: boolean;
    safesearch?: boolean;
    timeRange?: boolean;
    domains?: number;
  };
  /** "self": the provider keeps finer-grained cooldowns itself (DuckDuckGo per region); the chain does not suspend it. */
  cooldowns?: "self";
  /** With `cooldowns: "self"`: until when its own cooldowns rest it, and why (for `doctor`); undefined when none do. */
  coolingOf?(store: Store): Promise<{ until: number; reason: string } | undefined>;
  /**
   * A scraped engine's hosts (exact names, or `*.suffix` for one label under it): its requests, their redirects
   * and their final URLs are held to them, so no other site's page is ever parsed as its results.
   */
  hosts?: readonly string[];
  /**
   * Store keys its search reads before its first request (DuckDuckGo's region cooldowns). When it is the first
   * provider a search asks, the chain reads them together with the cache entry: one round trip, not two.
   */
  readsFirst?(query: ProviderQuery): string[];
  /**
   * The cap of its step inside a search's budget, in ms (5 s for APIs, 9 s for scraped engines; 5 s when a
   * custom provider gives none). The operator's `providerTimeoutMs` overrides it by name.
   */
  timeoutMs?: number;
  /** @deprecated The old name of `timeoutMs`; read (with one warning per process) until the next minor version. */
  budgetMs?: number;
  /**
   * Whether it can run with these settings when that is more than one of its `keyEnv` variables being set (a URL
   * that must not be blank, a binary on PATH); without it, `providerConfigured` judges by `keyEnv` alone.
   */
  configured?(settings: Settings): boolean;
  search(query: ProviderQuery, ctx: ProviderContext, deadline: Deadline): Promise<ProviderOutcome>;
}

/** A provider's own step cap in ms: `timeoutMs`, else its deprecated `budgetMs` (said once), else 5 s. */
export function providerTimeoutMs(p: Provider): number {
  if (p.timeoutMs !== undefined) return p.timeoutMs;
  if (p.budgetMs === undefined) return DEFAULT_PROVIDER_TIMEOUT_MS;
  warnRenamedOption("Provider.budgetMs", "Provider.timeoutMs");
  return p.budgetMs;
}
const DEFAULT_PROVIDER_TIMEOUT_MS = 5000;

/**
 * Whether a provider can run: its own `configured` when it has one, else one of its `keyEnv` variables set
 * (a provider that declares none needs nothing).
 */
export function providerConfigured(p: Provider, settings: Settings): boolean {
  if (p.configured) return p.configured(settings);
  return p.keyEnv === undefined || p.keyEnv.some((name) => Boolean(settings.keys[name]));
}

/**
 * A provider context whose deprecated `env` (what custom providers read their keys from) still answers, with
 * one warning per process. It is a getter on the prototype, so building or spreading a context never sets it off;
 * only a read does (a spread copy loses it: rebuild it with `providerContext({ ...ctx, store })`).
 */
export function providerContext(fields: Omit<ProviderContext, "env">): ProviderContext {
  const environment = fields.config.environment;
  const proto = {
    get env() {
      warnDeprecated(
        "ProviderContext.env",
        "websift: ProviderContext.env is deprecated, read ctx.config (a key: ctx.config.keys[name]); it goes in the next minor version",
        "websift-provider-env",
      );
      return environment;
    },
  };
  return Object.assign(Object.create(proto), fields);
}

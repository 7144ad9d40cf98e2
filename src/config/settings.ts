/**
 * websift's configuration as one typed object, nested by concern. The loader (`load.ts`) builds it once from
 * the config file, the environment, `.env` and the caller's options, validated with one schema; everything
 * below reads these fields, never an environment variable.
 */
export interface Settings {
  search: SearchSettings;
  read: ReadSettings;
  /** Provider keys, by the variable each provider declares in `keyEnv` (set and non-empty ones only). */
  keys: Readonly<Record<string, string>>;
  store: StoreSettings;
  llm: LlmSettings;
  browser: BrowserSettings;
  net: NetSettings;
  mcp: McpSettings;
  serve: ServeSettings;
  /** WEBSIFT_DEBUG: provider steps on stderr. */
  debug: boolean;
  /**
   * The variables as loaded (`.env` below the real environment): what a program websift starts inherits (the
   * Gemini CLI). Settings are read from the fields above, never from here.
   */
  environment: Readonly<Record<string, string | undefined>>;
}

/** A call's whole budget when neither the call nor the configuration gives one. */
export const DEFAULT_CALL_TIMEOUT_MS = 20_000;

/** The configured budget of a call in ms (WEBSIFT_TIMEOUT and `timeout` are seconds); undefined when unset. */
export function configuredTimeoutMs(settings: {
  search: Pick<SearchSettings, "timeoutSeconds">;
}): number | undefined {
  const seconds = settings.search.timeoutSeconds;
  return seconds === undefined ? undefined : seconds * 1000;
}

export interface SearchSettings {
  /** WEBSIFT_TIMEOUT / `timeout`: a call's total budget, in seconds (20 when unset). */
  timeoutSeconds?: number;
  /** WEBSIFT_ENABLED / `enabled`: false, no request leaves. */
  enabled: boolean;
  /** WEBSIFT_ENABLE_PAID / `enablePaid`: `auto` and every read may call paid providers. */
  enablePaid: boolean;
  /** WEBSIFT_WIKIPEDIA_FALLBACK / `wikipediaFallback`. */
  wikipediaFallback: boolean;
  /** WEBSIFT_PROVIDER_ORDER / `providerOrder`: asked first by `auto`, in this order. */
  providerOrder?: string[];
  /** `budgets`: per-provider budgets in ms. */
  budgets: Readonly<Record<string, number>>;
  /** `providers` (and BRAVE_RATE_PER_SEC / `braveRatePerSec`): tuning the providers read. */
  tuning: Readonly<Record<string, unknown>>;
  /** SEARXNG_URL / `searxngUrl`, trimmed. */
  searxngUrl?: string;
  /** SEARXNG_ENGINES / `searxngEngines` as given (empty: the instance's own choice). */
  searxngEngines?: string;
  /** GEMINI_MODEL / `geminiModel`, trimmed. */
  geminiModel?: string;
  /** For calls that do not say. */
  defaults: {
    limit?: number;
    safesearch?: "off" | "moderate" | "strict";
    maxChars?: number;
    mode?: "passages" | "cut" | "head-tail";
  };
  /** WEBSIFT_WAIT_SECONDS / `waitSeconds`: a conversation's wait before "pending". */
  waitSeconds?: number;
}

export interface ReadSettings {
  /**
   * WEBSIFT_ROBOTS / `robots`: which reads robots.txt decides. `automated` (default): the reads websift or a model
   * chose (research, answer's pages); `respect`: every read, a user's too; `ignore`: none.
   */
  robots: "respect" | "automated" | "ignore";
}

export interface StoreSettings {
  /** WEBSIFT_STORE, trimmed and lower-cased as given (openStore names a value it does not know). */
  kind?: string;
  /** WEBSIFT_REDIS_URL, trimmed. */
  redisUrl?: string;
  /** The sqlite file: `$XDG_CACHE_HOME/websift/state.db`, else `~/.cache/websift/state.db`. */
  path: string;
}

export interface LlmSettings {
  /** WEBSIFT_LLM_BASE_URL, trimmed: an OpenAI-compatible endpoint; unset, no model. */
  baseUrl?: string;
  /** WEBSIFT_LLM_API_KEY, trimmed. */
  apiKey?: string;
  /** WEBSIFT_LLM_MODEL, trimmed. */
  model?: string;
}

export interface BrowserSettings {
  /** WEBSIFT_BROWSER_ENGINE as given (the browser route names a value it does not know). */
  engine?: string;
  /** WEBSIFT_BROWSER_CDP_URL, trimmed. */
  cdpUrl?: string;
}

export interface NetSettings {
  /** HTTP_PROXY (or http_proxy): carries http, and https when no HTTPS proxy is set. */
  httpProxy?: string;
  /** HTTPS_PROXY (or https_proxy). */
  httpsProxy?: string;
  /** NO_PROXY (or no_proxy, or `noProxy`): hosts reached without the proxy. */
  noProxy?: string;
  /** NODE_EXTRA_CA_CERTS: a PEM file of extra trusted CAs. */
  extraCaCertsFile?: string;
}

export interface McpSettings {
  host?: string;
  port?: number;
  waitSeconds?: number;
  /** WEBSIFT_MCP_TOKEN. */
  token?: string;
  allowedHosts?: string;
  allowedOrigins?: string;
}

export interface ServeSettings {
  host?: string;
  port?: number;
  /** WEBSIFT_SERVE_TOKEN. */
  token?: string;
  /** WEBSIFT_ADMIN_TOKEN. */
  adminToken?: string;
}

/** createWebsift's `enabled`: a value, or a check made on every call (the dashboard's switch). */
export type EnabledSetting = boolean | (() => boolean | Promise<boolean>);

/** The options of createWebsift that configuration supplies (`loadConfig().toWebsiftConfig()`). */
export interface ConfiguredOptions {
  /** The settings themselves; createWebsift reads nothing else from the environment when given them. */
  resolved: Settings;
  providerTimeoutMs?: Record<string, number>;
  settings: Record<string, unknown>;
  timeoutMs?: number;
  enabled: boolean;
  wikipediaFallback: boolean;
  providerOrder?: string[];
  defaults: SearchSettings["defaults"];
}

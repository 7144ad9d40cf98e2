import type { z } from "zod";
import { lazySchema, zod } from "../core/lazy-zod.js";

/**
 * One table for every setting: its name in a config file, the environment variable that overrides it, and
 * whether it is a secret. Secrets (keys, tokens, proxy URLs that may carry a password) are read only from the
 * environment or `.env`: a secret in a config file ends up in dotfile repositories and screenshots.
 */
export interface SettingSpec {
  /** Name in websift.config.json. */
  key: string;
  env: string;
  secret: boolean;
  schema: z.ZodType;
  /** One line for `websift doctor` and docs. */
  about: string;
  /** A switch that is on unless set off (`0`, `false`, `off`, `no`). */
  defaultOn?: boolean;
  /** A switch: `1` or `0` in the environment, true or false in the file. */
  switch?: true;
  /** Read from the environment (or `.env`) only, though not a secret: not a setting of the file. */
  envOnly?: true;
}

/**
 * Every setting websift reads, each once. Built on first use, with the schemas below, not at import: a process
 * that never loads its configuration never loads zod.
 */
export const settingSpecs = lazySchema((z): readonly SettingSpec[] => {
  const seconds = z.number().positive().max(600);
  const boolFlag = z.boolean();
  const url = z.url({ protocol: /^https?$/ });
  const specs: SettingSpec[] = [
    {
      key: "timeout",
      env: "WEBSIFT_TIMEOUT",
      secret: false,
      schema: seconds,
      about: "total budget of one call, seconds",
    },
    {
      key: "enabled",
      env: "WEBSIFT_ENABLED",
      secret: false,
      schema: boolFlag,
      switch: true,
      about: "false: no request leaves",
      defaultOn: true,
    },
    {
      key: "wikipediaFallback",
      env: "WEBSIFT_WIKIPEDIA_FALLBACK",
      secret: false,
      schema: boolFlag,
      switch: true,
      about: "false: Wikipedia is never searched (reading a Wikipedia page still works)",
      defaultOn: true,
    },
    {
      key: "enablePaid",
      env: "WEBSIFT_ENABLE_PAID",
      secret: false,
      schema: boolFlag,
      switch: true,
      about: "auto may call paid providers",
    },
    {
      key: "debug",
      env: "WEBSIFT_DEBUG",
      secret: false,
      schema: boolFlag,
      switch: true,
      about: "log provider steps to stderr",
    },
    { key: "searxngUrl", env: "SEARXNG_URL", secret: false, schema: url, about: "your SearXNG instance" },
    {
      key: "searxngEngines",
      env: "SEARXNG_ENGINES",
      secret: false,
      schema: z.string(),
      about: "engines asked on SearXNG",
    },
    {
      key: "braveRatePerSec",
      env: "BRAVE_RATE_PER_SEC",
      secret: false,
      schema: z.number().positive().max(1000),
      about: "Brave plan's requests per second",
    },
    {
      key: "geminiModel",
      env: "GEMINI_MODEL",
      secret: false,
      schema: z.string().min(1),
      about: "model of the Gemini provider",
    },
    // Defaults for calls that do not say (HTTP API, MCP, library); the dashboard's Settings → Web edits these.
    {
      key: "providerOrder",
      env: "WEBSIFT_PROVIDER_ORDER",
      secret: false,
      schema: z.string().regex(/^[a-z][a-z0-9-]*(,[a-z][a-z0-9-]*)*$/, "comma-separated provider names"),
      about: "providers `auto` asks first, in this order (e.g. searxng,brave)",
    },
    {
      key: "safeSearch",
      env: "WEBSIFT_SAFESEARCH",
      secret: false,
      schema: z.enum(["off", "moderate", "strict"]),
      about: "safe search when a call does not say",
    },
    {
      key: "maxResults",
      env: "WEBSIFT_MAX_RESULTS",
      secret: false,
      schema: z.number().int().min(1).max(20),
      about: "results per search when a call does not say (default 5)",
    },
    {
      key: "maxChars",
      env: "WEBSIFT_MAX_CHARS",
      secret: false,
      schema: z.number().int().min(200).max(100_000),
      about: "characters per page read when a call does not say (default 6000)",
    },
    {
      key: "longPageMode",
      env: "WEBSIFT_LONG_PAGE",
      secret: false,
      schema: z.enum(["passages", "cut", "head-tail"]),
      about: "how a long page is shortened when a call does not say",
    },
    {
      key: "robots",
      env: "WEBSIFT_ROBOTS",
      secret: false,
      schema: z.enum(["respect", "automated", "ignore"]),
      about:
        "which reads robots.txt decides: automated (research, answer's pages; default), respect (every read) or ignore",
    },
    {
      key: "waitSeconds",
      env: "WEBSIFT_WAIT_SECONDS",
      secret: false,
      schema: z.number().min(0).max(60),
      about: "seconds a conversation waits for a lookup before going on (default 3)",
    },
    {
      key: "mcpHost",
      env: "WEBSIFT_MCP_HOST",
      secret: false,
      schema: z.string().min(1),
      about: "address `websift mcp --http` binds",
    },
    {
      key: "mcpPort",
      env: "WEBSIFT_MCP_PORT",
      secret: false,
      schema: z.number().int().min(0).max(65535),
      about: "port of `websift mcp --http`",
    },
    {
      key: "mcpWaitSeconds",
      env: "WEBSIFT_MCP_WAIT_SECONDS",
      secret: false,
      schema: z.number().min(0).max(600),
      about:
        "seconds an MCP tool call waits for its lookup before answering that it is still running (default 25)",
    },
    {
      key: "mcpAllowedHosts",
      env: "WEBSIFT_MCP_ALLOWED_HOSTS",
      secret: false,
      schema: z.string(),
      about: "extra Host names `websift mcp --http` answers to, comma-separated (name, or name:port)",
    },
    {
      key: "mcpAllowedOrigins",
      env: "WEBSIFT_MCP_ALLOWED_ORIGINS",
      secret: false,
      schema: z.string(),
      about: "browser origins allowed to call `websift mcp --http`, comma-separated",
    },
    {
      key: "serveHost",
      env: "WEBSIFT_SERVE_HOST",
      secret: false,
      schema: z.string().min(1),
      about: "address `websift serve` binds",
    },
    {
      key: "servePort",
      env: "WEBSIFT_SERVE_PORT",
      secret: false,
      schema: z.number().int().min(0).max(65535),
      about: "port of `websift serve`",
    },
    {
      key: "serveToken",
      env: "WEBSIFT_SERVE_TOKEN",
      secret: true,
      schema: z.string(),
      about: "bearer token for `websift serve`",
    },
    {
      key: "adminToken",
      env: "WEBSIFT_ADMIN_TOKEN",
      secret: true,
      schema: z.string(),
      about: "bearer token for the admin routes of `websift serve` (switch, settings, keys)",
    },
    {
      key: "braveApiKey",
      env: "BRAVE_API_KEY",
      secret: true,
      schema: z.string(),
      about: "Brave Search API key",
    },
    { key: "tavilyApiKey", env: "TAVILY_API_KEY", secret: true, schema: z.string(), about: "Tavily key" },
    { key: "exaApiKey", env: "EXA_API_KEY", secret: true, schema: z.string(), about: "Exa key" },
    {
      key: "perplexityApiKey",
      env: "PERPLEXITY_API_KEY",
      secret: true,
      schema: z.string(),
      about: "Perplexity key",
    },
    { key: "geminiApiKey", env: "GEMINI_API_KEY", secret: true, schema: z.string(), about: "Gemini key" },
    {
      key: "googleApiKey",
      env: "GOOGLE_API_KEY",
      secret: true,
      schema: z.string(),
      about: "Gemini key (alternative name)",
    },
    {
      key: "mcpToken",
      env: "WEBSIFT_MCP_TOKEN",
      secret: true,
      schema: z.string(),
      about: "bearer token for `websift mcp --http`",
    },
    { key: "httpProxy", env: "HTTP_PROXY", secret: true, schema: z.string(), about: "egress proxy for http" },
    {
      key: "httpsProxy",
      env: "HTTPS_PROXY",
      secret: true,
      schema: z.string(),
      about: "egress proxy for https",
    },
    {
      key: "noProxy",
      env: "NO_PROXY",
      secret: false,
      schema: z.string(),
      about: "hosts reached without the proxy",
    },
    // Read from the environment only: not settings of the file.
    {
      key: "store",
      env: "WEBSIFT_STORE",
      secret: false,
      envOnly: true,
      schema: z.string(),
      about: "where caches, cooldowns and rate limits live: memory, sqlite or redis",
    },
    {
      key: "redisUrl",
      env: "WEBSIFT_REDIS_URL",
      secret: true,
      schema: z.string(),
      about: "a Redis shared by a fleet",
    },
    {
      key: "llmBaseUrl",
      env: "WEBSIFT_LLM_BASE_URL",
      // A URL may carry credentials (user:pass@, a token in its query), as a proxy's does.
      secret: true,
      envOnly: true,
      schema: z.string(),
      about: "an OpenAI-compatible endpoint for research, search decisions and digests",
    },
    {
      key: "llmModel",
      env: "WEBSIFT_LLM_MODEL",
      secret: false,
      envOnly: true,
      schema: z.string(),
      about: "the model name on that endpoint",
    },
    {
      key: "llmApiKey",
      env: "WEBSIFT_LLM_API_KEY",
      secret: true,
      schema: z.string(),
      about: "bearer key for that endpoint",
    },
    {
      key: "browserCdpUrl",
      env: "WEBSIFT_BROWSER_CDP_URL",
      // A URL may carry credentials (user:pass@, a token in its query), as a proxy's does.
      secret: true,
      envOnly: true,
      schema: z.string(),
      about: "an already-running Chromium the browser route drives",
    },
    {
      key: "browserEngine",
      env: "WEBSIFT_BROWSER_ENGINE",
      secret: false,
      envOnly: true,
      schema: z.string(),
      about: "engine of the browser route: google or bing",
    },
    {
      key: "extraCaCerts",
      env: "NODE_EXTRA_CA_CERTS",
      secret: false,
      envOnly: true,
      schema: z.string(),
      about: "a PEM file of extra trusted CAs",
    },
  ];
  return specs;
});

/** Provider tuning the providers actually read; anything else in `providers` is a mistake worth naming. */
export const providerSettings = lazySchema((z) =>
  z.strictObject({
    /** Pause before DuckDuckGo's next region after a challenge. */
    ddgRetryDelayMs: z.number().int().min(0).max(60_000).optional(),
    /** How long a challenged DuckDuckGo region rests. */
    ddgCooldownMs: z.number().int().min(0).max(86_400_000).optional(),
    /** Your own contact in the User-Agent Wikimedia asks for. */
    wikipediaUserAgent: z.string().min(1).max(300).optional(),
    /** Brave plan's requests per second (also the top-level braveRatePerSec). */
    braveRatePerSec: z.number().positive().max(1000).optional(),
  }),
);

/** The config file: known keys only, so a typo is an error instead of a silently ignored setting. */
export const fileSchema = lazySchema((z) =>
  z.strictObject({
    $schema: z.string().optional(),
    ...Object.fromEntries(
      settingSpecs()
        .filter((s) => !s.secret && !s.envOnly)
        .map((s) => [s.key, s.schema.optional()]),
    ),
    /** Per-provider budgets in ms, e.g. { "brave": 3000 }. */
    budgets: z
      .record(z.string().regex(/^[a-z][a-z0-9-]*$/), z.number().int().positive().max(600_000))
      .optional(),
    /** Provider tuning (ddgRetryDelayMs, ddgCooldownMs, wikipediaUserAgent, braveRatePerSec). */
    providers: providerSettings().optional(),
  }),
);

/**
 * Parses an environment value into the setting's type; undefined for an empty value. A switch is "1" or "0":
 * the code below the loader reads the raw variable too, so "true" would be on here and off there; anything else
 * is returned as is for the loader to refuse by name.
 */
export function fromEnv(spec: SettingSpec, raw: string): unknown {
  if (raw === "") return undefined;
  if (spec.switch) return raw === "1" ? true : raw === "0" ? false : raw;
  if (spec.schema instanceof zod().z.ZodNumber) return Number(raw);
  return raw;
}

export const isSwitch = (spec: SettingSpec) => spec.switch === true;

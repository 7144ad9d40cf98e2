import { createLlm, type LlmClient } from "./agent/llm.js";
import {
  RESEARCH_TIMEOUT_MS,
  type ResearchOptions,
  type ResearchResult,
  research,
} from "./agent/research.js";
import {
  ANSWER_OPTIONS,
  asBadInput,
  type BadInputError,
  checkArgument,
  QUERY,
  READ_OPTIONS,
  RESEARCH_OPTIONS,
  SEARCH_OPTIONS,
  URL_ARGUMENT,
  WEBSIFT_CONFIG,
} from "./arguments.js";
import { settingsFromEnv, withProviderKeys } from "./config/load.js";
import {
  configuredTimeoutMs,
  DEFAULT_CALL_TIMEOUT_MS,
  type EnabledSetting,
  type Settings,
} from "./config/settings.js";
import { withCallDeadline, withoutNumberDeadline } from "./core/call-budget.js";
import { warnRenamedOption } from "./core/deprecation.js";
import type { Attempt } from "./core/status.js";
import { type AnswerOptions, type AnswerResult, answer } from "./ground/answer.js";
import { failureEnvelope } from "./ground/envelope.js";
import { closeHeadless } from "./ground/routes/headless-browser.js";
import { runRoute } from "./ground/routes/index.js";
import { createNet, type Net, type NetConfig } from "./net/client.js";
import { vetUrl } from "./net/vet-url.js";
import { failedRead } from "./read/failed-read.js";
import { fetchBest } from "./read/fetch-best.js";
import { closeSharedRenderer, type ReadOptions, type ReadResult, read } from "./read/read.js";
import { type SearchResponse, searchChain } from "./search/chain.js";
import type { SearchOptions } from "./search/options.js";
import { type Provider, providerContext } from "./search/provider.js";
import { duckduckgoInstant } from "./search/providers/duckduckgo-instant.js";
import { PROVIDERS } from "./search/registry.js";
import { runProvider } from "./search/run-provider.js";
import { MemoryStore, type Store } from "./store/store.js";

export interface WebsiftConfig extends NetConfig {
  /** Shared state (cache, cooldowns, rate limits); memory by default. */
  store?: Store;
  /**
   * Where keys and settings are read from (default process.env), through the configuration loader, once. Keys
   * never come from config files.
   */
  env?: Record<string, string | undefined>;
  /**
   * Settings a loader already read (`loadConfig().values`: file, environment, `.env`, as the CLI and the service
   * do); `env` is then not read.
   */
  resolved?: Settings;
  /** Replaces the provider registry (tests, custom engines). */
  providers?: Provider[];
  /** Provider settings (ddgRetryDelayMs, ddgCooldownMs, braveRatePerSec, …). */
  settings?: Record<string, unknown>;
  /** Caps of one provider's step inside a search, in ms by provider name (each provider has its own default). */
  providerTimeoutMs?: Record<string, number>;
  /** @deprecated The old name of `providerTimeoutMs`; works, with one warning per process, until the next minor. */
  budgets?: Record<string, number>;
  /**
   * A search's, read's or answer's whole budget in ms when the call gives none (default WEBSIFT_TIMEOUT seconds,
   * else 20 s). A call's own `timeoutMs` or `deadline` wins.
   */
  timeoutMs?: number;
  /** Operator log (stderr by default in the CLI; silent in the library). */
  log?: (line: string) => void;
  /**
   * false, or WEBSIFT_WIKIPEDIA_FALLBACK=0: Wikipedia is never searched, neither by `auto` nor by `answer`'s
   * fallback, and a search pinned to it answers "disabled". Reading a Wikipedia page is unaffected.
   */
  wikipediaFallback?: boolean;
  /** false, or WEBSIFT_ENABLED=0: every call answers "disabled" and no request leaves. */
  enabled?: EnabledSetting;
  /** Providers `auto` asks first, in this order; the rest follow in the usual order. */
  providerOrder?: string[];
  /** For calls that do not say (the operator's settings): results per search, safe search, page size and mode. */
  defaults?: {
    limit?: number;
    safesearch?: SearchOptions["safesearch"];
    maxChars?: number;
    mode?: ReadOptions["mode"];
  };
}

export interface Websift {
  search(query: string, options?: SearchOptions): Promise<SearchResponse>;
  /**
   * A page as sized markdown: Tavily extract, then Exa contents (each only with its key set and paid use
   * unfrozen, or pinned with `pin`), then the direct ladder. `source` names the rung that produced the text.
   */
  read(url: string, options?: ReadOptions): Promise<ReadResult>;
  /** @deprecated `read` itself goes through the extract chain now; this is the same call. */
  fetchBest(url: string, options?: ReadOptions): Promise<ReadResult>;
  answer(query: string, options?: AnswerOptions): Promise<AnswerResult>;
  /** Multi-hop research with the configured model (WEBSIFT_LLM_*); keyless and rule-only without one. */
  research(question: string, options?: ResearchOptions): Promise<ResearchResult>;
  /** The OpenAI-compatible model client, when WEBSIFT_LLM_BASE_URL and WEBSIFT_LLM_MODEL are set. */
  readonly llm?: LlmClient;
  readonly net: Net;
  readonly store: Store;
  readonly providers: readonly Provider[];
  close(): Promise<void>;
}

/** The library's front door. */
export function createWebsift(given?: WebsiftConfig): Websift {
  const config = checkArgument("createWebsift", "config", WEBSIFT_CONFIG, given);
  const providers = config.providers ?? PROVIDERS;
  const keyNames = providers.flatMap((p) => p.keyEnv ?? []);
  const settings = config.resolved
    ? withProviderKeys(config.resolved, keyNames)
    : settingsFromEnv(config.env, keyNames);
  // Endpoints the operator configured by hand may live on their own network; nothing else may.
  const trustedOrigins = [
    ...(config.trustedOrigins ?? []),
    settings.search.searxngUrl,
    settings.llm.baseUrl,
  ].filter((o): o is string => !!o);
  const proxies = config.proxies ?? settings.net;
  const net = createNet({ ...config, env: undefined, proxies, trustedOrigins });
  const store = config.store ?? new MemoryStore();
  const log = config.log ?? (() => {});
  const ctx = providerContext({
    net,
    config: settings,
    store,
    log,
    settings: { ...settings.search.tuning, ...config.settings },
  });
  const timeoutMs = config.timeoutMs ?? configuredTimeoutMs(settings) ?? DEFAULT_CALL_TIMEOUT_MS;
  const enabled = async () => {
    if (!settings.search.enabled) return false;
    if (typeof config.enabled === "function") return config.enabled();
    return config.enabled !== false;
  };
  const defaults = { ...settings.search.defaults, ...definedOnly(config.defaults ?? {}) };
  const wikipedia = config.wikipediaFallback !== false && settings.search.wikipediaFallback;
  const caps = providerCaps(config) ?? settings.search.budgets;
  const chain = {
    providers,
    ctx,
    providerTimeoutMs: Object.keys(caps).length ? caps : undefined,
    timeoutMs,
    order: config.providerOrder ?? settings.search.providerOrder,
    defaults: { limit: defaults.limit, safesearch: defaults.safesearch },
  };
  const sized = (options: ReadOptions): ReadOptions => ({
    ...options,
    maxChars: options.maxChars ?? defaults.maxChars,
    mode: options.mode ?? defaults.mode,
  });
  const readCtx = {
    net,
    store,
    config: settings,
    log,
    // As net judges a URL: a name a proxy carries is left to the proxy; otherwise every address must be public.
    vet: (url: string) => vetUrl(url, { resolve: config.resolve, proxies }),
  };

  const disabledSearch = (query: string, error = "web search is turned off in websift's settings") => ({
    status: "disabled" as const,
    query,
    results: [],
    attempted: [],
    scope: "general" as const,
    error,
  });
  /** The chain, minus Wikipedia when its switch is off; `gate` as searchChain's. */
  const searchWeb = async (
    query: string,
    options: SearchOptions,
    gate?: () => Promise<SearchResponse | undefined>,
  ): Promise<SearchResponse> => {
    if (wikipedia) return searchChain(query, options, chain, gate);
    if (options.provider === "wikipedia")
      return (
        (await gate?.()) ??
        disabledSearch(
          query,
          "Wikipedia search is turned off (wikipediaFallback: false / WEBSIFT_WIKIPEDIA_FALLBACK=0)",
        )
      );
    return searchChain(
      query,
      { ...options, exclude: [...(options.exclude ?? []), "wikipedia"] },
      chain,
      gate,
    );
  };

  const llm = createLlm({ net, llm: settings.llm });
  /** Every read goes through the extract chain (keyed rungs only when unfrozen or pinned), then the ladder. */
  const readPage = async (call: string, url: string, given: ReadOptions | undefined): Promise<ReadResult> => {
    let options: ReadOptions;
    try {
      checkArgument(call, "url", URL_ARGUMENT, url);
      options = checkArgument(call, "options", READ_OPTIONS, given);
    } catch (err) {
      return badRead(url, asBadInput(err));
    }
    if (!(await enabled())) return disabledRead(url);
    const budget = withoutNumberDeadline(options);
    return withCallDeadline(budget, timeoutMs, (deadline) =>
      fetchBest(url, { ...sized(budget), deadline }, readCtx),
    );
  };
  const websift: Websift = {
    net,
    store,
    providers,
    llm,
    async search(query, given) {
      let options: SearchOptions;
      try {
        checkArgument("search", "query", QUERY, query);
        options = checkArgument("search", "options", SEARCH_OPTIONS, given);
      } catch (err) {
        return badSearch(query, asBadInput(err));
      }
      // The switch is read with the cache entry, in one round trip to a shared store.
      return withCallDeadline(options, timeoutMs, (deadline) =>
        searchWeb(query, { ...options, deadline }, async () =>
          (await enabled()) ? undefined : disabledSearch(query),
        ),
      );
    },
    read: (url, given) => readPage("read", url, given),
    fetchBest: (url, given) => readPage("fetchBest", url, given),
    async answer(query, given) {
      let options: AnswerOptions;
      try {
        checkArgument("answer", "query", QUERY, query);
        options = checkArgument("answer", "options", ANSWER_OPTIONS, given);
      } catch (err) {
        const bad = asBadInput(err);
        return { status: "error", envelope: failureEnvelope("", bad.message), sources: [], attempts: [] };
      }
      return withCallDeadline(options, timeoutMs, (deadline) =>
        answer(
          query,
          { ...options, deadline },
          {
            enabled,
            wikipedia,
            search: searchWeb,
            instant: async (q, deadline) => {
              const step = await runProvider(
                duckduckgoInstant,
                {
                  query: q,
                  limit: 1,
                  scope: "general",
                  provider: "duckduckgo-instant",
                  allowedHostsAdded: [],
                },
                ctx,
                deadline,
                deadline.remaining(),
              );
              const outcome = step.outcome;
              const found = outcome && "answer" in outcome ? outcome.answer : undefined;
              return { answer: found, attempt: step.attempt as Attempt };
            },
            route: (route, q, deadline) =>
              runRoute(
                route,
                q,
                {
                  ctx,
                  resolve: config.resolve,
                  language: options.language,
                  sourcesApart: options.mode === "sources",
                  maxChars: options.maxChars,
                },
                deadline,
              ),
            read: (maxChars, lookingFor) => async (url, deadline) => {
              // The cascade reads what a search found, not a URL anyone gave: an automated read.
              const page = await read(
                url,
                { maxChars, lookingFor, deadline, links: false, robots: "automated" },
                readCtx,
              );
              return { ...page, error: page.error?.message };
            },
          },
        ),
      );
    },
    async research(question, given) {
      let options: ResearchOptions;
      try {
        checkArgument("research", "question", QUERY, question);
        options = checkArgument("research", "options", RESEARCH_OPTIONS, given);
      } catch (err) {
        const bad = asBadInput(err);
        const envelope = failureEnvelope("", bad.message);
        return { status: "error", envelope, facts: [], hops: [], attempts: [], degraded: false };
      }
      return withCallDeadline(options, RESEARCH_TIMEOUT_MS, (deadline) =>
        research(question, { ...options, deadline }, { websift, llm }),
      );
    },
    async close() {
      await Promise.allSettled([closeSharedRenderer(), closeHeadless()]);
      await net.close();
      await store.close();
    },
  };
  return websift;
}

function providerCaps(config: WebsiftConfig): Record<string, number> | undefined {
  if (config.budgets === undefined) return config.providerTimeoutMs;
  warnRenamedOption("WebsiftConfig.budgets", "providerTimeoutMs");
  // A caller still saying `budgets` layers it over options spread beneath (serve: the config file's caps under
  // the service's overrides), as `budgets` replaced them before.
  return { ...config.providerTimeoutMs, ...config.budgets };
}

function badSearch(query: unknown, bad: BadInputError): SearchResponse {
  return {
    status: "error",
    code: bad.code,
    query: typeof query === "string" ? query : "",
    results: [],
    attempted: [],
    scope: "general",
    error: bad.message,
  };
}

function badRead(url: unknown, bad: BadInputError): ReadResult {
  return failedRead(typeof url === "string" ? url : "", {
    status: "error",
    code: bad.code,
    message: bad.message,
  });
}

function disabledRead(url: string): ReadResult {
  return failedRead(url, {
    status: "disabled",
    code: "disabled",
    message: "web access is turned off in websift's settings",
  });
}

/** The fields a caller set: an option left `undefined` does not hide the configured default. */
function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

import { createHash } from "node:crypto";
import { configuredTimeoutMs, DEFAULT_CALL_TIMEOUT_MS, type Settings } from "../config/settings.js";
import { callDeadline } from "../core/call-budget.js";
import type { Deadline } from "../core/deadline.js";
import type { Attempt, Status } from "../core/status.js";
import { readAhead } from "../store/read-ahead.js";
import { summarizeFailures } from "./failure-summary.js";
import { mergeRanked, type SearchResult } from "./merge.js";
import { type SearchOptions, type ValidSearch, validateSearch } from "./options.js";
import {
  type AutoPlace,
  type Provider,
  type ProviderAnswer,
  type ProviderContext,
  providerConfigured,
  providerContext,
  providerTimeoutMs,
} from "./provider.js";
import { runProvider, type StepResult, stepReads } from "./run-provider.js";
import type { Scope } from "./scope.js";

export interface SearchAnswer extends ProviderAnswer {
  provider: string;
}

export interface SearchResponse {
  status: Status;
  query: string;
  provider?: string;
  results: SearchResult[];
  answer?: SearchAnswer;
  attempted: Attempt[];
  scope: Scope;
  codeDomains?: string[];
  cached?: boolean;
  ageSeconds?: number;
  /** One line for a model when status is not ok. */
  error?: string;
  /** Stable code for programs: bad_input, all_regions_cooling, … */
  code?: string;
  /** Seconds until the failing provider may be asked again. */
  retryAfter?: number;
}

export interface ChainConfig {
  providers: readonly Provider[];
  ctx: ProviderContext;
  /** Caps of one provider's step in ms, by provider name, overriding each provider's own. */
  providerTimeoutMs?: Record<string, number>;
  /** A search's whole budget in ms when its caller gives none. */
  timeoutMs?: number;
  cacheMs?: number;
  /** Providers `auto` asks first, in this order (the operator's setting); the rest follow in the usual order. */
  order?: readonly string[];
  /** For calls that do not say. */
  defaults?: { limit?: number; safesearch?: SearchOptions["safesearch"] };
}

/**
 * A stage of `auto`: one provider, or a group whose engines stand in for one another (the keyless engines): its
 * lead alone first, the rest in parallel when the lead fails or has fewer than `thinBelow` results.
 */
export type AutoStage =
  | { kind: "one"; provider: Provider }
  | { kind: "group"; group: string; first?: Provider; spread: Provider[]; thinBelow: number };

/** `auto`'s stages, from the places the providers declare (`Provider.auto`); paid ones only once unfrozen. */
export function autoStages(
  providers: readonly Provider[],
  settings: Settings,
  exclude: readonly string[] = [],
  order: readonly string[] = [],
): AutoStage[] {
  const placed = providers
    .filter((p): p is Provider & { auto: AutoPlace } => p.auto !== undefined)
    .sort((a, b) => a.auto.rank - b.auto.rank);
  const unfrozen = settings.search.enablePaid;
  // Asked only of the providers `auto` may use: some look on disk (gemini-cli searches PATH for its binary),
  // and this runs on every search.
  const usable = (p: Provider) =>
    (p.paid && !unfrozen) || exclude.includes(p.name) ? false : providerConfigured(p, settings);
  const stages: AutoStage[] = [];
  const seen = new Set<string>();
  for (const p of placed) {
    const group = p.auto.group;
    if (group === undefined) {
      if (usable(p)) stages.push({ kind: "one", provider: p });
      continue;
    }
    if (seen.has(group)) continue;
    seen.add(group);
    const members = placed.filter((m) => m.auto.group === group);
    const lead = members.find((m) => m.auto.lead);
    const first = lead && usable(lead) ? lead : undefined;
    const spread = members.filter((m) => m !== lead && usable(m));
    if (first || spread.length)
      stages.push({ kind: "group", group, first, spread, thinBelow: lead?.auto.lead?.thinBelow ?? 0 });
  }
  if (!order.length) return stages;
  // A grouped engine's name moves its whole group: its engines stand in for one another.
  const namesOf = (stage: AutoStage) =>
    stage.kind === "one"
      ? [stage.provider.name]
      : [stage.group, ...placed.filter((m) => m.auto.group === stage.group).map((m) => m.name)];
  const rank = (stage: AutoStage) => {
    const found = namesOf(stage)
      .map((n) => order.indexOf(n))
      .filter((i) => i >= 0);
    return found.length ? Math.min(...found) : order.length;
  };
  return stages.sort((a, b) => rank(a) - rank(b));
}

/**
 * `gate` answers instead of the chain when the caller may not search now (web access switched off). It is read
 * together with the cache entry: on a shared store (Redis) the switch and the cache are one round trip, not two.
 */
export async function searchChain(
  query: string,
  options: SearchOptions,
  config: ChainConfig,
  gate?: () => Promise<SearchResponse | undefined>,
): Promise<SearchResponse> {
  // Started before anything else, so it goes out with the cache read; a refusal still wins over bad input.
  const refusal = gate?.();
  const valid = validateSearch(query, {
    ...options,
    limit: options.limit ?? config.defaults?.limit,
    safesearch: options.safesearch ?? config.defaults?.safesearch,
  });
  const scope = options.scope ?? "general";
  if (!valid.ok)
    return (
      (await refusal) ?? {
        status: "error",
        code: "bad_input",
        query: String(query ?? ""),
        results: [],
        attempted: [],
        scope,
        error: valid.reason,
      }
    );
  const search = valid.value;
  const settings = config.ctx.config;
  const base = {
    query: search.query,
    scope: search.scope,
    ...(search.codeDomains ? { codeDomains: search.codeDomains } : {}),
  };

  // Keyed only when the cache is used: the JSON key and its sha256 are about 70 µs of a search's own CPU.
  const cacheKey =
    options.cache === false
      ? undefined
      : `search:${hashOptions(search, settings.search.enablePaid, options.exclude, config.order)}`;
  // The cache entry and the state the provider asked first reads (its suspension, its cooldowns) come in one
  // read, sent with the switch's: one round trip to a shared store before the first request.
  const pinned =
    search.provider === "auto" ? undefined : config.providers.find((p) => p.name === search.provider);
  const stages =
    search.provider === "auto" ? autoStages(config.providers, settings, options.exclude, config.order) : [];
  const opening =
    search.provider === "auto"
      ? firstOf(stages[0])
      : pinned && providerConfigured(pinned, settings)
        ? pinned
        : undefined;
  const ahead = readAhead(config.ctx.store, [
    ...(cacheKey ? [cacheKey] : []),
    ...(opening ? stepReads(opening, search) : []),
  ]);
  const firstCtx = opening ? providerContext({ ...config.ctx, store: ahead }) : config.ctx;
  const ctxOf = (p: Provider) => (p === opening ? firstCtx : config.ctx);
  const [refused, hit] = await Promise.all([
    refusal,
    cacheKey ? ahead.get<{ response: SearchResponse; at: number }>(cacheKey) : undefined,
  ]);
  if (refused) return refused;
  if (hit) return { ...hit.response, cached: true, ageSeconds: Math.round((Date.now() - hit.at) / 1000) };

  const deadline = callDeadline(
    options,
    config.timeoutMs ?? configuredTimeoutMs(settings) ?? DEFAULT_CALL_TIMEOUT_MS,
  );
  const attempts: Attempt[] = [];
  const note = (step: StepResult) => {
    attempts.push(step.attempt);
    options.onAttempt?.(step.attempt);
  };
  const timeoutOf = (p: Provider) => config.providerTimeoutMs?.[p.name] ?? providerTimeoutMs(p);

  let response: SearchResponse | undefined;
  if (search.provider !== "auto") {
    if (!pinned)
      return {
        ...base,
        status: "error",
        code: "bad_input",
        results: [],
        attempted: [],
        error: `unknown provider "${search.provider}" (known: ${config.providers.map((p) => p.name).join(", ")})`,
      };
    if (!providerConfigured(pinned, settings))
      return {
        ...base,
        status: "error",
        code: "not_configured",
        results: [],
        attempted: [],
        error: notConfigured(pinned),
      };
    const step = await runProvider(pinned, search, ctxOf(pinned), deadline, timeoutOf(pinned));
    note(step);
    response = finish(base, [step], attempts, search.limit) ?? failed(base, attempts, [step]);
  } else {
    const steps: StepResult[] = [];
    for (const stage of stages) {
      if (stage.kind === "one") {
        const step = await runProvider(
          stage.provider,
          search,
          ctxOf(stage.provider),
          deadline,
          timeoutOf(stage.provider),
        );
        note(step);
        steps.push(step);
        response = finish(base, [step], attempts, search.limit);
      } else {
        const stageSteps = await runGroup(stage, search, config, deadline, timeoutOf, note, ctxOf);
        steps.push(...stageSteps);
        response = finish(base, stageSteps, attempts, search.limit);
      }
      if (response) break;
    }
    response ??= failed(base, attempts, steps);
  }
  if (response.status === "ok" && cacheKey)
    await config.ctx.store.set(cacheKey, { response, at: Date.now() }, config.cacheMs ?? 10 * 60_000);
  return response;
}

/** The group's lead first (DuckDuckGo); when it is blocked, cooling or thin, the others in parallel, merged. */
async function runGroup(
  stage: Extract<AutoStage, { kind: "group" }>,
  search: ValidSearch,
  config: ChainConfig,
  deadline: Deadline,
  timeoutOf: (p: Provider) => number,
  note: (s: StepResult) => void,
  ctxOf: (p: Provider) => ProviderContext,
): Promise<StepResult[]> {
  const steps: StepResult[] = [];
  if (stage.first) {
    const first = await runProvider(
      stage.first,
      search,
      ctxOf(stage.first),
      deadline,
      timeoutOf(stage.first),
    );
    note(first);
    steps.push(first);
    if (first.hits.length >= Math.min(stage.thinBelow, search.limit)) return steps;
  }
  const spread = await Promise.all(
    stage.spread.map((p) => runProvider(p, search, config.ctx, deadline, timeoutOf(p))),
  );
  spread.forEach(note);
  return [...steps, ...spread];
}

/** The provider a stage asks first on its own; a group's spread goes out in parallel, none of it first. */
function firstOf(stage: AutoStage | undefined): Provider | undefined {
  if (!stage) return undefined;
  return stage.kind === "one" ? stage.provider : stage.first;
}

function finish(
  base: Pick<SearchResponse, "query" | "scope" | "codeDomains">,
  steps: StepResult[],
  attempts: Attempt[],
  limit: number,
): SearchResponse | undefined {
  const winners = steps.filter((s) => s.hits.length > 0);
  if (!winners.length) return undefined;
  const results = mergeRanked(
    winners.map((s) => ({ provider: s.attempt.provider, hits: s.hits })),
    limit,
  );
  const answerStep = winners.find((s) => s.outcome?.status === "ok" && s.outcome.answer);
  const answer =
    answerStep?.outcome?.status === "ok" && answerStep.outcome.answer
      ? { ...answerStep.outcome.answer, provider: answerStep.attempt.provider }
      : undefined;
  return {
    ...base,
    status: "ok",
    provider: winners.map((s) => s.attempt.provider).join("+"),
    results,
    ...(answer ? { answer } : {}),
    attempted: attempts,
  };
}

/** Nothing usable: name the most telling failure, and never call a block or a timeout "no results". */
function failed(
  base: Pick<SearchResponse, "query" | "scope" | "codeDomains">,
  attempts: Attempt[],
  steps: StepResult[],
): SearchResponse {
  // Steps carry the outcomes; a step the chain never ran (a cached skip) is known only by its attempt.
  const ran = attempts.map((attempt) => steps.find((s) => s.attempt === attempt) ?? { attempt });
  const summary = summarizeFailures(base.query, ran);
  return {
    ...base,
    status: summary.status,
    results: [],
    attempted: attempts,
    error: summary.error,
    ...(summary.code ? { code: summary.code } : {}),
    ...(summary.retryAfter ? { retryAfter: summary.retryAfter } : {}),
  };
}

function notConfigured(p: Provider): string {
  return `${p.name} is not configured: set ${p.keyEnv?.join(" or ") ?? p.needs ?? "its settings"}`;
}

function hashOptions(
  s: ValidSearch,
  unfrozen: boolean,
  exclude: string[] = [],
  order: readonly string[] = [],
): string {
  const key = JSON.stringify([
    s.query.toLowerCase(),
    s.limit,
    s.provider,
    s.region,
    s.language,
    s.safesearch,
    s.timeRange,
    s.scope,
    s.codeDomains,
    unfrozen,
    [...exclude].sort(),
    ...(order.length ? [order] : []),
  ]);
  return createHash("sha256").update(key).digest("hex").slice(0, 32);
}

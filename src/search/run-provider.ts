import type { Deadline } from "../core/deadline.js";
import type { Attempt } from "../core/status.js";
import type { ValidSearch } from "./options.js";
import type { Provider, ProviderContext, ProviderHit, ProviderOutcome, ProviderQuery } from "./provider.js";
import { urlInDomains } from "./scope.js";
import { recordFailure, suspendedUntil, suspensionKey } from "./suspension.js";

/** Below this, a provider is not started: it could not finish, and a half-sent request still costs a block. */
export const MIN_START_MS = 300;

export interface StepResult {
  attempt: Attempt;
  outcome?: ProviderOutcome;
  hits: ProviderHit[];
}

/**
 * One provider, one step: suspension check, its own budget inside the call's deadline, the code-domain
 * post-filter, and the failure written back to the health memory.
 */
export async function runProvider(
  provider: Provider,
  search: ValidSearch,
  ctx: ProviderContext,
  deadline: Deadline,
  timeoutMs: number,
): Promise<StepResult> {
  const name = provider.name;
  if (provider.cooldowns !== "self") {
    const suspension = await suspendedUntil(ctx.store, name);
    if (suspension) {
      const until = new Date(suspension.until).toISOString();
      const error = `cooling until ${until} (${suspension.reason})`;
      const retryAfter = Math.ceil((suspension.until - Date.now()) / 1000);
      return {
        attempt: { provider: name, status: "skipped", ms: 0, error, retryAfter },
        // What the provider last did, so a summary of skipped providers names it rather than guessing.
        outcome: { status: suspension.status, code: "cooling", message: `${name}: ${error}`, retryAfter },
        hits: [],
      };
    }
  }
  if (deadline.remaining() < MIN_START_MS)
    return {
      attempt: {
        provider: name,
        status: "skipped",
        ms: 0,
        error: "not enough time left in the search budget",
      },
      hits: [],
    };

  const budget = deadline.child(timeoutMs);
  const started = Date.now();
  const outcome = await raceDeadline(provider, search, ctx, budget);
  // Releases the step's timer and its hold on the call's deadline; whatever is left running sees a cancellation.
  budget.abort();
  const ms = Date.now() - started;

  if (outcome.status === "ok" || outcome.status === "empty") {
    const raw = outcome.status === "ok" ? outcome.hits : [];
    const hits = search.codeDomains ? raw.filter((h) => urlInDomains(h.url, search.codeDomains!)) : raw;
    // Counted whenever the filter ran, so a thin coding answer shows whether the engine or the filter was thin.
    const filtered = search.codeDomains ? { domain_filtered_out: raw.length - hits.length } : {};
    if (raw.length > 0 && hits.length === 0) {
      return {
        attempt: {
          provider: name,
          status: "empty",
          ms,
          count: 0,
          error: `code-domain filter removed all ${raw.length} results`,
          ...filtered,
        },
        outcome,
        hits,
      };
    }
    return {
      attempt: { provider: name, status: hits.length ? "ok" : "empty", ms, count: hits.length, ...filtered },
      outcome,
      hits,
    };
  }
  const failure =
    outcome.status === "timeout"
      ? { ...outcome, message: `timeout after ${Math.round(ms / 100) / 10}s waiting for ${name}` }
      : outcome;
  if (provider.cooldowns !== "self") await recordFailure(ctx.store, name, failure);
  return {
    attempt: {
      provider: name,
      status: failure.status,
      ms,
      error: failure.message,
      retryAfter: failure.retryAfter,
    },
    outcome: failure,
    hits: [],
  };
}

/** What a provider is asked: the search without the chain's own fields. */
export function providerQuery(search: ValidSearch): ProviderQuery {
  return {
    query: search.query,
    limit: search.limit,
    region: search.region,
    language: search.language,
    safesearch: search.safesearch,
    timeRange: search.timeRange,
    includeDomains: search.codeDomains,
  };
}

/**
 * What `runProvider` reads from the store before the provider's first request: its suspension (unless it keeps
 * its own cooldowns) and the keys it declares. The chain reads them ahead, with its cache entry.
 */
export function stepReads(provider: Provider, search: ValidSearch): string[] {
  return [
    ...(provider.cooldowns === "self" ? [] : [suspensionKey(provider.name)]),
    ...(provider.readsFirst?.(providerQuery(search)) ?? []),
  ];
}

/**
 * A provider that ignores its deadline still cannot hold the chain: the budget's end answers for it. Watched with
 * `onAbort`, not the budget's AbortSignal, which would cost an AbortController per provider call.
 */
async function raceDeadline(
  provider: Provider,
  search: ValidSearch,
  ctx: ProviderContext,
  budget: Deadline,
): Promise<ProviderOutcome> {
  let off: (() => void) | undefined;
  const timedOut = new Promise<ProviderOutcome>((resolve) => {
    off = budget.onAbort(() =>
      resolve({ status: "timeout", code: "timeout", message: `timeout waiting for ${provider.name}` }),
    );
  });
  const running = provider.search(providerQuery(search), ctx, budget).catch((err): ProviderOutcome => {
    ctx.log(`provider ${provider.name} threw: ${err instanceof Error ? err.message : String(err)}`);
    return { status: "error", code: "provider_error", message: `${provider.name} failed unexpectedly` };
  });
  try {
    const outcome = await Promise.race([running, timedOut]);
    if (
      outcome.status === "timeout" ||
      (budget.ended() && outcome.status !== "ok" && outcome.status !== "empty")
    )
      return budget.cancelled()
        ? { status: "error", code: "cancelled", message: "the search was cancelled" }
        : { ...outcome, status: "timeout", code: "timeout" };
    return outcome;
  } finally {
    off?.();
  }
}

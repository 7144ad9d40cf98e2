import type { CallBudget } from "../core/call-budget.js";
import type { Attempt } from "../core/status.js";
import type { SafeSearch, TimeRange } from "./provider.js";
import { CODE_DOMAINS, type Scope, validateAllowedHosts } from "./scope.js";

export interface SearchOptions extends CallBudget {
  /** Results wanted: default 5, at most 20. */
  limit?: number;
  /** "auto" (default) or a provider name: a pinned provider is called alone and its failure is the answer. */
  provider?: string;
  region?: string;
  language?: string;
  safesearch?: SafeSearch;
  timeRange?: TimeRange;
  scope?: Scope;
  /** Extra hosts for one coding search (scope "code" only). */
  allowedHosts?: string[];
  /** false: skip the result cache for this call. */
  cache?: boolean;
  /** Providers `auto` must not call this time (ground runs Wikipedia as its own fallback). */
  exclude?: string[];
  /** Called after each provider step, e.g. for progress lines. */
  onAttempt?: (attempt: Attempt) => void;
}

export interface ValidSearch {
  query: string;
  limit: number;
  provider: string;
  region?: string;
  language?: string;
  safesearch?: SafeSearch;
  timeRange?: TimeRange;
  scope: Scope;
  /** Effective domain filter for scope "code" (coding domains plus allowed hosts). */
  codeDomains?: string[];
  allowedHostsAdded: string[];
}

const SAFE = ["off", "moderate", "strict"];
const TIMES = ["d", "w", "m", "y"];

/** Bad input is refused here, before any request, with a reason a model can act on. */
export function validateSearch(
  query: string,
  o: SearchOptions,
): { ok: true; value: ValidSearch } | { ok: false; reason: string } {
  const q = typeof query === "string" ? query.replace(/\s+/g, " ").trim() : "";
  if (!q) return { ok: false, reason: "the query is empty" };
  if (q.length > 2000) return { ok: false, reason: "the query is longer than 2000 characters" };
  const limit = o.limit ?? 5;
  if (!Number.isInteger(limit) || limit < 1 || limit > 20)
    return { ok: false, reason: "limit must be an integer from 1 to 20" };
  const scope = o.scope ?? "general";
  if (scope !== "general" && scope !== "code")
    return { ok: false, reason: `unknown scope "${String(scope)}" (use general or code)` };
  if (o.safesearch !== undefined && !SAFE.includes(o.safesearch))
    return { ok: false, reason: "safesearch must be off, moderate or strict" };
  if (o.timeRange !== undefined && !TIMES.includes(o.timeRange))
    return { ok: false, reason: "timeRange must be d, w, m or y" };
  if (o.region !== undefined && !/^[a-z]{2,3}-[a-z]{2,3}$/i.test(o.region))
    return { ok: false, reason: "region must look like us-en, de-de or wt-wt" };
  if (o.language !== undefined && !/^[a-z]{2,3}(-[a-z0-9]{2,8})?$/i.test(o.language))
    return { ok: false, reason: "language must be an ISO 639-1 code such as en or de" };
  const allowed = validateAllowedHosts(o.allowedHosts, scope);
  if (!allowed.ok) return { ok: false, reason: allowed.reason };
  return {
    ok: true,
    value: {
      query: q,
      limit,
      provider: (o.provider ?? "auto").toLowerCase(),
      region: o.region?.toLowerCase(),
      language: o.language?.toLowerCase(),
      safesearch: o.safesearch,
      timeRange: o.timeRange,
      scope,
      codeDomains: scope === "code" ? [...CODE_DOMAINS, ...allowed.hosts] : undefined,
      allowedHostsAdded: allowed.hosts,
    },
  };
}

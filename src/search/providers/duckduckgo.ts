import type { Deadline } from "../../core/deadline.js";
import type { Failure } from "../../core/status.js";
import type { Provider, ProviderContext, ProviderOutcome, ProviderQuery } from "../provider.js";
import { parseDuckDuckGoHtml, parseDuckDuckGoLite } from "../serp/duckduckgo-pages.js";
import { engineUrl, requestOnEngineHosts } from "../serp/engine-hosts.js";
import { parseRegion } from "../serp/locale.js";
import { httpStatusFailure, type SerpParse, serpOutcome } from "../serp/outcome.js";

export { parseDuckDuckGoHtml, parseDuckDuckGoLite };

export const DDG_FALLBACK_REGIONS = ["wt-wt", "us-en", "uk-en", "de-de"] as const;
export const DEFAULT_DDG_RETRY_DELAY_MS = 2000;
export const DEFAULT_DDG_COOLDOWN_MS = 30 * 60_000;
/** A second attempt is not started unless this much is left after the delay: a cut-off request still counts. */
const MIN_ATTEMPT_MS = 1000;
const MAX_ATTEMPTS = 2;

/** Store key of one region's cooldown; the value is `{ until }` (epoch ms). */
export const ddgCooldownKey = (region: string) => `duckduckgo:region-cooldown:${region}`;

interface Cooldown {
  until: number;
}

/** `[primary, wt-wt, us-en, uk-en, de-de]` without duplicates; a malformed primary is ignored. */
export function ddgRegionOrder(primary: string | undefined): string[] {
  const first = primary?.toLowerCase();
  const valid = first && /^[a-z]{2}-[a-z]{2,3}$/.test(first) ? [first] : [];
  return [...new Set([...valid, ...DDG_FALLBACK_REGIONS])];
}

const SAFE = { strict: "1", moderate: "-1", off: "-2" } as const;

interface Endpoint {
  url: string;
  parse(html: string): SerpParse;
}

// The first attempt uses the HTML endpoint; a challenged call retries on the Lite endpoint in the next region.
// Both changes together give the retry its best chance (DDG's bot check keys on more than the region), and the
// rule of two HTTP attempts per call holds whichever endpoint answers.
const HTML: Endpoint = { url: "https://html.duckduckgo.com/html/", parse: parseDuckDuckGoHtml };
const LITE: Endpoint = { url: "https://lite.duckduckgo.com/lite/", parse: parseDuckDuckGoLite };

/** The hosts of DDG's result pages; a redirect anywhere else is never read as DDG's results. */
const HOSTS = ["html.duckduckgo.com", "lite.duckduckgo.com", "duckduckgo.com"] as const;

// DDG answers a bot check with 202 (ddgs also saw 400 and 429 for the same state) whatever the body says.
const CHALLENGE_STATUSES = new Set([202, 400, 429]);

function formBody(query: ProviderQuery, region: string): string {
  const form = new URLSearchParams({ q: query.query, b: "", kl: region });
  if (query.timeRange) form.set("df", query.timeRange);
  if (query.safesearch) form.set("kp", SAFE[query.safesearch]);
  return form.toString();
}

async function attempt(
  endpoint: Endpoint,
  region: string,
  query: ProviderQuery,
  ctx: ProviderContext,
  deadline: Deadline,
): Promise<ProviderOutcome> {
  // POST, as the site's own form does: GET pages wrap every link in the uddg redirector, POST pages link directly.
  const place = parseRegion(region);
  const url = engineUrl("duckduckgo", HOSTS, endpoint.url);
  const pinned = await requestOnEngineHosts(
    "duckduckgo",
    HOSTS,
    url.href,
    {
      deadline,
      ...(place ? { locale: `${place.language}-${place.country}` } : {}),
      method: "POST",
      body: formBody(query, region),
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: url.origin,
        referer: url.href,
      },
    },
    ctx,
  );
  if (!pinned.ok) return pinned.failure;
  const res = pinned.res;
  if (CHALLENGE_STATUSES.has(res.status))
    return {
      status: "blocked",
      code: "challenge",
      message: `duckduckgo answered HTTP ${res.status} (bot challenge) in region ${region}`,
    };
  const failure = httpStatusFailure("duckduckgo", res);
  if (failure) return failure;
  return serpOutcome("duckduckgo", endpoint.parse(res.text()), query);
}

function numberSetting(settings: Record<string, unknown>, name: string, fallback: number): number {
  const value = settings[name];
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : fallback;
}

async function coolingRegions(ctx: ProviderContext, regions: string[]): Promise<Map<string, number>> {
  // Read together: on a shared store (Redis) that is one round trip before the request, not one per region.
  const entries = await Promise.all(regions.map((r) => ctx.store.get<Cooldown>(ddgCooldownKey(r))));
  const now = Date.now();
  const cooling = new Map<string, number>();
  regions.forEach((region, i) => {
    const entry = entries[i];
    if (entry && entry.until > now) cooling.set(region, entry.until);
  });
  return cooling;
}

function allRegionsCooling(cooling: Map<string, number>): Failure {
  const list = [...cooling].map(([region, until]) => `${region} until ${new Date(until).toISOString()}`);
  const soonest = Math.min(...cooling.values());
  return {
    status: "blocked",
    code: "all_regions_cooling",
    message: `duckduckgo: every region is cooling down after a challenge (${list.join(", ")})`,
    retryAfter: Math.max(1, Math.ceil((soonest - Date.now()) / 1000)),
  };
}

export const duckduckgo: Provider = {
  name: "duckduckgo",
  kind: "keyless",
  paid: false,
  // Fewer than 3 results and the other keyless engines are asked too.
  auto: { rank: 60, group: "keyless", lead: { thinBelow: 3 } },
  native: { region: true, safesearch: true, timeRange: true },
  cooldowns: "self",
  hosts: HOSTS,
  timeoutMs: 9000,
  readsFirst: (query) => ddgRegionOrder(query.region).map(ddgCooldownKey),
  async coolingOf(store) {
    const regions: string[] = [];
    let latest = 0;
    for (const region of new Set(["us-en", ...DDG_FALLBACK_REGIONS])) {
      const c = await store.get<Cooldown>(ddgCooldownKey(region));
      if (c && c.until > Date.now()) {
        regions.push(region);
        latest = Math.max(latest, c.until);
      }
    }
    return regions.length ? { until: latest, reason: `challenged in ${regions.join(", ")}` } : undefined;
  },
  async search(query, ctx, deadline) {
    const delayMs = numberSetting(ctx.settings, "ddgRetryDelayMs", DEFAULT_DDG_RETRY_DELAY_MS);
    const cooldownMs = numberSetting(ctx.settings, "ddgCooldownMs", DEFAULT_DDG_COOLDOWN_MS);
    const regions = ddgRegionOrder(query.region);
    const cooling = await coolingRegions(ctx, regions);
    const open = regions.filter((r) => !cooling.has(r));
    if (open.length === 0) return allRegionsCooling(cooling);

    let last: ProviderOutcome | undefined;
    const challenged: string[] = [];
    const unreadable: string[] = [];
    for (const [i, region] of open.slice(0, MAX_ATTEMPTS).entries()) {
      if (i > 0) {
        if (deadline.remaining() < delayMs + MIN_ATTEMPT_MS) break;
        if (!(await deadline.sleep(delayMs))) break;
      }
      const outcome = await attempt(i === 0 ? HTML : LITE, region, query, ctx, deadline);
      // A page matching no layout we know may be a changed layout or a challenge in new markup: Lite is laid out
      // apart from the HTML page, so it is tried once, and the region is not cooled for it. Results that ignore
      // the query end the call: that region answered, and another region would not read the query better.
      if (outcome.status === "error" && outcome.code === "unknown_page") {
        unreadable.push(region);
        last = outcome;
        continue;
      }
      if (outcome.status !== "blocked" || outcome.code === "soft_block") return outcome;
      await ctx.store.set<Cooldown>(ddgCooldownKey(region), { until: Date.now() + cooldownMs }, cooldownMs);
      ctx.log(
        `duckduckgo: region ${region} challenged (${outcome.code}); cooling for ${Math.round(cooldownMs / 1000)} s`,
      );
      challenged.push(region);
      last = outcome;
    }
    if (challenged.length + unreadable.length <= 1) return last!;
    if (challenged.length === 0)
      return {
        status: "error",
        code: "unknown_page",
        message: `duckduckgo: unrecognised page layout on both the html and the lite page (regions ${unreadable.join(" and ")})`,
      };
    return {
      status: "blocked",
      code: "challenge",
      message: `duckduckgo challenged region${challenged.length > 1 ? "s" : ""} ${challenged.join(" and ")}${
        unreadable.length ? ` (unrecognised page layout in ${unreadable.join(" and ")})` : ""
      }; each challenged region cools down for ${Math.round(cooldownMs / 60_000)} min`,
    };
  },
};

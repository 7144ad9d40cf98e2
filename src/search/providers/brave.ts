import type { z } from "zod";
import type { Deadline } from "../../core/deadline.js";
import { lazySchema } from "../../core/lazy-zod.js";
import { optionalLine } from "../../core/one-line.js";
import type { Failure } from "../../core/status.js";
import type { NetResponse } from "../../net/client.js";
import {
  badResponse,
  httpFailure,
  rateLimited,
  retryAfterSeconds,
  scrubbedLog,
} from "../../provider-http/http-errors.js";
import { anyField, listOf, maybe, maybeListOf, maybeText } from "../../provider-http/json-fields.js";
import { keyedJson } from "../../provider-http/keyed-json.js";
import { waitForSlot } from "../../store/slot-wait.js";
import type { Provider, ProviderContext, ProviderHit, ProviderOutcome, ProviderQuery } from "../provider.js";
import { cleanText } from "../serp/text.js";

const ENDPOINT = "https://api.search.brave.com/res/v1/web/search";
const DEFAULT_INTERVAL_MS = 1000;
/** A request fired with less than this left could not finish: it would only spend a slot and a credit. */
const MIN_REQUEST_MS = 300;

// Brave answers 422 VALIDATION for a country or language outside its lists, so only these are passed.
const COUNTRIES = new Set(
  "AR AU AT BE BR CA CL DK FI FR DE HK IN ID IT JP KR MY MX NL NZ NO CN PL PT PH RU SA ZA ES SE CH TW TR GB US".split(
    " ",
  ),
);
const LANGUAGES = new Set(
  "ar eu bn bg ca zh-hans zh-hant hr cs da nl en en-gb et fi fr gl de gu he hi hu is it jp kn ko lv lt ms ml mr nb pl pt-br pt-pt pa ro ru sr sk sl es sv ta te th tr uk vi".split(
    " ",
  ),
);
const LANGUAGE_ALIASES: Record<string, string> = { ja: "jp", zh: "zh-hans", pt: "pt-pt", no: "nb" };
const FRESHNESS = { d: "pd", w: "pw", m: "pm", y: "py" } as const;

export const brave: Provider = {
  name: "brave",
  kind: "keyed",
  paid: true,
  auto: { rank: 40 },
  keyEnv: ["BRAVE_API_KEY"],
  native: { region: true, language: true, safesearch: true, timeRange: true },
  timeoutMs: 5000,
  async search(query, ctx, deadline) {
    const log = scrubbedLog(ctx.log, [ctx.config.keys.BRAVE_API_KEY]);
    const answer = await keyedJson(
      {
        provider: "brave",
        keyEnv: brave.keyEnv,
        url: braveUrl(query),
        headers: (key) => ({ accept: "application/json", "x-subscription-token": key ?? "" }),
        before: () => queueForBrave(ctx, deadline),
        failure(res) {
          const failure = braveFailure(res);
          log(`brave: HTTP ${res.status} (${failure.code})`);
          return failure;
        },
      },
      ctx,
      deadline,
      (body) => parseBraveResponse(body, query.limit),
    );
    return answer.ok ? answer.value : answer.failure;
  },
};

/**
 * Brave's free plan allows one request a second: parallel agents queue here instead of earning 429s. A wait
 * that leaves no time for the request is answered locally, without one.
 */
async function queueForBrave(ctx: ProviderContext, deadline: Deadline): Promise<Failure | undefined> {
  const reserve = ctx.store.reserveSlot.bind(ctx.store);
  const slot = await waitForSlot(reserve, "rate:brave", braveIntervalMs(ctx), deadline, MIN_REQUEST_MS);
  if (slot.go) return undefined;
  if (slot.why === "too_far")
    return {
      ...rateLimited(
        "brave",
        Math.ceil(slot.waitMs / 1000),
        "local limiter: the next free slot is past the deadline",
      ),
      code: "local_rate_limit",
    };
  return {
    status: "timeout",
    code: "timeout",
    message: "brave: deadline reached while queued for the rate limit",
  };
}

/** BRAVE_RATE_PER_SEC / `braveRatePerSec` reach it in `settings`, where the loader puts the plan's rate. */
export function braveIntervalMs(ctx: Pick<ProviderContext, "settings">): number {
  const perSec = Number(ctx.settings.braveRatePerSec);
  return Number.isFinite(perSec) && perSec > 0 ? Math.ceil(1000 / perSec) : DEFAULT_INTERVAL_MS;
}

export function braveUrl(query: ProviderQuery): string {
  const url = new URL(ENDPOINT);
  const p = url.searchParams;
  p.set("q", query.query);
  p.set("count", String(Math.min(Math.max(query.limit, 1), 20)));
  const [regionCountry, regionLang] = (query.region ?? "").toLowerCase().split("-");
  const country = regionCountry === "uk" ? "GB" : regionCountry?.toUpperCase();
  if (country && COUNTRIES.has(country)) p.set("country", country);
  const lang = braveLanguage(query.language ?? regionLang);
  if (lang) p.set("search_lang", lang);
  if (query.safesearch) p.set("safesearch", query.safesearch);
  if (query.timeRange) p.set("freshness", FRESHNESS[query.timeRange]);
  p.set("text_decorations", "false");
  return url.href;
}

function braveLanguage(code: string | undefined): string | undefined {
  if (!code) return undefined;
  const lower = code.toLowerCase();
  const mapped = LANGUAGE_ALIASES[lower] ?? lower;
  return LANGUAGES.has(mapped) ? mapped : undefined;
}

const BraveResult = lazySchema((z) =>
  z.object({
    title: maybeText(),
    url: z.string(),
    description: maybeText(),
    extra_snippets: maybeListOf(z.string()),
    page_age: maybeText(),
  }),
);
const BraveResponse = lazySchema((z) => z.object({ type: anyField(), web: anyField() }));
const BraveWeb = lazySchema((z) => z.object({ results: listOf(BraveResult()) }));

export function parseBraveResponse(body: unknown, limit = 20): ProviderOutcome {
  const b = BraveResponse().safeParse(body).data;
  const web = b?.web === undefined ? undefined : BraveWeb().safeParse(b.web).data;
  if (b?.web !== undefined && !web) return badResponse("brave", "web results that are not a list");
  // Brave leaves `web` out when nothing matched; that is "no results" only in a search response.
  if (b?.web === undefined && b?.type !== "search")
    return badResponse("brave", "JSON that is not a search response");
  const hits: ProviderHit[] = [];
  for (const r of web?.results ?? []) {
    if (!/^https?:\/\//i.test(r.url)) continue;
    const description = r.description ?? r.extra_snippets[0] ?? "";
    hits.push({
      title: plainText(r.title ?? r.url),
      url: r.url,
      snippet: optionalLine(plainText(description), 600) ?? "",
      ...(r.page_age !== undefined ? { date: r.page_age } : {}),
    });
    if (hits.length >= limit) break;
  }
  return hits.length > 0 ? { status: "ok", hits } : { status: "empty" };
}

/**
 * Brave text may carry `<strong>` decorations and entities (`&#x27;`) even in its JSON. Tags go first, so an
 * escaped `&lt;b&gt;` survives as the text it is. (A DOM parser per snippet cost 15 ms a page.)
 */
function plainText(html: string): string {
  return cleanText(html.replace(/<\/?[a-z][^>]*>/gi, ""));
}

const BraveError = lazySchema((z) =>
  z.object({
    code: maybeText(),
    detail: anyField(),
    meta: maybe(z.object({ errors: maybeListOf(z.object({ loc: maybe(z.array(z.unknown())) })) })),
  }),
);
const BraveErrorBody = lazySchema((z) =>
  z.object({ errors: maybe(z.array(z.unknown())), error: anyField() }),
);

/** Brave documents `errors: [...]` but clients see a singular `error: {...}` too. */
function braveError(body: unknown): z.output<ReturnType<typeof BraveError>> | undefined {
  const b = BraveErrorBody().safeParse(body).data;
  const error = [b?.errors?.[0], b?.error].find((e) => e && typeof e === "object");
  return BraveError().safeParse(error).data;
}

export function braveFailure(res: NetResponse): Failure {
  const error = braveError(res.json());
  const code = error?.code;
  const detail = optionalLine(error?.detail, 200);
  const missingKey = error?.meta?.errors.some((e) => e.loc?.map(String).includes("x-subscription-token"));
  if (code === "SUBSCRIPTION_TOKEN_INVALID" || missingKey)
    return {
      status: "error",
      code: "key_rejected",
      message: `brave: key rejected (${code ?? "VALIDATION"})`,
    };
  if (code === "SUBSCRIPTION_NOT_FOUND")
    return {
      status: "error",
      code: "key_rejected",
      message: "brave: key rejected (no subscription for this key)",
    };
  // X-RateLimit-Reset holds "per-second, per-month" seconds until each window resets.
  const resets = (res.headers["x-ratelimit-reset"] ?? "")
    .split(",")
    .filter((s) => s.trim() !== "")
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isFinite(n) && n >= 0);
  if (code === "QUOTA_LIMITED") {
    const until = resets.length > 0 ? resets[resets.length - 1] : undefined;
    return {
      status: "quota",
      code: "quota",
      message: `brave: monthly quota exhausted${until !== undefined ? `; resets in ${until}s` : ""}`,
      ...(until !== undefined ? { retryAfter: until } : {}),
    };
  }
  if (code === "RATE_LIMITED" || res.status === 429) {
    const wait = resets.length > 0 ? Math.max(1, resets[0]) : retryAfterSeconds(res.headers);
    return rateLimited("brave", wait, code);
  }
  return httpFailure("brave", res, detail ?? code);
}

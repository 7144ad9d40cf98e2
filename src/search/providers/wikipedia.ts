import type { Deadline } from "../../core/deadline.js";
import type { Failure } from "../../core/status.js";
import { badResponse } from "../../provider-http/http-errors.js";
import { unreachable } from "../failure-summary.js";
import type { Provider, ProviderContext, ProviderOutcome, ProviderQuery } from "../provider.js";
import { engineUrl, requestOnEngineHosts } from "../serp/engine-hosts.js";
import { httpStatusFailure } from "../serp/outcome.js";
import { cleanText } from "../serp/text.js";
import { absoluteHttpUrl } from "../serp/unwrap.js";

/** Every language's wiki, and nothing else: the language is one host label, never a way elsewhere. */
const HOSTS = ["*.wikipedia.org"] as const;

/** A URL on the `lang` wiki; `rest` is the path and query. */
function wikiUrl(lang: string, rest: string): string {
  return engineUrl("wikipedia", HOSTS, `https://${lang}.wikipedia.org${rest}`).href;
}

/** Below this much time left, no request is fired: it could not finish, and Wikimedia counts it all the same. */
export const WIKIPEDIA_MIN_REQUEST_MS = 500;

// Wikimedia's policy asks for a descriptive User-Agent with a way to reach the operator; generic library
// agents get 403/429. Operators can put their own contact in settings.wikipediaUserAgent.
export const DEFAULT_USER_AGENT =
  "websift/0.1 (web search and reading toolkit for LLM agents; https://www.npmjs.com/package/websift)";

// Languages whose Wikipedia is written in a non-Latin script: a query typed in ASCII letters belongs on English.
const NON_LATIN = new Set(
  (
    "am ar as be bg bn bo dv el fa gu he hi hy ja ka kk km kn ko ky lo mk ml mn mr my ne or pa ps ru sa sd si " +
    "sr ta te tg th ti ug uk ur yi zh"
  ).split(" "),
);

/** The wiki to ask: `query.language` when it is a plausible code, English otherwise or for ASCII queries in non-Latin wikis. */
export function wikipediaLanguage(query: Pick<ProviderQuery, "query" | "language">): string {
  const code = query.language?.toLowerCase().trim() ?? "";
  if (!/^([a-z]{2,3}(-[a-z]{2,8})?|simple)$/.test(code)) return "en";
  if (NON_LATIN.has(code.split("-")[0])) {
    const letters = query.query.match(/\p{L}/gu) ?? [];
    const ascii = letters.filter((c) => /[a-z]/i.test(c)).length;
    if (letters.length > 0 && ascii / letters.length >= 0.8) return "en";
  }
  return code;
}

/** `[query, [titles], [descriptions], [urls]]` ⇒ the first title. */
export function titleFromOpenSearch(payload: unknown): string | undefined {
  if (!Array.isArray(payload) || !Array.isArray(payload[1])) return undefined;
  const first = payload[1][0];
  return typeof first === "string" && first.trim() ? first.trim() : undefined;
}

/** `list=search` ⇒ the first hit's title. */
export function titleFromSearch(payload: unknown): string | undefined {
  const hits = (payload as { query?: { search?: unknown } } | null)?.query?.search;
  if (!Array.isArray(hits)) return undefined;
  const title = (hits[0] as { title?: unknown } | undefined)?.title;
  return typeof title === "string" && title.trim() ? title.trim() : undefined;
}

export interface WikipediaSummary {
  title: string;
  extract: string;
  url?: string;
}

/** The REST summary of a real article; disambiguation, main page and extract-less pages are no answer. */
export function summaryFromRest(payload: unknown): WikipediaSummary | undefined {
  if (!payload || typeof payload !== "object") return undefined;
  const s = payload as Record<string, unknown>;
  if (s.type !== "standard" || typeof s.extract !== "string" || typeof s.title !== "string") return undefined;
  const extract = cleanText(s.extract);
  if (!extract) return undefined;
  const page = (s.content_urls as { desktop?: { page?: unknown } } | undefined)?.desktop?.page;
  const url = typeof page === "string" ? absoluteHttpUrl(page) : undefined;
  return { title: cleanText(s.title), extract, ...(url ? { url } : {}) };
}

type Fetched = { ok: true; payload: unknown; status: number } | { ok: false; failure: Failure };

/**
 * One API call. Its HTTP outcome decides first: a refusal, a rate limit or a server error is a failure of its own,
 * never "nothing found"; a 200 must carry JSON. `notFoundOk`: the REST summary's 404 is its well-formed "no such
 * article".
 */
async function getJson(
  url: string,
  ctx: ProviderContext,
  deadline: Deadline,
  notFoundOk = false,
): Promise<Fetched> {
  if (deadline.remaining() < WIKIPEDIA_MIN_REQUEST_MS)
    return {
      ok: false,
      failure: {
        status: "timeout",
        code: "deadline",
        message: `wikipedia: less than ${WIKIPEDIA_MIN_REQUEST_MS} ms left, no request sent`,
      },
    };
  const userAgent =
    typeof ctx.settings.wikipediaUserAgent === "string"
      ? ctx.settings.wikipediaUserAgent
      : DEFAULT_USER_AGENT;
  const pinned = await requestOnEngineHosts(
    "wikipedia",
    HOSTS,
    url,
    { deadline, headers: { "user-agent": userAgent, accept: "application/json" } },
    ctx,
  );
  if (!pinned.ok) return { ok: false, failure: pinned.failure };
  const res = pinned.res;
  if (notFoundOk && res.status === 404) return { ok: true, payload: undefined, status: 404 };
  const failure = httpStatusFailure("wikipedia", res);
  if (failure) return { ok: false, failure };
  const payload = res.json();
  if (payload === undefined)
    return { ok: false, failure: badResponse("wikipedia", "a body that is not JSON") };
  return { ok: true, payload, status: res.status };
}

type Lookup = { summary: Required<WikipediaSummary> } | { miss: true } | { failure: Failure };

/** The API's answer to a title search: a title, well-formed with no title (a miss), or a failure. */
function titleOf(
  fetched: Fetched,
  read: (payload: unknown) => string | undefined,
  wellFormed: (payload: unknown) => boolean,
): { title?: string } | { failure: Failure } {
  if (!fetched.ok) return { failure: fetched.failure };
  if (!wellFormed(fetched.payload))
    return { failure: badResponse("wikipedia", "an API answer in an unknown shape") };
  return { title: read(fetched.payload) };
}

const isOpenSearch = (p: unknown) => Array.isArray(p) && Array.isArray(p[1]);
const isFullTextSearch = (p: unknown) =>
  Array.isArray((p as { query?: { search?: unknown } } | null)?.query?.search);

async function lookup(lang: string, text: string, ctx: ProviderContext, deadline: Deadline): Promise<Lookup> {
  const api = (params: Record<string, string>) => wikiUrl(lang, `/w/api.php?${new URLSearchParams(params)}`);
  const opensearch = titleOf(
    await getJson(
      api({
        action: "opensearch",
        search: text,
        limit: "1",
        namespace: "0",
        redirects: "resolve",
        format: "json",
      }),
      ctx,
      deadline,
    ),
    titleFromOpenSearch,
    isOpenSearch,
  );
  // Only a server error or a garbled answer may be one endpoint's trouble; a refusal, a rate limit, a spent
  // deadline or an unreachable host stands, as the full-text search would meet it too.
  if (
    "failure" in opensearch &&
    (opensearch.failure.status !== "error" || unreachable(opensearch.failure.code))
  )
    return { failure: opensearch.failure };
  let title = "title" in opensearch ? opensearch.title : undefined;
  if (!title) {
    // Opensearch matches title prefixes, so verbose questions find nothing there; full-text search does, and it
    // stands in for an opensearch that failed. Only its well-formed answer with no hit is a miss.
    const search = titleOf(
      await getJson(
        api({
          action: "query",
          list: "search",
          srsearch: text,
          srlimit: "1",
          srprop: "",
          format: "json",
          formatversion: "2",
        }),
        ctx,
        deadline,
      ),
      titleFromSearch,
      isFullTextSearch,
    );
    if ("failure" in search) return { failure: search.failure };
    title = search.title;
  }
  if (!title) return { miss: true };
  const path = encodeURIComponent(title.replaceAll(" ", "_"));
  const rest = await getJson(wikiUrl(lang, `/api/rest_v1/page/summary/${path}`), ctx, deadline, true);
  if (!rest.ok) return { failure: rest.failure };
  const summary = rest.status === 404 ? undefined : summaryFromRest(rest.payload);
  if (!summary) return { miss: true };
  return { summary: { ...summary, url: summary.url ?? `https://${lang}.wikipedia.org/wiki/${path}` } };
}

export const wikipedia: Provider = {
  name: "wikipedia",
  kind: "keyless",
  paid: false,
  auto: { rank: 90 },
  native: { language: true },
  hosts: HOSTS,
  timeoutMs: 5000,
  async search(query, ctx, deadline): Promise<ProviderOutcome> {
    const lang = wikipediaLanguage(query);
    let found = await lookup(lang, query.query, ctx, deadline);
    // A miss on a localised wiki gets one more chance on English, which has by far the most articles.
    if ("miss" in found && lang !== "en") found = await lookup("en", query.query, ctx, deadline);
    if ("failure" in found) return found.failure;
    if ("miss" in found) return { status: "empty", note: "no Wikipedia article matched the query" };
    const { title, extract, url } = found.summary;
    return {
      status: "ok",
      hits: [{ title, url, snippet: extract }],
      answer: { kind: "summary", text: extract, source: "Wikipedia", url, modelGenerated: false },
    };
  },
};

import type { Deadline } from "../../core/deadline.js";
import { lazySchema } from "../../core/lazy-zod.js";
import { oneLine } from "../../core/one-line.js";
import type { Failure } from "../../core/status.js";
import { INLINE_BELOW_CHARS, runOnPool } from "../page-pool.js";
import { API_USER_AGENT, fetchSite, parseSiteJson } from "./site-json.js";
import type { SiteReader } from "./site-reader.js";
import { readerDrift, siteNotFound } from "./site-reader.js";
import type { Article } from "./wikipedia-article.js";

/** Which article a URL names, on which language's wiki. */
export interface WikipediaTarget {
  /** The wiki's language subdomain ("en", "de", "zh-yue", "simple"). */
  wiki: string;
  page?: string;
  oldid?: string;
  curid?: string;
}

// A language subdomain; `www` (the portal) and `m` (the mobile portal) are not wikis.
const WIKI = /^(?:[a-z]{2,3}(?:-[a-z0-9]{2,8})*|simple)$/;
// Pages the parse API cannot render: special pages and media files' own namespace.
const UNPARSABLE = /^(special|media):/i;
const NUMBER = /^\d{1,12}$/;
/** The API's share of the read's time; the rest is the generic rungs' if the API fails. */
const WIKIPEDIA_API_MS = 10_000;

/**
 * `https://<lang>.wikipedia.org/wiki/<title>` (or the `<lang>.m.` mobile host), `/w/index.php?title=…`, with
 * `oldid` for one revision and `curid` for a page id; edits, histories and diffs stay with the generic ladder.
 */
export function wikipediaTarget(url: URL): WikipediaTarget | undefined {
  const labels = url.hostname.toLowerCase().split(".");
  const mobile = labels.length === 4 && labels[1] === "m";
  if (labels.length !== (mobile ? 4 : 3) || labels.at(-2) !== "wikipedia" || labels.at(-1) !== "org")
    return undefined;
  const wiki = labels[0]!;
  if (wiki === "www" || wiki === "m" || !WIKI.test(wiki)) return undefined;
  const q = url.searchParams;
  const action = q.get("action");
  if ((action && action !== "view") || q.has("diff")) return undefined;
  const oldid = q.get("oldid") ?? undefined;
  const curid = q.get("curid") ?? undefined;
  if ((oldid && !NUMBER.test(oldid)) || (curid && !NUMBER.test(curid))) return undefined;
  let page: string | undefined;
  try {
    if (url.pathname.startsWith("/wiki/")) page = decodeURIComponent(url.pathname.slice(6));
    else if (url.pathname === "/w/index.php") page = q.get("title") ?? undefined;
    else return undefined;
  } catch {
    return undefined;
  }
  page = page?.replaceAll("_", " ").trim() || undefined;
  if (page && UNPARSABLE.test(page)) return undefined;
  if (!page && !oldid && !curid) return undefined;
  return { wiki, ...(page ? { page } : {}), ...(oldid ? { oldid } : {}), ...(curid ? { curid } : {}) };
}

/** The parse API's answer with `formatversion=2` (MediaWiki's API:Parsing wikitext). */
const ParseAnswer = lazySchema((z) =>
  z.object({
    parse: z.object({
      title: z.string(),
      revid: z.number().optional().catch(undefined),
      text: z.string(),
      displaytitle: z.string().optional().catch(undefined),
      redirects: z
        .array(z.object({ from: z.string(), to: z.string(), tofragment: z.string().optional() }))
        .optional()
        .catch(undefined),
    }),
  }),
);

/** The API's error answer, in place of `parse`. */
const ErrorAnswer = lazySchema((z) =>
  z.object({ error: z.object({ code: z.string(), info: z.string().optional().catch(undefined) }) }),
);

/** Wikis whose subdomain is not their language's BCP 47 tag (the pages' own `lang`). */
const LANGUAGE_OF_WIKI: Record<string, string> = {
  simple: "en",
  no: "nb",
  als: "gsw",
  "zh-yue": "yue",
  "zh-min-nan": "nan",
  "zh-classical": "lzh",
  "be-x-old": "be-tarask",
  "bat-smg": "sgs",
  "fiu-vro": "vro",
  "roa-rup": "rup",
  "nds-nl": "nds-NL",
};

/** The API's errors for a page, revision or id that does not exist. */
const MISSING = new Set(["missingtitle", "nosuchpageid", "nosuchrevid", "invalidtitle", "missingcontent"]);

export const wikipedia: SiteReader = {
  name: "wikipedia",
  hosts: ["*.wikipedia.org"],
  takes: (url) => wikipediaTarget(url) !== undefined,
  async read(url, ctx, deadline) {
    const target = wikipediaTarget(url)!;
    const host = `${target.wiki}.wikipedia.org`;
    const params = new URLSearchParams({
      action: "parse",
      format: "json",
      formatversion: "2",
      redirects: "1",
      prop: "text|displaytitle|revid",
      disableeditsection: "1",
      disabletoc: "1",
    });
    if (target.oldid) params.set("oldid", target.oldid);
    else if (target.curid) params.set("pageid", target.curid);
    else params.set("page", target.page!);
    const apiUrl = `https://${host}/w/api.php?${params}`;
    const got = await fetchSite(apiUrl, ctx, deadline.child(WIKIPEDIA_API_MS), {
      headers: { accept: "application/json", "user-agent": API_USER_AGENT },
    });
    if (!got.ok) return got;
    const body = got.res.json();
    const refused = ErrorAnswer().safeParse(body);
    if (refused.success) {
      const { code, info } = refused.data.error;
      const message = `wikipedia: ${oneLine(info ?? code, 200)} (${code})`;
      if (MISSING.has(code)) return siteNotFound(message);
      const limited = code === "ratelimited" || code === "maxlag";
      return { ok: false, status: limited ? "rate_limited" : "error", code: "api_error", message };
    }
    const parsed = parseSiteJson("wikipedia", apiUrl, body, ParseAnswer);
    if (!parsed.ok) return parsed;
    const article = parsed.value.parse;
    const articleUrl = pageUrl(
      host,
      article.title,
      target.oldid ? String(article.revid ?? target.oldid) : undefined,
    );
    const text = await articleText(article.text, article.displaytitle, articleUrl, deadline);
    if (!text.ok) return text;
    if (!text.markdown.trim()) return readerDrift("wikipedia", "parse.text held no article text");
    const title = text.title || article.title;
    const fragment = article.redirects?.at(-1)?.tofragment;
    const finalUrl = fragment
      ? `${articleUrl}#${encodeURIComponent(fragment.replaceAll(" ", "_"))}`
      : articleUrl;
    return {
      ok: true,
      title,
      markdown: `# ${title}\n\n${text.markdown}`,
      links: text.links,
      via: `${host} parse API`,
      lang: LANGUAGE_OF_WIKI[target.wiki] ?? target.wiki,
      ...(sameArticle(url, finalUrl) ? {} : { finalUrl }),
    };
  },
};

/** A long article's parser output is megabytes: past the pool's threshold it is read off the event loop. */
async function articleText(
  html: string,
  displaytitle: string | undefined,
  url: string,
  deadline: Deadline,
): Promise<({ ok: true } & Article) | ({ ok: false } & Failure)> {
  if (html.length < INLINE_BELOW_CHARS) {
    // Loaded with the first article: importing websift need not load the HTML parser and renderer.
    const { articleMarkdown } = await import("./wikipedia-article.js");
    return { ok: true, ...(await articleMarkdown(html, displaytitle, url)) };
  }
  const task = { html, displaytitle, url };
  const ran = await runOnPool<Article>("wikipediaArticle", task, deadline, "reading the article");
  return ran.ok ? { ok: true, ...ran.value } : ran;
}

/** The article's canonical URL on the desktop host; a revision's as `index.php?oldid=`. */
function pageUrl(host: string, title: string, revid?: string): string {
  const path = encodeURIComponent(title.replaceAll(" ", "_")).replace(/%2F/g, "/").replace(/%3A/g, ":");
  return revid ? `https://${host}/w/index.php?title=${path}&oldid=${revid}` : `https://${host}/wiki/${path}`;
}

function sameArticle(asked: URL, final: string): boolean {
  try {
    const f = new URL(final);
    return (
      asked.hostname === f.hostname &&
      decodeURIComponent(asked.pathname) === decodeURIComponent(f.pathname) &&
      asked.search === f.search
    );
  } catch {
    return false;
  }
}

import type { Provider } from "../provider.js";
import { hitsIn, loadSerp } from "../serp/dom.js";
import { localeOf } from "../serp/locale.js";
import type { SerpParse } from "../serp/outcome.js";
import { scrapedEngine } from "../serp/scraped-engine.js";
import { cleanText } from "../serp/text.js";
import { absoluteHttpUrl } from "../serp/unwrap.js";

/**
 * Startpage blocks with an Anubis proof-of-work page ("Verifying your request...") that a browser solves by itself
 * and an HTTP client cannot, or (older) by redirecting to `/sp/captcha`. `finalUrl` carries that redirect.
 */
export function parseStartpage(html: string, finalUrl = ""): SerpParse {
  if (/\/sp\/captcha\b/.test(finalUrl)) return { kind: "blocked", reason: "redirected to /sp/captcha" };
  const $ = loadSerp(html);
  if ($("script#anubis_challenge, script#anubis_version").length > 0)
    return { kind: "blocked", reason: "Anubis proof-of-work challenge" };
  return hitsIn($, "div.result", (block) => {
    const link = block.find("a.result-title, a.result-link").first();
    const url = absoluteHttpUrl(link.attr("href"));
    const heading = link.find("h2");
    const title = cleanText((heading.length > 0 ? heading : link).text());
    // Anonymous View links point at Startpage's own proxy, not at the result.
    if (!url || !title || new URL(url).hostname.endsWith("startpage.com")) return undefined;
    return { title, url, snippet: cleanText(block.find("p.description").first().text()) };
  });
}

const HOSTS = ["www.startpage.com", "startpage.com"] as const;

const SAFE = { off: "none", moderate: "moderate", strict: "heavy" } as const;

export const startpage: Provider = scrapedEngine({
  name: "startpage",
  hosts: HOSTS,
  endpoint: "https://www.startpage.com/sp/search",
  native: { safesearch: true, timeRange: true },
  auto: { rank: 63, group: "keyless" },
  parse: parseStartpage,
  request(query, url) {
    url.searchParams.set("query", query.query);
    url.searchParams.set("cat", "web");
    if (query.timeRange) url.searchParams.set("with_date", query.timeRange);
    if (query.safesearch) url.searchParams.set("qadf", SAFE[query.safesearch]);
    const locale = localeOf(query);
    return locale ? { locale } : {};
  },
});

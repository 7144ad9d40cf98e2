import type { Provider } from "../provider.js";
import { hitsIn, loadSerp } from "../serp/dom.js";
import { localeOf, parseRegion } from "../serp/locale.js";
import type { SerpParse } from "../serp/outcome.js";
import { scrapedEngine } from "../serp/scraped-engine.js";
import { cleanText, isoDay } from "../serp/text.js";
import { absoluteHttpUrl } from "../serp/unwrap.js";

/**
 * The Brave Search web page (not the API). Its SvelteKit class names change per deploy, so results are found by
 * `div.snippet[data-type=web]`; clusters (videos, news) carry no data-type and are skipped. Blocks: the
 * proof-of-work captcha page (recognised by its title) and HTTP 429.
 */
export function parseBraveWeb(html: string): SerpParse {
  const $ = loadSerp(html);
  if (/PoW Captcha/i.test($("title").first().text()))
    return { kind: "blocked", reason: "proof-of-work captcha page" };
  return hitsIn($, 'div.snippet[data-type="web"]', (block) => {
    const titled = block.find("a.l1[href]").first();
    const link = titled.length > 0 ? titled : block.find('a[href^="http"]').first();
    const url = absoluteHttpUrl(link.attr("href"));
    const heading = block.find(".title").first();
    const title = cleanText(heading.attr("title") ?? heading.text());
    if (!url || !title) return undefined;
    const content = block.find(".generic-snippet .content").first().clone();
    const age = cleanText(content.find(".t-secondary").first().text());
    content.find(".t-secondary").remove();
    const date = isoDay(age);
    return { title, url, snippet: cleanText(content.text()), ...(date ? { date } : {}) };
  });
}

const HOSTS = ["search.brave.com"] as const;

const FRESHNESS = { d: "pd", w: "pw", m: "pm", y: "py" } as const;

export const braveWeb: Provider = scrapedEngine({
  name: "brave-web",
  hosts: HOSTS,
  endpoint: "https://search.brave.com/search",
  native: { region: true, safesearch: true, timeRange: true },
  auto: { rank: 64, group: "keyless" },
  parse: parseBraveWeb,
  request(query, url) {
    url.searchParams.set("q", query.query);
    url.searchParams.set("source", "web");
    if (query.timeRange) url.searchParams.set("tf", FRESHNESS[query.timeRange]);
    // Brave keeps preferences in cookies, not in the URL.
    const cookies = ["useLocation=0", "summarizer=0"];
    if (query.safesearch) cookies.push(`safesearch=${query.safesearch}`);
    const region = parseRegion(query.region);
    if (region) cookies.push(`country=${region.country.toLowerCase()}`);
    const locale = localeOf(query);
    return { headers: { cookie: cookies.join("; ") }, ...(locale ? { locale } : {}) };
  },
});

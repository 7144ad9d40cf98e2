import type { Provider, TimeRange } from "../provider.js";
import { hitsIn, loadSerp } from "../serp/dom.js";
import type { SerpParse } from "../serp/outcome.js";
import { scrapedEngine } from "../serp/scraped-engine.js";
import { cleanText } from "../serp/text.js";
import { absoluteHttpUrl } from "../serp/unwrap.js";

/**
 * Mojeek's ALTCHA page keeps the full site chrome and answers 200, so it is told apart by its title and the
 * `captcha-wrap` block. No capture of a Mojeek no-results page exists, so a page without results is never `empty`.
 */
export function parseMojeek(html: string): SerpParse {
  const $ = loadSerp(html);
  if ($(".captcha-wrap").length > 0 || /^\s*captcha\s*$/i.test($("title").first().text()))
    return { kind: "blocked", reason: "ALTCHA captcha page" };
  return hitsIn($, "ul.results-standard > li", (block) => {
    const link = block.find("h2 > a").first();
    const url = absoluteHttpUrl(link.attr("href"));
    const title = cleanText(link.text());
    if (url && title) return { title, url, snippet: cleanText(block.find("p.s").first().text()) };
  });
}

const HOSTS = ["www.mojeek.com", "mojeek.com"] as const;

const RANGE_DAYS: Record<TimeRange, number> = { d: 1, w: 7, m: 31, y: 366 };

/** Mojeek filters time with `since=YYYYMMDD`. */
function sinceDate(range: TimeRange, now = Date.now()): string {
  return new Date(now - RANGE_DAYS[range] * 86_400_000).toISOString().slice(0, 10).replaceAll("-", "");
}

export const mojeek: Provider = scrapedEngine({
  name: "mojeek",
  hosts: HOSTS,
  endpoint: "https://www.mojeek.com/search",
  native: { safesearch: true, timeRange: true },
  auto: { rank: 62, group: "keyless" },
  parse: parseMojeek,
  request(query, url) {
    url.searchParams.set("q", query.query);
    // No `s` on page 1: SearXNG found that sending it trips Mojeek's rate limiter.
    if (query.safesearch && query.safesearch !== "off") url.searchParams.set("safe", "1");
    if (query.timeRange) url.searchParams.set("since", sinceDate(query.timeRange));
    return undefined;
  },
});

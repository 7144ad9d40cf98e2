import type { Provider, ProviderHit } from "../provider.js";
import { loadSerp } from "../serp/dom.js";
import { localeOf } from "../serp/locale.js";
import type { SerpParse } from "../serp/outcome.js";
import { scrapedEngine } from "../serp/scraped-engine.js";
import { cleanText, isoDay } from "../serp/text.js";
import { unwrapBing } from "../serp/unwrap.js";

// Bing's hard block keeps the normal header and search box and even the "<q> - Search" title: only the missing
// #b_results and the Turnstile widget tell it apart from a results page.
const CHALLENGE_SELECTOR =
  '#turnstile-widget, .captcha_header, div.captcha, form[action*="/challenge/verify"]';

export function parseBing(html: string): SerpParse {
  const $ = loadSerp(html);
  if ($(CHALLENGE_SELECTOR).length > 0 || html.includes("/challenge/verify?"))
    return { kind: "blocked", reason: "Turnstile challenge (One last step)" };
  const list = $("#b_results").first();
  if (list.length === 0) return { kind: "unrecognised", reason: "no #b_results on the page" };
  const hits: ProviderHit[] = [];
  list.children("li.b_algo").each((_, el) => {
    const block = $(el);
    // Two title layouts: classic `h2 > a`, and (2025) `div.b_algoheader > a > h2`.
    const link = block.find("h2 a, .b_algoheader a").first();
    const url = unwrapBing(link.attr("href"));
    const heading = link.find("h2");
    const title = cleanText((heading.length > 0 ? heading : link).text());
    if (!url || !title) return;
    const paragraph = block.find(".b_caption p").first();
    const caption = (paragraph.length > 0 ? paragraph : block.find(".b_caption").first()).clone();
    caption.find(".algoSlug_icon").remove();
    const date = isoDay(caption.find(".news_dt").text());
    caption.find(".news_dt").remove();
    const snippet = cleanText(caption.text()).replace(/^[·\s]+/, "");
    hits.push({ title, url, snippet, ...(date ? { date } : {}) });
  });
  if (hits.length > 0) return { kind: "results", hits };
  if (list.children("li.b_no").length > 0) return { kind: "empty" };
  return { kind: "unrecognised", reason: "#b_results without results or a no-results block" };
}

const HOSTS = ["www.bing.com"] as const;

const ADULT = { off: "off", moderate: "moderate", strict: "strict" } as const;

export const bing: Provider = scrapedEngine({
  name: "bing",
  hosts: HOSTS,
  endpoint: "https://www.bing.com/search",
  native: { region: true, language: true, safesearch: true },
  auto: { rank: 61, group: "keyless" },
  parse: parseBing,
  request(query, url) {
    url.searchParams.set("q", query.query);
    const locale = localeOf(query);
    if (locale?.includes("-")) url.searchParams.set("mkt", locale);
    if (query.language) url.searchParams.set("setlang", query.language);
    if (query.safesearch) url.searchParams.set("adlt", ADULT[query.safesearch]);
    return locale ? { locale } : {};
  },
});

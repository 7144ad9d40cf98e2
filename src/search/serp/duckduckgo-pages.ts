import type { CheerioAPI } from "cheerio";
import type { ProviderHit } from "../provider.js";
import { loadSerp } from "./dom.js";
import type { SerpParse } from "./outcome.js";
import { cleanText, isoDay } from "./text.js";
import { isDuckDuckGoAd, unwrapDuckDuckGo } from "./unwrap.js";

type Page = CheerioAPI;

// DDG serves its challenge with 202 and sometimes with 200, so the markup decides, never the status alone.
const CHALLENGE_SELECTOR = [
  "form#challenge-form",
  "form#img-form",
  ".anomaly-modal__mask",
  '[data-testid="anomaly-modal"]',
  'form[action*="anomaly.js"]',
  'script[src*="anomaly.js"]',
].join(", ");

export function isDuckDuckGoChallenge($: Page): boolean {
  return $(CHALLENGE_SELECTOR).length > 0;
}

/** A result link worth returning: unwrapped from uddg, not an ad click. */
function targetOf(href: string | undefined): string | undefined {
  const url = unwrapDuckDuckGo(href);
  return url && !isDuckDuckGoAd(url) ? url : undefined;
}

function classify(hits: ProviderHit[], noResults: boolean): SerpParse {
  if (hits.length > 0) return { kind: "results", hits };
  if (noResults) return { kind: "empty" };
  return { kind: "blocked", code: "unknown_page", reason: "neither results nor a no-results block" };
}

/** `html.duckduckgo.com/html/`: organic `div.result` blocks; ads (`result--ad`) and y.js targets dropped. */
export function parseDuckDuckGoHtml(html: string): SerpParse {
  const $ = loadSerp(html);
  if (isDuckDuckGoChallenge($)) return { kind: "blocked", reason: "anomaly challenge page" };
  const hits: ProviderHit[] = [];
  let noResults = $(".no-results").length > 0;
  $("div.result").each((_, el) => {
    const block = $(el);
    if (block.hasClass("result--no-result")) {
      noResults = true;
      return;
    }
    if (block.hasClass("result--ad")) return;
    const link = block.find("a.result__a").first();
    const url = targetOf(link.attr("href"));
    const title = cleanText(link.text());
    if (!url || !title) return;
    const snippet = cleanText(block.find(".result__snippet").first().text());
    const date = isoDay(block.find(".result__extras__url").text());
    hits.push({ title, url, snippet, ...(date ? { date } : {}) });
  });
  return classify(hits, noResults);
}

/**
 * `lite.duckduckgo.com/lite/`: a table where each result is a row with `a.result-link`, followed by rows holding
 * `td.result-snippet`, `span.link-text` and an optional `span.timestamp`. Class attributes are single-quoted there.
 */
export function parseDuckDuckGoLite(html: string): SerpParse {
  const $ = loadSerp(html);
  if (isDuckDuckGoChallenge($)) return { kind: "blocked", reason: "anomaly challenge page" };
  const hits: ProviderHit[] = [];
  $("a.result-link").each((_, el) => {
    const link = $(el);
    const row = link.closest("tr");
    if (row.hasClass("result-sponsored")) return;
    const url = targetOf(link.attr("href"));
    const title = cleanText(link.text());
    if (!url || !title) return;
    let snippet = "";
    let date: string | undefined;
    for (let next = row.next("tr"); next.length > 0; next = next.next("tr")) {
      if (next.find("a.result-link").length > 0) break;
      snippet ||= cleanText(next.find("td.result-snippet").text());
      date ??= isoDay(next.find("span.timestamp").text());
    }
    hits.push({ title, url, snippet, ...(date ? { date } : {}) });
  });
  return classify(hits, $(".no-results").length > 0);
}

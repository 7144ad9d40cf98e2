import type { Element } from "domhandler";
import { DomUtils } from "htmlparser2";
import type { ProviderHit } from "../provider.js";
import { firstInside, hasClass, serpElements, textInside, textOf } from "./dom.js";
import type { SerpParse } from "./outcome.js";
import { cleanText, isoDay } from "./text.js";
import { duckDuckGoTarget } from "./unwrap.js";

// Both DDG pages are read from the bare htmlparser2 tree (no cheerio, no selectors): DDG's parse sits on every
// search's path. Each test below is what the CSS selector in its comment matches; attribute values compare
// case-sensitively, as css-select compares them.

// DDG serves its challenge with 200 too, so the markup decides, never the status alone. Matches
// `form#challenge-form, form#img-form, .anomaly-modal__mask, [data-testid="anomaly-modal"],
// form[action*="anomaly.js"], script[src*="anomaly.js"]`.
function isChallengeMarker(el: Element): boolean {
  const { id, action, src } = el.attribs;
  if (el.name === "form" && (id === "challenge-form" || id === "img-form" || action?.includes("anomaly.js")))
    return true;
  if (el.name === "script" && src?.includes("anomaly.js")) return true;
  return el.attribs["data-testid"] === "anomaly-modal" || hasClass(el, "anomaly-modal__mask");
}

const isNoResults = (el: Element) => hasClass(el, "no-results");
const isResultTitle = (el: Element) => el.name === "a" && hasClass(el, "result__a");
const isResultSnippet = (el: Element) => hasClass(el, "result__snippet");
const isResultDate = (el: Element) => hasClass(el, "result__extras__url");
const isLiteLink = (el: Element) => el.name === "a" && hasClass(el, "result-link");
const isLiteSnippet = (el: Element) => el.name === "td" && hasClass(el, "result-snippet");
const isLiteTimestamp = (el: Element) => el.name === "span" && hasClass(el, "timestamp");

function classify(hits: ProviderHit[], noResults: boolean): SerpParse {
  if (hits.length > 0) return { kind: "results", hits };
  if (noResults) return { kind: "empty" };
  return { kind: "blocked", code: "unknown_page", reason: "neither results nor a no-results block" };
}

/** `html.duckduckgo.com/html/`: organic `div.result` blocks; ads (`result--ad`) and y.js targets dropped. */
export function parseDuckDuckGoHtml(html: string): SerpParse {
  const elements = serpElements(html);
  if (elements.some(isChallengeMarker)) return { kind: "blocked", reason: "anomaly challenge page" };
  const hits: ProviderHit[] = [];
  let noResults = elements.some(isNoResults);
  for (const block of elements) {
    if (block.name !== "div" || !hasClass(block, "result")) continue;
    if (hasClass(block, "result--no-result")) {
      noResults = true;
      continue;
    }
    if (hasClass(block, "result--ad")) continue;
    const link = firstInside(block, isResultTitle);
    const url = duckDuckGoTarget(link?.attribs.href);
    const title = cleanText(textOf(link));
    if (!url || !title) continue;
    const snippet = cleanText(textOf(firstInside(block, isResultSnippet)));
    const date = isoDay(textInside(block, isResultDate));
    hits.push({ title, url, snippet, ...(date ? { date } : {}) });
  }
  return classify(hits, noResults);
}

/** The row a Lite result link sits in: its nearest `tr` ancestor. */
function rowOf(link: Element): Element | undefined {
  for (let at = link.parent; at && at.type !== "root"; at = at.parent)
    if ((at as Element).name === "tr") return at as Element;
  return undefined;
}

/** The next sibling element when it is a row (cheerio's `.next("tr")`). */
function nextRow(row: Element): Element | undefined {
  const next = DomUtils.nextElementSibling(row);
  return next?.name === "tr" ? next : undefined;
}

/**
 * `lite.duckduckgo.com/lite/`: a table where each result is a row with `a.result-link`, followed by rows holding
 * `td.result-snippet`, `span.link-text` and an optional `span.timestamp`. Class attributes are single-quoted there.
 */
export function parseDuckDuckGoLite(html: string): SerpParse {
  const elements = serpElements(html);
  if (elements.some(isChallengeMarker)) return { kind: "blocked", reason: "anomaly challenge page" };
  const hits: ProviderHit[] = [];
  for (const link of elements) {
    if (!isLiteLink(link)) continue;
    const row = rowOf(link);
    if (row && hasClass(row, "result-sponsored")) continue;
    const url = duckDuckGoTarget(link.attribs.href);
    const title = cleanText(textOf(link));
    if (!url || !title) continue;
    let snippet = "";
    let date: string | undefined;
    for (let next = row && nextRow(row); next; next = nextRow(next)) {
      if (firstInside(next, isLiteLink)) break;
      snippet ||= cleanText(textInside(next, isLiteSnippet));
      date ??= isoDay(textInside(next, isLiteTimestamp));
    }
    hits.push({ title, url, snippet, ...(date ? { date } : {}) });
  }
  return classify(hits, elements.some(isNoResults));
}

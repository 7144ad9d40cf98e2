import type { Element } from "domhandler";
import { decodeHTML, decodeHTMLAttribute } from "entities";
import { DomUtils } from "htmlparser2";
import { LinearParser } from "../../core/html-parser.js";
import type { ProviderHit } from "../provider.js";
import { classHas, firstInside, hasClass, serpElements, textInside, textOf } from "./dom.js";
import type { SerpParse } from "./outcome.js";
import { cleanText, isoDay } from "./text.js";
import { duckDuckGoTarget } from "./unwrap.js";

// DDG's pages are read without cheerio or selectors: the parse sits on every search's path. Each test below is
// what the CSS selector in its comment matches; attribute values compare case-sensitively, as css-select does.

// DDG serves its challenge with 200 too, so the markup decides, never the status alone. Matches
// `form#challenge-form, form#img-form, .anomaly-modal__mask, [data-testid="anomaly-modal"],
// form[action*="anomaly.js"], script[src*="anomaly.js"]`.
function isChallengeMarker(name: string, attribs: Record<string, string>): boolean {
  const { id, action, src } = attribs;
  if (name === "form" && (id === "challenge-form" || id === "img-form" || action?.includes("anomaly.js")))
    return true;
  if (name === "script" && src?.includes("anomaly.js")) return true;
  return attribs["data-testid"] === "anomaly-modal" || classHas(attribs.class, "anomaly-modal__mask");
}

const isNoResults = (el: Element) => hasClass(el, "no-results");
const isLiteLink = (el: Element) => el.name === "a" && hasClass(el, "result-link");
const isLiteSnippet = (el: Element) => el.name === "td" && hasClass(el, "result-snippet");
const isLiteTimestamp = (el: Element) => el.name === "span" && hasClass(el, "timestamp");

function classify(hits: ProviderHit[], noResults: boolean): SerpParse {
  if (hits.length > 0) return { kind: "results", hits };
  if (noResults) return { kind: "empty" };
  return { kind: "unrecognised", reason: "neither results nor a no-results block" };
}

/** Text of one element, gathered while it is open. */
interface Capture {
  text: string;
}

/** One `div.result` and what `.find(…)` would pick inside it: the first title link and snippet, every date span. */
interface ResultBlock {
  noResult: boolean;
  ad: boolean;
  href?: string;
  title?: Capture;
  snippet?: Capture;
  dates: Capture[];
}

/**
 * `html.duckduckgo.com/html/`: organic `div.result` blocks; ads (`result--ad`) and y.js targets dropped.
 * Read in one streaming pass, no tree: the parser's open and close events nest exactly as the tree htmlparser2
 * would build from them, so "first descendant" is "first opened while the block is open", and an element's text
 * is every text event until it closes. Building the tree and walking it cost 15-20% more per page.
 * Entities are decoded only in what is kept (the tokenizer decoding every one of the page's took a third of
 * its time): each attribute value holding one, and each captured text once, whole. A captured text is every
 * text event in the source order between tags, so decoding it whole reads each entity as the tokenizer would.
 */
export function parseDuckDuckGoHtml(html: string): SerpParse {
  let challenge = false;
  let noResults = false;
  const blocks: ResultBlock[] = [];
  const openBlocks: ResultBlock[] = [];
  const capturing: Capture[] = [];
  // Per open element: bit 0 set when it opened a block, the rest counts the captures it started.
  const opened: number[] = [];
  const parser = new LinearParser(
    {
      onopentag(name, attribs) {
        for (const key in attribs) {
          const value = attribs[key] as string;
          if (value.includes("&")) attribs[key] = decodeHTMLAttribute(value);
        }
        const cls = attribs.class;
        if (!challenge && isChallengeMarker(name, attribs)) challenge = true;
        if (classHas(cls, "no-results")) noResults = true;
        let frame = 0;
        if (openBlocks.length > 0 && cls) {
          let capture: Capture | undefined;
          const take = () => {
            if (!capture) {
              capture = { text: "" };
              capturing.push(capture);
              frame += 2;
            }
            return capture;
          };
          const title = name === "a" && classHas(cls, "result__a");
          const snippet = classHas(cls, "result__snippet");
          const date = classHas(cls, "result__extras__url");
          for (const block of openBlocks) {
            if (title && !block.title) {
              block.title = take();
              block.href = attribs.href;
            }
            if (snippet && !block.snippet) block.snippet = take();
            if (date) block.dates.push(take());
          }
        }
        if (name === "div" && classHas(cls, "result")) {
          const block: ResultBlock = {
            noResult: classHas(cls, "result--no-result"),
            ad: classHas(cls, "result--ad"),
            dates: [],
          };
          blocks.push(block);
          openBlocks.push(block);
          frame |= 1;
        }
        opened.push(frame);
      },
      ontext(text) {
        for (const capture of capturing) capture.text += text;
      },
      onclosetag() {
        const frame = opened.pop() ?? 0;
        if (frame & 1) openBlocks.pop();
        capturing.length -= frame >> 1;
      },
    },
    { decodeEntities: false },
  );
  parser.end(html);
  if (challenge) return { kind: "blocked", reason: "anomaly challenge page" };
  const text = (capture: Capture | undefined) => (capture ? decodeHTML(capture.text) : "");
  const hits: ProviderHit[] = [];
  for (const block of blocks) {
    if (block.noResult) {
      noResults = true;
      continue;
    }
    if (block.ad) continue;
    const url = duckDuckGoTarget(block.href);
    const title = cleanText(text(block.title));
    if (!url || !title) continue;
    const snippet = cleanText(text(block.snippet));
    const date = isoDay(block.dates.map(text).join(""));
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
  if (elements.some((el) => isChallengeMarker(el.name, el.attribs)))
    return { kind: "blocked", reason: "anomaly challenge page" };
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

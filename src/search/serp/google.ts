import { createRequire } from "node:module";
import type * as Cheerio from "cheerio";
import type { ProviderHit } from "../provider.js";
import type { SerpParse } from "./outcome.js";
import { cleanText, isoDay } from "./text.js";
import { absoluteHttpUrl } from "./unwrap.js";

type Page = Cheerio.CheerioAPI;

// Google's page is parsed with cheerio's full build (parse5, as a browser parses), which costs ~200 ms to load:
// it is required when a Google page is first parsed, so importing the package does not pay for it.
const require = createRequire(import.meta.url);
const loadCheerio = (): typeof Cheerio => require("cheerio");
type Node = ReturnType<Page>;

/** The reason given for Google's consent interstitial, so a browser can tell it from a challenge. */
export const GOOGLE_CONSENT_REASON = "consent page (consent.google.com)";

const CHALLENGE_SELECTOR = 'form#captcha-form, .g-recaptcha, #recaptcha, form[action*="/sorry/"]';
const CHALLENGE_TEXT = /unusual traffic from your computer network|sending automated queries/i;
// Google's own pages are never results: its verticals, maps, accounts, support and the consent host.
const GOOGLE_HOST =
  /(^|\.)google\.(com|[a-z]{2}|co\.[a-z]{2}|com\.[a-z]{2})$|(^|\.)(googleusercontent|gstatic|googleapis)\.com$/i;

/**
 * Google Web results (PROVIDERS.md §10.1). Obfuscated class names rotate, so results are found by structure:
 * every `a[href] h3` inside `#rso` (else `#search`), its box the nearest `[data-hveid]` (else `.MjjYud`).
 * Google serves challenges and walls with 200 as well, so `finalUrl` and the markup decide, never the status.
 */
export function parseGoogle(html: string, finalUrl: string): SerpParse {
  const $ = loadCheerio().load(html);
  const block = blockedUrl(finalUrl) ?? blockMarkup($, html);
  if (block) return { kind: "blocked", code: "challenge", reason: block };
  const hits = organicHits($, finalUrl);
  if (hits.length > 0) return { kind: "results", hits };
  if ($("#rso").length === 0 && $('#botstuff p[role="heading"]').length > 0) return { kind: "empty" };
  const wall = wallWithoutResults($, html);
  if (wall) return { kind: "blocked", code: "challenge", reason: wall };
  return { kind: "unrecognised", reason: "neither results nor Google's no-results text" };
}

/** Blocks visible from the URL alone: the sorry page and the consent host. */
function blockedUrl(finalUrl: string): string | undefined {
  const url = absoluteHttpUrl(finalUrl);
  if (!url) return undefined;
  const { hostname, pathname } = new URL(url);
  if (hostname === "consent.google.com") return GOOGLE_CONSENT_REASON;
  if (pathname.startsWith("/sorry/")) return "reCAPTCHA page (/sorry/)";
  return undefined;
}

function blockMarkup($: Page, html: string): string | undefined {
  if ($(CHALLENGE_SELECTOR).length > 0) return "reCAPTCHA page (unusual traffic)";
  if (/<title>\s*Sorry\.\.\.\s*<\/title>/i.test(html)) return "'Sorry...' automated-queries page";
  return undefined;
}

/**
 * Markers that also occur on pages with results, so they count only when no result was found: every results
 * page carries the enablejs link in a <noscript>, an EU results page can hold the consent dialog in-page, and a
 * snippet may quote the challenge's words.
 */
function wallWithoutResults($: Page, html: string): string | undefined {
  if ($('form[action^="https://consent.google.com/"]').length > 0) return GOOGLE_CONSENT_REASON;
  if (html.includes("/httpservice/retry/enablejs")) return "JavaScript wall (enablejs)";
  if (CHALLENGE_TEXT.test($("body").text())) return "unusual-traffic page";
  return undefined;
}

function organicHits($: Page, finalUrl: string): ProviderHit[] {
  const rso = $("#rso").first();
  const root = rso.length > 0 ? rso : $("#search").first();
  const hits: ProviderHit[] = [];
  const seen = new Set<string>();
  root.find("a[href] h3").each((_, el) => {
    const heading = $(el);
    const link = heading.closest("a");
    if (link.closest("#tads, #bottomads, .related-question-pair").length > 0) return;
    const url = resultUrl(link.attr("href"), finalUrl);
    const title = cleanText(heading.text());
    if (!url || !title || seen.has(url)) return;
    seen.add(url);
    const box = boxOf(link);
    const { snippet, date } = snippetOf(box);
    hits.push({ title, url, snippet, ...(date ? { date } : {}) });
  });
  return hits;
}

/**
 * A result's target: rendered pages link directly (tracking sits in `ping`); the no-JS basic page wraps links
 * as `/url?q=<target>` (or `url=`). Text-fragment anchors (`#:~:text=`) are dropped so duplicates meet.
 */
function resultUrl(href: string | undefined, base: string): string | undefined {
  let url = absoluteHttpUrl(href, absoluteHttpUrl(base) ?? "https://www.google.com/");
  if (!url) return undefined;
  let parsed = new URL(url);
  if (GOOGLE_HOST.test(parsed.hostname) && parsed.pathname === "/url") {
    url = absoluteHttpUrl(parsed.searchParams.get("q") ?? parsed.searchParams.get("url") ?? undefined);
    if (!url) return undefined;
    parsed = new URL(url);
  }
  if (GOOGLE_HOST.test(parsed.hostname)) return undefined;
  const fragment = parsed.hash.indexOf(":~:");
  if (fragment >= 0) parsed.hash = parsed.hash.slice(0, fragment).replace(/^#$/, "");
  return parsed.href;
}

function boxOf(link: Node): Node {
  const box = link.closest("[data-hveid]");
  return box.length > 0 ? box : link.closest(".MjjYud");
}

/** The result's snippet, its "8 Oct 2024 —" date prefix moved out; the featured snippet's text otherwise. */
function snippetOf(box: Node): { snippet: string; date?: string } {
  const found = box.find(".VwiC3b, [data-sncf]").first();
  if (found.length > 0) {
    const snippet = found.clone();
    snippet.find("a.vzmbzf").remove();
    const dateSpan = snippet.find(".YrbPuc").first();
    const date = isoDay(dateSpan.text());
    dateSpan.remove();
    return { snippet: cleanText(snippet.text()).replace(/^[—–-]\s*/, ""), ...(date ? { date } : {}) };
  }
  const featured = box.closest(".ULSxyf").find('[data-attrid="wa:/description"] .hgKElc').first();
  return { snippet: cleanText(featured.text()) };
}

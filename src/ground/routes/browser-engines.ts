import { parseBing } from "../../search/providers/bing.js";
import { GOOGLE_CONSENT_REASON, parseGoogle } from "../../search/serp/google.js";
import type { SerpParse } from "../../search/serp/outcome.js";

export type BrowserEngineName = "google" | "bing";

/** A search engine as the browser route drives it: where to search, when its page has settled, how to read it. */
export interface BrowserEngine {
  name: BrowserEngineName;
  searchUrl(query: string, language?: string): string;
  /** Present once the page is results, a no-results page or a known block; the AI Overview is not waited for. */
  settled: string;
  parse(html: string, finalUrl: string): SerpParse;
  /** The engine's consent interstitial, and the submit button that refuses everything optional on it. */
  consent?: { isConsent(parse: SerpParse): boolean; reject: string };
}

const LANGUAGE = /^[a-z]{2,3}(-[A-Za-z]{2})?$/;

const google: BrowserEngine = {
  name: "google",
  searchUrl(query, language) {
    const url = new URL("https://www.google.com/search");
    url.searchParams.set("q", query);
    if (language && LANGUAGE.test(language)) url.searchParams.set("hl", language);
    return url.href;
  },
  settled: '#rso, #botstuff, #captcha-form, .g-recaptcha, form[action^="https://consent.google.com/"]',
  parse: parseGoogle,
  consent: {
    isConsent: (parse) => parse.kind === "blocked" && parse.reason === GOOGLE_CONSENT_REASON,
    // The reject form is the one that sets set_eom=true; its label is translated, the field is not.
    reject: [
      'form[action$="/save"]:has(input[name="set_eom"][value="true"]) [type="submit"]',
      'form[action$="/save"] [type="submit"][value="Reject all"]',
    ].join(", "),
  },
};

const bing: BrowserEngine = {
  name: "bing",
  searchUrl(query, language) {
    const url = new URL("https://www.bing.com/search");
    url.searchParams.set("q", query);
    if (language && LANGUAGE.test(language)) url.searchParams.set("setlang", language);
    return url.href;
  },
  settled: "#b_results, #turnstile-widget, .captcha_header",
  parse: (html) => parseBing(html),
};

const ENGINES: Record<BrowserEngineName, BrowserEngine> = { google, bing };

/** The engine by name; Google when unset. An unknown name is an error rather than a silent Google search. */
export function browserEngine(name: string | undefined): BrowserEngine | undefined {
  const key = (name?.trim().toLowerCase() || "google") as BrowserEngineName;
  return Object.hasOwn(ENGINES, key) ? ENGINES[key] : undefined;
}

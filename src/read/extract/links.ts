import type { Document } from "./dom.js";
import { findFirst } from "./dom.js";

const MAX_LINKS = 40;

/** The URL relative links resolve against: the page URL, overridden by a valid `<base href>`. */
export function baseUrlOf(doc: Document, pageUrl: string): string {
  const base = findFirst(doc, (el) => el.name === "base" && !!el.attribs.href);
  if (base) {
    try {
      return new URL(base.attribs.href!.trim(), pageUrl).href;
    } catch {
      // An unparsable <base> is ignored, as browsers do.
    }
  }
  return pageUrl;
}

/**
 * Absolute http(s) targets of the content's links, in page order, without
 * duplicates (fragments ignored), without in-page anchors and without the page itself.
 */
export function usefulLinks(hrefs: string[], baseUrl: string, pageUrl: string): string[] {
  const seen = new Set<string>([withoutHash(pageUrl)]);
  const out: string[] = [];
  for (const raw of hrefs) {
    const href = raw.trim();
    if (!href || href.startsWith("#")) continue;
    let url: URL;
    try {
      url = new URL(href, baseUrl);
    } catch {
      continue;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") continue;
    const key = withoutHash(url.href);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(url.href);
    if (out.length >= MAX_LINKS) break;
  }
  return out;
}

function withoutHash(href: string): string {
  const i = href.indexOf("#");
  return i < 0 ? href : href.slice(0, i);
}

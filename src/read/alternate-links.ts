import { decodeHTMLAttribute } from "entities";

// A page's head: the alternates are declared there, and a script-heavy page may be megabytes past it.
const HEAD_CHARS = 200_000;
const MAX_ALTERNATES = 10;

/** The feed types a page names as its alternates: RSS, Atom and JSON Feed. */
export const FEED_TYPES = /^application\/(rss\+xml|atom\+xml|feed\+json)$/i;

/**
 * `<link rel="alternate" type=… href=…>` of a page whose type passes `types`, as absolute http(s) URLs in the
 * page's order, each once: the site's own other versions of the page (its markdown, its feeds).
 */
export function alternateLinks(html: string, pageUrl: string, types: RegExp): string[] {
  const found: string[] = [];
  for (const m of html.slice(0, HEAD_CHARS).matchAll(/<link\b[^>]*>/gi)) {
    const tag = m[0];
    if (!/\brel\s*=\s*["']?[^"'>]*\balternate\b/i.test(tag)) continue;
    const type = attributeOf(tag, "type");
    if (!type || !types.test(type.split(";")[0].trim())) continue;
    const href = attributeOf(tag, "href");
    if (!href) continue;
    try {
      const target = new URL(href, pageUrl);
      if ((target.protocol === "http:" || target.protocol === "https:") && !found.includes(target.href))
        found.push(target.href);
    } catch {}
    if (found.length === MAX_ALTERNATES) break;
  }
  return found;
}

function attributeOf(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(tag);
  const raw = m?.[1] ?? m?.[2] ?? m?.[3];
  return raw === undefined ? undefined : decodeHTMLAttribute(raw);
}

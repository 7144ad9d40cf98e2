/**
 * Engines wrap result links in their own click redirectors. We decode the target locally and never fetch the
 * redirector: fetching it would tell the engine what was clicked and cost a request that can be challenged.
 */

/** An absolute http(s) URL from `raw` (protocol-relative and relative links resolved against `base`), or undefined. */
export function absoluteHttpUrl(raw: string | undefined, base?: string): string | undefined {
  return httpUrl(raw, base)?.href;
}

function httpUrl(raw: string | undefined, base?: string): URL | undefined {
  if (!raw) return undefined;
  try {
    const url = base ? new URL(raw.trim(), base) : new URL(raw.trim());
    return url.protocol === "http:" || url.protocol === "https:" ? url : undefined;
  } catch {
    return undefined;
  }
}

function isHost(url: URL, domain: string): boolean {
  return url.hostname === domain || url.hostname.endsWith(`.${domain}`);
}

/**
 * A DDG result link's target: `//duckduckgo.com/l/?uddg=<target>&rut=…` ⇒ target, a direct link as it is, an ad
 * click (`duckduckgo.com/y.js?ad_domain=…`, sometimes inside uddg) ⇒ undefined. URLSearchParams decodes `uddg`
 * exactly once, which is what DDG encoded; a second decode would corrupt targets that themselves carry %-escapes.
 * Each URL is parsed once: this runs for every link of every DDG page.
 */
export function duckDuckGoTarget(href: string | undefined): string | undefined {
  let url = httpUrl(href, "https://duckduckgo.com/");
  if (url && isHost(url, "duckduckgo.com") && url.pathname === "/l/")
    url = httpUrl(url.searchParams.get("uddg") ?? undefined);
  if (!url || (isHost(url, "duckduckgo.com") && url.pathname === "/y.js")) return undefined;
  return url.href;
}

/**
 * `https://www.bing.com/ck/a?…&u=a1<base64url(target)>&ntb=1` ⇒ target. The decoded value can be a relative Bing
 * URL (`/images/search?…`): that is Bing's own vertical, not a result, so it is dropped.
 */
export function unwrapBing(href: string | undefined): string | undefined {
  const url = absoluteHttpUrl(href, "https://www.bing.com/");
  if (!url) return undefined;
  const parsed = new URL(url);
  if (!(isHost(parsed, "bing.com") && parsed.pathname === "/ck/a")) return url;
  const u = parsed.searchParams.get("u");
  if (!u?.startsWith("a1")) return undefined;
  const decoded = Buffer.from(u.slice(2), "base64url").toString("utf8");
  return /^https?:\/\//i.test(decoded) ? absoluteHttpUrl(decoded) : undefined;
}

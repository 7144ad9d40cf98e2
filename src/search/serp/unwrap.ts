/**
 * Engines wrap result links in their own click redirectors. We decode the target locally and never fetch the
 * redirector: fetching it would tell the engine what was clicked and cost a request that can be challenged.
 */

/** An absolute http(s) URL from `raw` (protocol-relative and relative links resolved against `base`), or undefined. */
export function absoluteHttpUrl(raw: string | undefined, base?: string): string | undefined {
  if (!raw) return undefined;
  try {
    const url = base ? new URL(raw.trim(), base) : new URL(raw.trim());
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function isHost(url: URL, domain: string): boolean {
  return url.hostname === domain || url.hostname.endsWith(`.${domain}`);
}

/**
 * `//duckduckgo.com/l/?uddg=<target>&rut=…` ⇒ target. URLSearchParams decodes `uddg` exactly once, which is
 * what DDG encoded; a second decode would corrupt targets that themselves carry %-escapes. Direct links pass through.
 */
export function unwrapDuckDuckGo(href: string | undefined): string | undefined {
  const url = absoluteHttpUrl(href, "https://duckduckgo.com/");
  if (!url) return undefined;
  const parsed = new URL(url);
  if (isHost(parsed, "duckduckgo.com") && parsed.pathname === "/l/") {
    return absoluteHttpUrl(parsed.searchParams.get("uddg") ?? undefined);
  }
  return url;
}

/** DDG ads click through `duckduckgo.com/y.js?ad_domain=…` (sometimes inside uddg). */
export function isDuckDuckGoAd(url: string): boolean {
  const parsed = new URL(url);
  return isHost(parsed, "duckduckgo.com") && parsed.pathname === "/y.js";
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

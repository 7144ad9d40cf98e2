/**
 * How long a page may be reused, and how to ask whether it changed, from its response's headers, as a private
 * cache reads them (RFC 9111): `no-store` is never kept; `no-cache` is kept only to be revalidated; `max-age`
 * (less the response's `Age`), else `Expires` (against the response's `Date`), says how long it is fresh;
 * `s-maxage` is for shared caches and is not ours. A page that says nothing is fresh for 15 minutes, websift's
 * own reuse: an agent reads on, re-reads, or asks another question of the same page.
 *
 * Reading on (`offset`) continues the version a caller started, as a request with `max-stale` would (§4.2.4):
 * a kept page serves it for 15 minutes past its freshness, unless the page said `must-revalidate` or
 * `no-cache`, which no stale use may pass by.
 */

/** The headers of a response the page cache reads, as served. */
export interface CacheHeaders {
  etag?: string;
  lastModified?: string;
  cacheControl?: string;
  expires?: string;
  date?: string;
  age?: string;
}

/** What a repeat read sends to ask whether the page changed (If-None-Match, If-Modified-Since). */
export interface Validators {
  etag?: string;
  lastModified?: string;
}

export interface Freshness {
  /** false: the page is not kept (no-store, or kept it could be neither served nor revalidated). */
  keep: boolean;
  /** How long from now the page is served without asking the site. */
  freshMs: number;
  /** How long reading on may use it past its freshness (0: `must-revalidate`, `no-cache`). */
  readOnMs: number;
  /** How long the store keeps it: the freshness, or longer for reading on and for a validator to revalidate. */
  keepMs: number;
  validators?: Validators;
}

/** A page that says nothing of its freshness. */
export const DEFAULT_FRESH_MS = 15 * 60 * 1000;
/** How long reading on continues a kept page past its freshness. */
export const READ_ON_MS = 15 * 60 * 1000;
/** The most a page is reused without asking, whatever it says; and how long a revalidatable page is kept. */
export const MAX_KEEP_MS = 24 * 60 * 60 * 1000;

export function cacheHeadersOf(headers: Readonly<Record<string, string>>): CacheHeaders {
  const out: CacheHeaders = {};
  const pick = (name: keyof CacheHeaders, header: string) => {
    const value = headers[header]?.trim();
    // A validator is sent back verbatim: one that could break a header line is not one to send.
    if (value && value.length <= 1024 && !/[\r\n]/.test(value)) out[name] = value;
  };
  pick("etag", "etag");
  pick("lastModified", "last-modified");
  pick("cacheControl", "cache-control");
  pick("expires", "expires");
  pick("date", "date");
  pick("age", "age");
  return out;
}

/**
 * The page's freshness from its headers. `revalidatable`: the text was made from this response alone, so a
 * 304 for it vouches for the text (a page rendered with its scripts' data, or read from another URL, is not).
 * Without headers (a site's API, an extract provider) the page gets the default freshness and no validators.
 */
export function freshnessOf(
  headers: CacheHeaders | undefined,
  now: number,
  revalidatable: boolean,
): Freshness {
  const directives = cacheControl(headers?.cacheControl);
  if (directives.has("no-store")) return { keep: false, freshMs: 0, readOnMs: 0, keepMs: 0 };
  const validators: Validators = {};
  if (revalidatable && headers?.etag) validators.etag = headers.etag;
  if (revalidatable && headers?.lastModified && Number.isFinite(Date.parse(headers.lastModified)))
    validators.lastModified = headers.lastModified;
  const canAsk = validators.etag !== undefined || validators.lastModified !== undefined;
  const freshMs = Math.min(MAX_KEEP_MS, Math.max(0, lifetime(headers, directives, now)));
  const strict = directives.has("must-revalidate") || directives.has("no-cache");
  const readOnMs = strict ? 0 : Math.max(freshMs, READ_ON_MS);
  const keepMs = canAsk ? Math.max(readOnMs, MAX_KEEP_MS) : Math.max(freshMs, readOnMs);
  return { keep: keepMs > 0, freshMs, readOnMs, keepMs, ...(canAsk ? { validators } : {}) };
}

/** The conditional request headers for what a kept page holds. */
export function conditionalHeaders(validators: Validators): Record<string, string> {
  const out: Record<string, string> = {};
  if (validators.etag) out["if-none-match"] = validators.etag;
  if (validators.lastModified) out["if-modified-since"] = validators.lastModified;
  return out;
}

function lifetime(headers: CacheHeaders | undefined, directives: Map<string, string>, now: number): number {
  if (!headers) return DEFAULT_FRESH_MS;
  if (directives.has("no-cache")) return 0;
  const maxAge = deltaSeconds(directives.get("max-age"));
  if (maxAge !== undefined) return (maxAge - (deltaSeconds(headers.age) ?? 0)) * 1000;
  if (headers.expires !== undefined) {
    // An Expires that is no date (often "0" or "-1") means already expired.
    const expires = Date.parse(headers.expires);
    if (!Number.isFinite(expires)) return 0;
    const date = headers.date !== undefined ? Date.parse(headers.date) : Number.NaN;
    return expires - (Number.isFinite(date) ? date : now);
  }
  return DEFAULT_FRESH_MS;
}

/** Cache-Control's directives, names lower-cased, values unquoted; a repeated directive keeps its first value. */
function cacheControl(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!header) return out;
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    const name = (eq === -1 ? part : part.slice(0, eq)).trim().toLowerCase();
    if (!name || out.has(name)) continue;
    out.set(
      name,
      eq === -1
        ? ""
        : part
            .slice(eq + 1)
            .trim()
            .replace(/^"(.*)"$/, "$1"),
    );
  }
  return out;
}

/** RFC 9111 §1.2.2's delta-seconds: digits only; anything else is no value. */
function deltaSeconds(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+$/.test(value.trim())) return undefined;
  return Math.min(Number(value.trim()), 2 ** 31);
}

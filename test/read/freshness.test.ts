import { describe, expect, it } from "vitest";
import {
  cacheHeadersOf,
  conditionalHeaders,
  DEFAULT_FRESH_MS,
  freshnessOf,
  MAX_KEEP_MS,
  READ_ON_MS,
} from "../../src/read/freshness.js";

const NOW = Date.parse("2026-06-01T12:00:00Z");
const fresh = (headers: Record<string, string>, revalidatable = true) =>
  freshnessOf(cacheHeadersOf(headers), NOW, revalidatable);

describe("page freshness from response headers (a private cache, RFC 9111)", () => {
  it("a page that says nothing is fresh for websift's 15 minutes", () => {
    expect(fresh({})).toEqual({
      keep: true,
      freshMs: DEFAULT_FRESH_MS,
      readOnMs: READ_ON_MS,
      keepMs: DEFAULT_FRESH_MS,
    });
    expect(freshnessOf(undefined, NOW, false)).toMatchObject({ keep: true, freshMs: DEFAULT_FRESH_MS });
  });

  it("no-store is never kept, whatever else the header says", () => {
    expect(fresh({ "cache-control": "max-age=600, No-Store", etag: '"a"' })).toMatchObject({ keep: false });
  });

  it("max-age, less the response's Age; s-maxage is a shared cache's and not ours", () => {
    expect(fresh({ "cache-control": "max-age=60" }).freshMs).toBe(60_000);
    expect(fresh({ "cache-control": "max-age=60", age: "45" }).freshMs).toBe(15_000);
    expect(fresh({ "cache-control": "s-maxage=3600, max-age=10" }).freshMs).toBe(10_000);
    expect(fresh({ "cache-control": "s-maxage=3600" }).freshMs).toBe(DEFAULT_FRESH_MS);
    expect(fresh({ "cache-control": 'max-age="30"' }).freshMs).toBe(30_000);
    // The first of two max-age directives counts; one that is no number is no directive.
    expect(fresh({ "cache-control": "max-age=20, max-age=900" }).freshMs).toBe(20_000);
    expect(fresh({ "cache-control": "max-age=soon" }).freshMs).toBe(DEFAULT_FRESH_MS);
  });

  it("Expires against the response's Date; an Expires that is no date is already past", () => {
    const date = new Date(NOW - 10_000).toUTCString();
    const expires = new Date(NOW + 110_000).toUTCString();
    expect(fresh({ date, expires }).freshMs).toBe(120_000);
    expect(fresh({ expires: new Date(NOW + 30_000).toUTCString() }).freshMs).toBe(30_000);
    expect(fresh({ expires: "0", "last-modified": date })).toMatchObject({ keep: true, freshMs: 0 });
    // Stale at once, though kept for reading on.
    expect(fresh({ expires: "0" })).toMatchObject({ keep: true, freshMs: 0, readOnMs: READ_ON_MS });
    // max-age wins over Expires.
    expect(fresh({ "cache-control": "max-age=5", expires }).freshMs).toBe(5_000);
  });

  it("no-cache keeps a page only to revalidate it, so only with a validator", () => {
    expect(fresh({ "cache-control": "no-cache", etag: '"v1"' })).toEqual({
      keep: true,
      freshMs: 0,
      readOnMs: 0,
      keepMs: MAX_KEEP_MS,
      validators: { etag: '"v1"' },
    });
    expect(fresh({ "cache-control": "no-cache" }).keep).toBe(false);
  });

  it("reading on continues a stale page for 15 minutes, unless must-revalidate or no-cache forbids it", () => {
    expect(fresh({ "cache-control": "max-age=0" })).toMatchObject({
      keep: true,
      freshMs: 0,
      readOnMs: READ_ON_MS,
      keepMs: READ_ON_MS,
    });
    expect(fresh({ "cache-control": "max-age=3600" }).readOnMs).toBe(3_600_000);
    expect(fresh({ "cache-control": "max-age=0, must-revalidate" })).toMatchObject({
      keep: false,
      readOnMs: 0,
    });
    expect(fresh({ "cache-control": "max-age=0, must-revalidate", etag: '"a"' })).toMatchObject({
      keep: true,
      readOnMs: 0,
      validators: { etag: '"a"' },
    });
  });

  it("validators are kept only for text made from the response alone, and only well-formed", () => {
    const lastModified = "Wed, 21 Oct 2026 07:28:00 GMT";
    expect(fresh({ etag: 'W/"x"', "last-modified": lastModified }).validators).toEqual({
      etag: 'W/"x"',
      lastModified,
    });
    expect(fresh({ etag: '"x"' }, false).validators).toBeUndefined();
    expect(fresh({ "last-modified": "yesterday-ish" }).validators).toBeUndefined();
    // A page with a validator is kept a day to be revalidated, though fresh for less.
    expect(fresh({ etag: '"x"', "cache-control": "max-age=60" })).toMatchObject({
      freshMs: 60_000,
      keepMs: MAX_KEEP_MS,
    });
  });

  it("nothing is reused unasked for more than a day", () => {
    expect(fresh({ "cache-control": "max-age=31536000, immutable" }).freshMs).toBe(MAX_KEEP_MS);
  });

  it("the conditional request names what the kept page holds", () => {
    expect(conditionalHeaders({ etag: '"v1"', lastModified: "Wed, 21 Oct 2026 07:28:00 GMT" })).toEqual({
      "if-none-match": '"v1"',
      "if-modified-since": "Wed, 21 Oct 2026 07:28:00 GMT",
    });
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fetchBest } from "../../../src/read/fetch-best.js";
import { DEFAULT_FRESH_MS } from "../../../src/read/freshness.js";
import { type ReadContext, read } from "../../../src/read/read.js";
import type { SimReply, SimRequest } from "../../simweb/index.js";
import { article, html, PARAGRAPHS, type ReadHarness, startReadHarness } from "./harness.js";

let h: ReadHarness;
beforeAll(async () => {
  h = await startReadHarness();
});
afterAll(() => h.close());
beforeEach(() => h.sim.reset());

const SITE = "www.example.com";
const URL_ = `https://${SITE}/story`;
const LAST_MODIFIED = "Tue, 01 Dec 2026 08:00:00 GMT";
const opts = { render: "never" as const };

/** One store and a clock the test moves by hand, kept across the reads of a test. */
function clocked(): { ctx: ReadContext; advance(ms: number): void } {
  let now = Date.parse("2026-12-02T07:00:00Z");
  return {
    ctx: { ...h.ctx(), now: () => now },
    advance(ms) {
      now += ms;
    },
  };
}

/**
 * A page in versions: `version()` is what the site serves now; with its validator it answers 304 to a request
 * that names the current version, as a server does.
 */
function servePage(headers: (v: number) => Record<string, string>, strong = true) {
  let version = 1;
  const seen: SimRequest[] = [];
  h.sim.route(SITE, "/story", (req): SimReply => {
    seen.push(req);
    const etag = `"v${version}"`;
    const matches = strong
      ? req.headers["if-none-match"] === etag
      : req.headers["if-modified-since"] === LAST_MODIFIED && version === 1;
    if (matches) return { status: 304, headers: headers(version) };
    const body = html(article(`Harbour, version ${version}`, PARAGRAPHS));
    return { headers: { ...body.headers, ...headers(version) }, body: body.body };
  });
  return {
    seen,
    change() {
      version++;
    },
  };
}

const etagged =
  (extra: Record<string, string> = {}) =>
  (v: number) => ({ etag: `"v${v}"`, ...extra });

describe("page cache: freshness and revalidation", () => {
  it("within its freshness the cache answers; after it a 304 serves the kept text, revalidated", async () => {
    const site = servePage(etagged());
    const { ctx, advance } = clocked();
    const first = await read(URL_, opts, ctx);
    expect(first).toMatchObject({ status: "ok", cached: false, title: "Harbour, version 1" });

    advance(DEFAULT_FRESH_MS - 1000);
    const fresh = await read(URL_, opts, ctx);
    expect(fresh.cached).toBe(true);
    expect(fresh.attempts.map((a) => a.provider)).toEqual(["cache"]);
    expect(site.seen).toHaveLength(1);

    advance(2000);
    const again = await read(URL_, opts, ctx);
    expect(site.seen).toHaveLength(2);
    expect(site.seen[1].headers["if-none-match"]).toBe('"v1"');
    expect(again).toMatchObject({ status: "ok", cached: true, title: "Harbour, version 1" });
    expect(again.markdown).toBe(first.markdown);
    expect(again.attempts.map((a) => [a.provider, a.status])).toEqual([["revalidated", "ok"]]);

    // Revalidated, the page is fresh again for as long as the 304 says.
    advance(60_000);
    expect((await read(URL_, opts, ctx)).attempts.map((a) => a.provider)).toEqual(["cache"]);
    expect(site.seen).toHaveLength(2);
  });

  it("a changed page answers 200 and replaces the kept one", async () => {
    const site = servePage(etagged({ "cache-control": "max-age=60" }));
    const { ctx, advance } = clocked();
    await read(URL_, opts, ctx);
    site.change();
    advance(61_000);
    const changed = await read(URL_, opts, ctx);
    expect(changed).toMatchObject({ status: "ok", cached: false, title: "Harbour, version 2" });
    expect(site.seen[1].headers["if-none-match"]).toBe('"v1"');
    const next = await read(URL_, opts, ctx);
    expect(next).toMatchObject({ cached: true, title: "Harbour, version 2" });
    advance(61_000);
    await read(URL_, opts, ctx);
    expect(site.seen[2].headers["if-none-match"]).toBe('"v2"');
  });

  it("Last-Modified alone revalidates with If-Modified-Since", async () => {
    const site = servePage(() => ({ "last-modified": LAST_MODIFIED, "cache-control": "max-age=0" }), false);
    const { ctx } = clocked();
    await read(URL_, opts, ctx);
    const again = await read(URL_, opts, ctx);
    expect(site.seen[1].headers["if-modified-since"]).toBe(LAST_MODIFIED);
    expect(site.seen[1].headers["if-none-match"]).toBeUndefined();
    expect(again.attempts.map((a) => a.provider)).toEqual(["revalidated"]);
  });

  it("max-age less Age decides when to ask; s-maxage is not ours", async () => {
    const site = servePage(etagged({ "cache-control": "s-maxage=3600, max-age=60", age: "50" }));
    const { ctx, advance } = clocked();
    await read(URL_, opts, ctx);
    advance(9_000);
    await read(URL_, opts, ctx);
    expect(site.seen).toHaveLength(1);
    advance(2_000);
    await read(URL_, opts, ctx);
    expect(site.seen).toHaveLength(2);
  });

  it("Expires, against the response's Date", async () => {
    const { ctx, advance } = clocked();
    const now = ctx.now?.() ?? 0;
    const site = servePage(() => ({
      date: new Date(now).toUTCString(),
      expires: new Date(now + 120_000).toUTCString(),
    }));
    await read(URL_, opts, ctx);
    advance(100_000);
    await read(URL_, opts, ctx);
    expect(site.seen).toHaveLength(1);
    advance(30_000);
    const after = await read(URL_, opts, ctx);
    // No validator: read anew.
    expect(site.seen).toHaveLength(2);
    expect(site.seen[1].headers["if-none-match"]).toBeUndefined();
    expect(after.cached).toBe(false);
  });

  it("no-store is never kept: reading on fetches the page again", async () => {
    const site = servePage(etagged({ "cache-control": "private, no-store" }));
    const { ctx } = clocked();
    const first = await read(URL_, { ...opts, maxChars: 300 }, ctx);
    const on = await read(URL_, { ...opts, maxChars: 300, offset: first.nextOffset }, ctx);
    expect(on.cached).toBe(false);
    expect(site.seen).toHaveLength(2);
    expect(site.seen[1].headers["if-none-match"]).toBeUndefined();
  });

  it("reading on continues the version read first, though stale, unless the page says must-revalidate", async () => {
    const site = servePage(() => ({ "cache-control": "max-age=0" }));
    const { ctx, advance } = clocked();
    const first = await read(URL_, { ...opts, maxChars: 300 }, ctx);
    site.change();
    advance(60_000);
    const on = await read(URL_, { ...opts, maxChars: 300, offset: first.nextOffset }, ctx);
    expect(on).toMatchObject({ status: "ok", cached: true, title: "Harbour, version 1" });
    expect(site.seen).toHaveLength(1);
    // A read from the start asks the site: the page was stale.
    expect((await read(URL_, opts, ctx)).title).toBe("Harbour, version 2");
    expect(site.seen).toHaveLength(2);
  });

  it("must-revalidate: reading on asks the site too", async () => {
    const site = servePage(etagged({ "cache-control": "max-age=0, must-revalidate" }));
    const { ctx } = clocked();
    const first = await read(URL_, { ...opts, maxChars: 300 }, ctx);
    const on = await read(URL_, { ...opts, maxChars: 300, offset: first.nextOffset }, ctx);
    expect(site.seen).toHaveLength(2);
    expect(on.attempts.map((a) => a.provider)).toEqual(["revalidated"]);
  });

  it("no-cache is revalidated on every read", async () => {
    const site = servePage(etagged({ "cache-control": "no-cache" }));
    const { ctx } = clocked();
    await read(URL_, opts, ctx);
    const again = await read(URL_, opts, ctx);
    expect(site.seen).toHaveLength(2);
    expect(again.attempts.map((a) => a.provider)).toEqual(["revalidated"]);
  });

  it("a 304 that repeats no validator keeps the kept one for the next time", async () => {
    let calls = 0;
    const seen: SimRequest[] = [];
    h.sim.route(SITE, "/story", (req): SimReply => {
      seen.push(req);
      calls++;
      if (req.headers["if-none-match"] === '"v1"')
        return { status: 304, headers: { "cache-control": "max-age=0" } };
      const body = html(article("Harbour", PARAGRAPHS));
      return { headers: { ...body.headers, etag: '"v1"', "cache-control": "max-age=0" }, body: body.body };
    });
    const { ctx } = clocked();
    for (let i = 0; i < 3; i++) await read(URL_, opts, ctx);
    expect(calls).toBe(3);
    expect(seen.map((r) => r.headers["if-none-match"])).toEqual([undefined, '"v1"', '"v1"']);
  });

  it("a page read from its markdown alternate is not revalidated by the HTML's validator", async () => {
    h.sim.route(SITE, "/story", {
      headers: { "content-type": "text/html", etag: '"html"', "cache-control": "max-age=0" },
      body: `<html><head><link rel="alternate" type="text/markdown" href="/story.md"></head><body><p>x</p></body></html>`,
    });
    h.sim.route(SITE, "/story.md", {
      headers: { "content-type": "text/markdown" },
      body: `# Harbour\n\n${PARAGRAPHS.join("\n\n")}`,
    });
    const { ctx } = clocked();
    expect((await read(URL_, opts, ctx)).source).toBe("alternate-markdown");
    await read(URL_, opts, ctx);
    const gets = h.sim.requests.filter((r) => r.path === "/story");
    expect(gets).toHaveLength(2);
    expect(gets[1].headers["if-none-match"]).toBeUndefined();
  });

  it("through fetchBest too: the site is asked, not a provider", async () => {
    const site = servePage(etagged({ "cache-control": "max-age=0" }));
    const { ctx } = clocked();
    await fetchBest(URL_, opts, ctx);
    const again = await fetchBest(URL_, opts, ctx);
    expect(site.seen[1].headers["if-none-match"]).toBe('"v1"');
    expect(again.attempts.map((a) => a.provider)).toEqual(["revalidated"]);
  });
});

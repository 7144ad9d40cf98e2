import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Deadline } from "../../../src/core/deadline.js";
import { runLadder } from "../../../src/read/ladder.js";
import { ladderContext } from "../../../src/read/read.js";
import { siteReaderFor } from "../../../src/read/sites/registry.js";
import { readerDrift, type SiteReader } from "../../../src/read/sites/site-reader.js";
import { article, html, PARAGRAPHS, type ReadHarness, startReadHarness } from "./harness.js";

let h: ReadHarness;
beforeAll(async () => {
  h = await startReadHarness();
});
afterAll(() => h.close());
beforeEach(() => h.sim.reset());

const SITE = "code.example.com";

/** A reader of SITE's /repo/ pages through the site's JSON endpoint, checking the answer's shape. */
const repoReader: SiteReader = {
  name: "example-code",
  hosts: [SITE],
  takes: (url) => url.pathname.startsWith("/repo/"),
  async read(url, ctx, deadline) {
    const res = await ctx.net.request(`https://${SITE}/api${url.pathname}`, { deadline });
    if (!res.ok) return { ok: false, status: res.status, code: res.code, message: res.message };
    let body: unknown;
    try {
      body = JSON.parse(res.text());
    } catch {
      return readerDrift("example-code", "not JSON");
    }
    const readme = (body as { readme?: unknown }).readme;
    if (typeof readme !== "string") return readerDrift("example-code", "no readme");
    return { ok: true, title: url.pathname.slice(6), markdown: readme, via: "api" };
  },
};

const ladder = (url: string) =>
  runLadder(
    url,
    { deadline: Deadline.after(5000), render: "never" },
    { ...ladderContext(h.ctx()), sites: [repoReader] },
  );

describe("read ladder: a site's own reader", () => {
  it("is asked first for the URLs it takes, and its text is the page", async () => {
    h.sim.route(SITE, "/api/repo/tool", {
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ readme: "# tool\n\nA tool that does one thing." }),
    });
    const got = await ladder(`https://${SITE}/repo/tool`);
    expect(got.ok).toBe(true);
    if (!got.ok) return;
    expect(got.doc).toMatchObject({
      source: "site",
      reader: { name: "example-code", via: "api" },
      title: "tool",
      markdown: "# tool\n\nA tool that does one thing.",
    });
    expect(got.attempts.map((a) => [a.provider, a.status])).toEqual([["site:example-code", "ok"]]);
    expect(h.sim.requests.map((r) => r.path)).toEqual(["/api/repo/tool"]);
  });

  it("falls back to the page itself when the response drifted, with the reader's failure on record", async () => {
    h.sim.route(SITE, "/api/repo/tool", {
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ description: "renamed field" }),
    });
    h.sim.route(SITE, "/repo/tool", html(article("tool", PARAGRAPHS)));
    const got = await ladder(`https://${SITE}/repo/tool`);
    expect(got.ok).toBe(true);
    if (!got.ok) return;
    expect(got.doc.source).toBe("extracted-html");
    expect(got.doc.markdown).toContain("Lowmouth");
    const first = got.attempts[0];
    expect(first).toMatchObject({ provider: "site:example-code", status: "error" });
    expect(first.error).toMatch(/example-code reader: .*expected shape \(no readme\)/);
  });

  it("leaves the URLs it does not take, and other hosts, to the generic rungs", async () => {
    h.sim.route(SITE, "/blog/post", html(article("post", PARAGRAPHS)));
    const got = await ladder(`https://${SITE}/blog/post`);
    expect(got.ok && got.doc.source).toBe("extracted-html");
    expect(got.attempts.some((a) => a.provider.startsWith("site:"))).toBe(false);
    expect(siteReaderFor(`https://other.example.com/repo/x`, [repoReader])).toBeUndefined();
    expect(siteReaderFor(`https://${SITE.toUpperCase()}/repo/x`, [repoReader])).toBe(repoReader);
    expect(siteReaderFor(`ftp://${SITE}/repo/x`, [repoReader])).toBeUndefined();
  });

  it("does not try the page when the reader spent the read's time", async () => {
    const slow: SiteReader = {
      ...repoReader,
      async read(_url, _ctx, deadline) {
        deadline.abort();
        return { ok: false, status: "timeout", code: "timeout", message: "example-code reader timed out" };
      },
    };
    h.sim.route(SITE, "/repo/tool", html(article("tool", PARAGRAPHS)));
    const got = await runLadder(
      `https://${SITE}/repo/tool`,
      { deadline: Deadline.after(5000), render: "never" },
      { ...ladderContext(h.ctx()), sites: [slow] },
    );
    expect(got.ok).toBe(false);
    if (got.ok) return;
    expect(got.failure.status).toBe("timeout");
    expect(h.sim.requests).toHaveLength(0);
  });
});

describe("read ladder: a site whose API said too many rests", () => {
  let calls = 0;
  const limited = (failure: {
    status: "rate_limited" | "quota" | "blocked";
    retryAfter?: number;
    code?: string;
  }): SiteReader => ({
    ...repoReader,
    async read() {
      calls++;
      return { ok: false, code: "limit", message: "example-code API: too many requests", ...failure };
    },
  });
  const run = (reader: SiteReader, ctx: ReturnType<typeof ladderContext>) =>
    runLadder(
      `https://${SITE}/repo/tool`,
      { deadline: Deadline.after(5000), render: "never" },
      {
        ...ctx,
        sites: [reader],
      },
    );
  beforeEach(() => {
    calls = 0;
    h.sim.route(SITE, "/repo/tool", html(article("tool", PARAGRAPHS)));
  });

  it("is not asked again until the time its site named; the page is read the generic way meanwhile", async () => {
    let clock = 1_000_000;
    const ctx = { ...ladderContext(h.ctx()), now: () => clock };
    const reader = limited({ status: "rate_limited", retryAfter: 120 });
    const first = await run(reader, ctx);
    expect(first.attempts[0]).toMatchObject({ provider: "site:example-code", status: "rate_limited" });
    expect(first.ok && first.doc.source).toBe("extracted-html");
    clock += 119_000;
    const second = await run(reader, ctx);
    expect(calls).toBe(1);
    expect(second.attempts[0]).toMatchObject({
      provider: "site:example-code",
      status: "skipped",
      retryAfter: 1,
    });
    expect(second.attempts[0].error).toMatch(/^resting until .* \(rate limited\)$/);
    expect(second.ok && second.doc.source).toBe("extracted-html");
    clock += 2_000;
    await run(reader, ctx);
    expect(calls).toBe(2);
  });

  it("rests a minute when the site said no time, for a quota too; a block of one page is not a rest", async () => {
    let clock = 5_000_000;
    const ctx = { ...ladderContext(h.ctx()), now: () => clock };
    await run(limited({ status: "quota" }), ctx);
    clock += 59_000;
    const resting = await run(limited({ status: "quota" }), ctx);
    expect(resting.attempts[0]).toMatchObject({ status: "skipped", retryAfter: 1 });
    expect(resting.attempts[0].error).toMatch(/\(quota exhausted\)$/);
    const other = { ...ladderContext(h.ctx()), now: () => clock };
    await run(limited({ status: "blocked" }), other);
    await run(limited({ status: "blocked" }), other);
    expect(calls).toBe(3);
    // Our own limiter's queue, too long for one read, is not the site's word.
    const queued = { ...ladderContext(h.ctx()), now: () => clock };
    await run(limited({ status: "rate_limited", retryAfter: 1, code: "local_rate_limit" }), queued);
    await run(limited({ status: "rate_limited", retryAfter: 1, code: "local_rate_limit" }), queued);
    expect(calls).toBe(5);
  });
});

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { read } from "../../../src/read/read.js";
import { arxivIdOf } from "../../../src/read/sites/arxiv.js";
import { siteReaderFor } from "../../../src/read/sites/registry.js";
import { article, html, PARAGRAPHS } from "../ladder/harness.js";
import { useReadHarness } from "./site-harness.js";

const h = useReadHarness();

const fixture = (name: string) =>
  readFileSync(new URL(`../../fixtures/sites/arxiv/${name}`, import.meta.url), "utf8");
const atom = (body: string) => ({ headers: { "content-type": "application/atom+xml; charset=utf-8" }, body });
const never = { render: "never" as const };
const API = "export.arxiv.org";

describe("arXiv: which URLs it takes", () => {
  it("takes abstract pages of new and old ids, with or without a version, and leaves the full texts alone", () => {
    expect(arxivIdOf("/abs/1706.03762")).toBe("1706.03762");
    expect(arxivIdOf("/abs/2501.01234v2")).toBe("2501.01234v2");
    expect(arxivIdOf("/abs/0704.0001")).toBe("0704.0001");
    expect(arxivIdOf("/abs/hep-th/9901001")).toBe("hep-th/9901001");
    expect(arxivIdOf("/abs/math.GT/0309136v2")).toBe("math.GT/0309136v2");
    expect(arxivIdOf("/abs/2501.01234/")).toBe("2501.01234");
    for (const path of ["/abs/", "/abs/not-an-id", "/abs/2501.1", "/list/cs.CL/new", "/pdf/2501.01234"])
      expect(arxivIdOf(path)).toBeUndefined();
    expect(siteReaderFor("https://arxiv.org/abs/2501.01234v2")?.name).toBe("arxiv");
    expect(siteReaderFor("https://www.arxiv.org/abs/hep-th/9901001")?.name).toBe("arxiv");
    expect(siteReaderFor("https://arxiv.org/pdf/2501.01234v2")).toBeUndefined();
    expect(siteReaderFor("https://arxiv.org/html/2501.01234v2")).toBeUndefined();
    expect(siteReaderFor("https://arxiv.example.com/abs/2501.01234")).toBeUndefined();
  });
});

describe("arXiv: the abstract through the API", () => {
  it("gives title, authors, dates, categories, abstract and where the full text is, from one API call", async () => {
    h.sim.route(API, "/api/query", atom(fixture("api-2501.01234v2.xml")));
    const page = await read("https://arxiv.org/abs/2501.01234v2", never, h.ctx());
    expect(page).toMatchObject({
      status: "ok",
      source: "site",
      reader: { name: "arxiv", via: "export.arxiv.org API" },
      title: "Granite Breakwaters as Wave Filters: A Study of the Lowmouth Harbour Rebuild",
      finalUrl: "https://arxiv.org/abs/2501.01234v2",
      byline: "Ada Pier, Mark Tidewell",
      published: "2025-01-02T18:00:01.000Z",
    });
    expect(h.sim.requests.map((r) => `${r.host}${r.url.pathname}${r.url.search}`)).toEqual([
      `${API}/api/query?id_list=2501.01234v2&max_results=1`,
    ]);
    const [heading, facts, abstract, fullText] = page.markdown
      .split("\n\n## ")
      .map((s, i) => (i ? `## ${s}` : s));
    expect(heading.split("\n\n")[0]).toBe(
      "# Granite Breakwaters as Wave Filters: A Study of the Lowmouth Harbour Rebuild",
    );
    expect(heading.split("\n\n")[1].split("\n")).toEqual([
      "**Authors:** Ada Pier, Mark Tidewell",
      "**arXiv:** 2501.01234v2",
      "**Submitted:** 2025-01-02T18:00:01.000Z",
      "**This version:** 2025-03-14T09:26:53.000Z",
      "**Categories:** physics.ao-ph (primary), physics.flu-dyn",
      "**Comment:** 12 pages, 5 figures; v2: corrected Table 2",
      "**Journal reference:** J. Coastal Eng. 12 (2025) 34-45",
      "**DOI:** 10.5555/lowmouth.2025.1",
    ]);
    expect(facts).toBe(
      "## Abstract\n\nWe study how a granite breakwater changes the spectrum of waves that reach a harbour. Using records from three summers of construction, we show that the energy at periods below $8\\,$s falls by a factor of four & that the lifeboat station's launch window widens accordingly.",
    );
    expect(abstract).toContain("- PDF: https://arxiv.org/pdf/2501.01234v2");
    expect(abstract).toContain("- HTML: https://arxiv.org/html/2501.01234v2");
    expect(fullText).toBeUndefined();
    expect(page.links).toEqual([
      "https://arxiv.org/pdf/2501.01234v2",
      "https://arxiv.org/html/2501.01234v2",
      "https://doi.org/10.5555/lowmouth.2025.1",
    ]);
  });

  it("names the first 50 authors of a collaboration's paper and counts the rest", async () => {
    const many = Array.from({ length: 2900 }, (_, i) => `<author><name>Author ${i + 1}</name></author>`).join(
      "",
    );
    const api = fixture("api-2501.01234v2.xml").replace(/<author>[\s\S]*<\/author>/, many);
    h.sim.route(API, "/api/query", atom(api));
    const page = await read("https://arxiv.org/abs/2501.01234v2", never, h.ctx());
    expect(page.markdown).toContain("Author 49, Author 50 and 2850 more\n**arXiv:**");
    expect(page.markdown).not.toContain("Author 51,");
    expect(page.byline).toBe("Author 1, Author 2, Author 3 et al.");
  });

  it("reads an old-style id", async () => {
    h.sim.route(API, "/api/query", atom(fixture("api-hep-th-9901001.xml")));
    const page = await read("https://arxiv.org/abs/hep-th/9901001", never, h.ctx());
    expect(page).toMatchObject({ status: "ok", source: "site", title: "Strings on a Quay" });
    expect(h.sim.requests[0].url.searchParams.get("id_list")).toBe("hep-th/9901001");
    expect(page.markdown).toContain("**arXiv:** hep-th/9901001v1\n**Submitted:** 1999-01-04T12:00:00.000Z\n");
    expect(page.markdown).not.toContain("This version");
    expect(page.markdown).toContain("- PDF: https://arxiv.org/pdf/hep-th/9901001v1");
  });
});

describe("arXiv: the page when the API fails", () => {
  it("reads the abstract page's citation metadata when the API is rate limited", async () => {
    h.sim.route(API, "/api/query", {
      status: 503,
      headers: { "content-type": "text/plain" },
      body: "Rate exceeded.",
    });
    h.sim.route("arxiv.org", "/abs/2501.01234", {
      headers: { "content-type": "text/html; charset=utf-8" },
      body: fixture("abs-2501.01234.html"),
    });
    const page = await read("https://arxiv.org/abs/2501.01234", never, h.ctx());
    expect(page).toMatchObject({
      status: "ok",
      source: "site",
      reader: { name: "arxiv", via: "abs page" },
      title: "Granite Breakwaters as Wave Filters: A Study of the Lowmouth Harbour Rebuild",
      byline: "Ada Pier, Mark Tidewell",
    });
    expect(page.markdown).toContain(
      "**Authors:** Ada Pier, Mark Tidewell\n**arXiv:** 2501.01234\n**Submitted:** 2025-01-02\n**This version:** 2025-03-14\n**Categories:** physics.ao-ph (primary), physics.flu-dyn\n**DOI:** 10.5555/lowmouth.2025.1",
    );
    expect(page.markdown).toContain("falls by a factor of four & that the lifeboat station's launch window");
    expect(h.logs.join("\n")).toMatch(/arxiv API for 2501\.01234: .*503/);
  });

  it("on a drifted API answer and a page without its metadata: an error naming the reader, then the generic ladder", async () => {
    const drifted = fixture("api-2501.01234v2.xml").replace(/<summary>[\s\S]*?<\/summary>/, "");
    h.sim.route(API, "/api/query", atom(drifted));
    h.sim.route("arxiv.org", "/abs/2501.01234v2", html(article("A paper", PARAGRAPHS)));
    const page = await read("https://arxiv.org/abs/2501.01234v2", never, h.ctx());
    expect(page).toMatchObject({ status: "ok", source: "extracted-html" });
    expect(page.markdown).toContain("Lowmouth");
    const [site, ...rest] = page.attempts;
    expect(site).toMatchObject({ provider: "site:arxiv", status: "error" });
    expect(site.error).toMatch(
      /^arxiv reader: the response no longer has the expected shape \(no meta "citation_arxiv_id"\)/,
    );
    expect(rest.map((a) => a.provider)).toEqual(["fetch", "extract"]);
    expect(h.logs.join("\n")).toMatch(/no <entry><summary>/);
  });

  it("an id arXiv does not hold ends in the page's own 404, not an empty paper", async () => {
    h.sim.route(API, "/api/query", atom(fixture("api-no-entry.xml")));
    const page = await read("https://arxiv.org/abs/2501.99999", never, h.ctx());
    expect(page.status).toBe("error");
    expect(page.error?.message).toMatch(/arxiv\.org answered HTTP 404/);
    expect(page.attempts.map((a) => [a.provider, a.status])).toEqual([
      ["site:arxiv", "error"],
      ["fetch", "error"],
    ]);
    expect(h.logs.join("\n")).toMatch(/no entry for 2501\.99999/);
  });

  it("takes arXiv's HTTP-200 error entry as no paper", async () => {
    h.sim.route(API, "/api/query", atom(fixture("api-error.xml")));
    h.sim.route("arxiv.org", "/abs/2501.01234", {
      headers: { "content-type": "text/html" },
      body: fixture("abs-2501.01234.html"),
    });
    const page = await read("https://arxiv.org/abs/2501.01234", never, h.ctx());
    expect(page).toMatchObject({ status: "ok", reader: { name: "arxiv", via: "abs page" } });
    expect(page.title).not.toBe("Error");
  });
});

describe("arXiv: requests to the API spaced as arXiv asks", () => {
  it("a read with no time to wait for its API slot reads the abstract page", async () => {
    h.sim.route(API, "/api/query", atom(fixture("api-2501.01234v2.xml")));
    h.sim.route("arxiv.org", "/abs/2501.01234", {
      headers: { "content-type": "text/html; charset=utf-8" },
      body: fixture("abs-2501.01234.html"),
    });
    // The store's limiter as a second read finds it straight after a first (its own timing is the store's tests').
    const base = h.ctx();
    let calls = 0;
    const store = Object.assign(Object.create(base.store), {
      reserveSlot: async () => (calls++ === 0 ? 0 : 2900),
    });
    const ctx = { ...base, store };
    const first = await read("https://arxiv.org/abs/2501.01234v2", never, ctx);
    expect(first).toMatchObject({ status: "ok", reader: { via: "export.arxiv.org API" } });
    const second = await read("https://arxiv.org/abs/2501.01234", { ...never, timeoutMs: 2500 }, ctx);
    expect(second).toMatchObject({ status: "ok", reader: { name: "arxiv", via: "abs page" } });
    expect(h.sim.requests.filter((r) => r.host === API)).toHaveLength(1);
    expect(h.logs.join("\n")).toMatch(/arxiv API for 2501\.01234: the next API slot is 3 s away/);
  });

  it("waits for a near slot and then asks the API; the limiter's key is the reader's own", async () => {
    h.sim.route(API, "/api/query", atom(fixture("api-2501.01234v2.xml")));
    const ctx = h.ctx();
    const booked: [string, number][] = [];
    const store = Object.assign(Object.create(ctx.store), {
      reserveSlot: async (key: string, intervalMs: number) => {
        booked.push([key, intervalMs]);
        return 5;
      },
    });
    const page = await read("https://arxiv.org/abs/2501.01234v2", never, { ...ctx, store });
    expect(page).toMatchObject({ status: "ok", reader: { via: "export.arxiv.org API" } });
    expect(booked).toEqual([["site:arxiv:api", 3000]]);
  });
});

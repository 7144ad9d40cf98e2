import { describe, expect, it } from "vitest";
import { Deadline } from "../../../src/core/deadline.js";
import {
  summaryFromRest,
  titleFromOpenSearch,
  titleFromSearch,
  wikipedia,
  wikipediaLanguage,
} from "../../../src/search/providers/wikipedia.js";
import type { SimReply, SimRequest } from "../../simweb/index.js";
import { useSimProviders } from "./context.js";
import { fixture } from "./fixtures.js";

const W = "wikipedia";
const json = (body: unknown, status = 200): SimReply => ({
  status,
  headers: { "content-type": "application/json; charset=utf-8" },
  body: typeof body === "string" ? body : JSON.stringify(body),
});
const PHYSICS = () => json(fixture(`${W}/wikipedia-rest-summary-standard-physics-2019.json`));

describe("wikipedia parsers", () => {
  it("reads the first opensearch title and the first full-text hit", () => {
    expect(titleFromOpenSearch(JSON.parse(fixture(`${W}/wikipedia-opensearch-happy-limit50.json`)))).toBe(
      "Happiness",
    );
    expect(
      titleFromSearch(
        JSON.parse(fixture(`${W}/wikipedia-action-query-list-search-sachin-tendulkar-2018.json`)),
      ),
    ).toBe("Sachin Tendulkar");
  });

  it("takes the extract of a standard summary, and nothing from a disambiguation or a 404 body", () => {
    expect(
      summaryFromRest(JSON.parse(fixture(`${W}/wikipedia-rest-summary-standard-physics-2019.json`))),
    ).toEqual({
      title: "Physics",
      extract: expect.stringMatching(/^Physics is the natural science that studies matter/),
      url: "https://en.wikipedia.org/wiki/Physics",
    });
    expect(summaryFromRest(JSON.parse(fixture(`${W}/wikipedia-rest-summary-disambiguation-test.json`)))).toBe(
      undefined,
    );
    expect(summaryFromRest(JSON.parse(fixture(`${W}/wikipedia-rest-summary-404-not-found.json`)))).toBe(
      undefined,
    );
  });

  it("finds no title in odd payloads instead of crashing", () => {
    for (const payload of [
      null,
      undefined,
      "x",
      {},
      ["q"],
      ["q", "not a list"],
      ["q", [null, "B"]],
      ["q", [""]],
    ])
      expect(titleFromOpenSearch(payload)).toBeUndefined();
    for (const payload of [
      null,
      {},
      { query: {} },
      { query: { search: {} } },
      { query: { search: [{ ns: 0 }] } },
    ])
      expect(titleFromSearch(payload)).toBeUndefined();
    expect(summaryFromRest({ type: "standard", title: "T", extract: 5 })).toBeUndefined();
  });
});

describe("wikipediaLanguage", () => {
  it("uses the language code, English when it is missing or invalid", () => {
    expect(wikipediaLanguage({ query: "Berlin" })).toBe("en");
    expect(wikipediaLanguage({ query: "Berlin", language: "de" })).toBe("de");
    expect(wikipediaLanguage({ query: "Berlin", language: "../evil" })).toBe("en");
    expect(wikipediaLanguage({ query: "Berlin", language: "de.evil.com" })).toBe("en");
  });
  it("sends ASCII queries for non-Latin wikis to English", () => {
    expect(wikipediaLanguage({ query: "Tokyo tower height", language: "ja" })).toBe("en");
    expect(wikipediaLanguage({ query: "東京タワー", language: "ja" })).toBe("ja");
    expect(wikipediaLanguage({ query: "Москва", language: "ru" })).toBe("ru");
    expect(wikipediaLanguage({ query: "Moskva", language: "ru" })).toBe("en");
  });
});

describe("wikipedia provider (simulated web)", () => {
  const web = useSimProviders();

  /** Routes one wiki: opensearch titles, list=search titles, and REST summaries by title. */
  function wiki(
    lang: string,
    opts: { opensearch?: string[] | SimReply; search?: string[]; summaries?: Record<string, SimReply> },
  ) {
    const host = `${lang}.wikipedia.org`;
    web.sim.route(host, "/w/api.php", (req: SimRequest) => {
      const action = req.url.searchParams.get("action");
      if (action === "opensearch") {
        if (opts.opensearch && !Array.isArray(opts.opensearch)) return opts.opensearch;
        return json([req.url.searchParams.get("search"), opts.opensearch ?? [], [], []]);
      }
      if (action === "query" && req.url.searchParams.get("list") === "search")
        return json({ query: { search: (opts.search ?? []).map((title) => ({ ns: 0, title })) } });
      return json({ error: { code: "badparams" } });
    });
    web.sim.route(host, /^\/api\/rest_v1\/page\/summary\//, (req: SimRequest) => {
      const title = decodeURIComponent(req.path.split("/").pop() ?? "");
      return opts.summaries?.[title] ?? json(fixture(`${W}/wikipedia-rest-summary-404-not-found.json`), 404);
    });
  }
  const paths = () => web.sim.requests.map((r) => `${r.host} ${r.url.searchParams.get("action") ?? r.path}`);

  it("opensearch title, then the REST summary: one hit and a summary answer, with a descriptive User-Agent", async () => {
    wiki("en", { opensearch: ["Physics"], summaries: { Physics: PHYSICS() } });
    const outcome = await wikipedia.search({ query: "physics", limit: 5 }, web.ctx, Deadline.after(5000));
    expect(outcome).toEqual({
      status: "ok",
      hits: [
        {
          title: "Physics",
          url: "https://en.wikipedia.org/wiki/Physics",
          snippet: expect.stringMatching(/^Physics is the natural science/),
        },
      ],
      answer: {
        kind: "summary",
        text: expect.stringMatching(/^Physics is the natural science/),
        source: "Wikipedia",
        url: "https://en.wikipedia.org/wiki/Physics",
        modelGenerated: false,
      },
    });
    expect(paths()).toEqual([
      "en.wikipedia.org opensearch",
      "en.wikipedia.org /api/rest_v1/page/summary/Physics",
    ]);
    expect(web.sim.requests[0].headers["user-agent"]).toMatch(/^websift\/.*https:\/\//);
  });

  it("falls back to full-text search when opensearch finds nothing (verbose questions)", async () => {
    wiki("en", { opensearch: [], search: ["Physics"], summaries: { Physics: PHYSICS() } });
    const outcome = await wikipedia.search(
      { query: "what is the science of matter and energy called", limit: 5 },
      web.ctx,
      Deadline.after(5000),
    );
    expect(outcome.status).toBe("ok");
    expect(paths()).toEqual([
      "en.wikipedia.org opensearch",
      "en.wikipedia.org query",
      "en.wikipedia.org /api/rest_v1/page/summary/Physics",
    ]);
    expect(web.sim.requests[1].url.searchParams.get("srlimit")).toBe("1");
  });

  it("treats a failing opensearch (HTTP 500, HTML body) as no title and still searches", async () => {
    wiki("en", {
      opensearch: { status: 500, body: "<html>oops</html>" },
      search: ["Physics"],
      summaries: { Physics: PHYSICS() },
    });
    const outcome = await wikipedia.search({ query: "physics", limit: 5 }, web.ctx, Deadline.after(5000));
    expect(outcome.status).toBe("ok");
  });

  it.each([
    [{ status: 500, body: "<html>oops</html>" }, "error", /HTTP 500/],
    [{ status: 503, body: "" }, "error", /HTTP 503/],
    [{ status: 200, body: "<html>not json</html>" }, "error", /not JSON/],
    [json({ error: { code: "internal_api_error" } }), "error", /unknown shape/],
  ])(
    "opensearch and full-text search both failing (%j) is %s, never empty",
    async (reply, status, message) => {
      web.sim.route("en.wikipedia.org", "/w/api.php", reply as SimReply);
      const outcome = await wikipedia.search({ query: "physics", limit: 5 }, web.ctx, Deadline.after(5000));
      expect(outcome).toMatchObject({ status });
      expect(outcome.status !== "ok" && outcome.status !== "empty" && outcome.message).toMatch(message);
      expect(paths()).toEqual(["en.wikipedia.org opensearch", "en.wikipedia.org query"]);
    },
  );

  it("a 403 is blocked and a 429 rate limited, without asking full-text search as well", async () => {
    web.sim.route("en.wikipedia.org", "/w/api.php", { status: 403, body: "Scripted requests refused" });
    expect(
      await wikipedia.search({ query: "physics", limit: 5 }, web.ctx, Deadline.after(5000)),
    ).toMatchObject({ status: "blocked", code: "http_403" });
    expect(web.sim.requests).toHaveLength(1);
  });

  it("a summary that fails with 5xx is an error; only its 404 is a miss", async () => {
    wiki("en", { opensearch: ["Physics"], summaries: { Physics: { status: 502, body: "bad gateway" } } });
    const outcome = await wikipedia.search({ query: "physics", limit: 5 }, web.ctx, Deadline.after(5000));
    expect(outcome).toMatchObject({ status: "error", message: "wikipedia answered HTTP 502" });
  });

  it("a localised wiki failing is not retried on English as if it had missed", async () => {
    web.sim.route("de.wikipedia.org", "/w/api.php", { status: 500, body: "" });
    wiki("en", { opensearch: ["Physics"], summaries: { Physics: PHYSICS() } });
    const outcome = await wikipedia.search(
      { query: "physik", language: "de", limit: 5 },
      web.ctx,
      Deadline.after(5000),
    );
    expect(outcome.status).toBe("error");
    expect(web.sim.requests.every((r) => r.host === "de.wikipedia.org")).toBe(true);
  });

  it("a disambiguation page is not an answer", async () => {
    wiki("en", {
      opensearch: ["Test"],
      summaries: { Test: json(fixture(`${W}/wikipedia-rest-summary-disambiguation-test.json`)) },
    });
    const outcome = await wikipedia.search({ query: "test", limit: 5 }, web.ctx, Deadline.after(5000));
    expect(outcome).toMatchObject({ status: "empty" });
    expect("answer" in outcome).toBe(false);
  });

  it("retries a localised miss once on English", async () => {
    wiki("de", { opensearch: [], search: [] });
    wiki("en", { opensearch: ["Physics"], summaries: { Physics: PHYSICS() } });
    const outcome = await wikipedia.search(
      { query: "physics", language: "de", limit: 5 },
      web.ctx,
      Deadline.after(5000),
    );
    expect(outcome.status).toBe("ok");
    expect(web.sim.requests.map((r) => r.host)).toEqual([
      "de.wikipedia.org",
      "de.wikipedia.org",
      "en.wikipedia.org",
      "en.wikipedia.org",
    ]);
  });

  it("a localised summary 404 also counts as a miss; an English miss is empty without another retry", async () => {
    wiki("de", { opensearch: ["Physik"] });
    wiki("en", { opensearch: [], search: [] });
    const outcome = await wikipedia.search(
      { query: "physik", language: "de", limit: 5 },
      web.ctx,
      Deadline.after(5000),
    );
    expect(outcome).toMatchObject({ status: "empty" });
    expect(web.sim.requests.filter((r) => r.host === "en.wikipedia.org")).toHaveLength(2);
  });

  it("asks English for an ASCII query on a non-Latin wiki", async () => {
    wiki("en", { opensearch: ["Physics"], summaries: { Physics: PHYSICS() } });
    await wikipedia.search({ query: "physics", language: "ja", limit: 5 }, web.ctx, Deadline.after(5000));
    expect(web.sim.requests.every((r) => r.host === "en.wikipedia.org")).toBe(true);
  });

  it("reports 429 as rate limited", async () => {
    wiki("en", { opensearch: { status: 429, headers: { "retry-after": "7" }, body: "" } });
    const outcome = await wikipedia.search({ query: "physics", limit: 5 }, web.ctx, Deadline.after(5000));
    expect(outcome).toMatchObject({ status: "rate_limited", retryAfter: 7 });
  });

  it("fires no request with less than 500 ms left", async () => {
    wiki("en", { opensearch: ["Physics"], summaries: { Physics: PHYSICS() } });
    const outcome = await wikipedia.search({ query: "physics", limit: 5 }, web.ctx, Deadline.after(400));
    expect(outcome).toMatchObject({ status: "timeout", code: "deadline" });
    expect(web.sim.requests).toHaveLength(0);
  });

  it("stops before the next request when a slow one leaves less than the minimum", async () => {
    wiki("en", { summaries: { Physics: PHYSICS() } });
    web.sim.route("en.wikipedia.org", "/w/api.php", {
      ...json(["physics", ["Physics"], [], []]),
      delayMs: 700,
    });
    const outcome = await wikipedia.search({ query: "physics", limit: 5 }, web.ctx, Deadline.after(1000));
    expect(outcome).toMatchObject({ status: "timeout", code: "deadline" });
    expect(web.sim.requests).toHaveLength(1);
  });

  it("a request gets only what remains of the deadline", async () => {
    web.sim.route("en.wikipedia.org", "/w/api.php", {
      ...json(["physics", ["Physics"], [], []]),
      delayMs: 3000,
    });
    const outcome = await wikipedia.search({ query: "physics", limit: 5 }, web.ctx, Deadline.after(800));
    expect(outcome.status).toBe("timeout");
  });
});

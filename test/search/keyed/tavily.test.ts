import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Deadline } from "../../../src/core/deadline.js";
import type { ProviderQuery } from "../../../src/search/provider.js";
import { parseTavilyResponse, tavily, tavilyRequest } from "../../../src/search/providers/tavily.js";
import { fixtureJson, fixtureText, type Harness, json, startHarness } from "./harness.js";

const KEY = "test-SECRET-tavily-0002";
const HOST = "api.tavily.com";
const q = (over: Partial<ProviderQuery> = {}): ProviderQuery => ({
  query: "What is Pydantic AI?",
  limit: 5,
  ...over,
});

describe("parseTavilyResponse", () => {
  it.each([
    ["tavily/tavily-search-basic-what-is-pydantic-ai.json", 5, "https://medium.com/ai-agent-insider/"],
    ["tavily/tavily-search-include-domains-arxiv.json", 5, "https://arxiv.org/"],
    ["tavily/tavily-search-max-results-2-include-domains.json", 2, "https://arxiv.org/"],
    ["tavily/tavily-search-include-answer.FROM-DOCS.json", 1, "https://www.britannica.com/"],
  ])("reads %s", (file, count, prefix) => {
    const out = parseTavilyResponse(fixtureJson(file));
    expect(out.status).toBe("ok");
    if (out.status !== "ok") return;
    expect(out.hits).toHaveLength(count);
    expect(out.hits[0].url.startsWith(prefix)).toBe(true);
    for (const h of out.hits) {
      expect(h.title.length).toBeGreaterThan(0);
      expect(h.snippet.length).toBeGreaterThan(0);
      expect(h.snippet.length).toBeLessThanOrEqual(600);
      expect(h.snippet).not.toContain("\n");
    }
  });

  it("marks Tavily's own answer as model-generated, and reads a string response_time without tripping", () => {
    const out = parseTavilyResponse(fixtureJson("tavily/tavily-search-include-answer.FROM-DOCS.json"));
    expect(out.status === "ok" && out.answer).toMatchObject({
      kind: "model",
      modelGenerated: true,
      source: "tavily",
    });
    const plain = parseTavilyResponse(fixtureJson("tavily/tavily-search-basic-what-is-pydantic-ai.json"));
    expect(plain.status === "ok" && plain.answer).toBeUndefined();
  });

  it("is empty only for an empty results list", () => {
    expect(parseTavilyResponse({ results: [], answer: null }).status).toBe("empty");
    expect(parseTavilyResponse({ detail: "x" }).status).toBe("error");
  });
});

describe("tavily through the simulated web", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());
  beforeEach(() => h.sim.reset());
  const run = (query = q()) => tavily.search(query, h.ctx({ TAVILY_API_KEY: KEY }), Deadline.after(5000));

  it.each([
    ["tavily-search-basic-what-is-pydantic-ai", q()],
    [
      "tavily-search-include-domains-arxiv",
      q({ query: "transformer architectures", includeDomains: ["arxiv.org"] }),
    ],
    [
      "tavily-search-max-results-2-include-domains",
      q({ query: "attention mechanisms", includeDomains: ["arxiv.org"], limit: 2 }),
    ],
  ])("replays %s: the request matches the recorded one", async (name, query) => {
    const exchange = fixtureJson(`tavily/${name}.exchange.json`) as {
      request: { body: Record<string, unknown> };
    };
    h.sim.route(HOST, "/search", json(fixtureText(`tavily/${name}.json`)));
    const out = await run(query);
    expect(out.status).toBe("ok");
    const [req] = h.sim.requests;
    expect(req.method).toBe("POST");
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req.headers["content-type"]).toBe("application/json");
    const sent = JSON.parse(req.body);
    expect(sent).toMatchObject(exchange.request.body);
    expect(sent.api_key).toBeUndefined();
  });

  it("passes the time range natively", async () => {
    h.sim.route(HOST, "/search", json({ results: [] }));
    await run(q({ timeRange: "w", limit: 50 }));
    expect(JSON.parse(h.sim.requests[0].body)).toMatchObject({ time_range: "week", max_results: 20 });
  });

  it("spells the time range as the documented request does", () => {
    const documented = fixtureJson("tavily/tavily-search-news-time-range.request.FROM-DOCS.json") as Record<
      string,
      unknown
    >;
    const body = tavilyRequest(q({ timeRange: "w", limit: 5 }));
    expect(body.time_range).toBe(documented.time_range);
    expect(body.max_results).toBe(documented.max_results);
    expect(body.search_depth).toBe(documented.search_depth);
  });

  it.each([
    ["tavily-error-401.FROM-DOCS.json", 401, "error", "key_rejected"],
    ["tavily-error-429-rate-limit.FROM-DOCS.json", 429, "rate_limited", "rate_limited"],
    ["tavily-error-432-plan-limit.FROM-DOCS.json", 432, "quota", "quota"],
    ["tavily-error-432-plan-limit.FROM-DOCS.json", 433, "quota", "quota"],
    ["tavily-error-401.FROM-DOCS.json", 500, "error", "server_error"],
  ])("maps %s with HTTP %i to %s", async (file, status, outStatus, code) => {
    h.sim.route(HOST, "/search", json(fixtureText(`tavily/${file}`), status));
    expect(await run()).toMatchObject({ status: outStatus, code });
  });

  it("keeps Retry-After on a 429", async () => {
    h.sim.route(
      HOST,
      "/search",
      json(fixtureText("tavily/tavily-error-429-rate-limit.FROM-DOCS.json"), 429, { "retry-after": "12" }),
    );
    expect(await run()).toMatchObject({ status: "rate_limited", retryAfter: 12 });
  });
});

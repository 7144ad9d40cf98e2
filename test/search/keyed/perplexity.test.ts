import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Deadline } from "../../../src/core/deadline.js";
import type { ProviderQuery } from "../../../src/search/provider.js";
import {
  citedFor,
  parsePerplexityResponse,
  perplexity,
  perplexityRequest,
  withoutThinking,
} from "../../../src/search/providers/perplexity.js";
import { fixtureJson, fixtureText, type Harness, json, startHarness } from "./harness.js";

const KEY = "test-SECRET-pplx-0004";
const q = (over: Partial<ProviderQuery> = {}): ProviderQuery => ({
  query: "How does a solar sail work?",
  limit: 10,
  ...over,
});

describe("parsePerplexityResponse", () => {
  it("turns a citations-only capture into hits, with the answer marked model-generated", () => {
    const out = parsePerplexityResponse(fixtureJson("perplexity/perplexity-sonar-citations-2026-02.json"));
    expect(out.status).toBe("ok");
    if (out.status !== "ok") return;
    expect(out.hits.map((h) => h.url)).toEqual([
      "https://populationstat.com/united-states/san-francisco",
      "https://en.wikipedia.org/wiki/San_Francisco",
      "https://www.california-demographics.com/cities_by_population",
      "https://wfin.com/fox-sports/pat-mcafee-says-san-francisco-wasnt-the-s-hole-he-thought-it-may-be-during-super-bowl-week/",
      "https://fred.stlouisfed.org/series/CASANF0POP",
      "https://worldpopulationreview.com/us-cities/california/san-francisco",
      "https://worldpopulationreview.com/us-counties/california/san-francisco-county",
    ]);
    expect(out.hits[1].title).toBe("en.wikipedia.org/wiki/San_Francisco");
    expect(out.hits[0].snippet).toContain("893,000 (2026 city estimate from populationstat.com).");
    expect(out.hits[3].snippet).toBe("");
    expect(out.answer).toMatchObject({ kind: "model", modelGenerated: true });
    expect(out.answer?.text).toMatch(/^The most recent estimates for San Francisco/);
  });

  it("prefers search_results (titles, snippets, dates) and does not repeat their citations", () => {
    const out = parsePerplexityResponse(
      fixtureJson("perplexity/perplexity-sonar-search-results.FROM-DOCS.json"),
    );
    expect(out.status === "ok" && out.hits).toEqual([
      {
        title: "Solar sail - Wikipedia",
        url: "https://en.wikipedia.org/wiki/Solar_sail",
        snippet: expect.stringContaining("radiation pressure exerted by sunlight"),
        date: "2004-05-02",
      },
      {
        title: "LightSail | The Planetary Society",
        url: "https://www.planetary.org/sci-tech/lightsail",
        snippet: expect.stringContaining("crowdfunded project"),
      },
    ]);
  });

  it("calls an answer without sources empty, keeping the answer", () => {
    const out = parsePerplexityResponse(fixtureJson("perplexity/perplexity-sonar-usage-cost-sanitized.json"));
    expect(out).toMatchObject({ status: "empty", answer: { text: "OK", modelGenerated: true } });
    expect(parsePerplexityResponse({ id: "x" }).status).toBe("error");
  });

  it("removes <think> blocks, closed or not", () => {
    expect(withoutThinking("<think>plan\nsteps</think>\nThe answer [1].")).toBe("The answer [1].");
    expect(withoutThinking("<think>never closed")).toBe("");
    const out = parsePerplexityResponse({
      choices: [{ message: { content: "<think>hmm</think>Sails use light [1]." } }],
      citations: ["https://a.example/sail"],
    });
    expect(out.status === "ok" && out.answer?.text).toBe("Sails use light [1].");
  });

  it("finds what a source is cited for", () => {
    expect(citedFor("Alpha is **big**.[1] Beta is small.[2]\n- Gamma too.[1][2]", 1)).toBe(
      "Alpha is big. Gamma too.",
    );
  });
});

describe("perplexityRequest", () => {
  it("matches the documented request and caps the domain filter at 20", () => {
    const documented = fixtureJson("perplexity/perplexity-chat-completions.request.FROM-DOCS.json") as Record<
      string,
      unknown
    >;
    const domains = Array.from({ length: 25 }, (_, i) => `d${i}.example`);
    const body = perplexityRequest(q({ includeDomains: domains, timeRange: "m" }));
    expect(body).toMatchObject({
      model: documented.model,
      search_recency_filter: documented.search_recency_filter,
      web_search_options: documented.web_search_options,
    });
    expect(body.search_domain_filter).toEqual(domains.slice(0, 20));
    const messages = body.messages as { role: string; content: string }[];
    expect(messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(messages[1].content).toBe("How does a solar sail work?");
  });
});

describe("perplexity through the simulated web", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());
  beforeEach(() => h.sim.reset());
  const run = () => perplexity.search(q(), h.ctx({ PERPLEXITY_API_KEY: KEY }), Deadline.after(5000));

  it("posts with a Bearer key and returns hits and the answer", async () => {
    h.sim.route(
      "api.perplexity.ai",
      "/chat/completions",
      json(fixtureText("perplexity/perplexity-sonar-search-results.FROM-DOCS.json")),
    );
    const out = await run();
    expect(out.status === "ok" && out.hits).toHaveLength(2);
    const [req] = h.sim.requests;
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(JSON.parse(req.body).model).toBe("sonar");
  });

  it.each([
    [
      401,
      '{"error":{"message":"Invalid API key","type":"invalid_api_key","code":401}}',
      "error",
      "key_rejected",
    ],
    [
      429,
      '{"error":{"message":"rate limit","type":"rate_limit","code":429}}',
      "rate_limited",
      "rate_limited",
    ],
    [
      400,
      '{"error":{"message":"After the (optional) system message(s), user and assistant roles should be alternating.","type":"invalid_message","code":400}}',
      "error",
      "http_400",
    ],
  ])("maps HTTP %i to %s", async (status, body, outStatus, code) => {
    h.sim.route("api.perplexity.ai", "/chat/completions", json(body, status));
    expect(await run()).toMatchObject({ status: outStatus, code });
  });
});

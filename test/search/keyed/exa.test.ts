import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Deadline } from "../../../src/core/deadline.js";
import type { ProviderQuery } from "../../../src/search/provider.js";
import { exa, exaRequest, parseExaResponse } from "../../../src/search/providers/exa.js";
import { fixtureJson, fixtureText, type Harness, json, startHarness } from "./harness.js";

const KEY = "test-SECRET-exa-0003";
const q = (over: Partial<ProviderQuery> = {}): ProviderQuery => ({
  query: "Latest research in LLMs",
  limit: 10,
  ...over,
});

describe("parseExaResponse", () => {
  it("reads the documented search response, highlights first as the snippet", () => {
    const out = parseExaResponse(fixtureJson("exa/exa-search-text-true.FROM-DOCS.json"));
    expect(out).toEqual({
      status: "ok",
      hits: [
        {
          title: "A Comprehensive Overview of Large Language Models",
          url: "https://arxiv.org/pdf/2307.06435.pdf",
          snippet: "Such requirements have limited their adoption...",
          date: "2023-11-16T01:36:32.547Z",
        },
      ],
    });
  });

  it("survives null fields and bounds a long text snippet", () => {
    const long = "word ".repeat(5000);
    const out = parseExaResponse({
      results: [
        {
          url: "https://a.example/x",
          title: null,
          author: null,
          publishedDate: null,
          text: long,
          highlights: [],
        },
        { url: null, title: "no url" },
      ],
    });
    expect(out.status).toBe("ok");
    if (out.status !== "ok") return;
    expect(out.hits).toHaveLength(1);
    expect(out.hits[0].title).toBe("https://a.example/x");
    expect(out.hits[0].date).toBeUndefined();
    expect(out.hits[0].snippet.length).toBeLessThanOrEqual(600);
    expect(parseExaResponse({ results: [] }).status).toBe("empty");
    expect(parseExaResponse({ error: "x" }).status).toBe("error");
  });

  it("builds the request in the documented shape, with a bounded text", () => {
    const documented = fixtureJson("exa/exa-search.request.FROM-DOCS.json") as Record<string, unknown>;
    const now = Date.parse("2026-01-31T00:00:00Z");
    const body = exaRequest(q({ includeDomains: ["arxiv.org"], timeRange: "m" }), now);
    expect(Object.keys(body).sort()).toEqual(Object.keys(documented).sort());
    expect(body).toMatchObject({
      query: documented.query,
      type: "auto",
      numResults: 10,
      includeDomains: ["arxiv.org"],
      startPublishedDate: "2026-01-01T00:00:00.000Z",
      contents: { text: { maxCharacters: 600 } },
    });
  });
});

describe("exa through the simulated web", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());
  beforeEach(() => h.sim.reset());
  const run = (query = q()) => exa.search(query, h.ctx({ EXA_API_KEY: KEY }), Deadline.after(5000));

  it("posts with x-api-key and reads the results", async () => {
    h.sim.route("api.exa.ai", "/search", json(fixtureText("exa/exa-search-text-true.FROM-DOCS.json")));
    const out = await run(q({ includeDomains: ["arxiv.org"] }));
    expect(out.status === "ok" && out.hits[0].url).toBe("https://arxiv.org/pdf/2307.06435.pdf");
    const [req] = h.sim.requests;
    expect(req.method).toBe("POST");
    expect(req.headers["x-api-key"]).toBe(KEY);
    expect(req.headers.authorization).toBeUndefined();
    expect(JSON.parse(req.body)).toMatchObject({
      query: "Latest research in LLMs",
      includeDomains: ["arxiv.org"],
    });
  });

  it.each([
    [401, fixtureText("exa/exa-error-401.FROM-DOCS.json"), "error", "key_rejected"],
    [402, '{"error":"credits"}', "quota", "quota"],
    [429, '{"error":"slow down"}', "rate_limited", "rate_limited"],
    [400, '{"error":"bad numResults","tag":"INVALID_REQUEST"}', "error", "http_400"],
  ])("maps HTTP %i to %s", async (status, body, outStatus, code) => {
    h.sim.route("api.exa.ai", "/search", json(body, status));
    expect(await run()).toMatchObject({ status: outStatus, code });
  });
});

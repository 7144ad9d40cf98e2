import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Deadline } from "../../../src/core/deadline.js";
import type { ProviderQuery } from "../../../src/search/provider.js";
import { gemini, geminiRequest, parseGeminiResponse } from "../../../src/search/providers/gemini.js";
import { fixtureJson, fixtureText, type Harness, json, startHarness } from "./harness.js";

const KEY = "test-SECRET-gemini-0005";
const SF = "gemini/gemini-2.5-pro-generatecontent-google-search-sf-weather.json";
const MX = "gemini/gemini-2.5-pro-generatecontent-google-search-followup-mexico-city.json";
const REDIRECT_HOST = "vertexaisearch.cloud.google.com";
const q = (over: Partial<ProviderQuery> = {}): ProviderQuery => ({
  query: "What is the weather in San Francisco today?",
  limit: 10,
  ...over,
});

describe("parseGeminiResponse", () => {
  it("reads the answer and one hit per grounding chunk, with the text each one supports", () => {
    const out = parseGeminiResponse(fixtureJson(SF));
    expect(out.status).toBe("ok");
    if (out.status !== "ok") return;
    expect(out.answer).toMatchObject({ kind: "model", modelGenerated: true });
    expect(out.answer?.text).toMatch(/^## Weather in San Francisco/);
    expect(out.hits.map((h) => h.title)).toEqual([
      "Weather information for San Francisco, CA, US",
      "weather.gov",
      "wunderground.com",
    ]);
    expect(out.hits[0].url).toBe("https://www.google.com/search?q=weather+in+San%20Francisco,%20CA,+US");
    expect(
      out.hits[1].url.startsWith("https://vertexaisearch.cloud.google.com/grounding-api-redirect/"),
    ).toBe(true);
    expect(out.hits[0].snippet).toContain("San Francisco, CA - Residents and visitors");
    expect(out.hits[1].snippet).toContain("According to the latest weather reports");
  });

  it("reads the multi-turn follow-up capture", () => {
    const out = parseGeminiResponse(fixtureJson(MX));
    expect(out.status).toBe("ok");
    expect(out.status === "ok" && out.answer?.text).toMatch(/Mexico City/);
    expect(out.status === "ok" && out.hits.length).toBeGreaterThan(0);
  });

  it("calls an answer without groundingMetadata empty but keeps the answer", () => {
    const [first] = fixtureText(
      "gemini/gemini-2.5-flash-streamgeneratecontent-google-search-no-grounding-metadata-2026-08.jsonl",
    )
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    const out = parseGeminiResponse(first);
    expect(out).toMatchObject({
      status: "empty",
      answer: { text: "The current date is Wednesday, August 26, 2026.", modelGenerated: true },
    });
  });

  it("skips thought parts and refuses a malformed body", () => {
    const out = parseGeminiResponse({
      candidates: [{ content: { parts: [{ text: "thinking…", thought: true }, { text: "Answer." }] } }],
    });
    expect(out).toMatchObject({ status: "empty", answer: { text: "Answer." } });
    expect(parseGeminiResponse({}).status).toBe("error");
    expect(parseGeminiResponse({ promptFeedback: { blockReason: "SAFETY" } })).toMatchObject({
      status: "error",
      code: "prompt_blocked",
    });
  });

  it("sends a single-turn request shaped like the recorded exchange", () => {
    const exchange = fixtureJson(
      "gemini/gemini-2.5-pro-generatecontent-google-search-sf-weather.exchange.json",
    ) as {
      request: { body: { contents: unknown } };
    };
    expect(geminiRequest("What is the weather in San Francisco today?").contents).toEqual(
      exchange.request.body.contents,
    );
  });

  it("asks with the google_search tool", () => {
    expect(geminiRequest("hello")).toMatchObject({
      contents: [{ role: "user", parts: [{ text: "hello" }] }],
      tools: [{ google_search: {} }],
    });
  });
});

describe("gemini through the simulated web", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.sim.reset();
    h.logs.length = 0;
  });
  const run = (env: Record<string, string> = { GEMINI_API_KEY: KEY }, ms = 5000) =>
    gemini.search(q(), h.ctx(env), Deadline.after(ms));

  it("posts to the default model with the key header, and resolves redirect links without following them", async () => {
    h.sim.route(
      "generativelanguage.googleapis.com",
      "/v1beta/models/gemini-2.5-flash:generateContent",
      json(fixtureText(SF)),
    );
    h.sim.route(REDIRECT_HOST, /^\/grounding-api-redirect\/AUZIYQF_/, {
      status: 302,
      headers: { location: "https://www.weather.gov/mtr/" },
    });
    h.sim.route(REDIRECT_HOST, /^\/grounding-api-redirect\/AUZIYQFy/, { status: 404, body: "expired" });
    const out = await run();
    expect(out.status).toBe("ok");
    if (out.status !== "ok") return;
    expect(out.hits[1]).toMatchObject({ title: "weather.gov", url: "https://www.weather.gov/mtr/" });
    expect(out.hits[2].title).toBe("wunderground.com (unresolved Google redirect link)");
    expect(out.hits[2].url.startsWith(`https://${REDIRECT_HOST}/grounding-api-redirect/`)).toBe(true);
    const api = h.sim.requests.find((r) => r.host === "generativelanguage.googleapis.com");
    expect(api?.method).toBe("POST");
    expect(api?.headers["x-goog-api-key"]).toBe(KEY);
    expect(api?.url.search).toBe("");
    expect(JSON.parse(api?.body ?? "{}").tools).toEqual([{ google_search: {} }]);
    const redirects = h.sim.requests.filter((r) => r.host === REDIRECT_HOST);
    expect(redirects).toHaveLength(2);
    expect(redirects.every((r) => r.method === "HEAD" && !r.headers["x-goog-api-key"])).toBe(true);
    expect(h.sim.requests.some((r) => r.host === "www.weather.gov")).toBe(false);
    expect(h.logs.some((l) => l.includes("could not be resolved"))).toBe(true);
  });

  it("uses GOOGLE_API_KEY and GEMINI_MODEL, and refuses a model name that would change the path", async () => {
    h.sim.route(
      "generativelanguage.googleapis.com",
      "/v1beta/models/gemini-2.5-pro:generateContent",
      json(fixtureText(MX)),
    );
    h.sim.route(REDIRECT_HOST, /^\/grounding-api-redirect\//, {
      status: 302,
      headers: { location: "https://x.example/" },
    });
    const out = await run({ GOOGLE_API_KEY: KEY, GEMINI_MODEL: "gemini-2.5-pro" });
    expect(out.status).toBe("ok");
    expect(await run({ GEMINI_API_KEY: KEY, GEMINI_MODEL: "../../evil" })).toMatchObject({
      code: "bad_config",
    });
  });

  it("maps 429 RESOURCE_EXHAUSTED to rate_limited with the RetryInfo delay, and a daily quota to quota", async () => {
    const path = "/v1beta/models/gemini-2.5-flash:generateContent";
    h.sim.route(
      "generativelanguage.googleapis.com",
      path,
      json(fixtureText("gemini/gemini-error-429-resource-exhausted-retryinfo.json"), 429),
    );
    expect(await run()).toMatchObject({ status: "rate_limited", retryAfter: 35 });
    const daily = {
      error: {
        code: 429,
        status: "RESOURCE_EXHAUSTED",
        message: "quota",
        details: [
          {
            "@type": "type.googleapis.com/google.rpc.QuotaFailure",
            violations: [{ quotaId: "GenerateRequestsPerDayPerProjectPerModel-FreeTier" }],
          },
        ],
      },
    };
    h.sim.route("generativelanguage.googleapis.com", path, json(daily, 429));
    expect(await run()).toMatchObject({ status: "quota", code: "quota" });
  });

  it("maps 403 PERMISSION_DENIED and 400 API_KEY_INVALID to 'key rejected'", async () => {
    const path = "/v1beta/models/gemini-2.5-flash:generateContent";
    h.sim.route(
      "generativelanguage.googleapis.com",
      path,
      json({ error: { code: 403, status: "PERMISSION_DENIED", message: "denied" } }, 403),
    );
    expect(await run()).toMatchObject({ status: "error", code: "key_rejected" });
    h.sim.route(
      "generativelanguage.googleapis.com",
      path,
      json(
        {
          error: {
            code: 400,
            status: "INVALID_ARGUMENT",
            message: "API key not valid. Please pass a valid API key.",
            details: [{ reason: "API_KEY_INVALID" }],
          },
        },
        400,
      ),
    );
    expect(await run()).toMatchObject({ status: "error", code: "key_rejected" });
  });
});

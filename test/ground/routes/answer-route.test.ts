import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createWebsift, type Websift } from "../../../src/websift.js";
import { type SimWeb, startSimWeb } from "../../simweb/index.js";

// The routes as answer() runs them: an ok route answers, any failure falls through with its attempt kept.
const KEY = "test-SECRET-gemini-answer-0005";
const QUERY = "What is the weather in San Francisco today?";
const API = ["generativelanguage.googleapis.com", "/v1beta/models/gemini-2.5-flash:generateContent"] as const;

let sim: SimWeb;
let websift: Websift;

beforeAll(async () => {
  sim = await startSimWeb();
  websift = createWebsift({
    ...sim.netConfig,
    env: { GEMINI_API_KEY: KEY },
    providers: [],
    timeoutMs: 10_000,
  });
});
afterAll(async () => {
  await websift.close();
  await sim.close();
});
beforeEach(() => {
  sim.reset();
  sim.route("vertexaisearch.cloud.google.com", /^\/grounding-api-redirect\//, {
    status: 302,
    headers: { location: "https://www.weather.gov/mtr/" },
  });
});

describe("answer() with a real-time route", () => {
  it("answers from the Gemini route, labelled model-generated, without running the pipeline", async () => {
    sim.route(...API, {
      headers: { "content-type": "application/json" },
      body: sim.fixture("gemini/gemini-2.5-pro-generatecontent-google-search-sf-weather.json"),
    });
    const out = await websift.answer(QUERY, { route: "gemini-api" });
    expect(out.status).toBe("ok");
    expect(out.provider).toBe("gemini");
    expect(out.envelope).toContain("Model-generated answer (not a page)");
    expect(out.sources.map((s) => s.url)).toContain("https://www.weather.gov/mtr/");
    expect(sim.requests.some((r) => r.host === "api.duckduckgo.com")).toBe(false);
  });

  it("falls through to the normal pipeline when the route fails, keeping the route's attempt", async () => {
    sim.route(...API, {
      status: 429,
      headers: { "content-type": "application/json" },
      body: sim.fixture("gemini/gemini-error-429-resource-exhausted-retryinfo.json"),
    });
    const out = await websift.answer(QUERY, { route: "gemini-api" });
    expect(out.provider).not.toBe("gemini");
    expect(out.envelope).not.toContain("Model-generated answer");
    expect(out.attempts[0]).toMatchObject({ provider: "gemini", status: "rate_limited" });
    expect(out.attempts.length).toBeGreaterThan(1);
    expect(JSON.stringify(out)).not.toContain(KEY);
  });
});

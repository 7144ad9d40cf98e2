import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { settingsFromEnv } from "../../../src/config/load.js";
import { Deadline } from "../../../src/core/deadline.js";
import { type ProviderQuery, providerConfigured } from "../../../src/search/provider.js";
import { parseSearxngResponse, searxng, searxngUrl } from "../../../src/search/providers/searxng.js";
import { fixtureJson, fixtureText, type Harness, json, startHarness } from "./harness.js";

const FIXTURE = "searxng/searxng-results-stormlight-archive.json";
const q = (over: Partial<ProviderQuery> = {}): ProviderQuery => ({
  query: "stormlight archive",
  limit: 10,
  ...over,
});

describe("parseSearxngResponse", () => {
  it("reads results even though number_of_results says 0, with the instant answer", () => {
    const out = parseSearxngResponse(fixtureJson(FIXTURE), 50);
    expect(out.status).toBe("ok");
    if (out.status !== "ok") return;
    expect(out.hits).toHaveLength(25);
    expect(out.hits[0]).toMatchObject({
      title: "The Stormlight Archive - Wikipedia",
      url: "https://en.wikipedia.org/wiki/The_Stormlight_Archive",
    });
    expect(out.hits[0].snippet).toContain("high fantasy novel series");
    expect(out.hits.filter((h) => h.date)).toHaveLength(5);
    expect(out.answer).toMatchObject({ kind: "answer", modelGenerated: false, source: "duckduckgo" });
    expect(out.answer?.text).toContain("Brandon Sanderson");
  });

  it("falls back to the infobox, and to plain-string answers of old versions", () => {
    const base = fixtureJson(FIXTURE) as Record<string, unknown>;
    const noAnswers = parseSearxngResponse({ ...base, answers: [] });
    expect(noAnswers.status === "ok" && noAnswers.answer).toMatchObject({
      kind: "abstract",
      source: "The Stormlight Archive",
      url: "https://en.wikipedia.org/wiki/The_Stormlight_Archive",
    });
    const old = parseSearxngResponse({ results: [], answers: ["42"] });
    expect(old).toMatchObject({ status: "empty", answer: { text: "42", kind: "answer" } });
  });

  it("calls results:[] with unresponsive engines a degraded failure naming them, not empty", () => {
    const out = parseSearxngResponse({
      results: [],
      unresponsive_engines: [
        ["google", "too many requests"],
        ["qwant", "Suspended: CAPTCHA"],
      ],
    });
    expect(out).toMatchObject({ status: "error", code: "engines_unresponsive" });
    expect(out.status === "error" && out.message).toContain(
      "google (too many requests), qwant (Suspended: CAPTCHA)",
    );
    expect(parseSearxngResponse({ results: [], unresponsive_engines: [] }).status).toBe("empty");
    expect(parseSearxngResponse({ nope: 1 }).status).toBe("error");
  });
});

describe("searxngUrl", () => {
  it("pins bing,360search by default and sends no engines when SEARXNG_ENGINES is set but empty", () => {
    const pinned = new URL(searxngUrl(q(), { searxngUrl: "http://searx.test:8888" }) as string);
    expect(pinned.pathname).toBe("/search");
    expect(pinned.searchParams.get("engines")).toBe("bing,360search");
    expect(pinned.searchParams.get("format")).toBe("json");
    const unpinned = new URL(
      searxngUrl(q(), { searxngUrl: "http://searx.test", searxngEngines: "" }) as string,
    );
    expect(unpinned.searchParams.has("engines")).toBe(false);
    const custom = new URL(
      searxngUrl(q(), { searxngUrl: "http://s.test", searxngEngines: "brave,mojeek" }) as string,
    );
    expect(custom.searchParams.get("engines")).toBe("brave,mojeek");
  });

  it("keeps a path prefix and refuses a missing or non-http URL", () => {
    const prefixed = new URL(searxngUrl(q(), { searxngUrl: "https://example.org/searx" }) as string);
    expect(prefixed.pathname).toBe("/searx/search");
    expect(searxngUrl(q(), {})).toMatchObject({ status: "disabled" });
    expect(searxngUrl(q(), { searxngUrl: "ftp://x.test" })).toMatchObject({ code: "bad_config" });
    expect(searxngUrl(q(), { searxngUrl: "not a url" })).toMatchObject({ code: "bad_config" });
    expect(providerConfigured(searxng, settingsFromEnv({ SEARXNG_URL: "" }))).toBe(false);
    expect(providerConfigured(searxng, settingsFromEnv({ SEARXNG_URL: "  " }))).toBe(false);
  });
});

describe("searxng through the simulated web", () => {
  let h: Harness;
  const env = { SEARXNG_URL: "https://searx.example.net/" };
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());
  beforeEach(() => h.sim.reset());
  const run = (query = q(), e: Record<string, string> = env) =>
    searxng.search(query, h.ctx(e), Deadline.after(5000));

  it("sends the native options as SearXNG spells them", async () => {
    h.sim.route("searx.example.net", "/search", json(fixtureText(FIXTURE)));
    const out = await run(q({ region: "de-de", safesearch: "strict", timeRange: "m", limit: 3 }));
    expect(out.status === "ok" && out.hits).toHaveLength(3);
    const [req] = h.sim.requests;
    expect(req.headers.accept).toBe("application/json");
    const p = req.url.searchParams;
    expect(Object.fromEntries(p)).toMatchObject({
      q: "stormlight archive",
      format: "json",
      engines: "bing,360search",
      language: "de-DE",
      time_range: "month",
      safesearch: "2",
    });
  });

  it("explains a 403 as JSON output not enabled on the instance", async () => {
    h.sim.route("searx.example.net", "/search", { status: 403, body: "<h1>403 Forbidden</h1>" });
    const out = await run();
    expect(out).toMatchObject({ status: "error", code: "json_disabled" });
    expect(out.status === "error" && out.message).toMatch(
      /JSON output is not enabled.*search\.formats.*settings\.yml/,
    );
  });

  it("maps 429 from the instance's limiter to rate_limited with Retry-After", async () => {
    h.sim.route("searx.example.net", "/search", {
      status: 429,
      headers: { "retry-after": "30" },
      body: "Too Many Requests",
    });
    expect(await run()).toMatchObject({ status: "rate_limited", retryAfter: 30 });
  });

  it("answers a degraded instance with a failure that names the engines", async () => {
    h.sim.route(
      "searx.example.net",
      "/search",
      json({ query: "x", number_of_results: 0, results: [], unresponsive_engines: [["bing", "timeout"]] }),
    );
    const out = await run();
    expect(out.status).toBe("error");
    expect(out.status === "error" && out.message).toContain("bing (timeout)");
  });

  it("reports an instance on a private address as refused by the guard, without weakening it", async () => {
    h.sim.resolveAs("searx.lan", ["192.168.1.20"]);
    h.sim.route("searx.lan", "/search", json(fixtureText(FIXTURE)));
    const out = await run(q(), { SEARXNG_URL: "http://searx.lan:8888" });
    expect(out).toMatchObject({ status: "denied", code: "instance_refused" });
    expect(out.status === "denied" && out.message).toMatch(/private or local address.*trusted explicitly/);
    const literal = await run(q(), { SEARXNG_URL: "http://127.0.0.1:8888" });
    expect(literal).toMatchObject({ status: "denied", code: "instance_refused" });
    expect(h.sim.requests).toHaveLength(0);
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { settingsFromEnv } from "../../../src/config/load.js";
import { Deadline } from "../../../src/core/deadline.js";
import { type ProviderQuery, providerConfigured } from "../../../src/search/provider.js";
import { brave, braveIntervalMs, parseBraveResponse } from "../../../src/search/providers/brave.js";
import { MemoryStore } from "../../../src/store/store.js";
import { fixtureJson, fixtureText, type Harness, json, startHarness } from "./harness.js";

const KEY = "test-SECRET-brave-0001";
const HOST = "api.search.brave.com";
const PATH = "/res/v1/web/search";
const q = (over: Partial<ProviderQuery> = {}): ProviderQuery => ({
  query: "swift 6 concurrency",
  limit: 5,
  ...over,
});

describe("parseBraveResponse", () => {
  const body = fixtureJson("brave/brave-web-search-swift6-concurrency-2025-02.json");

  it("reads every web result, without <strong> decorations or entities", () => {
    const out = parseBraveResponse(body);
    expect(out.status).toBe("ok");
    if (out.status !== "ok") return;
    expect(out.hits).toHaveLength(20);
    expect(out.hits[0]).toMatchObject({
      title: "Complete concurrency enabled by default – available from Swift 6.0",
      url: "https://www.hackingwithswift.com/swift/6.0/concurrency",
    });
    expect(out.hits[0].snippet).toContain("Swift 6 contains another barrage");
    expect(out.hits[0].snippet).toContain("Unless you're very fortunate");
    for (const h of out.hits) {
      expect(h.snippet + h.title).not.toMatch(/<\/?strong>|&#x27;|&amp;|&quot;/);
      expect(h.url).toMatch(/^https:\/\//);
    }
    expect(out.hits.some((h) => h.date && !Number.isNaN(Date.parse(h.date)))).toBe(true);
  });

  it("keeps escaped markup as text while dropping real tags", () => {
    const out = parseBraveResponse({
      web: {
        results: [
          {
            title: "A &amp; B",
            url: "https://a.example/",
            description: "use &lt;b&gt; not <strong>bold</strong>",
          },
        ],
      },
    });
    expect(out.status === "ok" && out.hits[0]).toMatchObject({ title: "A & B", snippet: "use <b> not bold" });
  });

  it("stops at the limit and calls an empty web block empty", () => {
    const out = parseBraveResponse(body, 3);
    expect(out.status === "ok" && out.hits.length).toBe(3);
    expect(parseBraveResponse({ type: "search", web: { results: [] } }).status).toBe("empty");
    expect(parseBraveResponse({ type: "search", query: {} }).status).toBe("empty");
    // Without `web`, only a search response is "no results": anything else is a broken answer.
    for (const body of [{}, null, [], { type: "ErrorResponse" }])
      expect(parseBraveResponse(body)).toMatchObject({ status: "error", code: "bad_response" });
    expect(parseBraveResponse({ web: { results: "nope" } }).status).toBe("error");
  });
});

describe("brave through the simulated web", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.sim.reset();
    h.logs.length = 0;
  });
  const run = (query = q(), env: Record<string, string> = {}, ms = 5000) =>
    brave.search(query, h.ctx({ BRAVE_API_KEY: KEY, ...env }), Deadline.after(ms));

  it("sends the key header and every native option as Brave spells it", async () => {
    h.sim.route(HOST, PATH, json(fixtureText("brave/brave-web-search-swift6-concurrency-2025-02.json")));
    const out = await run(
      q({ limit: 7, region: "uk-en", language: "de", safesearch: "strict", timeRange: "w" }),
    );
    expect(out.status).toBe("ok");
    expect(out.status === "ok" && out.hits).toHaveLength(7);
    const [req] = h.sim.requests;
    expect(req.method).toBe("GET");
    expect(req.headers["x-subscription-token"]).toBe(KEY);
    expect(req.headers.accept).toBe("application/json");
    const p = req.url.searchParams;
    expect(p.get("q")).toBe("swift 6 concurrency");
    expect(p.get("count")).toBe("7");
    expect(p.get("country")).toBe("GB");
    expect(p.get("search_lang")).toBe("de");
    expect(p.get("safesearch")).toBe("strict");
    expect(p.get("freshness")).toBe("pw");
  });

  it("leaves out a country or language Brave would refuse, and caps count at 20", async () => {
    h.sim.route(HOST, PATH, json({ type: "search", web: { results: [] } }));
    const out = await run(q({ limit: 50, region: "wt-wt", language: "xx" }));
    expect(out.status).toBe("empty");
    const p = h.sim.requests[0].url.searchParams;
    expect(p.get("count")).toBe("20");
    expect(p.has("country")).toBe(false);
    expect(p.has("search_lang")).toBe(false);
    expect(p.has("freshness")).toBe(false);
  });

  it("maps 422 SUBSCRIPTION_TOKEN_INVALID in both error shapes to 'key rejected'", async () => {
    for (const file of [
      "brave/brave-error-422-subscription-token-invalid.FROM-DOCS.json",
      "brave/brave-error-422-observed-singular-error-shape.json",
    ]) {
      h.sim.route(HOST, PATH, json(fixtureText(file), 422));
      const out = await run();
      expect(out).toMatchObject({ status: "error", code: "key_rejected" });
      expect(out.status !== "ok" && out.status !== "empty" && out.message).toContain("key rejected");
    }
  });

  it("tells a per-second rate limit from a spent monthly quota, with when to retry", async () => {
    h.sim.route(
      HOST,
      PATH,
      json(fixtureText("brave/brave-error-429-rate-limited.FROM-DOCS.json"), 429, {
        "x-ratelimit-reset": "1, 1419704",
      }),
    );
    expect(await run()).toMatchObject({ status: "rate_limited", retryAfter: 1 });
    h.sim.route(
      HOST,
      PATH,
      json(fixtureText("brave/brave-error-429-quota-limited.FROM-DOCS.json"), 429, {
        "x-ratelimit-reset": "0, 1419704",
      }),
    );
    expect(await run()).toMatchObject({ status: "quota", retryAfter: 1419704 });
    h.sim.route(HOST, PATH, json(fixtureText("brave/brave-error-429-quota-limited.FROM-DOCS.json"), 429));
    const unknown = await run();
    expect(unknown.status).toBe("quota");
    expect("retryAfter" in unknown).toBe(false);
  });

  it("reports a body that is not JSON as an error, not as no results", async () => {
    h.sim.route(HOST, PATH, { body: "<html>oops</html>" });
    expect(await run()).toMatchObject({ status: "error", code: "bad_response" });
  });

  it("is disabled without a key and never sends a request", async () => {
    const out = await brave.search(q(), h.ctx({}), Deadline.after(1000));
    expect(out.status).toBe("disabled");
    expect(h.sim.requests).toHaveLength(0);
    expect(providerConfigured(brave, settingsFromEnv({}))).toBe(false);
    expect(providerConfigured(brave, settingsFromEnv({ BRAVE_API_KEY: KEY }))).toBe(true);
  });
});

describe("brave rate limiter", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());
  beforeEach(() => h.sim.reset());

  it("takes the interval from settings, then BRAVE_RATE_PER_SEC, else one a second", () => {
    // The loader puts BRAVE_RATE_PER_SEC in the providers' tuning; a caller's own setting wins over it.
    const tuned = (env: Record<string, string>, own: Record<string, unknown> = {}) => ({
      settings: { ...settingsFromEnv(env).search.tuning, ...own },
    });
    expect(braveIntervalMs(tuned({}))).toBe(1000);
    expect(braveIntervalMs(tuned({ BRAVE_RATE_PER_SEC: "20" }))).toBe(50);
    expect(braveIntervalMs(tuned({ BRAVE_RATE_PER_SEC: "20" }, { braveRatePerSec: 4 }))).toBe(250);
    expect(braveIntervalMs(tuned({ BRAVE_RATE_PER_SEC: "zero" }))).toBe(1000);
  });

  it("books a slot on the shared limiter before each request", async () => {
    h.sim.route(HOST, PATH, json({ web: { results: [] } }));
    const booked: [string, number][] = [];
    const store = new MemoryStore();
    const reserveSlot = store.reserveSlot.bind(store);
    store.reserveSlot = async (key, interval) => {
      booked.push([key, interval]);
      return reserveSlot(key, interval);
    };
    const ctx = h.ctx({ BRAVE_API_KEY: KEY, BRAVE_RATE_PER_SEC: "50" }, { store });
    const outs = await Promise.all([1, 2, 3].map(() => brave.search(q(), ctx, Deadline.after(5000))));
    expect(outs.map((o) => o.status)).toEqual(["empty", "empty", "empty"]);
    expect(booked).toEqual([
      ["rate:brave", 20],
      ["rate:brave", 20],
      ["rate:brave", 20],
    ]);
    expect(h.sim.requests).toHaveLength(3);
  });

  it("answers rate_limited locally, without a request, when the queue is longer than the deadline", async () => {
    const store = new MemoryStore();
    await store.reserveSlot("rate:brave", 60_000);
    const out = await brave.search(q(), h.ctx({ BRAVE_API_KEY: KEY }, { store }), Deadline.after(300));
    expect(out).toMatchObject({ status: "rate_limited", code: "local_rate_limit" });
    expect(out.status === "rate_limited" && out.retryAfter).toBeGreaterThanOrEqual(59);
    expect(h.sim.requests).toHaveLength(0);
  });

  it("does not fire when the wait would leave no time for the request itself", async () => {
    const store = new MemoryStore();
    await store.reserveSlot("rate:brave", 1000);
    const out = await brave.search(q(), h.ctx({ BRAVE_API_KEY: KEY }, { store }), Deadline.after(1100));
    expect(out).toMatchObject({ status: "rate_limited", code: "local_rate_limit" });
    expect(h.sim.requests).toHaveLength(0);
  });
});

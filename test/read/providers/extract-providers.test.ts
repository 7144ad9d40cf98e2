import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Deadline } from "../../../src/core/deadline.js";
import { contentsWithExa, parseExaContents } from "../../../src/read/providers/exa-contents.js";
import { extractWithTavily, parseTavilyExtract } from "../../../src/read/providers/tavily-extract.js";
import { fixtureJson, fixtureText, type Harness, json, startHarness } from "../../search/keyed/harness.js";

const WIKI = "https://en.wikipedia.org/wiki/Artificial_intelligence";
const ARXIV = "https://arxiv.org/abs/2307.06435";
const TAVILY_KEY = "test-SECRET-tavily-extract-1";
const EXA_KEY = "test-SECRET-exa-contents-2";

describe("parseTavilyExtract", () => {
  const body = fixtureJson("tavily/tavily-extract.FROM-DOCS.json");

  it("returns the raw content of the page asked for", () => {
    const out = parseTavilyExtract(body, WIKI);
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.source).toBe("tavily-extract");
    expect(out.markdown).toContain("Artificial intelligence (AI) is the capability");
  });

  it("treats a URL listed in failed_results as a failure for that URL, despite HTTP 200", () => {
    const out = parseTavilyExtract(body, "https://example.invalid/page");
    expect(out).toMatchObject({ ok: false, status: "error", code: "extract_failed" });
    expect(!out.ok && out.message).toContain("example.invalid: Failed to fetch url");
  });

  it("takes a leading heading as the title and calls blank content a failure", () => {
    const out = parseTavilyExtract({ results: [{ url: WIKI, raw_content: "\n# The Title\n\nBody." }] }, WIKI);
    expect(out.ok && out.title).toBe("The Title");
    expect(parseTavilyExtract({ results: [{ url: WIKI, raw_content: "  " }] }, WIKI)).toMatchObject({
      ok: false,
      code: "no_content",
    });
    expect(parseTavilyExtract({ detail: {} }, WIKI)).toMatchObject({ ok: false, code: "bad_response" });
  });
});

describe("parseExaContents", () => {
  it("returns the text and title of the page asked for", () => {
    const out = parseExaContents(fixtureJson("exa/exa-contents.FROM-DOCS.json"), ARXIV);
    expect(out).toEqual({
      ok: true,
      source: "exa-contents",
      title: "A Comprehensive Overview of Large Language Models",
      markdown: "Abstract Large Language Models (LLMs) have recently demonstrated remarkable capabilities...",
    });
  });

  it("treats an error status as a failure for that URL", () => {
    const out = parseExaContents(
      fixtureJson("exa/exa-contents-partial-failure.FROM-DOCS.json"),
      "https://example.invalid/missing",
    );
    expect(out).toMatchObject({ ok: false, status: "error", code: "extract_failed" });
    expect(!out.ok && out.message).toContain("CRAWL_NOT_FOUND, HTTP 404");
    const timeout = parseExaContents(
      { results: [], statuses: [{ id: ARXIV, status: "error", error: { tag: "CRAWL_LIVECRAWL_TIMEOUT" } }] },
      ARXIV,
    );
    expect(timeout).toMatchObject({ ok: false, status: "timeout" });
  });
});

describe("extract providers through the simulated web", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());
  beforeEach(() => h.sim.reset());

  it("tavily: posts the documented request with a Bearer key", async () => {
    h.sim.route("api.tavily.com", "/extract", json(fixtureText("tavily/tavily-extract.FROM-DOCS.json")));
    const out = await extractWithTavily(WIKI, h.ctx({ TAVILY_API_KEY: TAVILY_KEY }), Deadline.after(5000));
    expect(out.ok).toBe(true);
    const [req] = h.sim.requests;
    expect(req.headers.authorization).toBe(`Bearer ${TAVILY_KEY}`);
    const sent = JSON.parse(req.body);
    expect(sent).toMatchObject(fixtureJson("tavily/tavily-extract.request.FROM-DOCS.json") as object);
    expect(sent.timeout).toBeGreaterThanOrEqual(1);
    expect(sent.timeout).toBeLessThanOrEqual(60);
  });

  it("tavily: maps 401 and 432 like search does", async () => {
    h.sim.route(
      "api.tavily.com",
      "/extract",
      json(fixtureText("tavily/tavily-error-401.FROM-DOCS.json"), 401),
    );
    const ctx = h.ctx({ TAVILY_API_KEY: TAVILY_KEY });
    expect(await extractWithTavily(WIKI, ctx, Deadline.after(5000))).toMatchObject({
      ok: false,
      code: "key_rejected",
    });
    h.sim.route(
      "api.tavily.com",
      "/extract",
      json(fixtureText("tavily/tavily-error-432-plan-limit.FROM-DOCS.json"), 432),
    );
    expect(await extractWithTavily(WIKI, ctx, Deadline.after(5000))).toMatchObject({
      ok: false,
      status: "quota",
    });
  });

  it("exa: posts the URL with a bounded text request and x-api-key", async () => {
    h.sim.route("api.exa.ai", "/contents", json(fixtureText("exa/exa-contents.FROM-DOCS.json")));
    const out = await contentsWithExa(ARXIV, h.ctx({ EXA_API_KEY: EXA_KEY }), Deadline.after(5000));
    expect(out.ok && out.source).toBe("exa-contents");
    const [req] = h.sim.requests;
    expect(req.headers["x-api-key"]).toBe(EXA_KEY);
    const sent = JSON.parse(req.body);
    expect(sent.urls).toEqual([ARXIV]);
    expect(sent.text.maxCharacters).toBeGreaterThan(0);
  });

  it("exa: the request has the documented shape", async () => {
    h.sim.route("api.exa.ai", "/contents", json(fixtureText("exa/exa-contents.FROM-DOCS.json")));
    await contentsWithExa(ARXIV, h.ctx({ EXA_API_KEY: EXA_KEY }), Deadline.after(5000));
    const documented = fixtureJson("exa/exa-contents.request.FROM-DOCS.json") as { urls: string[] };
    const sent = JSON.parse(h.sim.requests[0].body);
    expect(sent.urls).toEqual(documented.urls);
    expect(sent.text).toBeTruthy();
  });

  it("both are disabled without a key and send nothing", async () => {
    const ctx = h.ctx({});
    expect(await extractWithTavily(WIKI, ctx, Deadline.after(1000))).toMatchObject({
      ok: false,
      status: "disabled",
    });
    expect(await contentsWithExa(WIKI, ctx, Deadline.after(1000))).toMatchObject({
      ok: false,
      status: "disabled",
    });
    expect(h.sim.requests).toHaveLength(0);
  });

  it("a provider that hangs is a timeout, not an empty page", async () => {
    h.sim.route("api.exa.ai", "/contents", { delayMs: 3000, body: "{}" });
    const out = await contentsWithExa(ARXIV, h.ctx({ EXA_API_KEY: EXA_KEY }), Deadline.after(300));
    expect(out).toMatchObject({ ok: false, status: "timeout" });
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { settingsFromEnv } from "../../../src/config/load.js";
import { extractorsFor, fetchBest, moveLinksOut } from "../../../src/read/fetch-best.js";
import { article, html, PARAGRAPHS, type ReadHarness, startReadHarness } from "./harness.js";

let h: ReadHarness;
beforeAll(async () => {
  h = await startReadHarness();
});
afterAll(() => h.close());
beforeEach(() => {
  h.sim.reset();
  h.sim.route(SITE, "/story", html(article("Harbour", PARAGRAPHS)));
  h.sim.route("api.tavily.com", "/extract", (req) => ({
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      results: [
        {
          url: JSON.parse(req.body).urls[0],
          raw_content: "# Tavily text\n\nSee [the pier](https://pier.example/x).",
        },
      ],
      failed_results: [],
    }),
  }));
  h.sim.route("api.exa.ai", "/contents", (req) => ({
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      results: [
        {
          id: JSON.parse(req.body).urls[0],
          url: JSON.parse(req.body).urls[0],
          title: "Exa title",
          text: "Exa text of the page.",
        },
      ],
      statuses: [{ id: JSON.parse(req.body).urls[0], status: "success" }],
    }),
  }));
});

const SITE = "news.example.com";
const URL_ = `https://${SITE}/story`;
const KEYS = { TAVILY_API_KEY: "tvly-SECRET-1", EXA_API_KEY: "exa-SECRET-2" };
const hosts = () => h.sim.requests.map((r) => r.host);

describe("fetchBest", () => {
  it("keeps paid extraction frozen unless WEBSIFT_ENABLE_PAID is exactly 1", async () => {
    for (const flag of [undefined, "true", "yes", "0"]) {
      h.sim.reset();
      h.sim.route(SITE, "/story", html(article("Harbour", PARAGRAPHS)));
      const page = await fetchBest(URL_, { render: "never" }, h.ctx({ ...KEYS, WEBSIFT_ENABLE_PAID: flag }));
      expect(page.source).toBe("extracted-html");
      expect(hosts()).toEqual([SITE]);
    }
  });

  it("still takes the old context's env (read into the settings), with one warning", async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on("warning", onWarning);
    try {
      h.sim.route("api.tavily.com", "/extract", {
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ results: [{ url: URL_, raw_content: PARAGRAPHS.join("\n\n") }] }),
      });
      const { config: _settings, ...rest } = h.ctx({});
      const legacy = { ...rest, env: { ...KEYS, WEBSIFT_ENABLE_PAID: "1" } };
      const page = await fetchBest(URL_, { render: "never" }, legacy);
      expect(page.source).toBe("tavily-extract");
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => /context\.env/.test(w.message))).toHaveLength(1);
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("tries Tavily first when unfrozen, with links moved out of the prose", async () => {
    const page = await fetchBest(URL_, { render: "never" }, h.ctx({ ...KEYS, WEBSIFT_ENABLE_PAID: "1" }));
    expect(page).toMatchObject({
      status: "ok",
      source: "tavily-extract",
      title: "Tavily text",
      links: ["https://pier.example/x"],
    });
    expect(page.markdown).toBe("# Tavily text\n\nSee the pier.\n\nLinks:\n1. https://pier.example/x");
    expect(hosts()).toEqual(["api.tavily.com"]);
    expect(JSON.stringify(page)).not.toContain("SECRET");
  });

  it("falls through Tavily's failure to Exa, then to the direct ladder", async () => {
    h.sim.route("api.tavily.com", "/extract", { status: 432, body: '{"detail":{"error":"plan limit"}}' });
    const viaExa = await fetchBest(URL_, { render: "never" }, h.ctx({ ...KEYS, WEBSIFT_ENABLE_PAID: "1" }));
    expect(viaExa).toMatchObject({ status: "ok", source: "exa-contents", title: "Exa title" });
    expect(viaExa.attempts.map((a) => a.provider)).toEqual(["tavily-extract", "exa-contents"]);
    expect(viaExa.attempts[0].status).not.toBe("ok");

    h.sim.route("api.exa.ai", "/contents", { status: 500, body: "{}" });
    const direct = await fetchBest(URL_, { render: "never" }, h.ctx({ ...KEYS, WEBSIFT_ENABLE_PAID: "1" }));
    expect(direct.source).toBe("extracted-html");
    expect(direct.markdown).toContain(PARAGRAPHS[0]);
    expect(direct.attempts.map((a) => a.provider)).toEqual([
      "tavily-extract",
      "exa-contents",
      "fetch",
      "extract",
    ]);
  });

  it("lets a call pin a provider while paid use is frozen, in the pinned order", async () => {
    const page = await fetchBest(URL_, { render: "never", pin: ["exa"] }, h.ctx(KEYS));
    expect(page.source).toBe("exa-contents");
    expect(hosts()).toEqual(["api.exa.ai"]);
  });

  it("skips a pinned provider without a key, saying so, and reads directly", async () => {
    const page = await fetchBest(URL_, { render: "never", pin: ["tavily"] }, h.ctx({}));
    expect(page.source).toBe("extracted-html");
    expect(page.attempts[0]).toMatchObject({ provider: "tavily-extract", status: "disabled" });
    expect(hosts()).toEqual([SITE]);
  });

  it("chooses extractors from pins, keys and the freeze", () => {
    const of = settingsFromEnv;
    expect(extractorsFor(undefined, of(KEYS))).toEqual([]);
    expect(extractorsFor(undefined, of({ ...KEYS, WEBSIFT_ENABLE_PAID: "1" }))).toEqual(["tavily", "exa"]);
    expect(extractorsFor(undefined, of({ EXA_API_KEY: "k", WEBSIFT_ENABLE_PAID: "1" }))).toEqual(["exa"]);
    expect(extractorsFor(["exa", "tavily"], of(KEYS))).toEqual(["exa", "tavily"]);
  });
});

describe("moveLinksOut", () => {
  it("keeps anchor words and image alt text, collecting link targets once", () => {
    expect(
      moveLinksOut(
        'Read [the docs](https://a.example/d "Docs") and [again](https://a.example/d). ![A pier](https://img.example/p.png) [local](#x)',
      ),
    ).toEqual({ markdown: "Read the docs and again. A pier [local](#x)", links: ["https://a.example/d"] });
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { settingsFromEnv } from "../../../src/config/load.js";
import { createNet, type Net } from "../../../src/net/client.js";
import { type ChainConfig, searchChain } from "../../../src/search/chain.js";
import type { Provider } from "../../../src/search/provider.js";
import { bing } from "../../../src/search/providers/bing.js";
import { brave } from "../../../src/search/providers/brave.js";
import { braveWeb } from "../../../src/search/providers/brave-web.js";
import { duckduckgo } from "../../../src/search/providers/duckduckgo.js";
import { exa } from "../../../src/search/providers/exa.js";
import { mojeek } from "../../../src/search/providers/mojeek.js";
import { startpage } from "../../../src/search/providers/startpage.js";
import { tavily } from "../../../src/search/providers/tavily.js";
import { MemoryStore } from "../../../src/store/store.js";
import { ddgChallenge, type SimWeb, startSimWeb } from "../../simweb/index.js";

const PROVIDERS: Provider[] = [duckduckgo, bing, mojeek, startpage, braveWeb, brave, tavily, exa];
const KEYS = {
  BRAVE_API_KEY: "test-SECRET-brave",
  TAVILY_API_KEY: "test-SECRET-tavily",
  EXA_API_KEY: "test-SECRET-exa",
};

let web: SimWeb;
let net: Net;
beforeAll(async () => {
  web = await startSimWeb();
  net = createNet(web.netConfig);
});
afterAll(async () => {
  await net.close();
  await web.close();
});
afterEach(() => web.reset());

function chain(env: Record<string, string | undefined> = {}, extra: Partial<ChainConfig> = {}): ChainConfig {
  return {
    providers: PROVIDERS,
    ctx: {
      net,
      config: settingsFromEnv(env),
      store: new MemoryStore(),
      log: () => {},
      settings: { ddgRetryDelayMs: 5 },
    },
    ...extra,
  };
}

/** Never answers: the request is read and left hanging. */
const hangForever = (): Promise<void> => new Promise<void>(() => {});
const hosts = () => web.requests.map((r) => r.host);
const serve = (host: string, path: string, fixture: string, status = 200) =>
  web.route(host, path, {
    status,
    headers: { "content-type": "text/html; charset=utf-8" },
    body: web.fixture(fixture),
  });

function serveKeylessJavascriptTutorial() {
  serve("www.bing.com", "/search", "bing/bing-serp-http-ck-wrapped-javascript-tutorial-2026-04.html");
  serve("www.mojeek.com", "/search", "mojeek/mojeek-serp-javascript-tutorial-2026-04.html");
  serve("www.startpage.com", "/sp/search", "startpage/startpage-serp-http-javascript-tutorial-2026-04.html");
  serve("search.brave.com", "/search", "brave/brave-web-ui-serp-javascript-tutorial-2026-04.html");
}

describe("search chain: keyless by default", () => {
  it("answers from DuckDuckGo alone when it has enough results, and caches the answer", async () => {
    serve("html.duckduckgo.com", "/html/", "duckduckgo/ddg-html-results-openai-news-2026-02.html");
    const config = chain();
    const first = await searchChain("openai news", { limit: 5 }, config);
    expect(first.status).toBe("ok");
    expect(first.provider).toBe("duckduckgo");
    expect(first.results).toHaveLength(5);
    expect(first.results.map((r) => r.rank)).toEqual([1, 2, 3, 4, 5]);
    expect(first.results.every((r) => r.url.startsWith("http") && !r.url.includes("duckduckgo.com/l/"))).toBe(
      true,
    );
    expect(first.cached).toBeUndefined();
    expect(first.attempted[0]).not.toHaveProperty("domain_filtered_out");
    const requestsBefore = web.requests.length;
    const second = await searchChain("openai news", { limit: 5 }, config);
    expect(second.cached).toBe(true);
    expect(second.ageSeconds).toBeGreaterThanOrEqual(0);
    expect(web.requests.length).toBe(requestsBefore);
    const otherLimit = await searchChain("openai news", { limit: 3 }, config);
    expect(otherLimit.cached).toBeUndefined();
  });

  it("spreads to the other keyless engines when DuckDuckGo is challenged, and merges them", async () => {
    web.route("html.duckduckgo.com", "/html/", ddgChallenge(web, 202));
    web.route("lite.duckduckgo.com", "/lite/", ddgChallenge(web, 200));
    serveKeylessJavascriptTutorial();
    const res = await searchChain("javascript tutorial", { limit: 10 }, chain());
    expect(res.status).toBe("ok");
    const ddg = res.attempted.find((a) => a.provider === "duckduckgo");
    expect(ddg?.status).toBe("blocked");
    expect(res.attempted.map((a) => a.provider)).toEqual(
      expect.arrayContaining(["duckduckgo", "bing", "mojeek", "startpage", "brave-web"]),
    );
    expect(res.results.length).toBe(10);
    // A page several engines agree on ranks above pages only one engine returned.
    const agreed = res.results.filter((r) => r.providers.length > 1);
    expect(agreed.length).toBeGreaterThan(0);
    expect(res.results[0].providers.length).toBeGreaterThan(1);
  });

  it("never calls a block 'no results': every engine blocked answers blocked", async () => {
    web.route("html.duckduckgo.com", "/html/", ddgChallenge(web, 202));
    web.route("lite.duckduckgo.com", "/lite/", ddgChallenge(web, 202));
    serve("www.bing.com", "/search", "bing/bing-challenge-turnstile-http-2026-03.html");
    serve("www.mojeek.com", "/search", "mojeek/mojeek-captcha-altcha-2026-08.html");
    serve("www.startpage.com", "/sp/search", "startpage/startpage-challenge-anubis-verifying-2026-08.html");
    web.route("search.brave.com", "/search", { status: 429, body: "Too many requests" });
    const res = await searchChain("offshore wind farm projects", {}, chain());
    expect(res.status).toBe("blocked");
    expect(res.results).toEqual([]);
    expect(res.error).toMatch(/duckduckgo|bing|mojeek|startpage/);
    expect(res.attempted.every((a) => a.status !== "empty")).toBe(true);
  });

  it("remembers a block: a challenged engine is skipped without a request on the next call", async () => {
    web.route("html.duckduckgo.com", "/html/", ddgChallenge(web, 202));
    web.route("lite.duckduckgo.com", "/lite/", ddgChallenge(web, 202));
    serve("www.bing.com", "/search", "bing/bing-challenge-turnstile-http-2026-03.html");
    serveKeylessJavascriptTutorial();
    web.route("www.bing.com", "/search", {
      status: 200,
      body: web.fixture("bing/bing-challenge-turnstile-http-2026-03.html"),
    });
    const config = chain();
    await searchChain("javascript tutorial", { cache: false }, config);
    web.requests.length = 0;
    const again = await searchChain("javascript tutorial", { cache: false }, config);
    expect(hosts()).not.toContain("www.bing.com");
    const skipped = again.attempted.find((a) => a.provider === "bing");
    expect(skipped?.status).toBe("skipped");
    expect(skipped?.error).toMatch(/cooling until \d{4}-\d\d-\d\dT/);
  });
});

describe("search chain: paid providers are frozen", () => {
  const braveOk = () =>
    web.route("api.search.brave.com", "/res/v1/web/search", {
      headers: { "content-type": "application/json" },
      body: web.fixture("brave/brave-web-search-swift6-concurrency-2025-02.json"),
    });

  it("auto never calls a paid provider, even with its key set", async () => {
    braveOk();
    serve("html.duckduckgo.com", "/html/", "duckduckgo/ddg-html-results-openai-news-2026-02.html");
    for (const value of [undefined, "true", "yes", "0", " 1"]) {
      web.requests.length = 0;
      const res = await searchChain(
        "openai news",
        { cache: false },
        chain({ ...KEYS, WEBSIFT_ENABLE_PAID: value }),
      );
      expect(res.provider).toBe("duckduckgo");
      expect(hosts()).not.toContain("api.search.brave.com");
      expect(hosts()).not.toContain("api.tavily.com");
      expect(hosts()).not.toContain("api.exa.ai");
    }
  });

  it("WEBSIFT_ENABLE_PAID=1 restores the paid order over the configured ones", async () => {
    web.route("api.exa.ai", "/search", {
      status: 401,
      headers: { "content-type": "application/json" },
      body: web.fixture("exa/exa-error-401.FROM-DOCS.json"),
    });
    web.route("api.tavily.com", "/search", {
      status: 432,
      headers: { "content-type": "application/json" },
      body: web.fixture("tavily/tavily-error-432-plan-limit.FROM-DOCS.json"),
    });
    braveOk();
    const res = await searchChain(
      "swift 6 concurrency",
      { cache: false },
      chain({ ...KEYS, WEBSIFT_ENABLE_PAID: "1" }),
    );
    expect(res.attempted.map((a) => a.provider)).toEqual(["exa", "tavily", "brave"]);
    expect(res.provider).toBe("brave");
    expect(res.status).toBe("ok");
    expect(JSON.stringify(res)).not.toContain("test-SECRET");
  });

  it("a pinned provider is called alone, frozen or not, and its failure is the answer", async () => {
    web.route("api.search.brave.com", "/res/v1/web/search", {
      status: 422,
      headers: { "content-type": "application/json" },
      body: web.fixture("brave/brave-error-422-subscription-token-invalid.FROM-DOCS.json"),
    });
    serve("html.duckduckgo.com", "/html/", "duckduckgo/ddg-html-results-openai-news-2026-02.html");
    const res = await searchChain("openai news", { provider: "brave" }, chain(KEYS));
    expect(res.status).toBe("error");
    expect(res.results).toEqual([]);
    expect(hosts()).toEqual(["api.search.brave.com"]);
    expect(res.attempted.map((a) => a.provider)).toEqual(["brave"]);
    expect(JSON.stringify(res)).not.toContain("test-SECRET");
  });

  it("a pinned provider without its key is refused before any request", async () => {
    const res = await searchChain("openai news", { provider: "tavily" }, chain());
    expect(res.code).toBe("not_configured");
    expect(res.error).toContain("TAVILY_API_KEY");
    expect(web.requests).toHaveLength(0);
  });

  it("a 429 suspends the provider for its Retry-After", async () => {
    web.route("api.search.brave.com", "/res/v1/web/search", {
      status: 429,
      headers: { "content-type": "application/json", "retry-after": "120" },
      body: web.fixture("brave/brave-error-429-rate-limited.FROM-DOCS.json"),
    });
    const config = chain(KEYS);
    const first = await searchChain("q one", { provider: "brave" }, config);
    expect(first.status).toBe("rate_limited");
    web.requests.length = 0;
    const second = await searchChain("q two", { provider: "brave" }, config);
    expect(web.requests).toHaveLength(0);
    expect(second.attempted[0].status).toBe("skipped");
    expect(second.attempted[0].error).toMatch(/cooling until/);
    expect(second.status).not.toBe("empty");
  });
});

describe("search chain: budgets", () => {
  it("a provider that outlives its budget is named, and the chain moves on", async () => {
    web.route("html.duckduckgo.com", "/html/", hangForever);
    serveKeylessJavascriptTutorial();
    const res = await searchChain(
      "javascript tutorial",
      { cache: false },
      chain({}, { providerTimeoutMs: { duckduckgo: 400 } }),
    );
    const ddg = res.attempted.find((a) => a.provider === "duckduckgo");
    expect(ddg?.status).toBe("timeout");
    expect(ddg?.error).toMatch(/^timeout after \d+(\.\d)?s waiting for duckduckgo$/);
    expect(res.status).toBe("ok");
  });

  it("a total budget that runs out answers timeout, never empty", async () => {
    web.route("html.duckduckgo.com", "/html/", hangForever);
    for (const host of ["www.bing.com", "www.mojeek.com", "search.brave.com"])
      web.route(host, "/search", hangForever);
    web.route("www.startpage.com", "/sp/search", hangForever);
    const res = await searchChain("anything at all", { timeoutMs: 700 }, chain());
    expect(res.status).toBe("timeout");
    expect(res.results).toEqual([]);
  });
});

describe("search chain: coding scope", () => {
  it("keeps only coding domains on a dot boundary, and says when the filter removed everything", async () => {
    web.route("html.duckduckgo.com", "/html/", ddgChallenge(web, 202));
    web.route("lite.duckduckgo.com", "/lite/", ddgChallenge(web, 202));
    serveKeylessJavascriptTutorial();
    const res = await searchChain("javascript tutorial", { scope: "code", cache: false }, chain());
    expect(res.status).toBe("ok");
    expect(res.results.length).toBeGreaterThan(0);
    for (const r of res.results)
      expect(new URL(r.url).hostname).toMatch(
        /(^|\.)(developer\.mozilla\.org|github\.com|stackoverflow\.com|npmjs\.com|nodejs\.org)$/,
      );
    expect(res.codeDomains).toContain("developer.mozilla.org");
    const bingStep = res.attempted.find((a) => a.provider === "bing");
    expect(bingStep?.status).toBe("empty");
    expect(bingStep?.error).toMatch(/^code-domain filter removed all \d+ results$/);
    expect(bingStep?.domain_filtered_out).toBe(Number(/all (\d+)/.exec(bingStep?.error ?? "")?.[1]));
    // An engine some of whose results survive says how many the filter removed too.
    const kept = res.attempted.filter((a) => a.status === "ok");
    expect(kept.length).toBeGreaterThan(0);
    for (const a of kept) {
      expect(a.domain_filtered_out).toBeGreaterThan(0);
      expect(a.count).toBeGreaterThan(0);
    }
  });

  it("allowedHosts extends the list for one call and is echoed back", async () => {
    serve("html.duckduckgo.com", "/html/", "duckduckgo/ddg-html-results-openai-news-2026-02.html");
    const res = await searchChain(
      "openai news",
      { scope: "code", allowedHosts: ["openai.com", "Reuters.com"] },
      chain(),
    );
    expect(res.codeDomains).toEqual(expect.arrayContaining(["openai.com", "reuters.com", "github.com"]));
  });

  it.each([
    [{ scope: "general", allowedHosts: ["example.com"] }, /only accepted with scope "code"/],
    [{ scope: "code", allowedHosts: [] }, /empty/],
    [{ scope: "code", allowedHosts: "example.com" }, /array/],
    [{ scope: "code", allowedHosts: ["*.example.com"] }, /wildcard/],
    [{ scope: "code", allowedHosts: ["https://example.com"] }, /not URLs/],
    [{ scope: "code", allowedHosts: ["example.com:8080"] }, /ports/],
    [{ scope: "code", allowedHosts: ["example.com/docs"] }, /not URLs or paths/],
    [{ scope: "code", allowedHosts: ["user@example.com"] }, /credentials/],
    [{ scope: "code", allowedHosts: [".example.com"] }, /dot/],
    [{ scope: "code", allowedHosts: ["example..com"] }, /invalid/],
    [{ scope: "code", allowedHosts: ["docs.github.com"] }, /adds nothing/],
    [{ scope: "weird" }, /unknown scope/],
    [{ limit: 0 }, /limit/],
    [{ limit: 21 }, /limit/],
  ])("refuses bad options before any request: %j", async (options, reason) => {
    const res = await searchChain("some query", options as never, chain());
    expect(res.code).toBe("bad_input");
    expect(res.error).toMatch(reason);
    expect(web.requests).toHaveLength(0);
  });

  it("never puts extra hosts into errors", async () => {
    web.route("html.duckduckgo.com", "/html/", ddgChallenge(web, 202));
    web.route("lite.duckduckgo.com", "/lite/", ddgChallenge(web, 202));
    const res = await searchChain(
      "secret project",
      { scope: "code", allowedHosts: ["intranet-docs.example.net"] },
      chain(),
    );
    expect(res.error ?? "").not.toContain("intranet-docs");
    expect(res.attempted.map((a) => a.error ?? "").join(" ")).not.toContain("intranet-docs");
  });
});

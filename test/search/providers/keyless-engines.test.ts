import { describe, expect, it } from "vitest";
import { Deadline } from "../../../src/core/deadline.js";
import type { Provider, ProviderQuery } from "../../../src/search/provider.js";
import { bing } from "../../../src/search/providers/bing.js";
import { braveWeb } from "../../../src/search/providers/brave-web.js";
import { mojeek } from "../../../src/search/providers/mojeek.js";
import { startpage } from "../../../src/search/providers/startpage.js";
import type { SimReply } from "../../simweb/index.js";
import { useSimProviders } from "./context.js";
import { fixture } from "./fixtures.js";

const web = useSimProviders();

const html = (file: string, status = 200): SimReply => ({
  status,
  headers: { "content-type": "text/html; charset=utf-8" },
  body: fixture(file),
});
const run = (provider: Provider, query: Partial<ProviderQuery> = {}) =>
  provider.search({ query: "javascript tutorial", limit: 5, ...query }, web.ctx, Deadline.after(5000));

interface Engine {
  provider: Provider;
  host: string;
  path: string;
  results: string;
  /** The engine's block page (Brave's PoW page was never captured: its reported title stands in). */
  challenge: () => string;
  firstUrl: string;
}

const ENGINES: Engine[] = [
  {
    provider: bing,
    host: "www.bing.com",
    path: "/search",
    results: "bing/bing-serp-http-ck-wrapped-javascript-tutorial-2026-04.html",
    challenge: () => fixture("bing/bing-challenge-turnstile-http-2026-03.html"),
    firstUrl: "https://www.w3schools.com/Js/",
  },
  {
    provider: mojeek,
    host: "www.mojeek.com",
    path: "/search",
    results: "mojeek/mojeek-serp-javascript-tutorial-2026-04.html",
    challenge: () => fixture("mojeek/mojeek-captcha-altcha-2026-08.html"),
    firstUrl: "https://javascript.info/",
  },
  {
    provider: startpage,
    host: "www.startpage.com",
    path: "/sp/search",
    results: "startpage/startpage-serp-http-javascript-tutorial-2026-04.html",
    challenge: () => fixture("startpage/startpage-challenge-anubis-verifying-2026-08.html"),
    firstUrl: "https://www.w3schools.com/js/",
  },
  {
    provider: braveWeb,
    host: "search.brave.com",
    path: "/search",
    results: "brave/brave-web-ui-serp-javascript-tutorial-2026-04.html",
    challenge: () => "<html><head><title>PoW Captcha - Brave Search</title></head><body></body></html>",
    firstUrl: "https://www.w3schools.com/js/",
  },
];

describe.each(ENGINES)("$provider.name through net", (engine) => {
  it("returns the first `limit` organic results", async () => {
    web.sim.route(engine.host, engine.path, html(engine.results));
    const outcome = await run(engine.provider);
    expect(outcome.status).toBe("ok");
    if (outcome.status !== "ok") return;
    expect(outcome.hits).toHaveLength(5);
    expect(outcome.hits[0].url).toBe(engine.firstUrl);
    expect(web.sim.requests).toHaveLength(1);
    const params = web.sim.requests[0].url.searchParams;
    expect(params.get("q") ?? params.get("query")).toBe("javascript tutorial");
  });

  it("reports its challenge page as blocked, whatever the status", async () => {
    web.sim.route(engine.host, engine.path, {
      headers: { "content-type": "text/html" },
      body: engine.challenge(),
    });
    expect(await run(engine.provider)).toMatchObject({ status: "blocked", code: "challenge" });
  });

  it("reports 429 as rate limited with Retry-After", async () => {
    web.sim.route(engine.host, engine.path, {
      status: 429,
      headers: { "retry-after": "90" },
      body: "slow down",
    });
    expect(await run(engine.provider)).toMatchObject({ status: "rate_limited", retryAfter: 90 });
  });

  it("reports 403 as blocked and a page in no known layout as an unrecognised layout, never empty", async () => {
    web.sim.route(engine.host, engine.path, { status: 403, body: "Forbidden" });
    expect(await run(engine.provider)).toMatchObject({ status: "blocked", code: "http_403" });
    web.sim.route(engine.host, engine.path, { body: "<html><body>Something else</body></html>" });
    const drifted = await run(engine.provider);
    expect(drifted).toMatchObject({ status: "error", code: "unknown_page" });
    expect(drifted.status === "error" && drifted.message).toMatch(
      new RegExp(`^${engine.provider.name}: unrecognised page layout \\(`),
    );
  });

  it("reports 5xx as an error, even when the body holds a no-results marker", async () => {
    web.sim.route(engine.host, engine.path, {
      status: 503,
      body: '<html><body><ol id="b_results"><li class="b_no">No results</li></ol><div class="no-results"></div></body></html>',
    });
    expect(await run(engine.provider)).toMatchObject({ status: "error", code: "http_503" });
  });

  it("reports results that ignore the query as a soft block", async () => {
    web.sim.route(engine.host, engine.path, html(engine.results));
    expect(await run(engine.provider, { query: "volcanic eruption iceland" })).toMatchObject({
      status: "blocked",
      code: "soft_block",
    });
  });
});

describe("native options", () => {
  it("bing: market from the region, SafeSearch as adlt, Accept-Language from the locale", async () => {
    web.sim.route("www.bing.com", "/search", html(ENGINES[0].results));
    await run(bing, { region: "uk-en", safesearch: "strict" });
    const req = web.sim.requests[0];
    expect(req.url.searchParams.get("mkt")).toBe("en-GB");
    expect(req.url.searchParams.get("adlt")).toBe("strict");
    expect(req.headers["accept-language"]).toMatch(/^en-GB/);
  });

  it("mojeek: safe=1 and since=YYYYMMDD, and no `s` on page 1", async () => {
    web.sim.route("www.mojeek.com", "/search", html(ENGINES[1].results));
    await run(mojeek, { safesearch: "moderate", timeRange: "w" });
    const params = web.sim.requests[0].url.searchParams;
    expect(params.get("safe")).toBe("1");
    expect(params.get("since")).toMatch(/^\d{8}$/);
    expect(params.has("s")).toBe(false);
  });

  it("startpage: with_date and qadf; a redirect to /sp/captcha is a challenge", async () => {
    web.sim.route("www.startpage.com", "/sp/search", {
      status: 302,
      headers: { location: "/sp/captcha?x=1" },
    });
    web.sim.route("www.startpage.com", "/sp/captcha", { body: "<html>captcha</html>" });
    const outcome = await run(startpage, { timeRange: "m", safesearch: "off" });
    expect(outcome).toMatchObject({ status: "blocked", code: "challenge" });
    const params = web.sim.requests[0].url.searchParams;
    expect([params.get("with_date"), params.get("qadf")]).toEqual(["m", "none"]);
  });

  it("brave-web: tf for time, preferences as cookies", async () => {
    web.sim.route("search.brave.com", "/search", html(ENGINES[3].results));
    const outcome = await run(braveWeb, { timeRange: "d", safesearch: "strict", region: "de-de" });
    expect(outcome.status).toBe("ok");
    const req = web.sim.requests[0];
    expect(req.url.searchParams.get("tf")).toBe("pd");
    expect(req.headers.cookie).toContain("safesearch=strict");
    expect(req.headers.cookie).toContain("country=de");
  });
});

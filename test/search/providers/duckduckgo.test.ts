import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Deadline } from "../../../src/core/deadline.js";
import type { ProviderContext, ProviderQuery } from "../../../src/search/provider.js";
import {
  DDG_FALLBACK_REGIONS,
  ddgCooldownKey,
  ddgRegionOrder,
  duckduckgo,
  parseDuckDuckGoHtml,
  parseDuckDuckGoLite,
} from "../../../src/search/providers/duckduckgo.js";
import { ddgChallenge, type SimWeb, startSimWeb } from "../../simweb/index.js";
import { simContext } from "./context.js";
import { fixture } from "./fixtures.js";

const DDG = "duckduckgo";

describe("parseDuckDuckGoHtml", () => {
  it.each([
    ["ddg-html-results-openai-news-2026-02.html", 10, "OpenAI News", "https://openai.com/newsroom/"],
    [
      "ddg-html-results-iron-man-jarvis-2026-06.html",
      10,
      "JARVIS AI by Shivam Pathak - Itch.io",
      "https://shivam-pathak.itch.io/jarvis-ai",
    ],
    [
      "ddg-html-results-zeroclick-openclaw-2026-02.html",
      10,
      "OpenClaw — Personal AI Assistant",
      "https://openclaw.ai/",
    ],
    [
      "ddg-html-results-two-ads-plumber-dubai-2026-03.html",
      10,
      "Plumber Dubai | 24/7 Professional Plumbing Services 0581873002",
      "https://plumberdubai.com/",
    ],
    [
      "ddg-html-results-with-ad-weather-jakarta-2026-02.html",
      10,
      "Jakarta, Jakarta, Indonesia Weather Forecast | AccuWeather",
      "https://www.accuweather.com/en/id/jakarta/208971/weather-forecast/208971",
    ],
    [
      "ddg-html-results-with-ad-antani-2020.html",
      30,
      "Come se fosse antani significato - Lettera43 Come Fare",
      "https://www.lettera43.it/howto/come-se-fosse-antani-significato/",
    ],
  ])("%s: organic results only, links unwrapped", (file, count, title, url) => {
    const parsed = parseDuckDuckGoHtml(fixture(`${DDG}/${file}`));
    expect(parsed.kind).toBe("results");
    if (parsed.kind !== "results") return;
    expect(parsed.hits).toHaveLength(count);
    expect(parsed.hits[0]).toMatchObject({ title, url });
    for (const hit of parsed.hits) {
      expect(hit.url).toMatch(/^https?:\/\//);
      expect(hit.url).not.toMatch(/duckduckgo\.com\/(l|y\.js)/);
      expect(`${hit.title} ${hit.snippet}`).not.toMatch(/&#x27;|&quot;|&amp;|<b>/);
    }
  });

  it("decodes entities and reads the date span", () => {
    const parsed = parseDuckDuckGoHtml(fixture(`${DDG}/ddg-html-results-openai-news-2026-02.html`));
    if (parsed.kind !== "results") throw new Error(parsed.kind);
    expect(parsed.hits[0]).toEqual({
      title: "OpenAI News",
      url: "https://openai.com/newsroom/",
      snippet:
        "Stay up to speed on the rapid advancement of AI technology and the benefits it offers to humanity.",
      date: "2026-02-13",
    });
    const jakarta = parseDuckDuckGoHtml(
      fixture(`${DDG}/ddg-html-results-with-ad-weather-jakarta-2026-02.html`),
    );
    if (jakarta.kind !== "results") throw new Error(jakarta.kind);
    expect(jakarta.hits.some((h) => h.snippet.includes("Today's and tonight's"))).toBe(true);
  });

  it("drops both ads of the plumber page (result--ad and result--ad--small)", () => {
    const html = fixture(`${DDG}/ddg-html-results-two-ads-plumber-dubai-2026-03.html`);
    expect(html.match(/result--ad\b/g)?.length).toBeGreaterThanOrEqual(2);
    const parsed = parseDuckDuckGoHtml(html);
    if (parsed.kind !== "results") throw new Error(parsed.kind);
    expect(parsed.hits.every((h) => !h.url.includes("y.js"))).toBe(true);
  });

  it("sees the anomaly page as blocked, the no-results block as empty, anything else as unknown", () => {
    expect(parseDuckDuckGoHtml(fixture(`${DDG}/ddg-html-anomaly-challenge-2026-04.html`))).toEqual({
      kind: "blocked",
      reason: "anomaly challenge page",
    });
    const noResults =
      '<div id="links"><div class="result results_links results_links_deep web-result result--no-result ">' +
      '<div class="no-results">No results.</div></div></div>';
    expect(parseDuckDuckGoHtml(noResults)).toEqual({ kind: "empty" });
    expect(parseDuckDuckGoHtml("<html><title>DuckDuckGo</title><body>hm</body></html>")).toMatchObject({
      kind: "unrecognised",
    });
  });
});

describe("DDG page reading without selectors", () => {
  // The parsers walk the htmlparser2 tree instead of running CSS selectors; these pin what each selector meant.
  const result = (cls: string, inner: string) => `<div class="${cls}">${inner}</div>`;
  const link = (href: string, text: string) => `<a class="result__a" href="${href}">${text}</a>`;

  it.each([
    '<form id="challenge-form"></form>',
    '<form id="img-form"></form>',
    '<div class="x anomaly-modal__mask"></div>',
    '<section data-testid="anomaly-modal"></section>',
    '<form action="/anomaly.js?x=1"></form>',
    '<script src="https://duckduckgo.com/dist/anomaly.js"></script>',
  ])("each challenge marker blocks, even beside results: %s", (marker) => {
    const html = `${marker}${result("result", link("https://ex.com/", "Example"))}`;
    expect(parseDuckDuckGoHtml(html)).toEqual({ kind: "blocked", reason: "anomaly challenge page" });
    expect(parseDuckDuckGoLite(html).kind).toBe("blocked");
  });

  it("near misses are not challenge markers (attribute values compare case-sensitively)", () => {
    const html =
      '<form id="Challenge-Form"></form><div id="challenge-form"></div><p class="anomaly-modal__mask-x"></p>' +
      '<script src="/anomaly.mjs"></script>' +
      result("result", link("https://ex.com/", "Example"));
    expect(parseDuckDuckGoHtml(html).kind).toBe("results");
  });

  it("reads class words as `.result` does, nested blocks each on their own", () => {
    const html =
      result("result--ad", link("https://notblock.example/", "Not a block")) +
      result(
        " web-result\tresult ",
        `${link("https://outer.example/", "Outer <b>bold</b>")}<span class="result__extras__url">Jan 3,</span>` +
          `<span class="result__extras__url"> 2024</span>${result("result", link("https://inner.example/", "Inner"))}`,
      ) +
      result("RESULT", link("https://upper.example/", "Upper"));
    const parsed = parseDuckDuckGoHtml(html);
    if (parsed.kind !== "results") throw new Error(parsed.kind);
    expect(parsed.hits).toEqual([
      { title: "Outer bold", url: "https://outer.example/", snippet: "", date: "2024-01-03" },
      { title: "Inner", url: "https://inner.example/", snippet: "" },
    ]);
  });

  it("takes the first title link and snippet in a block, and skips a block without a title", () => {
    const html =
      result("result", '<a class="result__a">no href</a>') +
      result(
        "result",
        `<h2>${link("https://first.example/", "First")}</h2>${link("https://second.example/", "Second")}` +
          '<a class="result__snippet">one &amp;amp; two</a><div class="result__snippet">later</div>',
      );
    const parsed = parseDuckDuckGoHtml(html);
    if (parsed.kind !== "results") throw new Error(parsed.kind);
    expect(parsed.hits).toEqual([{ title: "First", url: "https://first.example/", snippet: "one & two" }]);
  });

  it("an element inside nested blocks serves each of them; comments are not text; open tags close at the end", () => {
    const html =
      result("result", result("result", `${link("https://deep.example/", "Deep<!-- x --> title")}`)) +
      '<div class="result"><a class="result__a" href="https://open.example/">Never <i>closed';
    const parsed = parseDuckDuckGoHtml(html);
    if (parsed.kind !== "results") throw new Error(parsed.kind);
    expect(parsed.hits).toEqual([
      { title: "Deep title", url: "https://deep.example/", snippet: "" },
      { title: "Deep title", url: "https://deep.example/", snippet: "" },
      { title: "Never closed", url: "https://open.example/", snippet: "" },
    ]);
  });

  it("Lite: a link outside any row keeps no snippet; the snippet rows stop at the next link's row", () => {
    const html =
      "<table><tr><td><a class='result-link' href='https://a.example/'>A</a></td></tr>" +
      "<tr><td class='result-snippet'></td></tr><tr><td class='result-snippet'>second row</td></tr>" +
      "<tr><td><span class='timestamp'>2024-05-06T00:00:00</span></td></tr>" +
      "<tr><td><a class='result-link' href='https://b.example/'>B</a></td></tr></table>" +
      "<p><a class='result-link' href='https://c.example/'>C</a></p>";
    const parsed = parseDuckDuckGoLite(html);
    if (parsed.kind !== "results") throw new Error(parsed.kind);
    expect(parsed.hits).toEqual([
      { title: "A", url: "https://a.example/", snippet: "second row", date: "2024-05-06" },
      { title: "B", url: "https://b.example/", snippet: "" },
      { title: "C", url: "https://c.example/", snippet: "" },
    ]);
  });
});

describe("parseDuckDuckGoLite", () => {
  it.each([
    [
      "ddg-lite-results-weather-sf-2026-01.html",
      "10 Day Weather - Downtown, San Francisco, California",
      "https://weather.com/weather/tenday/l/San%20Francisco%20CA%20USCA0987:1:US",
    ],
    [
      "ddg-lite-results-plumber-miami-2026-05.html",
      "TOP 10 BEST Plumbers in Miami, FL - Updated 2026 - Quality ... - Yelp",
      "https://www.yelp.com/search?find_desc=plumbers&find_loc=Miami%2C+FL",
    ],
  ])("%s: ten rows with snippet and timestamp", (file, title, url) => {
    const parsed = parseDuckDuckGoLite(fixture(`${DDG}/${file}`));
    if (parsed.kind !== "results") throw new Error(parsed.kind);
    expect(parsed.hits).toHaveLength(10);
    expect(parsed.hits[0]).toMatchObject({ title, url });
    expect(parsed.hits.every((h) => h.snippet.length > 0)).toBe(true);
  });

  it("reads snippets and timestamps from the rows after each link", () => {
    const parsed = parseDuckDuckGoLite(fixture(`${DDG}/ddg-lite-results-weather-sf-2026-01.html`));
    if (parsed.kind !== "results") throw new Error(parsed.kind);
    expect(parsed.hits[0].snippet).toMatch(
      /^Be prepared with the most accurate 10-day forecast for Downtown/,
    );
    expect(parsed.hits[2].date).toBe("2026-01-20");
    expect(parsed.hits[0].date).toBeUndefined();
  });

  it("sees the lite anomaly page as blocked", () => {
    expect(parseDuckDuckGoLite(fixture(`${DDG}/ddg-lite-anomaly-challenge-2026-07.html`)).kind).toBe(
      "blocked",
    );
  });
});

describe("ddgRegionOrder", () => {
  it("puts the primary first and removes duplicates", () => {
    expect(ddgRegionOrder("uk-en")).toEqual(["uk-en", "wt-wt", "us-en", "de-de"]);
    expect(ddgRegionOrder(undefined)).toEqual(["wt-wt", "us-en", "uk-en", "de-de"]);
    expect(ddgRegionOrder("fr-fr")).toEqual(["fr-fr", "wt-wt", "us-en", "uk-en", "de-de"]);
    expect(ddgRegionOrder("nonsense")).toEqual(["wt-wt", "us-en", "uk-en", "de-de"]);
  });
});

describe("duckduckgo provider (simulated web)", () => {
  let sim: SimWeb;
  let ctx: ProviderContext;
  let logged: string[];
  const page = (file: string) => ({
    status: 200,
    headers: { "content-type": "text/html; charset=utf-8" },
    body: fixture(`${DDG}/${file}`),
  });
  const challenge = (status: number) => ({
    status,
    headers: { "content-type": "text/html" },
    body: fixture(`${DDG}/ddg-html-anomaly-challenge-2026-04.html`),
  });
  const q = (extra: Partial<ProviderQuery> = {}): ProviderQuery => ({
    query: "weather jakarta",
    limit: 5,
    ...extra,
  });
  const form = (i: number) => new URLSearchParams(sim.requests[i].body);

  beforeAll(async () => {
    sim = await startSimWeb();
  });
  afterEach(async () => {
    await ctx.net.close();
  });
  afterAll(async () => {
    await sim.close();
  });
  beforeEach(() => {
    sim.reset();
    logged = [];
    ctx = { ...simContext(sim, { ddgRetryDelayMs: 5 }), log: (line: string) => logged.push(line) };
  });

  it("POSTs the html form with region, time and safe search, and returns the first `limit` hits", async () => {
    sim.route("html.duckduckgo.com", "/html/", page("ddg-html-results-with-ad-weather-jakarta-2026-02.html"));
    const outcome = await duckduckgo.search(
      q({ region: "id-en", timeRange: "w", safesearch: "strict" }),
      ctx,
      Deadline.after(5000),
    );
    expect(outcome.status).toBe("ok");
    if (outcome.status !== "ok") return;
    expect(outcome.hits).toHaveLength(5);
    expect(outcome.hits[0].url).toBe(
      "https://www.accuweather.com/en/id/jakarta/208971/weather-forecast/208971",
    );
    expect(sim.requests).toHaveLength(1);
    expect(sim.requests[0].method).toBe("POST");
    expect(Object.fromEntries(form(0))).toEqual({
      q: "weather jakarta",
      b: "",
      kl: "id-en",
      df: "w",
      kp: "1",
    });
  });

  it("on a 202 challenge cools that region and retries once on Lite in the next region", async () => {
    sim.route("html.duckduckgo.com", "/html/", challenge(202));
    sim.route("lite.duckduckgo.com", "/lite/", page("ddg-lite-results-weather-sf-2026-01.html"));
    const outcome = await duckduckgo.search(
      q({ query: "weather san francisco", region: "us-en" }),
      ctx,
      Deadline.after(5000),
    );
    expect(outcome.status).toBe("ok");
    expect(sim.requests.map((r) => `${r.host} ${form(sim.requests.indexOf(r)).get("kl")}`)).toEqual([
      "html.duckduckgo.com us-en",
      "lite.duckduckgo.com wt-wt",
    ]);
    const cooldown = await ctx.store.get<{ until: number }>(ddgCooldownKey("us-en"));
    expect(cooldown?.until).toBeGreaterThan(Date.now() + 29 * 60_000);
    expect(logged).toEqual(["duckduckgo: region us-en challenged (challenge); cooling for 1800 s"]);
    expect(await ctx.store.get(ddgCooldownKey("wt-wt"))).toBeUndefined();
  });

  it("treats the challenge page served with 200 as a challenge too", async () => {
    sim.route("html.duckduckgo.com", "/html/", challenge(200));
    sim.route("lite.duckduckgo.com", "/lite/", challenge(200));
    const outcome = await duckduckgo.search(q(), ctx, Deadline.after(5000));
    expect(outcome).toMatchObject({ status: "blocked", code: "challenge" });
    expect(outcome.status === "blocked" && outcome.message).toMatch(/wt-wt and us-en/);
    expect(sim.requests).toHaveLength(2);
    expect(await ctx.store.get(ddgCooldownKey("wt-wt"))).toBeDefined();
    expect(await ctx.store.get(ddgCooldownKey("us-en"))).toBeDefined();
  });

  it("later calls skip cooling regions without a request", async () => {
    await ctx.store.set(ddgCooldownKey("wt-wt"), { until: Date.now() + 60_000 }, 60_000);
    sim.route("html.duckduckgo.com", "/html/", page("ddg-html-results-openai-news-2026-02.html"));
    const outcome = await duckduckgo.search(q({ query: "openai news" }), ctx, Deadline.after(5000));
    expect(outcome.status).toBe("ok");
    expect(sim.requests).toHaveLength(1);
    expect(form(0).get("kl")).toBe("us-en");
  });

  it("fails with all_regions_cooling, naming each region and its expiry, without any request", async () => {
    const until = Date.now() + 10 * 60_000;
    for (const region of ["fr-fr", "wt-wt", "us-en", "uk-en", "de-de"])
      await ctx.store.set(ddgCooldownKey(region), { until }, 10 * 60_000);
    const outcome = await duckduckgo.search(q({ region: "fr-fr" }), ctx, Deadline.after(5000));
    expect(outcome).toMatchObject({ status: "blocked", code: "all_regions_cooling" });
    if (outcome.status !== "blocked") return;
    const expiry = new Date(until).toISOString();
    for (const region of ["fr-fr", "wt-wt", "us-en", "uk-en", "de-de"])
      expect(outcome.message).toContain(`${region} until ${expiry}`);
    expect(outcome.retryAfter).toBeGreaterThan(590);
    expect(sim.requests).toHaveLength(0);
  });

  it("never starts the retry when the delay would break the deadline", async () => {
    const slow = simContext(sim, { ddgRetryDelayMs: 2000 });
    sim.route("html.duckduckgo.com", "/html/", challenge(202));
    sim.route("lite.duckduckgo.com", "/lite/", page("ddg-lite-results-weather-sf-2026-01.html"));
    const deadline = Deadline.after(1500);
    const outcome = await duckduckgo.search(q(), slow, deadline);
    await slow.net.close();
    expect(outcome).toMatchObject({ status: "blocked", code: "challenge" });
    expect(deadline.expired()).toBe(false);
    expect(sim.requests).toHaveLength(1);
  });

  it("honours a configured cooldown, and counts a 429 as a challenge", async () => {
    const custom = simContext(sim, { ddgRetryDelayMs: 0, ddgCooldownMs: 60_000 });
    sim.route("html.duckduckgo.com", "/html/", challenge(429));
    sim.route("lite.duckduckgo.com", "/lite/", page("ddg-lite-results-weather-sf-2026-01.html"));
    await duckduckgo.search(q({ query: "weather san francisco" }), custom, Deadline.after(5000));
    await custom.net.close();
    const cooldown = await custom.store.get<{ until: number }>(ddgCooldownKey("wt-wt"));
    expect(cooldown?.until).toBeLessThanOrEqual(Date.now() + 60_000);
  });

  it("answers an explicit no-results page as empty, without a cooldown", async () => {
    sim.route("html.duckduckgo.com", "/html/", {
      body: '<div class="result results_links web-result result--no-result"><div class="no-results">No results.</div></div>',
    });
    expect(await duckduckgo.search(q(), ctx, Deadline.after(5000))).toEqual({ status: "empty" });
    expect(await ctx.store.get(ddgCooldownKey("wt-wt"))).toBeUndefined();
  });

  it("tries Lite once after an unrecognised page, without cooling the region; a soft block ends the call", async () => {
    sim.route("html.duckduckgo.com", "/html/", {
      body: "<html><title>DuckDuckGo</title><body>?</body></html>",
    });
    sim.route("lite.duckduckgo.com", "/lite/", page("ddg-lite-results-weather-sf-2026-01.html"));
    const rotated = await duckduckgo.search(q({ query: "weather san francisco" }), ctx, Deadline.after(5000));
    expect(rotated.status).toBe("ok");
    expect(await ctx.store.get(ddgCooldownKey("wt-wt"))).toBeUndefined();

    sim.reset();
    const fresh = simContext(sim, { ddgRetryDelayMs: 5 });
    sim.route("html.duckduckgo.com", "/html/", page("ddg-html-results-openai-news-2026-02.html"));
    const soft = await duckduckgo.search(
      q({ query: "volcanic eruption iceland" }),
      fresh,
      Deadline.after(5000),
    );
    await fresh.net.close();
    expect(soft).toMatchObject({ status: "blocked", code: "soft_block" });
    expect(sim.requests).toHaveLength(1);
    expect(await fresh.store.get(ddgCooldownKey("wt-wt"))).toBeUndefined();
  });

  it("reports a timeout as a timeout, not as empty", async () => {
    sim.route("html.duckduckgo.com", "/html/", {
      ...page("ddg-html-results-openai-news-2026-02.html"),
      delayMs: 2000,
    });
    const outcome = await duckduckgo.search(q(), ctx, Deadline.after(300));
    expect(outcome.status).toBe("timeout");
  });
});

describe("duckduckgo layout drift (simulated web)", () => {
  let sim: SimWeb;
  let ctx: ReturnType<typeof simContext>;
  beforeAll(async () => {
    sim = await startSimWeb();
  });
  afterAll(async () => {
    await sim.close();
  });
  beforeEach(() => {
    sim.reset();
    ctx = simContext(sim, { ddgRetryDelayMs: 5 });
  });
  afterEach(async () => {
    await ctx.net.close();
  });
  const q = (): ProviderQuery => ({ query: "weather jakarta", limit: 5 });
  const drifted = {
    body: '<html><body><div class="serp-v2"><a href="https://a.example/">A</a></div></body></html>',
  };

  it("both pages in no known layout: an error naming the unrecognised layout, never empty, no region cooled", async () => {
    sim.route("html.duckduckgo.com", "/html/", drifted);
    sim.route("lite.duckduckgo.com", "/lite/", drifted);
    const outcome = await duckduckgo.search(q(), ctx, Deadline.after(5000));
    expect(outcome).toMatchObject({ status: "error", code: "unknown_page" });
    expect(outcome.status === "error" && outcome.message).toMatch(/unrecognised page layout/);
    expect(sim.requests.map((r) => r.host)).toEqual(["html.duckduckgo.com", "lite.duckduckgo.com"]);
    for (const region of DDG_FALLBACK_REGIONS)
      expect(await ctx.store.get(ddgCooldownKey(region))).toBeUndefined();
  });

  it("a challenge on Lite after a drifted html page is the block, and names both", async () => {
    sim.route("html.duckduckgo.com", "/html/", drifted);
    sim.route("lite.duckduckgo.com", "/lite/", ddgChallenge(sim, 202));
    const outcome = await duckduckgo.search(q(), ctx, Deadline.after(5000));
    expect(outcome).toMatchObject({ status: "blocked", code: "challenge" });
    expect(outcome.status === "blocked" && outcome.message).toMatch(
      /challenged region us-en .*unrecognised page layout in wt-wt/,
    );
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { settingsFromEnv } from "../../../src/config/load.js";
import { Deadline } from "../../../src/core/deadline.js";
import { browserRoute } from "../../../src/ground/routes/browser.js";
import { closeHeadless } from "../../../src/ground/routes/headless-browser.js";
import { createNet, type Net } from "../../../src/net/client.js";
import { chromiumAvailable } from "../../../src/read/guarded-browser.js";
import type { ProviderContext } from "../../../src/search/provider.js";
import { MemoryStore } from "../../../src/store/store.js";
import { PRIVATE_HOST, type SimReply, type SimWeb, startSimWeb } from "../../simweb/index.js";

// Real headless Chromium against the simulated web: every request of the tab reaches it only through net.
const QUERY = "What was the TEKKEN 8 controversy in October 2024";
const FIRST_RESULT =
  "https://www.reddit.com/r/gaming/comments/1g6ljep/after_backlash_and_a_steam_review_bomb_tekken_8/";
const ARTICLE_HOST = "news.example.org";
const ARTICLE_URL = `https://${ARTICLE_HOST}/tekken-8-dlc`;
// The simulated web's certificate covers *.example.org, not the real result hosts.
const SECOND_RESULT =
  "https://www.eventhubs.com/news/2024/oct/17/bandainamco-tekken8-apology-dlc-controversy/";
const SECOND_HOST = "games.example.org";
const ARTICLE_TEXT = "Bandai Namco sold the Genmaji Temple stage for five dollars";

let sim: SimWeb;
let net: Net;
let serp: string;
const ctx = (env: Record<string, string> = {}): ProviderContext => ({
  net,
  config: settingsFromEnv(env),
  store: new MemoryStore(),
  log: () => {},
  settings: {},
});

beforeAll(async () => {
  sim = await startSimWeb();
  net = createNet(sim.netConfig);
  serp = sim
    .fixture("google/google-serp-tekken8-controversy-ai-overview-paa-2025-12.html")
    .toString("utf8")
    .replaceAll(FIRST_RESULT, ARTICLE_URL)
    .replaceAll(SECOND_RESULT, `https://${SECOND_HOST}/tekken-8-apology`);
});
afterAll(async () => {
  await closeHeadless();
  await net.close();
  await sim.close();
});
beforeEach(() => {
  sim.reset();
  sim.route(ARTICLE_HOST, "/tekken-8-dlc", {
    headers: { "content-type": "text/html; charset=utf-8" },
    body: `<!doctype html><html><head><title>Tekken 8 DLC controversy</title></head><body>
      <nav><a href="/">Home</a></nav>
      <article><h1>The Tekken 8 controversy of October 2024</h1>
      <p>${ARTICLE_TEXT}, and players answered with a review bomb on Steam in October 2024.</p>
      <p>The publisher later gave the stage to season pass owners together with in-game currency.</p></article>
      <script>fetch("http://${PRIVATE_HOST}/admin").then(() => document.body.dataset.priv = "reached", () => {});</script>
      </body></html>`,
  });
});

const serveSerp = () =>
  sim.route("www.google.com", "/search", {
    headers: { "content-type": "text/html; charset=utf-8" },
    body: serp,
  });

// A loaded CI machine can take seconds to start Chromium; no test here asserts timing.
describe.runIf(chromiumAvailable())("browserRoute (real Chromium, google)", { timeout: 90_000 }, () => {
  it("searches, reads the top result in the same tab and fences its text", async () => {
    serveSerp();
    const out = await browserRoute(QUERY, { ctx: ctx(), language: "en" }, Deadline.after(60_000));
    expect(out.status).toBe("ok");
    expect(out.provider).toBe("browser:google");
    const search = sim.requests.find((r) => r.host === "www.google.com" && r.path === "/search");
    expect(search?.url.searchParams.get("q")).toBe(QUERY);
    expect(search?.url.searchParams.get("hl")).toBe("en");
    expect(out.sources[0]).toMatchObject({
      n: 1,
      read: true,
      title: expect.stringContaining("Tekken 8"),
      url: ARTICLE_URL,
    });
    expect(out.sources).toHaveLength(5);
    expect(out.sources.slice(1).every((s) => !s.read)).toBe(true);
    const [, fenced] = out.envelope.split(/<<<WEB_CONTENT /);
    expect(fenced).toContain(ARTICLE_TEXT);
    expect(out.envelope).toContain(ARTICLE_URL);
    expect(out.attempts).toEqual([
      expect.objectContaining({ provider: "browser:google", status: "ok", count: 5 }),
      expect.objectContaining({ provider: "browser:read", status: "ok" }),
    ]);
  });

  it("lets no request of the page reach a private address", async () => {
    serveSerp();
    const out = await browserRoute(QUERY, { ctx: ctx() }, Deadline.after(60_000));
    expect(out.status).toBe("ok");
    expect(sim.requests.some((r) => r.host === ARTICLE_HOST)).toBe(true);
    expect(sim.requests.some((r) => r.host === PRIVATE_HOST)).toBe(false);
    expect(sim.dials.some((d) => d.address === "10.0.0.7")).toBe(false);
  });

  it("falls through on the /sorry/ reCAPTCHA page, reading nothing", async () => {
    sim.route("www.google.com", "/search", (req) => ({
      status: 302,
      headers: { location: `/sorry/index?continue=${encodeURIComponent(req.url.href)}&q=token` },
    }));
    sim.route("www.google.com", "/sorry/index", {
      status: 429,
      headers: { "content-type": "text/html" },
      body: sim.fixture("google/google-sorry-recaptcha-http-prettified-2026-02.html"),
    });
    const out = await browserRoute(QUERY, { ctx: ctx() }, Deadline.after(60_000));
    expect(out.status).toBe("blocked");
    expect(out.attempts).toEqual([
      expect.objectContaining({ provider: "browser:google", status: "blocked" }),
    ]);
    expect(sim.requests.some((r) => r.host === ARTICLE_HOST)).toBe(false);
    expect(sim.requests.some((r) => r.path === "/sorry/index")).toBe(true);
  });

  it("submits 'Reject all' once on the consent page, then reads the results", async () => {
    const saved: URLSearchParams[] = [];
    sim.route(
      "www.google.com",
      "/search",
      (req): SimReply =>
        /(^|;\s*)SOCS=/.test(req.headers.cookie ?? "")
          ? { headers: { "content-type": "text/html; charset=utf-8" }, body: serp }
          : {
              status: 302,
              headers: {
                location: `https://consent.google.com/ml?continue=${encodeURIComponent(req.url.href)}&gl=DE&hl=en`,
              },
            },
    );
    sim.route("consent.google.com", "/ml", {
      headers: { "content-type": "text/html; charset=utf-8" },
      body: sim.fixture("google/google-consent-before-you-continue-gl-DE-2026-03.html"),
    });
    sim.route("consent.google.com", "/save", (req, raw) => {
      const form = new URLSearchParams(req.body);
      saved.push(form);
      // Two cookies, the first with a comma in its Expires date: SOCS must still arrive on its own.
      raw.res.setHeader("set-cookie", [
        "NID=511; Expires=Wed, 21 Oct 2099 07:28:00 GMT; Domain=.google.com; Path=/; Secure",
        "SOCS=CAESEwgDEgk; Domain=.google.com; Path=/; Secure; SameSite=Lax",
      ]);
      raw.res.writeHead(303, { location: form.get("continue") ?? "https://www.google.com/" });
      raw.res.end();
    });
    const out = await browserRoute(QUERY, { ctx: ctx() }, Deadline.after(60_000));
    expect(saved).toHaveLength(1);
    expect(saved[0].get("set_eom")).toBe("true");
    expect(out.status).toBe("ok");
    expect(out.envelope).toContain(ARTICLE_TEXT);
  });

  it("falls through on a consent page that keeps coming back", async () => {
    sim.route("www.google.com", "/search", {
      status: 302,
      headers: { location: "https://consent.google.com/ml?continue=https://www.google.com/search?q=x" },
    });
    sim.route("consent.google.com", "/ml", {
      headers: { "content-type": "text/html; charset=utf-8" },
      body: sim.fixture("google/google-consent-before-you-continue-gl-DE-2026-03.html"),
    });
    sim.route("consent.google.com", "/save", {
      status: 303,
      headers: { location: "https://www.google.com/search?q=x" },
    });
    const out = await browserRoute(QUERY, { ctx: ctx() }, Deadline.after(60_000));
    expect(out.status).toBe("blocked");
    expect(out.attempts[0].error).toMatch(/consent/);
    expect(sim.requests.filter((r) => r.path === "/save")).toHaveLength(1);
  });

  it("falls through on the JavaScript wall (an unrecognised page is never empty)", async () => {
    sim.route("www.google.com", "/search", {
      headers: { "content-type": "text/html; charset=utf-8" },
      body: sim.fixture("google/google-enablejs-wall-http-en-2025-03.html"),
    });
    const out = await browserRoute(QUERY, { ctx: ctx() }, Deadline.after(60_000));
    expect(out.status).not.toBe("ok");
    expect(out.status).not.toBe("empty");
  });

  it("reads the next result when the top one fails", async () => {
    serveSerp();
    sim.route(ARTICLE_HOST, "/tekken-8-dlc", { status: 500, body: "down" });
    sim.route(SECOND_HOST, "/tekken-8-apology", {
      headers: { "content-type": "text/html" },
      body: "<html><head><title>Tekken 8 apology</title></head><body><article><p>Bandai Namco apologised for the Tekken 8 stage controversy in October 2024.</p></article></body></html>",
    });
    const out = await browserRoute(QUERY, { ctx: ctx() }, Deadline.after(60_000));
    expect(out.status).toBe("ok");
    expect(out.envelope).toContain("apologised for the Tekken 8 stage controversy");
    expect(out.attempts.map((a) => `${a.provider} ${a.status}`)).toEqual([
      "browser:google ok",
      "browser:read error",
      "browser:read ok",
    ]);
  });
});

describe("browserRoute without a browser", () => {
  it("reports a missing Chromium as a failure, not a throw", async () => {
    const out = await browserRoute(
      QUERY,
      { ctx: ctx(), executablePath: "/nonexistent/chromium" },
      Deadline.after(5000),
    );
    expect(out).toMatchObject({ status: "unsupported", sources: [] });
  });

  it("refuses an unknown engine name", async () => {
    const out = await browserRoute(
      QUERY,
      { ctx: ctx({ WEBSIFT_BROWSER_ENGINE: "altavista" }) },
      Deadline.after(5000),
    );
    expect(out.status).toBe("error");
    expect(sim.requests).toEqual([]);
  });
});

describe.runIf(chromiumAvailable())("browserRoute (real Chromium, bing)", { timeout: 90_000 }, () => {
  it("searches Bing when WEBSIFT_BROWSER_ENGINE=bing, decoding its ck/a links", async () => {
    const w3 = Buffer.from("https://www.w3schools.com/Js/").toString("base64url");
    const docs = Buffer.from("https://docs.example.org/js/").toString("base64url");
    sim.route("www.bing.com", "/search", {
      headers: { "content-type": "text/html; charset=utf-8" },
      body: sim
        .fixture("bing/bing-serp-http-ck-wrapped-javascript-tutorial-2026-04.html")
        .toString("utf8")
        .replaceAll(`a1${w3}`, `a1${docs}`),
    });
    sim.route("docs.example.org", "/js/", {
      headers: { "content-type": "text/html" },
      body: "<html><head><title>JavaScript tutorial</title></head><body><main><h1>JavaScript tutorial</h1><p>This JavaScript tutorial starts with variables, functions and the DOM.</p></main></body></html>",
    });
    const out = await browserRoute(
      "javascript tutorial",
      { ctx: ctx({ WEBSIFT_BROWSER_ENGINE: "bing" }), language: "en" },
      Deadline.after(60_000),
    );
    expect(out.status).toBe("ok");
    expect(out.provider).toBe("browser:bing");
    expect(out.sources[0].url).toBe("https://docs.example.org/js/");
    expect(out.envelope).toContain("starts with variables, functions and the DOM");
    const search = sim.requests.find((r) => r.host === "www.bing.com");
    expect(search?.url.searchParams.get("setlang")).toBe("en");
  });

  it("falls through on Bing's Turnstile challenge", async () => {
    sim.route("www.bing.com", "/search", {
      headers: { "content-type": "text/html; charset=utf-8" },
      body: sim.fixture("bing/bing-challenge-turnstile-http-2026-03.html"),
    });
    const out = await browserRoute(
      "javascript tutorial",
      { ctx: ctx(), engine: "bing" },
      Deadline.after(60_000),
    );
    expect(out.status).toBe("blocked");
  });
});

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { MemoryStore } from "../../src/store/store.js";
import { CANARY_QUERY, diagnose, doctorText } from "../../src/surface/doctor.js";
import { createWebsift, type Websift } from "../../src/websift.js";
import { ddgResultsPage } from "../ground/answer/ddg-page.js";
import { ddgChallenge, type SimWeb, startSimWeb } from "../simweb/index.js";

let web: SimWeb;
let dir: string;
const opened: Websift[] = [];

beforeAll(async () => {
  web = await startSimWeb();
  dir = mkdtempSync(join(tmpdir(), "websift-doctor-"));
});
afterAll(async () => {
  await web.close();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  web.reset();
  await Promise.all(opened.splice(0).map((w) => w.close()));
});

function setup(env: Record<string, string>, unresolvable: string[] = []) {
  const config = loadConfig({ cwd: dir, home: dir, env });
  const websift = createWebsift({
    ...web.netConfig,
    resolve: async (host) => {
      if (unresolvable.includes(host)) throw Object.assign(new Error("nx"), { code: "ENOTFOUND" });
      return web.netConfig.resolve(host);
    },
    ...config.toWebsiftConfig(),
    store: new MemoryStore(),
    settings: { ddgRetryDelayMs: 5 },
  });
  opened.push(websift);
  return { config, websift };
}

describe("websift doctor", () => {
  it("reports online, DuckDuckGo answering, frozen paid providers, and masks every secret", async () => {
    web.route("html.duckduckgo.com", "/html/", {
      headers: { "content-type": "text/html" },
      body: web.fixture("duckduckgo/ddg-html-results-with-ad-weather-jakarta-2026-02.html"),
    });
    const { config, websift } = setup({
      BRAVE_API_KEY: "test-SECRET-brave-0123456789",
      WEBSIFT_TIMEOUT: "15",
    });
    const report = await diagnose(websift, config);
    expect(report.online).toBe(true);
    expect(report.duckduckgo.status).toBe("ok");
    expect(report.providers.find((p) => p.name === "brave")).toMatchObject({
      configured: true,
      paid: true,
      frozen: true,
    });
    expect(report.searxng).toEqual({ configured: false });
    const text = doctorText(report);
    expect(text).toMatch(/^online: +yes$/m);
    expect(text).toMatch(/^duckduckgo: answers/m);
    expect(text).toMatch(/^frozen: +brave/m);
    expect(report.store).toEqual({ backend: "memory", degraded: false });
    expect(text).toMatch(/^store: +memory$/m);
    expect(text).toContain("braveApiKey = set (BRAVE_API_KEY)");
    expect(text).toContain("timeout = 15 (WEBSIFT_TIMEOUT)");
    expect(JSON.stringify(report)).not.toContain("test-SECRET");
    expect(text).not.toContain("test-SECRET");
  });

  it("says DuckDuckGo challenges us, and lists the regions cooling down until when", async () => {
    web.route("html.duckduckgo.com", "/html/", ddgChallenge(web));
    web.route("lite.duckduckgo.com", "/lite/", ddgChallenge(web));
    const { config, websift } = setup({});
    const report = await diagnose(websift, config);
    expect(report.duckduckgo.status).toBe("blocked");
    expect(report.online).toBe(true);
    const ddg = report.providers.find((p) => p.name === "duckduckgo");
    expect(ddg?.coolingUntil && Date.parse(ddg.coolingUntil)).toBeGreaterThan(Date.now());
    expect(ddg?.coolingReason).toMatch(/challenged in/);
    const text = doctorText(report);
    expect(text).toMatch(/^duckduckgo: challenges us/m);
    expect(text).toMatch(/^cooling: +duckduckgo until \d{4}-/m);
  });

  it("checks that SEARXNG_URL answers JSON and explains a 403", async () => {
    web.route("searx.example.org", "/search", { status: 403, body: "Forbidden" });
    const { config, websift } = setup({ SEARXNG_URL: "https://searx.example.org" });
    const report = await diagnose(websift, config);
    expect(report.searxng).toMatchObject({ configured: true, answersJson: false });
    expect(doctorText(report)).toMatch(
      /searxng: +https:\/\/searx\.example\.org does not answer JSON: .*JSON output is not enabled/,
    );
  });

  it("shows the proxy without its password, and whether Chromium is there", async () => {
    web.route("html.duckduckgo.com", "/html/", ddgChallenge(web));
    const { websift } = setup({});
    const config = loadConfig({
      cwd: dir,
      home: dir,
      env: { HTTPS_PROXY: "http://me:test-SECRET-pw@proxy.example:3128" },
    });
    const report = await diagnose(websift, config);
    expect(report.proxy).toEqual({ inUse: true, via: "http://me:****@proxy.example:3128/" });
    expect(doctorText(report)).toMatch(/^chromium: +(available|not found)/m);
    expect(JSON.stringify(report)).not.toContain("test-SECRET-pw");
  });
});

describe("websift doctor --live", () => {
  const html = (body: string | Buffer) => ({ headers: { "content-type": "text/html; charset=utf-8" }, body });

  it("asks every keyless engine the canary once and names what each did", async () => {
    web.route(
      "html.duckduckgo.com",
      "/html/",
      html(
        ddgResultsPage(
          [1, 2, 3, 4].map((i) => ({
            title: `JavaScript tutorial part ${i}`,
            url: `https://js.example/part-${i}`,
            snippet: "Learn JavaScript",
          })),
        ),
      ),
    );
    web.route(
      "www.bing.com",
      "/search",
      html(web.fixture("bing/bing-challenge-turnstile-http-2026-03.html")),
    );
    web.route(
      "www.mojeek.com",
      "/search",
      html("<html><body><div class='results-v9'>moved</div></body></html>"),
    );
    web.route("search.brave.com", "/search", { status: 500, body: "oops" });
    // Neither title search finds the canary: a well-formed miss.
    web.route("en.wikipedia.org", "/w/api.php", (req) => ({
      headers: { "content-type": "application/json" },
      body: JSON.stringify(
        req.url.searchParams.get("action") === "opensearch"
          ? [CANARY_QUERY, [], [], []]
          : { query: { search: [] } },
      ),
    }));
    web.route("api.duckduckgo.com", "/", {
      headers: { "content-type": "application/x-javascript" },
      body: "",
    });
    const { config, websift } = setup({}, ["www.startpage.com"]);
    const report = await diagnose(websift, config, { live: true, settings: { ddgRetryDelayMs: 5 } });

    const verdicts = Object.fromEntries((report.live?.engines ?? []).map((e) => [e.engine, e.verdict]));
    expect(verdicts).toEqual({
      duckduckgo: "answered",
      bing: "challenged",
      mojeek: "layout_unrecognised",
      startpage: "unreachable",
      "brave-web": "failed",
      wikipedia: "answered",
      "duckduckgo-instant": "answered",
    });
    expect(report.live?.query).toBe(CANARY_QUERY);
    // DuckDuckGo was asked once, by its canary: the report's DuckDuckGo line reuses it.
    expect(web.requests.filter((r) => r.host === "html.duckduckgo.com")).toHaveLength(1);
    expect(report.duckduckgo.status).toBe("ok");
    expect(report.online).toBe(true);
    // A challenge the canary met is remembered as any search's is.
    expect(report.providers.find((p) => p.name === "bing")?.coolingUntil).toBeDefined();

    const text = doctorText(report);
    expect(text).toMatch(/^live: +one canary query per keyless engine \('javascript tutorial'\)$/m);
    expect(text).toMatch(/^ {2}duckduckgo +answered \(4 result\(s\), \d+ ms\)$/m);
    expect(text).toMatch(/^ {2}bing +challenged: bing did not serve results/m);
    expect(text).toMatch(/^ {2}mojeek +layout unrecognised: mojeek: unrecognised page layout/m);
    expect(text).toMatch(
      /^ {2}startpage +unreachable: startpage: the name www\.startpage\.com does not resolve$/m,
    );
    expect(JSON.parse(JSON.stringify(report)).live.engines[0]).toEqual({
      engine: expect.any(String),
      verdict: expect.any(String),
      status: expect.any(String),
      ms: expect.any(Number),
      detail: expect.any(String),
    });
  });

  it("every engine unreachable: offline, and no live section without --live", async () => {
    const names = [
      "html.duckduckgo.com",
      "lite.duckduckgo.com",
      "api.duckduckgo.com",
      "www.bing.com",
      "www.mojeek.com",
      "www.startpage.com",
      "search.brave.com",
      "en.wikipedia.org",
    ];
    const { config, websift } = setup({}, names);
    const report = await diagnose(websift, config, { live: true, settings: { ddgRetryDelayMs: 5 } });
    expect(report.live?.engines.every((e) => e.verdict === "unreachable")).toBe(true);
    expect(report.online).toBe(false);
    expect(doctorText(report)).toMatch(/^online: +no$/m);
    const plain = await diagnose(websift, config);
    expect(plain.live).toBeUndefined();
    expect(doctorText(plain)).not.toMatch(/^live:/m);
  });
});

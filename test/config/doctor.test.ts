import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { diagnose, doctorText } from "../../src/config/doctor.js";
import { loadConfig } from "../../src/config/load.js";
import { MemoryStore } from "../../src/store/store.js";
import { createWebsift, type Websift } from "../../src/websift.js";
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

function setup(env: Record<string, string>) {
  const config = loadConfig({ cwd: dir, home: dir, env });
  const websift = createWebsift({
    ...web.netConfig,
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

import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_PATH } from "../../src/read/guarded-browser.js";
import { recordFailure } from "../../src/search/suspension.js";
import { serveWeb } from "../mcp/harness.js";
import { type SimWeb, startSimWeb } from "../simweb/index.js";
import { dashboardServer } from "./dashboard-harness.js";
import type { Served } from "./harness.js";

// The dashboard as an operator uses it: real headless Chromium, the real `websift serve` app, the simulated web.
// WEBSIFT_SCREENSHOTS=1 writes the screenshots to docs/ (committed); otherwise to a temporary directory.
const SHOTS = process.env.WEBSIFT_SCREENSHOTS
  ? fileURLToPath(new URL("../../docs/", import.meta.url))
  : mkdtempSync(join(tmpdir(), "websift-dashboard-shots-"));
const KEY = "test-SECRET-brave-e2e-7a1f";

let web: SimWeb;
let browser: Browser;
beforeAll(async () => {
  web = await startSimWeb();
  browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
});
afterAll(async () => {
  await browser?.close();
  await web.close();
});
afterEach(() => web.reset());

/** A fresh tab on the server that records every request the page makes, to show it reaches nothing else. */
async function open(server: Served): Promise<{ page: Page; foreign: string[]; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const foreign: string[] = [];
  page.on("request", (r) => {
    if (!r.url().startsWith(server.url)) foreign.push(r.url());
  });
  // Script errors and policy violations (an inline style or script the CSP refuses) show up here.
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  await page.goto(`${server.url}/`);
  return { page, foreign, errors };
}

async function runTry(page: Page, kind: "Search" | "Read" | "Answer", input: string, provider = "") {
  await page.click('nav a[href="#try"]');
  await page.getByLabel(kind, { exact: true }).check();
  await page.fill("#try-input", input);
  if (kind === "Search") await page.selectOption("#try-provider", provider);
  await page.click('#try-form button[type="submit"]');
  await page.waitForFunction(() =>
    /^(Status|Failed)/.test(document.getElementById("try-status")?.textContent ?? ""),
  );
  return (await page.textContent("#try-status")) ?? "";
}

describe("the dashboard in Chromium", () => {
  it("switching web access off refuses a search with no request sent; on again, the search answers", async () => {
    const server = await dashboardServer(web);
    const { page, foreign, errors } = await open(server);
    try {
      serveWeb(web);
      const toggle = page.getByRole("switch", { name: "Web search and page reading" });
      await expect.poll(() => toggle.getAttribute("aria-checked")).toBe("true");
      await page.screenshot({ path: join(SHOTS, "dashboard-abilities.png") });

      // Keyboard: the switch is reached and flipped without a mouse.
      await toggle.focus();
      await page.keyboard.press("Space");
      await expect.poll(() => toggle.getAttribute("aria-checked")).toBe("false");
      expect(await page.textContent("#web-state")).toMatch(/^Off: no request leaves/);

      expect(await runTry(page, "Search", "weather jakarta")).toBe("Status: disabled");
      expect(await page.textContent("#try-text")).toMatch(/turned off/);
      expect(await page.textContent("#try-attempts")).toContain("no attempt");
      expect(web.requests).toHaveLength(0);

      await page.click('nav a[href="#abilities"]');
      await toggle.click();
      await expect.poll(() => toggle.getAttribute("aria-checked")).toBe("true");
      expect(await runTry(page, "Search", "weather jakarta")).toBe("Status: ok");
      expect(web.requests.length).toBeGreaterThan(0);
      expect(foreign).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await page.context().close();
      await server.close();
    }
  });

  it("a pasted key is written to .env, shown only masked, and the pinned provider answers with it", async () => {
    const server = await dashboardServer(web);
    const { page, foreign, errors } = await open(server);
    try {
      web.route("api.search.brave.com", "/res/v1/web/search", {
        headers: { "content-type": "application/json" },
        body: web.fixture("brave/brave-web-search-swift6-concurrency-2025-02.json"),
      });
      await page.click('nav a[href="#settings"]');
      await page.locator("#settings-form[data-loaded]").waitFor();
      await page.getByLabel("Max results").fill("5");
      await page.getByLabel("Safe search").selectOption("moderate");
      await page.click('#settings-form button[type="submit"]');
      await expect.poll(() => page.textContent("#settings-status")).toMatch(/^Saved/);
      expect(JSON.parse(readFileSync(server.ctx.configPath, "utf8"))).toMatchObject({
        maxResults: 5,
        safeSearch: "moderate",
      });

      await page.getByLabel("Brave", { exact: true }).fill(KEY);
      await page
        .locator(".key", { has: page.locator("#key-brave") })
        .getByRole("button", { name: "Save" })
        .click();
      await expect.poll(() => page.textContent("#key-brave-state")).toBe("•••••••• set (.env)");
      expect(await page.inputValue("#key-brave")).toBe("");
      expect(await page.content()).not.toContain(KEY.slice(-8));
      expect(readFileSync(server.ctx.envPath, "utf8")).toContain(`BRAVE_API_KEY=${KEY}`);
      await page.screenshot({ path: join(SHOTS, "dashboard-settings.png"), fullPage: true });

      expect(await runTry(page, "Search", "swift 6 concurrency", "brave")).toBe("Status: ok");
      expect(await page.textContent("#try-sources")).toContain("hackingwithswift.com");
      expect(await page.textContent("#try-attempts")).toMatch(/brave\s*ok/);
      const sent = web.requests.find((r) => r.host === "api.search.brave.com");
      expect(sent?.headers["x-subscription-token"]).toBe(KEY);
      expect(foreign).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await page.context().close();
      await server.close();
    }
  });

  it("Try it shows the envelope the model receives beside the sources and attempts; Health lists the lookups", async () => {
    const server = await dashboardServer(web);
    const { page, foreign, errors } = await open(server);
    try {
      serveWeb(web);
      const answered = page.waitForResponse((r) => new URL(r.url()).pathname === "/v1/search");
      expect(await runTry(page, "Search", "weather jakarta")).toBe("Status: ok");
      const api = await (await answered).json();
      const text = (await page.textContent("#try-text")) ?? "";
      expect(text).toMatch(/^Web search results for 'weather jakarta' \(via duckduckgo, \d+ results\)/);
      expect(text).toBe(api.text);
      const sources = await page.locator("#try-sources li a").allTextContents();
      expect(sources.length).toBe(api.results.length);
      expect(sources[0]).toBe(api.results[0].title);
      expect(await page.textContent("#try-attempts")).toMatch(/duckduckgo\s*ok/);
      await page.screenshot({ path: join(SHOTS, "dashboard-try.png"), fullPage: true });

      expect(await runTry(page, "Read", "https://www.example.com/tides")).toBe("Status: ok");
      expect(await page.textContent("#try-text")).toMatch(/WEB_CONTENT/);
      expect(await page.locator("#try-sources li a").first().getAttribute("href")).toBe(
        "https://www.example.com/tides",
      );

      const answer = page.waitForResponse((r) => new URL(r.url()).pathname === "/v1/answer");
      expect(await runTry(page, "Answer", "what is typescript")).toBe("Status: ok");
      const envelope = await (await answer).json();
      expect(await page.textContent("#try-text")).toBe(envelope.text);
      expect(envelope.text).toMatch(/^\[Web lookup result\. .*written by strangers, not instructions/);
      expect(await page.locator("#try-sources li a").first().getAttribute("href")).toBe(
        envelope.sources[0].url,
      );
      expect(await runTry(page, "Read", "https://www.example.com/gone")).toBe("Status: error");
      await recordFailure(server.ctx.store, "bing", {
        status: "blocked",
        code: "challenge",
        message: "CAPTCHA",
      });

      await page.click('nav a[href="#health"]');
      await page.mouse.move(0, 400);
      await expect.poll(() => page.locator("#health-recent tr").count()).toBe(4);
      expect(await page.textContent("#health-failures")).toBe("error: 1");
      expect(await page.textContent("#health-providers")).toMatch(
        /bing\s*yes\s*no\s*no\s*until .*\(challenge or CAPTCHA\)/,
      );
      expect(await page.textContent("#health-recent")).toContain("weather jakarta");
      expect(await page.textContent("#health-providers")).toMatch(/brave\s*no\s*yes\s*yes \(paid use off\)/);
      expect(await page.textContent("#health-store")).toBe("memory — healthy");
      await page.screenshot({ path: join(SHOTS, "dashboard-health.png"), fullPage: true });
      expect(foreign).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await page.context().close();
      await server.close();
    }
  });

  it("with WEBSIFT_SERVE_TOKEN the page asks for the token once and sends it as a bearer token", async () => {
    const token = "test-SECRET-serve-e2e";
    const server = await dashboardServer(web, { token });
    const { page } = await open(server);
    try {
      const dialog = page.getByRole("dialog", { name: "Access token" });
      await dialog.waitFor();
      await page.getByLabel("Token", { exact: true }).fill(token);
      await page.keyboard.press("Enter");
      const toggle = page.getByRole("switch", { name: "Web search and page reading" });
      await expect.poll(() => toggle.getAttribute("aria-checked")).toBe("true");
      expect(await page.evaluate(() => sessionStorage.getItem("websift-token"))).toBe(token);
      await page.click('nav a[href="#health"]');
      await expect.poll(() => page.textContent("#health-store")).toBe("memory — healthy");
      expect(await dialog.isVisible()).toBe(false);
    } finally {
      await page.context().close();
      await server.close();
    }
  });
});

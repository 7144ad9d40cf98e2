import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settingsFromEnv } from "../../../src/config/load.js";
import { Deadline } from "../../../src/core/deadline.js";
import { runRoute } from "../../../src/ground/routes/index.js";
import { createNet, type Net } from "../../../src/net/client.js";
import type { Resolve } from "../../../src/net/url-policy.js";
import { CHROMIUM_PATH, chromiumAvailable } from "../../../src/read/guarded-browser.js";
import { MemoryStore } from "../../../src/store/store.js";
import { PRIVATE_HOST, type SimWeb, startProxy, startSimWeb, TEST_CA } from "../../simweb/index.js";

// A browser "already on screen": started here with remote debugging (and, like every browser in tests, unable
// to resolve or reach anything itself). The route opens a tab in it, then must leave the browser running.
const QUERY = "What was the TEKKEN 8 controversy in October 2024";
const FIRST_RESULT =
  "https://www.reddit.com/r/gaming/comments/1g6ljep/after_backlash_and_a_steam_review_bomb_tekken_8/";
const SECOND_RESULT =
  "https://www.eventhubs.com/news/2024/oct/17/bandainamco-tekken8-apology-dlc-controversy/";
const ARTICLE_URL = "https://games.example.org/tekken-8-apology";

let sim: SimWeb;
let net: Net;
let profile: string;
let userBrowser: ChildProcess | undefined;
let cdpUrl: string;

function startUserBrowser(): Promise<string> {
  profile = mkdtempSync(join(tmpdir(), "websift-cdp-"));
  const child = spawn(
    CHROMIUM_PATH,
    [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--remote-debugging-port=0",
      `--user-data-dir=${profile}`,
      "--host-resolver-rules=MAP * ~NOTFOUND",
      "--proxy-server=http://127.0.0.1:9",
      "about:blank",
    ],
    // Its own process group, so that ending it ends its renderer and GPU processes too.
    { stdio: ["ignore", "ignore", "pipe"], detached: true },
  );
  userBrowser = child;
  return new Promise((resolve, reject) => {
    let err = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      err += chunk.toString();
      const m = /DevTools listening on ws:\/\/([\d.]+:\d+)\//.exec(err);
      if (m) resolve(`http://${m[1]}`);
    });
    child.on("exit", (code) => reject(new Error(`chromium exited (${code}): ${err.slice(0, 300)}`)));
  });
}

beforeAll(async () => {
  sim = await startSimWeb();
  net = createNet(sim.netConfig);
  if (chromiumAvailable()) cdpUrl = await startUserBrowser();
}, 60_000);
afterAll(async () => {
  const browser = userBrowser;
  if (browser?.pid !== undefined && browser.exitCode === null) {
    const exited = new Promise((resolve) => browser.once("exit", resolve));
    process.kill(-browser.pid, "SIGKILL");
    await exited;
  }
  if (profile) rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  await net.close();
  await sim.close();
});

describe.runIf(chromiumAvailable())("browser route over CDP", { timeout: 90_000 }, () => {
  it("searches in a tab of the running browser, skips a private result, and leaves the browser as it was", async () => {
    const serp = sim
      .fixture("google/google-serp-tekken8-controversy-ai-overview-paa-2025-12.html")
      .toString("utf8")
      .replaceAll(FIRST_RESULT, `http://${PRIVATE_HOST}/tekken-8`)
      .replaceAll(SECOND_RESULT, ARTICLE_URL);
    sim.route("www.google.com", "/search", {
      headers: { "content-type": "text/html; charset=utf-8" },
      body: serp,
    });
    sim.route("games.example.org", "/tekken-8-apology", {
      headers: { "content-type": "text/html" },
      body: "<html><head><title>Tekken 8 apology</title></head><body><article><p>Bandai Namco apologised for the Tekken 8 stage controversy in October 2024.</p></article></body></html>",
    });
    const out = await runRoute(
      "browser",
      QUERY,
      {
        ctx: {
          net,
          config: settingsFromEnv({ WEBSIFT_BROWSER_CDP_URL: cdpUrl }),
          store: new MemoryStore(),
          log: () => {},
          settings: {},
        },
        resolve: sim.netConfig.resolve,
      },
      Deadline.after(60_000),
    );
    expect(out?.status).toBe("ok");
    expect(out?.envelope).toContain("apologised for the Tekken 8 stage controversy");
    expect(out?.attempts.map((a) => `${a.provider} ${a.status}`)).toEqual([
      "browser:google ok",
      "browser:read denied",
      "browser:read ok",
    ]);
    expect(sim.requests.some((r) => r.host === PRIVATE_HOST)).toBe(false);

    const again = await chromium.connectOverCDP(cdpUrl);
    try {
      const pages = again.contexts().flatMap((c) => c.pages());
      expect(pages.map((p) => p.url())).toEqual(["about:blank"]);
    } finally {
      await again.close();
    }
    expect(userBrowser?.exitCode).toBeNull();
  });

  it("falls through when nothing listens at WEBSIFT_BROWSER_CDP_URL", async () => {
    const out = await runRoute(
      "browser",
      QUERY,
      {
        ctx: {
          net,
          config: settingsFromEnv({ WEBSIFT_BROWSER_CDP_URL: "http://127.0.0.1:9" }),
          store: new MemoryStore(),
          log: () => {},
          settings: {},
        },
      },
      Deadline.after(10_000),
    );
    expect(out?.status).toBe("unsupported");
    expect(out?.attempts[0].error).toMatch(/browser is not available/);
  });

  it("behind an egress proxy: the endpoint is reached directly, result pages through the proxy, no local DNS", async () => {
    const proxy = await startProxy(sim);
    const proxyEnv = { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url };
    // playwright reads the process's environment for its own lookups; the proxy must be there to be avoided.
    const saved = { HTTP_PROXY: process.env.HTTP_PROXY, HTTPS_PROXY: process.env.HTTPS_PROXY };
    Object.assign(process.env, proxyEnv);
    const lookups: string[] = [];
    const noDns: Resolve = async (hostname) => {
      lookups.push(hostname);
      throw Object.assign(new Error(`getaddrinfo EAI_AGAIN ${hostname}`), { code: "EAI_AGAIN" });
    };
    const proxied = createNet({ ca: TEST_CA, env: proxyEnv, resolve: noDns });
    try {
      const serp = sim
        .fixture("google/google-serp-tekken8-controversy-ai-overview-paa-2025-12.html")
        .toString("utf8")
        .replaceAll(FIRST_RESULT, ARTICLE_URL);
      sim.route("www.google.com", "/search", {
        headers: { "content-type": "text/html; charset=utf-8" },
        body: serp,
      });
      sim.route("games.example.org", "/tekken-8-apology", {
        headers: { "content-type": "text/html" },
        body: "<html><head><title>Tekken 8 apology</title></head><body><article><p>Bandai Namco apologised for the Tekken 8 stage controversy in October 2024.</p></article></body></html>",
      });
      const out = await runRoute(
        "browser",
        QUERY,
        {
          ctx: {
            net: proxied,
            config: settingsFromEnv({ WEBSIFT_BROWSER_CDP_URL: cdpUrl, ...proxyEnv }),
            store: new MemoryStore(),
            log: () => {},
            settings: {},
          },
          resolve: noDns,
        },
        Deadline.after(60_000),
      );
      expect(out?.attempts[0]?.error).toBeUndefined();
      expect(out?.status).toBe("ok");
      expect(out?.envelope).toContain("apologised for the Tekken 8 stage controversy");
      expect(out?.attempts.map((a) => `${a.provider} ${a.status}`)).toEqual([
        "browser:google ok",
        "browser:read ok",
      ]);
      expect(lookups).toEqual([]);
      expect(proxy.log).toContain("CONNECT www.google.com:443");
      expect(proxy.log).toContain("CONNECT games.example.org:443");
      expect(proxy.log.filter((l) => l.includes("127.0.0.1") || l.includes("json/version"))).toEqual([]);
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      await proxied.close();
      await proxy.close();
    }
  });
});

import type { Page } from "playwright-core";
import type { NetSettings } from "../../config/settings.js";
import type { Deadline } from "../../core/deadline.js";
import { createNet, type Net } from "../../net/client.js";
import { type GuardedTraffic, newGuardedContext, routeThroughNet } from "../../read/guarded-browser.js";
import { leaseHeadless } from "./headless-browser.js";

/** One tab whose every request is fetched through websift's net; closing it never closes a user's browser. */
export interface GuardedTab {
  page: Page;
  /** Requests fetched through net for the tab, requests refused, and the HTTP status of its current document. */
  traffic: { fetched: number; refused: number; documentStatus?: number };
  close(): Promise<void>;
}

export interface TabOptions {
  net: Net;
  deadline: Deadline;
  /** A browser already running (on screen, e.g. for a live stream): a tab is opened in it, then closed. */
  cdpUrl?: string;
  /** The proxies (`Settings.net`) for finding a DevTools endpoint that is not on this machine. */
  proxies?: NetSettings;
  executablePath?: string;
}

/** Opens a guarded tab: in the browser at `cdpUrl` when given, else in a fresh context of our headless Chromium. */
export async function openGuardedTab(options: TabOptions): Promise<GuardedTab> {
  const connectTimeoutMs = Math.max(1000, Math.min(options.deadline.remaining(), 15_000));
  if (options.cdpUrl) {
    // Loaded on first use: playwright-core costs ~90 MB and most of a second of start-up that most calls never need.
    const { chromium } = await import("playwright-core");
    const endpoint = await devtoolsSocketUrl(
      options.cdpUrl,
      options.proxies ?? {},
      options.deadline.child(connectTimeoutMs),
    );
    const browser = await chromium.connectOverCDP(endpoint, { timeout: connectTimeoutMs });
    // Only our tab is ours: disconnecting leaves the user's browser, windows and other tabs as they were.
    const release = () => browser.close().catch(() => {});
    try {
      const context = browser.contexts()[0] ?? (await browser.newContext());
      const page = await context.newPage();
      // A profile's service worker would answer our tab's requests without passing the interception.
      const cdp = await context.newCDPSession(page);
      await cdp.send("Network.setBypassServiceWorker", { bypass: true });
      return await guard(page, options, async () => {
        await page.close().catch(() => {});
        await release();
      });
    } catch (err) {
      await release();
      throw err;
    }
  }
  const lease = await leaseHeadless(options.executablePath, connectTimeoutMs);
  try {
    const context = await newGuardedContext(lease.browser);
    return await guard(await context.newPage(), options, async () => {
      await context.close().catch(() => {});
      lease.release();
    });
  } catch (err) {
    lease.release();
    throw err;
  }
}

/**
 * The browser's DevTools WebSocket, looked up through net. playwright's own lookup of `/json/version` follows
 * HTTPS_PROXY, and an egress proxy cannot reach the user's loopback, so behind a proxy the route failed unless
 * NO_PROXY named the endpoint; net never proxies loopback. The endpoint is the operator's own setting, so its
 * origin is trusted for this one lookup (it is usually a loopback address, which the URL policy refuses).
 */
async function devtoolsSocketUrl(cdpUrl: string, proxies: NetSettings, deadline: Deadline): Promise<string> {
  if (/^wss?:\/\//i.test(cdpUrl)) return cdpUrl;
  let base: URL;
  try {
    base = new URL(cdpUrl.endsWith("/") ? cdpUrl : `${cdpUrl}/`);
  } catch {
    throw new Error("WEBSIFT_BROWSER_CDP_URL is not a URL (http://127.0.0.1:9222 or ws://…)");
  }
  const lookup = createNet({ proxies, trustedOrigins: [base.origin], maxRedirects: 0 });
  try {
    const res = await lookup.request(new URL("json/version", base).href, {
      deadline,
      trusted: true,
      maxBytes: 64 * 1024,
      headers: { accept: "application/json" },
    });
    if (!res.ok) throw new Error(`no DevTools endpoint at ${base.origin} (${res.message})`);
    const ws =
      res.status === 200 ? res.json<{ webSocketDebuggerUrl?: unknown }>()?.webSocketDebuggerUrl : undefined;
    if (typeof ws !== "string" || !/^wss?:\/\//i.test(ws))
      throw new Error(`${base.origin} is not a DevTools endpoint (HTTP ${res.status} for /json/version)`);
    return ws;
  } finally {
    await lookup.close();
  }
}

async function guard(page: Page, options: TabOptions, release: () => Promise<void>): Promise<GuardedTab> {
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    options.deadline.signal.removeEventListener("abort", onAbort);
    await release();
  };
  const onAbort = () => void close();
  options.deadline.signal.addEventListener("abort", onAbort, { once: true });
  // A popup would be a tab outside our interception: it is closed before it loads anything.
  page.on("popup", (popup) => void popup.close().catch(() => {}));
  const traffic: GuardedTraffic = await routeThroughNet(page, {
    net: options.net,
    deadline: options.deadline,
  });
  return {
    page,
    get traffic() {
      const { fetched, refused, documentStatus } = traffic;
      return { fetched, refused, documentStatus };
    },
    close,
  };
}

/**
 * A tab operation bounded by a deadline. Page operations such as content() have no timeout of their own, and a
 * page that keeps navigating (a JavaScript wall reloading itself) would hold them indefinitely.
 */
export function within<T>(work: Promise<T>, deadline: Deadline): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error("deadline reached in the browser"));
    work.then(resolve, reject).finally(() => deadline.signal.removeEventListener("abort", onAbort));
    if (deadline.signal.aborted) onAbort();
    else deadline.signal.addEventListener("abort", onAbort, { once: true });
  });
}

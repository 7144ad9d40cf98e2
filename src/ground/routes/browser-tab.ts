import { chromium, type Page, type Route } from "playwright-core";
import type { Deadline } from "../../core/deadline.js";
import { CHROME_USER_AGENT, type Net } from "../../net/client.js";
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
  executablePath?: string;
}

const REFUSED_TYPES = new Set(["image", "media", "font", "texttrack", "beacon", "ping", "csp_report"]);
// Per document: a result page full of scripts is one document, the page read after it starts afresh.
const MAX_SUBREQUESTS = 200;
const MAX_BYTES = 5 * 1024 * 1024;
// Per tab, redirect hops included: a search with a consent round trip plus a few result pages stays well below it.
const MAX_DOCUMENTS = 30;
const DROP_REQUEST_HEADERS =
  /^(host|user-agent|accept-encoding|connection|content-length|keep-alive|te|upgrade)$/i;
const DROP_RESPONSE_HEADERS =
  /^(content-encoding|content-length|transfer-encoding|connection|keep-alive|location)$/i;

/** Opens a guarded tab: in the browser at `cdpUrl` when given, else in a fresh context of our headless Chromium. */
export async function openGuardedTab(options: TabOptions): Promise<GuardedTab> {
  const timeout = Math.max(1000, Math.min(options.deadline.remaining(), 15_000));
  if (options.cdpUrl) {
    const browser = await chromium.connectOverCDP(options.cdpUrl, { timeout });
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
  const lease = await leaseHeadless(options.executablePath, timeout);
  try {
    const context = await lease.browser.newContext({
      userAgent: CHROME_USER_AGENT,
      serviceWorkers: "block",
      acceptDownloads: false,
      viewport: { width: 1280, height: 900 },
    });
    return await guard(await context.newPage(), options, async () => {
      await context.close().catch(() => {});
      lease.release();
    });
  } catch (err) {
    lease.release();
    throw err;
  }
}

async function guard(page: Page, options: TabOptions, release: () => Promise<void>): Promise<GuardedTab> {
  const traffic: Traffic = { fetched: 0, refused: 0, documents: 0, pageFetched: 0, pageBytes: 0 };
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
  await page.routeWebSocket(/.*/, (ws) => ws.close({ code: 1008, reason: "websift: no websockets" }));
  await page.route("**/*", (route) => serveThroughNet(route, page, options, traffic));
  return {
    page,
    get traffic() {
      const { fetched, refused, documentStatus } = traffic;
      return { fetched, refused, documentStatus };
    },
    close,
  };
}

interface Traffic {
  fetched: number;
  refused: number;
  documents: number;
  /** Sub-requests and bytes of the current document. */
  pageFetched: number;
  pageBytes: number;
  documentStatus?: number;
}

async function serveThroughNet(route: Route, page: Page, options: TabOptions, traffic: Traffic) {
  const req = route.request();
  const url = req.url();
  const method = req.method().toUpperCase();
  const isDocument = req.isNavigationRequest() && req.frame() === page.mainFrame();
  if (isDocument) {
    traffic.documents++;
    traffic.pageFetched = 0;
    traffic.pageBytes = 0;
  }
  if (
    REFUSED_TYPES.has(req.resourceType()) ||
    !/^https?:/i.test(url) ||
    (method !== "GET" && method !== "POST" && method !== "HEAD") ||
    traffic.documents > MAX_DOCUMENTS ||
    traffic.pageFetched >= MAX_SUBREQUESTS ||
    traffic.pageBytes >= MAX_BYTES * 4
  ) {
    traffic.refused++;
    return route.abort("blockedbyclient").catch(() => {});
  }
  try {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(await req.allHeaders()))
      if (!DROP_REQUEST_HEADERS.test(k) && !k.startsWith(":")) headers[k] = v;
    const res = await options.net.request(url, {
      deadline: options.deadline,
      method,
      headers,
      body: method === "POST" ? (req.postDataBuffer() ?? undefined) : undefined,
      maxBytes: MAX_BYTES,
      // The tab's own document takes its redirects as navigations (below); sub-resources let net follow them.
      followRedirects: !isDocument,
    });
    if (!res.ok) {
      traffic.refused++;
      return await route.abort(res.code === "blocked_url" ? "blockedbyclient" : "failed").catch(() => {});
    }
    traffic.fetched++;
    traffic.pageFetched++;
    traffic.pageBytes += res.bytes.length;
    const location = res.headers.location;
    if (isDocument && res.status >= 300 && res.status < 400 && location) {
      const next = new URL(location, url);
      if (!/^https?:$/.test(next.protocol)) return await route.abort("failed");
      return await route.fulfill(navigateOn(next.href, res.headers));
    }
    if (isDocument) traffic.documentStatus = res.status;
    await route.fulfill({ status: res.status, headers: responseHeaders(res.headers), body: res.bytes });
  } catch {
    await route.abort("failed").catch(() => {});
  }
}

/**
 * A redirect fulfilled with its 3xx would be followed by Chromium itself, outside the interception. Answering
 * with a page that navigates on keeps every hop intercepted, keeps the address bar truthful (the consent page
 * shows as consent.google.com) and delivers each hop's cookies, which a consent redirect depends on.
 */
function navigateOn(target: string, headers: Record<string, string>) {
  const safe = target.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
  return {
    status: 200,
    headers: { ...responseHeaders(headers), "content-type": "text/html; charset=utf-8" },
    body: `<!doctype html><meta name="websift-redirect" http-equiv="refresh" content="0;url=${safe}">`,
  };
}

function responseHeaders(headers: Record<string, string>): Record<string, string> {
  const kept = Object.fromEntries(Object.entries(headers).filter(([k]) => !DROP_RESPONSE_HEADERS.test(k)));
  // net joins repeated headers with ", "; Playwright takes one cookie per line. A comma followed by `name=`
  // starts the next cookie (an Expires date's comma is followed by a day number).
  if (kept["set-cookie"]) kept["set-cookie"] = kept["set-cookie"].split(/,\s*(?=[^;,\s=]+=)/).join("\n");
  return kept;
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

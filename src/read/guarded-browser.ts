import { accessSync, constants } from "node:fs";
import type { Browser, BrowserContext, Page, Request } from "playwright-core";
import type { Deadline } from "../core/deadline.js";
import { CHROME_USER_AGENT, type Net } from "../net/client.js";
import type { RenderRequest } from "./render.js";

/**
 * The process's guarded headless Chromium, shared by the reader (render.ts) and the answer routes: how it is
 * launched, leased and idled out, and how every request of its pages is fulfilled through net.
 */
export const CHROMIUM_PATH = "/usr/bin/chromium";

export function chromiumAvailable(path: string = CHROMIUM_PATH): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export const GUARDED_LAUNCH_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  // Defence in depth behind the request interception: should anything escape it (preconnect, WebRTC, a
  // request type the route does not see), the browser can neither resolve a name nor reach anything but a
  // closed local port.
  "--host-resolver-rules=MAP * ~NOTFOUND",
  "--proxy-server=http://127.0.0.1:9",
  "--proxy-bypass-list=<-loopback>",
  "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
];

// The process's headless Chromium, one per executable, shared by the reader and the answer routes.
/** Closed this long after its last lease, so a CLI process can exit and a server does not pay a launch per call. */
const BROWSER_IDLE_MS = 30_000;
const headless = new Map<string, { browser: Promise<Browser>; users: number; idleTimer?: NodeJS.Timeout }>();

export interface BrowserLease {
  browser: Browser;
  release(): void;
}

/** The process's headless Chromium (launched on first use, with GUARDED_LAUNCH_ARGS), held until `release`. */
export async function leaseHeadless(
  executablePath = CHROMIUM_PATH,
  timeoutMs = 15_000,
): Promise<BrowserLease> {
  let entry = headless.get(executablePath);
  if (!entry) {
    entry = { browser: launchHeadless(executablePath, timeoutMs), users: 0 };
    headless.set(executablePath, entry);
  }
  const held = entry;
  if (held.idleTimer) clearTimeout(held.idleTimer);
  held.users++;
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    held.users--;
    if (held.users > 0 || headless.get(executablePath) !== held) return;
    held.idleTimer = setTimeout(() => void closeHeadless(executablePath), BROWSER_IDLE_MS);
    held.idleTimer.unref();
  };
  try {
    return { browser: await held.browser, release };
  } catch (err) {
    release();
    throw err;
  }
}

/** Closes the shared headless browser of `executablePath`, or every one, now (tests, shutdown). */
export async function closeHeadless(executablePath?: string): Promise<void> {
  const closing = [...headless].filter(([path]) => executablePath === undefined || path === executablePath);
  for (const [path, entry] of closing) {
    headless.delete(path);
    if (entry.idleTimer) clearTimeout(entry.idleTimer);
  }
  await Promise.all(closing.map(([, entry]) => entry.browser.then((b) => b.close()).catch(() => {})));
}

function launchHeadless(executablePath: string, timeoutMs: number): Promise<Browser> {
  // Loaded on first use: playwright-core costs ~90 MB and most of a second of start-up that most calls never need.
  const launching = import("playwright-core").then(({ chromium }) =>
    chromium.launch({
      executablePath,
      headless: true,
      args: GUARDED_LAUNCH_ARGS,
      timeout: timeoutMs,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    }),
  );
  // A crashed or failed browser is forgotten, so the next lease launches a new one.
  const forget = () => {
    const entry = headless.get(executablePath);
    if (entry?.browser !== launching) return;
    headless.delete(executablePath);
    if (entry.idleTimer) clearTimeout(entry.idleTimer);
  };
  launching.then((b) => b.on("disconnected", forget), forget);
  return launching;
}

/** A context of a guarded browser as websift opens it: Chrome's user agent, no service workers, no downloads. */
export function newGuardedContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({
    userAgent: CHROME_USER_AGENT,
    serviceWorkers: "block",
    acceptDownloads: false,
    viewport: { width: 1280, height: 900 },
  });
}

export interface NetRouting {
  net: Net;
  deadline: Deadline;
  /** A document already fetched, served to the first navigation to its URL instead of fetching it twice. */
  document?: RenderRequest["document"];
  /** Sub-requests per document: a result page full of scripts is one document, the page read after it another. */
  maxSubrequests?: number;
}

/** Counts kept live by routeThroughNet. */
export interface GuardedTraffic {
  fetched: number;
  refused: number;
  inflight: number;
  /** The HTTP status of the current top-level document. */
  documentStatus?: number;
}

const REFUSED_TYPES = new Set([
  "image",
  "media",
  "font",
  "imageset",
  "texttrack",
  "beacon",
  "ping",
  "csp_report",
]);
const MAX_SUBREQUESTS = 200;
const MAX_BYTES = 5 * 1024 * 1024;
// Per target, redirect hops included: a search with a consent round trip plus a few result pages stays well below it.
const MAX_DOCUMENTS = 30;
// Headers net sets itself, or that describe a body encoding the browser will not receive.
const DROP_REQUEST_HEADERS =
  /^(host|user-agent|accept-encoding|connection|content-length|keep-alive|te|upgrade)$/i;
const DROP_RESPONSE_HEADERS =
  /^(content-encoding|content-length|transfer-encoding|connection|keep-alive|location)$/i;

/**
 * Intercepts every request of `target` and either refuses it (images, media, fonts, websockets, other schemes,
 * caps) or fetches it through `net` (the same URL policy, vetted DNS and byte caps) and hands it back with
 * route.fulfill, so the browser never dials anything itself. `routing` may be a function, for a tab opened
 * before it knows whom it serves: while it returns undefined, every request is refused.
 */
export async function routeThroughNet(
  target: BrowserContext | Page,
  routing: NetRouting | (() => NetRouting | undefined),
): Promise<GuardedTraffic> {
  const current = typeof routing === "function" ? routing : () => routing;
  const traffic: GuardedTraffic = { fetched: 0, refused: 0, inflight: 0 };
  const state = { documents: 0, pageFetched: 0, pageBytes: 0, documentServed: false };
  await target.routeWebSocket(/.*/, (ws) => ws.close({ code: 1008, reason: "websift: no websockets" }));
  await target.route("**/*", async (route) => {
    const options = current();
    if (!options) return route.abort("blockedbyclient").catch(() => {});
    const req = route.request();
    const url = req.url();
    const method = req.method().toUpperCase();
    const isDocument = isTopDocument(req);
    if (isDocument) {
      state.documents++;
      state.pageFetched = 0;
      state.pageBytes = 0;
    }
    if (
      REFUSED_TYPES.has(req.resourceType()) ||
      !/^https?:/i.test(url) ||
      (method !== "GET" && method !== "POST" && method !== "HEAD") ||
      state.documents > MAX_DOCUMENTS ||
      state.pageFetched >= (options.maxSubrequests ?? MAX_SUBREQUESTS) ||
      state.pageBytes >= MAX_BYTES * 4
    ) {
      traffic.refused++;
      return route.abort("blockedbyclient").catch(() => {});
    }
    const doc = options.document;
    if (doc && !state.documentServed && isDocument && url === doc.url) {
      state.documentServed = true;
      traffic.documentStatus = doc.status;
      return route
        .fulfill({ status: doc.status, headers: responseHeaders(doc.headers), body: doc.body })
        .catch(() => {});
    }
    traffic.inflight++;
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
        // The top document takes its redirects as navigations (below); sub-resources let net follow them, vetting
        // every hop: Chromium would dial the hops of a 3xx fulfilled from here itself.
        followRedirects: !isDocument,
      });
      if (!res.ok) {
        traffic.refused++;
        return await route.abort(res.code === "blocked_url" ? "blockedbyclient" : "failed").catch(() => {});
      }
      traffic.fetched++;
      state.pageFetched++;
      state.pageBytes += res.bytes.length;
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
    } finally {
      traffic.inflight--;
    }
  });
  return traffic;
}

function isTopDocument(req: Request): boolean {
  try {
    return req.isNavigationRequest() && req.frame().parentFrame() === null;
  } catch {
    // A service worker's request has no frame.
    return false;
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

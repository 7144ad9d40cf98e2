import { accessSync, constants } from "node:fs";
import type { Browser, BrowserContext, Page, Route } from "playwright-core";
import type { Deadline } from "../core/deadline.js";
import type { Failure } from "../core/status.js";
import { CHROME_USER_AGENT, type Net } from "../net/client.js";

/** `auto`: render JS shells when Chromium is installed; `always`: render every HTML page; `never`. */
export type RenderMode = "auto" | "never" | "always";

export const CHROMIUM_PATH = "/usr/bin/chromium";

export function chromiumAvailable(path: string = CHROMIUM_PATH): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export interface RenderRequest {
  url: string;
  net: Net;
  deadline: Deadline;
  /** The document as the ladder already fetched it, served to the browser instead of fetching it twice. */
  document?: { url: string; status: number; headers: Record<string, string>; body: Buffer };
}

export interface RenderedPage {
  ok: true;
  html: string;
  finalUrl: string;
  /** Requests fetched through net for the browser, and requests refused (media, fonts, images, guard). */
  fetched: number;
  refused: number;
}

export type RenderFailure = Failure & { ok: false };

export interface Renderer {
  render(request: RenderRequest): Promise<RenderedPage | RenderFailure>;
  close(): Promise<void>;
}

export interface RendererOptions {
  executablePath?: string;
  /** The browser is closed after this long without a render, so a CLI process can exit. */
  idleMs?: number;
}

const LAUNCH_ARGS = [
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
const MAX_SUBREQUESTS = 150;
const MAX_SUBREQUEST_BYTES = 5 * 1024 * 1024;
const MAX_SETTLE_MS = 8000;
const QUIET_MS = 300;
const QUIET_WAITING_MS = 2000;
// Headers net sets itself, or that describe a body encoding the browser will not receive.
const DROP_REQUEST_HEADERS =
  /^(host|user-agent|accept-encoding|connection|content-length|keep-alive|te|upgrade)$/i;
const DROP_RESPONSE_HEADERS = /^(content-encoding|content-length|transfer-encoding|connection|keep-alive)$/i;

/**
 * Headless Chromium where the browser never dials anything itself: every request it makes is intercepted and
 * either refused or fetched through websift's own `net` (the same URL policy, vetted DNS and byte caps), then
 * handed back with route.fulfill. One browser is shared by all renders, one fresh context per render; the next
 * context is opened while the current page renders, since opening one costs a second on a busy machine.
 */
export function createRenderer(options: RendererOptions = {}): Renderer {
  const executablePath = options.executablePath ?? CHROMIUM_PATH;
  const idleMs = options.idleMs ?? 30_000;
  let browser: Promise<Browser> | undefined;
  let spare: Promise<Tab> | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  let active = 0;

  function launch(deadline: Deadline): Promise<Browser> {
    if (!browser) {
      // Loaded on first use: playwright-core costs ~90 MB and most of a second of start-up that most calls never need.
      const launching = import("playwright-core").then(({ chromium }) =>
        chromium.launch({
          executablePath,
          headless: true,
          args: LAUNCH_ARGS,
          timeout: Math.max(1000, Math.min(deadline.remaining(), 15_000)),
          handleSIGINT: false,
          handleSIGTERM: false,
          handleSIGHUP: false,
        }),
      );
      browser = launching;
      // A crashed or failed browser is forgotten, so the next render launches a new one.
      const forget = () => {
        if (browser !== launching) return;
        browser = undefined;
        spare = undefined;
      };
      launching.then((b) => b.on("disconnected", forget), forget);
    }
    return browser;
  }

  async function closeBrowser(): Promise<void> {
    const current = browser;
    browser = undefined;
    spare = undefined;
    if (idleTimer) clearTimeout(idleTimer);
    if (current) await current.then((b) => b.close()).catch(() => {});
  }

  return {
    async render(request) {
      if (idleTimer) clearTimeout(idleTimer);
      active++;
      try {
        const b = await beforeDeadline(launch(request.deadline), request.deadline);
        const opening = spare ?? openTab(b);
        spare = undefined;
        const tab = await beforeDeadline(opening, request.deadline).catch((err) => {
          void opening.then((t) => t.context.close()).catch(() => {});
          throw err;
        });
        spare = openTab(b);
        spare.catch(() => {});
        return await renderIn(tab, request);
      } catch (err) {
        return renderFailure(err, request.deadline);
      } finally {
        active--;
        if (active === 0) {
          idleTimer = setTimeout(() => void closeBrowser(), idleMs);
          idleTimer.unref();
        }
      }
    },
    close: closeBrowser,
  };
}

/** A fresh context and blank page whose interception serves whichever render it is bound to, refusing until then. */
interface Tab {
  context: BrowserContext;
  page: Page;
  bind(request: RenderRequest, traffic: Traffic): void;
}

async function openTab(browser: Browser): Promise<Tab> {
  const context = await browser.newContext({
    userAgent: CHROME_USER_AGENT,
    serviceWorkers: "block",
    acceptDownloads: false,
    viewport: { width: 1280, height: 900 },
  });
  let bound: { request: RenderRequest; traffic: Traffic } | undefined;
  try {
    await context.routeWebSocket(/.*/, (ws) => ws.close({ code: 1008, reason: "websift: no websockets" }));
    await context.route("**/*", (route) =>
      bound
        ? serveThroughNet(route, bound.request, bound.traffic)
        : route.abort("blockedbyclient").catch(() => {}),
    );
    const page = await context.newPage();
    return {
      context,
      page,
      bind(request, traffic) {
        bound = { request, traffic };
      },
    };
  } catch (err) {
    await context.close().catch(() => {});
    throw err;
  }
}

async function renderIn(tab: Tab, request: RenderRequest): Promise<RenderedPage | RenderFailure> {
  const { deadline } = request;
  const { context, page } = tab;
  // Each step is raced against the deadline: on a loaded machine even a blank page can take seconds.
  const onAbort = () => void context.close().catch(() => {});
  deadline.signal.addEventListener("abort", onAbort, { once: true });
  const traffic = { fetched: 0, refused: 0, inflight: 0, bytes: 0, documentServed: false };
  tab.bind(request, traffic);
  try {
    await beforeDeadline(
      page.goto(request.url, { waitUntil: "domcontentloaded", timeout: Math.max(1, deadline.remaining()) }),
      deadline,
    );
    await settle(page, traffic, deadline);
    // A script that navigates somewhere refused (a private address) leaves Chromium's own error page behind,
    // whose text must not pass for the page's.
    if (!/^https?:/i.test(page.url()))
      return {
        ok: false,
        status: "error",
        code: "render",
        message: "the page navigated to an address that was refused or could not be loaded",
      };
    const html = await beforeDeadline(page.content(), deadline);
    return { ok: true, html, finalUrl: page.url(), fetched: traffic.fetched, refused: traffic.refused };
  } finally {
    deadline.signal.removeEventListener("abort", onAbort);
    await context.close().catch(() => {});
  }
}

/** Resolves with `work`, or rejects as soon as the deadline fires (the work itself is cleaned up by the caller). */
function beforeDeadline<T>(work: Promise<T>, deadline: Deadline): Promise<T> {
  return new Promise((resolve, reject) => {
    if (deadline.signal.aborted) {
      work.catch(() => {});
      return reject(deadline.signal.reason);
    }
    const onAbort = () => reject(deadline.signal.reason);
    deadline.signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => deadline.signal.removeEventListener("abort", onAbort));
  });
}

interface Traffic {
  fetched: number;
  refused: number;
  inflight: number;
  bytes: number;
  documentServed: boolean;
}

async function serveThroughNet(route: Route, request: RenderRequest, traffic: Traffic): Promise<void> {
  const req = route.request();
  const url = req.url();
  const method = req.method().toUpperCase();
  if (
    REFUSED_TYPES.has(req.resourceType()) ||
    !/^https?:/i.test(url) ||
    (method !== "GET" && method !== "POST" && method !== "HEAD") ||
    traffic.fetched >= MAX_SUBREQUESTS ||
    traffic.bytes >= MAX_SUBREQUEST_BYTES * 4
  ) {
    traffic.refused++;
    return route.abort("blockedbyclient").catch(() => {});
  }
  const doc = request.document;
  if (doc && !traffic.documentServed && req.isNavigationRequest() && url === doc.url) {
    traffic.documentServed = true;
    return route
      .fulfill({ status: doc.status, headers: responseHeaders(doc.headers), body: doc.body })
      .catch(() => {});
  }
  traffic.inflight++;
  try {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(await req.allHeaders()))
      if (!DROP_REQUEST_HEADERS.test(k) && !k.startsWith(":")) headers[k] = v;
    // net follows redirects itself, vetting every hop: Chromium does not intercept the hops of a redirect
    // fulfilled from here, it would dial them. The ladder renders its final URL, so documents rarely redirect.
    const res = await request.net.request(url, {
      deadline: request.deadline,
      method,
      headers,
      body: method === "POST" ? (req.postDataBuffer() ?? undefined) : undefined,
      maxBytes: MAX_SUBREQUEST_BYTES,
    });
    if (!res.ok) {
      traffic.refused++;
      return await route.abort(res.code === "blocked_url" ? "blockedbyclient" : "failed").catch(() => {});
    }
    traffic.fetched++;
    traffic.bytes += res.bytes.length;
    await route.fulfill({ status: res.status, headers: responseHeaders(res.headers), body: res.bytes });
  } catch {
    await route.abort("failed").catch(() => {});
  } finally {
    traffic.inflight--;
  }
}

function responseHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !DROP_RESPONSE_HEADERS.test(k)));
}

/**
 * Client-rendered text appears after the DOM is parsed: wait until no request is in flight and the body text
 * has stopped growing for a few checks, bounded by the deadline (and a cap, so a ticking page cannot hold us).
 */
async function settle(page: Page, traffic: Traffic, deadline: Deadline): Promise<void> {
  const until = Date.now() + Math.min(MAX_SETTLE_MS, Math.max(0, deadline.remaining() - 300));
  let last = -1;
  let changedAt = Date.now();
  while (Date.now() < until) {
    const length = await page.evaluate(() => document.body?.textContent?.length ?? 0).catch(() => -1);
    if (length !== last) {
      last = length;
      changedAt = Date.now();
    }
    // A request still in flight (or a body still empty) may yet bring the text: give it longer, not forever.
    const quietNeeded = traffic.inflight > 0 || length <= 0 ? QUIET_WAITING_MS : QUIET_MS;
    if (Date.now() - changedAt >= quietNeeded) return;
    if (!(await deadline.sleep(100))) return;
  }
}

function renderFailure(err: unknown, deadline: Deadline): RenderFailure {
  if (deadline.expired())
    return { ok: false, status: "timeout", code: "timeout", message: "timeout while rendering the page" };
  const message = err instanceof Error ? err.message.split("\n")[0].slice(0, 200) : String(err);
  if (/executable|launch|spawn|ENOENT/i.test(message))
    return {
      ok: false,
      status: "unsupported",
      code: "render_unavailable",
      message: `Chromium could not start: ${message}`,
    };
  return { ok: false, status: "error", code: "render", message: `rendering failed: ${message}` };
}

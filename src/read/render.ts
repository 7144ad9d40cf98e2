import type { Browser, BrowserContext, Page } from "playwright-core";
import type { Deadline } from "../core/deadline.js";
import { errorLine } from "../core/one-line.js";
import type { Failure } from "../core/status.js";
import type { Net } from "../net/client.js";
import {
  type BrowserLease,
  CHROMIUM_PATH,
  closeHeadless,
  type GuardedTraffic,
  leaseHeadless,
  newGuardedContext,
  routeThroughNet,
} from "./guarded-browser.js";

/** `auto`: render JS shells when Chromium is installed; `always`: render every HTML page; `never`. */
export type RenderMode = "auto" | "never" | "always";

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
  /** Drops the spare tab and closes the shared headless browser (CLI shutdown, tests). */
  close(): Promise<void>;
}

export interface RendererOptions {
  executablePath?: string;
  /** The spare tab is closed after this long without a render; the browser itself idles out on its own. */
  idleMs?: number;
}

const MAX_SETTLE_MS = 8000;
const QUIET_MS = 300;
const QUIET_WAITING_MS = 2000;
const RENDER_SUBREQUESTS = 150;

/**
 * Headless Chromium where the browser never dials anything itself: every request it makes is intercepted and
 * either refused or fetched through websift's own `net` (see routeThroughNet). The process's one headless
 * browser is leased per render, one fresh context per render; the next context is opened while the current page
 * renders, since opening one costs a second on a busy machine.
 */
export function createRenderer(options: RendererOptions = {}): Renderer {
  const executablePath = options.executablePath ?? CHROMIUM_PATH;
  const idleMs = options.idleMs ?? 30_000;
  let spare: { browser: Browser; tab: Promise<Tab> } | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  let active = 0;

  function dropSpare(): void {
    const current = spare;
    spare = undefined;
    void current?.tab.then((t) => t.context.close()).catch(() => {});
  }

  return {
    async render(request) {
      if (idleTimer) clearTimeout(idleTimer);
      active++;
      let lease: BrowserLease | undefined;
      try {
        const timeoutMs = Math.max(1000, Math.min(request.deadline.remaining(), 15_000));
        const leasing = leaseHeadless(executablePath, timeoutMs);
        lease = await beforeDeadline(leasing, request.deadline).catch((err) => {
          void leasing.then((l) => l.release()).catch(() => {});
          throw err;
        });
        const b = lease.browser;
        // A spare opened in a browser since closed (idle, crash) is of no use.
        if (spare && spare.browser !== b) dropSpare();
        const opening = spare?.tab ?? openTab(b);
        spare = undefined;
        const tab = await beforeDeadline(opening, request.deadline).catch((err) => {
          void opening.then((t) => t.context.close()).catch(() => {});
          throw err;
        });
        spare = { browser: b, tab: openTab(b) };
        spare.tab.catch(() => {});
        return await renderIn(tab, request);
      } catch (err) {
        return renderFailure(err, request.deadline);
      } finally {
        lease?.release();
        active--;
        if (active === 0) {
          idleTimer = setTimeout(dropSpare, idleMs);
          idleTimer.unref();
        }
      }
    },
    async close() {
      if (idleTimer) clearTimeout(idleTimer);
      dropSpare();
      await closeHeadless(executablePath);
    },
  };
}

/** A fresh context and blank page whose interception serves whichever render it is bound to, refusing until then. */
interface Tab {
  context: BrowserContext;
  page: Page;
  traffic: GuardedTraffic;
  bind(request: RenderRequest): void;
}

async function openTab(browser: Browser): Promise<Tab> {
  const context = await newGuardedContext(browser);
  let bound: RenderRequest | undefined;
  try {
    const traffic = await routeThroughNet(context, () =>
      bound
        ? {
            net: bound.net,
            deadline: bound.deadline,
            document: bound.document,
            maxSubrequests: RENDER_SUBREQUESTS,
          }
        : undefined,
    );
    const page = await context.newPage();
    return {
      context,
      page,
      traffic,
      bind(request) {
        bound = request;
      },
    };
  } catch (err) {
    await context.close().catch(() => {});
    throw err;
  }
}

async function renderIn(tab: Tab, request: RenderRequest): Promise<RenderedPage | RenderFailure> {
  const { deadline } = request;
  const { context, page, traffic } = tab;
  // Each step is raced against the deadline: on a loaded machine even a blank page can take seconds.
  const onAbort = () => void context.close().catch(() => {});
  deadline.signal.addEventListener("abort", onAbort, { once: true });
  tab.bind(request);
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

/**
 * Client-rendered text appears after the DOM is parsed: wait until no request is in flight and the body text
 * has stopped growing for a few checks, bounded by the deadline (and a cap, so a ticking page cannot hold us).
 * A redirect hop's page (routeThroughNet) is not the page yet: the wait starts again on the next document.
 */
async function settle(page: Page, traffic: GuardedTraffic, deadline: Deadline): Promise<void> {
  const until = Date.now() + Math.min(MAX_SETTLE_MS, Math.max(0, deadline.remaining() - 300));
  let last = -1;
  let changedAt = Date.now();
  while (Date.now() < until) {
    const length = await page
      .evaluate(() =>
        document.querySelector('meta[name="websift-redirect"]')
          ? -2
          : (document.body?.textContent?.length ?? 0),
      )
      .catch(() => -1);
    if (length !== last || length === -2) {
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
  const message = errorLine(err);
  if (/executable|launch|spawn|ENOENT/i.test(message))
    return {
      ok: false,
      status: "unsupported",
      code: "render_unavailable",
      message: `Chromium could not start: ${message}`,
    };
  return { ok: false, status: "error", code: "render", message: `rendering failed: ${message}` };
}

import { type Browser, chromium } from "playwright-core";
import { CHROMIUM_PATH } from "../../read/render.js";

// Same launch flags as the reader's renderer: should any request escape the interception (preconnect,
// WebRTC), the browser can neither resolve a name nor reach anything but a closed local port.
const LAUNCH_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--host-resolver-rules=MAP * ~NOTFOUND",
  "--proxy-server=http://127.0.0.1:9",
  "--proxy-bypass-list=<-loopback>",
  "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
];
/** Closed this long after its last use, so a CLI process can exit and a server does not pay a launch per call. */
const IDLE_MS = 30_000;

let shared: { path: string; browser: Promise<Browser> } | undefined;
let users = 0;
let idleTimer: NodeJS.Timeout | undefined;

export interface BrowserLease {
  browser: Browser;
  release(): void;
}

/** The process's headless Chromium (launched on first use), held until `release`. */
export async function leaseHeadless(
  executablePath = CHROMIUM_PATH,
  timeoutMs = 15_000,
): Promise<BrowserLease> {
  if (idleTimer) clearTimeout(idleTimer);
  users++;
  try {
    if (!shared || shared.path !== executablePath)
      shared = { path: executablePath, browser: launch(executablePath, timeoutMs) };
    const browser = await shared.browser;
    let released = false;
    return {
      browser,
      release() {
        if (released) return;
        released = true;
        idle();
      },
    };
  } catch (err) {
    idle();
    throw err;
  }
}

/** Closes the shared browser now (tests, server shutdown). */
export async function closeHeadless(): Promise<void> {
  const current = shared;
  shared = undefined;
  if (idleTimer) clearTimeout(idleTimer);
  if (current) await current.browser.then((b) => b.close()).catch(() => {});
}

function idle(): void {
  users--;
  if (users > 0) return;
  idleTimer = setTimeout(() => void closeHeadless(), IDLE_MS);
  idleTimer.unref();
}

function launch(executablePath: string, timeoutMs: number): Promise<Browser> {
  const launching = chromium.launch({
    executablePath,
    headless: true,
    args: LAUNCH_ARGS,
    timeout: timeoutMs,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  // A crashed or failed browser is forgotten, so the next call launches a new one.
  const forget = () => {
    if (shared?.browser === launching) shared = undefined;
  };
  launching.then((b) => b.on("disconnected", forget), forget);
  return launching;
}

import type { Clock } from "../../src/session/clock.js";
import type { Landing } from "../../src/session/session.js";
import { article, ddgResultsPage } from "../ground/answer/ddg-page.js";
import type { SimReply, SimWeb } from "../simweb/index.js";

/** A clock the test moves by hand: timers fire in order as `advance` passes them, never on their own. */
export function manualClock(start = Date.UTC(2026, 10, 30, 6, 0, 0)): Clock & { advance(ms: number): void } {
  let now = start;
  let seq = 0;
  const timers = new Map<number, { at: number; fire: () => void }>();
  return {
    now: () => now,
    setTimeout(fire, ms) {
      seq += 1;
      timers.set(seq, { at: now + Math.max(0, ms), fire });
      return seq;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    advance(ms) {
      const until = now + ms;
      for (;;) {
        const due = [...timers.entries()]
          .filter(([, t]) => t.at <= until)
          .sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].fire();
      }
      now = until;
    },
  };
}

/** Landings as they arrive; `next()` waits for the next one. */
export function inbox() {
  const landed: Landing[] = [];
  const waiting: ((landing: Landing) => void)[] = [];
  let read = 0;
  return {
    landed,
    onLanded(landing: Landing) {
      landed.push(landing);
      waiting.shift()?.(landing);
    },
    next(): Promise<Landing> {
      const at = read++;
      if (at < landed.length) return Promise.resolve(landed[at]);
      return new Promise((resolve) => waiting.push(resolve));
    },
  };
}

const HTML = { "content-type": "text/html; charset=utf-8" };

export function page(title: string, paragraphs: string[]): SimReply {
  return { headers: HTML, body: article(title, paragraphs) };
}

export function results(entries: { title: string; url: string; snippet?: string }[]): SimReply {
  return {
    headers: HTML,
    body: ddgResultsPage(entries.map((e) => ({ snippet: `${e.title} snippet`, ...e }))),
  };
}

let heldPages = 0;

/**
 * A page on www.example.com that answers only when released (a `heldRoute` holding an ordinary article), each
 * call a new path; its `release` goes on `releases` so the test's cleanup lets every held request go.
 */
export function heldPage(web: SimWeb, releases: (() => void)[], name: string) {
  const path = `/${name.toLowerCase()}-${++heldPages}`;
  const route = heldRoute(
    web,
    "www.example.com",
    path,
    page(`${name} page`, [
      `The ${name.toLowerCase()} page has a first paragraph long enough to be kept by the reader.`,
    ]),
  );
  releases.push(route.release);
  return { ...route, url: `https://www.example.com${path}` };
}

/**
 * A route that answers only when the test says so: `arrived` resolves when the request reaches the server,
 * so a test knows a lookup is running without sleeping; `dropped` tells that the client gave up on it.
 */
export function heldRoute(web: SimWeb, host: string, path: string, reply: SimReply) {
  let arrive!: () => void;
  let release!: () => void;
  const arrived = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let hits = 0;
  let dropped = false;
  web.route(host, path, async (_req, raw) => {
    hits += 1;
    raw.res.on("close", () => {
      if (!raw.res.writableFinished) dropped = true;
    });
    arrive();
    await released;
    return reply;
  });
  return { arrived, release, hits: () => hits, dropped: () => dropped };
}

/** Lets the event loop run until `check` holds (network replies travel through real sockets). */
export async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
}

import { createHash } from "node:crypto";
import type { Settings } from "../config/settings.js";
import type { Deadline } from "../core/deadline.js";
import { oneLine } from "../core/one-line.js";
import type { Attempt, Failure } from "../core/status.js";
import type { Net } from "../net/client.js";
import { OWN_USER_AGENT, PRODUCT_TOKEN } from "../net/request-headers.js";
import type { Store } from "../store/store.js";

/**
 * robots.txt (RFC 9309) for the reads websift makes on its own initiative. The rules of a host are fetched once,
 * through net, with websift's own User-Agent, and kept in the store for a day (§2.4 suggests 24 hours); the
 * matching (groups by product token, longest match, `*` and `$`, allow winning a tie) is robots-parser's, a
 * small, dependency-free port of Google's reference matcher.
 *
 * The file is asked for the URL a caller reads (and the host a redirect ends on), never for what a site reader
 * calls to get that page's text (api.github.com, a site's JSON endpoint): those are APIs with their own terms
 * and rate limits, not pages a crawler walks, and the page they stand for was checked.
 */

/** Whether robots.txt decides a read. */
export type RobotsRule = "respect" | "ignore";

/**
 * How a read asks: `respect` or `ignore` outright, or `automated` for a read websift or a model chose (research
 * hops, answer's pages), which respects the file unless the operator turned robots.txt off altogether.
 */
export type RobotsOption = RobotsRule | "automated";

/** WEBSIFT_ROBOTS: which reads respect robots.txt. */
export type RobotsSetting = "respect" | "automated" | "ignore";

export const DEFAULT_ROBOTS_SETTING: RobotsSetting = "automated";

/** What a read does about robots.txt, from the call's option and the operator's setting. */
export function robotsRule(option: RobotsOption | undefined, settings: Pick<Settings, "read">): RobotsRule {
  const setting = settings.read?.robots ?? DEFAULT_ROBOTS_SETTING;
  if (option === "respect" || option === "ignore") return option;
  if (option === "automated") return setting === "ignore" ? "ignore" : "respect";
  // A read a user asked for stands in for the user's own browser, which no robots.txt addresses.
  return setting === "respect" ? "respect" : "ignore";
}

export interface RobotsContext {
  net: Net;
  store: Store;
  /** The clock a kept file's age is judged on. */
  now(): number;
}

export type RobotsVerdict =
  | { allowed: true; attempt: Attempt }
  | { allowed: false; failure: Failure; attempt: Attempt };

/** A day, as RFC 9309 §2.4 suggests. */
export const ROBOTS_TTL_MS = 24 * 60 * 60 * 1000;
/** A host whose robots.txt could not be had is asked again sooner: its rules may be back in minutes. */
export const UNREACHABLE_TTL_MS = 15 * 60 * 1000;
/** The most of a read's time the file may take; a slow robots.txt must not eat the page's budget. */
const ROBOTS_BUDGET_MS = 3000;
/** §2.5: a parsing limit of at least 500 KiB; the rest of a longer file is ignored. */
export const ROBOTS_PARSE_BYTES = 500 * 1024;
/** What is fetched at most; a larger file is unreadable (and so allows, as an unreachable one does). */
const ROBOTS_FETCH_BYTES = 2 * 1024 * 1024;
/** §2.3.1.2: at least five consecutive redirects. */
const ROBOTS_REDIRECTS = 5;

/** What the store keeps per origin: the file's text, or why there are no rules. */
interface KeptRobots {
  at: number;
  /** rules: a file was served; none: 4xx or no file (allow all); unreachable: 5xx, 429 or no answer (allow, §2.3.1.4 aside). */
  kind: "rules" | "none" | "unreachable";
  text?: string;
  why?: string;
}

/** Whether robots.txt lets websift read `url`; every failure to learn the rules allows the read. */
export async function robotsVerdict(
  url: string,
  ctx: RobotsContext,
  deadline: Deadline,
): Promise<RobotsVerdict> {
  const t0 = Date.now();
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { allowed: true, attempt: { provider: "robots.txt", status: "skipped", ms: 0 } };
  }
  // §2.2.2's implicit allow: the rules themselves are always readable.
  if (target.pathname === "/robots.txt" || !/^https?:$/.test(target.protocol))
    return { allowed: true, attempt: { provider: "robots.txt", status: "skipped", ms: 0 } };
  const kept = await rulesFor(target.origin, ctx, deadline);
  const attempt = (status: Attempt["status"], error?: string): Attempt => ({
    provider: "robots.txt",
    status,
    ms: Date.now() - t0,
    ...(error ? { error } : {}),
  });
  if (kept.kind !== "rules" || !kept.text) return { allowed: true, attempt: attempt("ok", kept.why) };
  const robot = await parsed(target.origin, kept);
  if (robot.isAllowed(target.href, PRODUCT_TOKEN) !== false) return { allowed: true, attempt: attempt("ok") };
  const line = robot.getMatchingLineNumber(target.href, PRODUCT_TOKEN);
  const rule = line > 0 ? ruleText(kept.text.split(/\r\n|\r|\n/, line)[line - 1]) : undefined;
  const named = rule ? ` (line ${line}: ${rule})` : "";
  const message = `robots.txt of ${target.host} disallows ${oneLine(target.pathname, 120)} for ${PRODUCT_TOKEN}${named}`;
  return {
    allowed: false,
    failure: { status: "denied", code: "robots", message },
    attempt: attempt("denied", message),
  };
}

/**
 * The matched rule as a message may carry it: a site's file is text from outside, so only the directive and
 * its path pattern, with anything a path would not hold percent-encoded (no words, no line breaks).
 */
function ruleText(line: string | undefined): string | undefined {
  const colon = line?.indexOf(":") ?? -1;
  if (!line || colon === -1) return undefined;
  const pattern = line
    .slice(colon + 1)
    .replace(/#.*/, "")
    .trim();
  const safe = pattern.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/%?[\]]/g, (c) => encodeURIComponent(c));
  return `Disallow: ${oneLine(safe, 120)}`;
}

/** robots.txt's refusal of `target`, if it refuses; the check's attempt joins `attempts`. */
export async function robotsDenial(
  target: string,
  ctx: RobotsContext,
  deadline: Deadline,
  attempts: Attempt[],
): Promise<Failure | undefined> {
  const verdict = await robotsVerdict(target, ctx, deadline);
  if (verdict.attempt.status !== "skipped") attempts.push(verdict.attempt);
  return verdict.allowed ? undefined : verdict.failure;
}

/** The kept rules of an origin, fetched when none are kept or they are a day old. One fetch per origin at a time. */
async function rulesFor(origin: string, ctx: RobotsContext, deadline: Deadline): Promise<KeptRobots> {
  const key = `read:robots:${origin}`;
  const kept = await storeGet(ctx.store, key);
  const now = ctx.now();
  if (kept && now - kept.at < (kept.kind === "unreachable" ? UNREACHABLE_TTL_MS : ROBOTS_TTL_MS)) return kept;
  const running = inFlight.get(ctx.store) ?? new Map<string, Promise<KeptRobots>>();
  const already = running.get(origin);
  if (already) return already;
  const fetching = fetchRobots(origin, ctx, deadline).then(async (got) => {
    if (got.keep) await storeSet(ctx.store, key, got.kept);
    return got.kept;
  });
  inFlight.set(ctx.store, running);
  running.set(origin, fetching);
  try {
    return await fetching;
  } finally {
    running.delete(origin);
  }
}

/** The fetches under way, per store: parallel reads of one host (answer's pages, a research hop) share one. */
const inFlight = new WeakMap<Store, Map<string, Promise<KeptRobots>>>();

async function fetchRobots(
  origin: string,
  ctx: RobotsContext,
  deadline: Deadline,
): Promise<{ kept: KeptRobots; keep: boolean }> {
  const budget = deadline.child(Math.min(ROBOTS_BUDGET_MS, deadline.remaining() / 4));
  const res = await ctx.net.request(`${origin}/robots.txt`, {
    deadline: budget,
    headers: { "user-agent": OWN_USER_AGENT, accept: "text/plain, */*;q=0.5" },
    maxRedirects: ROBOTS_REDIRECTS,
    maxBytes: ROBOTS_FETCH_BYTES,
    maxDecodedBytes: ROBOTS_FETCH_BYTES,
  });
  const at = ctx.now();
  if (!res.ok) {
    // The read itself was stopped: nothing was learnt about the host.
    if (res.code === "cancelled") return { kept: { at, kind: "unreachable", why: res.message }, keep: false };
    // §2.3.1.2: past five redirects the file MAY be taken as unavailable.
    const kind = res.code === "too_many_redirects" ? "none" : "unreachable";
    return { kept: { at, kind, why: `robots.txt: ${res.message}` }, keep: true };
  }
  if (res.status >= 200 && res.status < 300) {
    const text = res.bytes
      .subarray(0, ROBOTS_PARSE_BYTES)
      .toString("utf8")
      .replace(/^\uFEFF/, "");
    return { kept: { at, kind: "rules", text }, keep: true };
  }
  const why = `robots.txt answered HTTP ${res.status}`;
  // §2.3.1.3: 4xx means no rules; 429 is the server's load, not an answer about the file, so it is 5xx's kin.
  if (res.status >= 400 && res.status < 500 && res.status !== 429)
    return { kept: { at, kind: "none", why }, keep: true };
  return { kept: { at, kind: "unreachable", why }, keep: true };
}

interface Robot {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getMatchingLineNumber(url: string, ua?: string): number;
}

/** Parsed files by origin and content: a research run asks of one host many times. */
const parsedFiles = new Map<string, Robot>();
const MAX_PARSED = 64;

async function parsed(origin: string, kept: KeptRobots): Promise<Robot> {
  const key = `${origin} ${createHash("sha256")
    .update(kept.text ?? "")
    .digest("base64url")}`;
  const known = parsedFiles.get(key);
  if (known) return known;
  // A CommonJS module whose declarations TypeScript reads as a namespace: its export is the parse function.
  const loaded = (await import("robots-parser")) as unknown as {
    default: (url: string, text: string) => Robot;
  };
  const robot = loaded.default(`${origin}/robots.txt`, kept.text ?? "");
  if (parsedFiles.size >= MAX_PARSED) parsedFiles.delete(parsedFiles.keys().next().value as string);
  parsedFiles.set(key, robot);
  return robot;
}

async function storeGet(store: Store, key: string): Promise<KeptRobots | undefined> {
  try {
    const got = await store.get<KeptRobots>(key);
    return got && typeof got.at === "number" && typeof got.kind === "string" ? got : undefined;
  } catch {
    // A store that cannot answer (redis down) means fetching the file again, not failing the read.
    return undefined;
  }
}

async function storeSet(store: Store, key: string, kept: KeptRobots): Promise<void> {
  try {
    await store.set(key, kept, kept.kind === "unreachable" ? UNREACHABLE_TTL_MS : ROBOTS_TTL_MS);
  } catch {
    // Same reason: the verdict stands without its cache.
  }
}

import type { Deadline } from "../../core/deadline.js";
import type { Failure } from "../../core/status.js";
import type { Net } from "../../net/client.js";

/**
 * A reader for one site whose public API or raw endpoint gives cleaner text than its HTML (a GitHub file, a
 * Stack Exchange question with its accepted answer, a Reddit thread behind an app shell). Like a search engine,
 * a site reader is one file that declares what it takes; the read ladder asks the first reader that takes a URL
 * before its generic rungs, and falls back to them when the reader fails, with the reader's attempt on record.
 */
export interface SiteReader {
  /** Its name in attempts, in `ReadResult.reader` and in errors ("github"). */
  name: string;
  /** Hosts whose URLs it may take: exact names, or `*.suffix` for any name under the suffix. */
  hosts: readonly string[];
  /** The variables of its optional key (a token that raises the site's rate limit); it reads without one. */
  keyEnv?: readonly string[];
  /** Whether it reads this URL (already on one of its hosts); a URL it does not know stays with the ladder. */
  takes(url: URL): boolean;
  read(url: URL, ctx: SiteContext, deadline: Deadline): Promise<SiteOutcome>;
}

/** What a site reader may use: the guarded client (every request it makes is vetted like a page's) and a log. */
export interface SiteContext {
  net: Net;
  /** Operator log line (stderr). */
  log(message: string): void;
  /** Its own keys, among those it declares in `keyEnv` that are set; never another reader's or a provider's. */
  keys: Readonly<Record<string, string>>;
  /**
   * Books the next slot of a limiter letting one request through every `intervalMs` (for a site that asks for
   * spacing between API calls): the wait before going, 0 for now; a slot more than `maxWaitMs` away is not
   * booked. Shared by every process of a fleet when the store is.
   */
  reserveSlot(key: string, intervalMs: number, maxWaitMs?: number): Promise<number>;
  /**
   * The site said, on an answer that still served, that its next requests will be refused for `seconds`
   * (a rate limit spent to 0): the reader rests, as after a refusal, until then.
   */
  rest(seconds: number | undefined, reason: string): Promise<void>;
}

/** What a site reader found: the page's text as markdown, and which of the site's endpoints gave it. */
export interface SitePage {
  title: string;
  markdown: string;
  /** The endpoint that gave the text ("api.github.com", "raw", "thread .json"): said in the result's attempts. */
  via: string;
  /** The page's own URL when it differs from the one asked (a redirect, a canonical form). */
  finalUrl?: string;
  links?: string[];
  lang?: string;
  byline?: string;
  published?: string;
}

export type SiteOutcome = ({ ok: true } & SitePage) | ({ ok: false } & Failure);

/**
 * A response that no longer has the shape the reader was written for: the site changed its API or page. Said
 * as an `error` naming the reader and what was missing, so the ladder tries the page itself and an operator
 * sees the drift, never a silent empty.
 */
export function readerDrift(reader: string, what: string): { ok: false } & Failure {
  return {
    ok: false,
    status: "error",
    code: "reader_drift",
    message: `${reader} reader: the response no longer has the expected shape (${what})`,
  };
}

/** What the site says is not there (a package's version, an item): an error of the read, not an empty page. */
export function siteNotFound(message: string): { ok: false } & Failure {
  return { ok: false, status: "error", code: "not_found", message };
}

/** `name` is one of `hosts` (exact, or under a `*.suffix`). */
export function onHosts(name: string, hosts: readonly string[]): boolean {
  const host = name.toLowerCase();
  return hosts.some((h) => (h.startsWith("*.") ? host.endsWith(h.slice(1)) : host === h));
}

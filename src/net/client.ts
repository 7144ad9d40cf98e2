import { isIP } from "node:net";
import { Agent, type Dispatcher, ProxyAgent } from "undici";
import { Deadline } from "../core/deadline.js";
import { type BodyLimits, decodeBody } from "./body.js";
import { ConnectingSockets, type ConnectTo, pinnedConnector, VettedAddresses } from "./connector.js";
import { decodeText } from "./decode.js";
import { Exchange } from "./exchange.js";
import {
  classifyError,
  MAX_HEADER_BYTES,
  NetError,
  type NetFailure,
  type NetPhase,
  netFailure,
  safeHost,
} from "./failure.js";
import { interimTolerantFactory } from "./interim-responses.js";
import { type ProxyEnv, proxyEnvFrom, proxyFor } from "./proxy.js";
import { resolveWithin, systemResolve } from "./resolver.js";
import { parseRetryAfter } from "./retry-after.js";
import { trustContext } from "./trust.js";
import { checkUrl, type Resolve, vetAddresses } from "./url-policy.js";

export const CHROME_USER_AGENT =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";

export interface NetConfig {
  /** Name → addresses. Tests route real host names to the simulated web through this and `connectTo`. */
  resolve?: Resolve;
  /** Where a vetted address is really dialled (tests: loopback). The policy has already run on the address. */
  connectTo?: ConnectTo;
  /**
   * Origins (scheme://host:port) the operator configured explicitly, such as a SearXNG instance or a local LLM
   * server, which may live on a private address. Only these exact origins skip the address policy; the scheme,
   * credential and redirect rules still apply, and a redirect that leaves the origin is vetted as usual. The
   * exemption holds only for requests that ask for it (`trusted: true`, set by the code that talks to that
   * endpoint), so a page read or a URL a model chose never reaches the private address behind a trusted origin.
   * Never fill this from call options or page content.
   */
  trustedOrigins?: string[];
  /** Extra trusted CA certificates (PEM); NODE_EXTRA_CA_CERTS works as well. */
  ca?: string | string[];
  /** Environment for HTTP(S)_PROXY / NO_PROXY; defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  userAgent?: string;
  maxRedirects?: number;
  maxBytes?: number;
  maxDecodedBytes?: number;
  /** How long a vetted DNS answer is reused before the name is resolved again. */
  dnsCacheMs?: number;
}

export interface NetRequestOptions {
  deadline: Deadline;
  method?: "GET" | "POST" | "HEAD";
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  maxBytes?: number;
  maxDecodedBytes?: number;
  maxRedirects?: number;
  /** false: return the 3xx itself (e.g. to read a redirector's Location without following it). */
  followRedirects?: boolean;
  /**
   * Asked for every redirect target before it is followed (after the usual rules): false, or a throw, ends the
   * call with `redirect_refused`. A scraped search engine keeps its requests on its own hosts this way.
   */
  redirectAllowed?: (url: URL) => boolean;
  /** BCP 47 locale for Accept-Language, e.g. "de-DE". */
  locale?: string;
  /** true: a final status of 400 or more is returned as an `http_status` failure instead of a response. */
  failOnHttpError?: boolean;
  /** A call to an operator-configured endpoint (SearXNG, the LLM): its origin may be in `trustedOrigins`. */
  trusted?: boolean;
}

export interface NetResponse {
  ok: true;
  url: string;
  finalUrl: string;
  status: number;
  headers: Record<string, string>;
  redirects: string[];
  bytes: Buffer;
  /** Lower-cased media type without parameters ("text/html"). */
  contentType: string;
  /** Seconds to wait before asking again, from a Retry-After header (429, 503). */
  retryAfter?: number;
  ms: number;
  text(): string;
  json<T = unknown>(): T | undefined;
}

export type NetResult = NetResponse | NetFailure;

export interface Net {
  request(url: string, options: NetRequestOptions): Promise<NetResult>;
  close(): Promise<void>;
}

const DEFAULT_MAX_BYTES = 3 * 1024 * 1024;
/** For a caller that passed no deadline: nothing may wait forever. */
const DEFAULT_DEADLINE_MS = 30_000;
/**
 * Content codings undone per response. Real servers seldom stack more than two (a proxy gzipping an origin's
 * gzip); 2,000 stacked gzip layers were each inflated in turn, a thread-pool round trip apiece.
 */
const MAX_CODINGS = 3;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
// Headers that may carry a credential: never forwarded to another origin on a redirect.
const ORIGIN_BOUND =
  /^(authorization|cookie|proxy-authorization|x-api-key|x-subscription-token|x-goog-api-key)$/i;

export function createNet(config: NetConfig = {}): Net {
  const vetted = new VettedAddresses();
  const resolve = config.resolve ?? systemResolve;
  const proxyEnv: ProxyEnv = proxyEnvFrom(config.env ?? process.env);
  const connecting = new ConnectingSockets();
  const direct = new Agent({
    connect: pinnedConnector(vetted, config, connecting),
    factory: interimTolerantFactory,
    maxHeaderSize: MAX_HEADER_BYTES,
  });
  const proxies = new Map<string, ProxyAgent>();
  const dnsCacheMs = config.dnsCacheMs ?? 30_000;
  const trusted = new Set((config.trustedOrigins ?? []).flatMap((o) => originOf(o) ?? []));
  // Trusted origins get their own pin table and agent: their private addresses must never be reused for an
  // untrusted request to the same host name.
  const trustedPins = new VettedAddresses();
  // Rule 1 depends on the URL string alone, so its verdict (and the parsed URL, which nothing mutates) is
  // reused for a URL asked again: agents fetch the same endpoints over and over.
  const checkedUrls = new Map<string, ReturnType<typeof checkUrl>>();
  function checkUrlCached(raw: string): ReturnType<typeof checkUrl> {
    let verdict = checkedUrls.get(raw);
    if (!verdict) {
      verdict = checkUrl(raw);
      if (checkedUrls.size >= 512) checkedUrls.clear();
      checkedUrls.set(raw, verdict);
    }
    return verdict;
  }
  const userAgent = config.userAgent ?? CHROME_USER_AGENT;
  const acceptLanguages = new Map<string, string>();
  /**
   * A new object for every hop: undici's ProxyAgent writes `host` into the headers object it is handed, so one
   * object shared across calls carried the first host's name into every later tunnel.
   */
  function hopHeaders(locale: string | undefined, caller: Record<string, string>): Record<string, string> {
    const key = locale ?? "";
    let language = acceptLanguages.get(key);
    if (language === undefined) {
      language = acceptLanguage(locale);
      if (acceptLanguages.size < 100) acceptLanguages.set(key, language);
    }
    const headers: Record<string, string> = {
      "user-agent": userAgent,
      accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
      "accept-language": language,
      "accept-encoding": "gzip, deflate, br",
    };
    for (const k in caller) headers[k.toLowerCase()] = caller[k];
    return headers;
  }
  let trustedAgent: Agent | undefined;

  function dispatcherFor(url: URL, trustedCall: boolean): Dispatcher {
    const proxy = proxyFor(url, proxyEnv);
    if (!proxy && trustedCall && trusted.has(url.origin)) {
      trustedAgent ??= new Agent({
        connect: pinnedConnector(trustedPins, config, connecting),
        factory: interimTolerantFactory,
        maxHeaderSize: MAX_HEADER_BYTES,
      });
      return trustedAgent;
    }
    if (!proxy) return direct;
    let agent = proxies.get(proxy);
    if (!agent) {
      const tls = trustContext(config.ca);
      // proxyTunnel false: plain http goes to the proxy in absolute form, as curl and browsers send it; many
      // corporate proxies refuse CONNECT to port 80. https is always tunnelled.
      agent = new ProxyAgent({
        uri: proxy,
        requestTls: tls,
        proxyTls: tls,
        proxyTunnel: false,
        factory: interimTolerantFactory,
        maxHeaderSize: MAX_HEADER_BYTES,
      });
      proxies.set(proxy, agent);
    }
    return agent;
  }

  /**
   * Rules 1 and 2 for one hop; through a proxy the proxy resolves, so only rule 1 runs here. Synchronous when
   * nothing needs resolving (a literal, a proxy, a fresh vetted answer): no promise on the keep-alive hot path.
   */
  function vetHop(
    raw: string,
    deadline: Deadline,
    trustedCall: boolean,
  ): NetFailure | URL | Promise<NetFailure | URL> {
    if (trustedCall && trusted.size > 0) {
      const origin = originOf(raw);
      if (origin && trusted.has(origin)) return vetTrusted(raw, deadline);
    }
    const checked = checkUrlCached(raw);
    if (!checked.ok) return netFailure("blocked_url", `refused ${withoutQuery(raw)}: ${checked.reason}`, raw);
    const url = checked.url;
    if (checked.literal || proxyFor(url, proxyEnv)) return url;
    if (vetted.fresh(checked.hostname, dnsCacheMs)) return url;
    return resolveAndVet(url, checked.hostname, raw, deadline);
  }

  async function resolveAndVet(url: URL, hostname: string, raw: string, deadline: Deadline) {
    try {
      const addresses = await resolveWithin(resolve, hostname, deadline);
      const verdict = vetAddresses(hostname, addresses);
      if (!verdict.ok) return netFailure("blocked_url", `refused ${url.host}: ${verdict.reason}`, raw);
      vetted.set(hostname, addresses);
      return url;
    } catch (err) {
      return classifyError(err, raw, "dns");
    }
  }

  /** An operator-trusted origin: resolved and pinned like any other, its addresses not judged. */
  async function vetTrusted(raw: string, deadline: Deadline): Promise<NetFailure | URL> {
    const url = new URL(raw);
    if (url.username || url.password)
      return netFailure("blocked_url", "URLs with embedded credentials (user:pass@) are refused", raw);
    const hostname = url.hostname.replace(/^\[|\]$/g, "");
    if (isIP(hostname) || proxyFor(url, proxyEnv) || trustedPins.fresh(hostname, dnsCacheMs)) return url;
    try {
      trustedPins.set(hostname, await resolveWithin(resolve, hostname, deadline));
      return url;
    } catch (err) {
      return classifyError(err, raw, "dns");
    }
  }

  /** One hop on the wire; its handler carries the deadline and the wire cap. */
  function send(
    url: URL,
    options: NetRequestOptions,
    headers: Record<string, string>,
    method: string,
    deadline: Deadline,
    limits: BodyLimits,
  ): Exchange {
    const exchange = new Exchange(
      deadline,
      url.host,
      limits.maxBytes,
      Math.min(limits.maxBytes, limits.maxDecodedBytes),
    );
    // The dispatcher's own dispatch(), not undici's request(): see Exchange for what that saves. undici opens a
    // needed connection inside this call, so the attempt is tagged as this exchange's own.
    connecting.owner = exchange;
    try {
      dispatcherFor(url, options.trusted === true).dispatch(
        {
          origin: url.origin,
          path: url.search ? `${url.pathname}${url.search}` : url.pathname,
          method: method as Dispatcher.HttpMethod,
          headers,
          body: method === "GET" || method === "HEAD" ? undefined : options.body,
          // The deadline is the only clock; undici's own timers would fire with less precise names.
          headersTimeout: 0,
          bodyTimeout: 0,
        },
        exchange,
      );
    } finally {
      connecting.owner = undefined;
    }
    return exchange;
  }

  function request(rawUrl: string, options: NetRequestOptions): Promise<NetResult> {
    // Nothing escapes: whatever a caller passes and whatever breaks below comes back as a NetFailure.
    let url = "";
    try {
      url = typeof rawUrl === "string" ? rawUrl : String(rawUrl);
      return follow(url, options ?? {}, options?.deadline ?? Deadline.after(DEFAULT_DEADLINE_MS));
    } catch (err) {
      return Promise.resolve(classifyError(err, url, "connect"));
    }
  }

  /** Every hop of one call; catches whatever it meets, so its promise never rejects. */
  async function follow(
    rawUrl: string,
    options: Partial<NetRequestOptions>,
    deadline: Deadline,
  ): Promise<NetResult> {
    let current = rawUrl;
    try {
      const t0 = Date.now();
      const maxRedirects = options.maxRedirects ?? config.maxRedirects ?? 3;
      const limits: BodyLimits = {
        maxBytes: options.maxBytes ?? config.maxBytes ?? DEFAULT_MAX_BYTES,
        maxDecodedBytes:
          options.maxDecodedBytes ??
          config.maxDecodedBytes ??
          Math.max(10 * 1024 * 1024, (options.maxBytes ?? 0) * 4),
      };
      let method = (options.method ?? "GET").toUpperCase();
      // Never mutated: a redirect that drops headers builds a new object.
      let callerHeaders: Record<string, string> = options.headers ?? NO_HEADERS;
      const redirects: string[] = [];
      let seen: Set<string> | undefined;
      let phase: NetPhase = "dns";

      for (let hop = 0; ; hop++) {
        if (deadline.expired()) return timeoutFailure(deadline, current, phase);
        const hopVerdict = vetHop(current, deadline, options.trusted === true);
        const vettedUrl = hopVerdict instanceof Promise ? await hopVerdict : hopVerdict;
        if (!(vettedUrl instanceof URL)) {
          if (deadline.expired()) return timeoutFailure(deadline, current, "dns");
          return vettedUrl;
        }
        const headers = hopHeaders(options.locale, callerHeaders);
        phase = "connect";
        let exchange: Exchange | undefined;
        try {
          exchange = send(vettedUrl, options as NetRequestOptions, headers, method, deadline, limits);
          const res = await exchange.head;
          phase = "body";
          const status = res.status;
          const resHeaders = res.headers;
          if (REDIRECT_STATUSES.has(status) && resHeaders.location && options.followRedirects !== false) {
            res.discard();
            const next = resolveLocation(resHeaders.location, vettedUrl);
            if (!next) return netFailure("protocol", `invalid redirect from ${vettedUrl.host}`, current);
            if (options.redirectAllowed && !redirectAllowed(options.redirectAllowed, next))
              return netFailure(
                "redirect_refused",
                `redirect from ${vettedUrl.host} to ${safeHost(next)} refused: not a host this request may reach`,
                current,
                { httpStatus: status },
              );
            seen ??= new Set();
            seen.add(vettedUrl.href);
            if (seen.has(next))
              return netFailure("too_many_redirects", `redirect loop at ${safeHost(next)}`, current, {
                httpStatus: status,
              });
            if (hop >= maxRedirects)
              return netFailure(
                "too_many_redirects",
                `more than ${maxRedirects} redirects from ${safeHost(rawUrl)}`,
                current,
              );
            if (new URL(next).origin !== vettedUrl.origin) callerHeaders = stripOriginBound(callerHeaders);
            if (status === 303 || ((status === 301 || status === 302) && method === "POST")) {
              method = "GET";
              callerHeaders = withoutBodyHeaders(callerHeaders);
            }
            redirects.push(next);
            current = next;
            continue;
          }
          if (res.codings.length > MAX_CODINGS) {
            const cap = { name: "coding_layers", limit: MAX_CODINGS } as const;
            const message = `${vettedUrl.host} stacked ${res.codings.length} content codings, more than ${MAX_CODINGS}`;
            res.cancel(new NetError("too_large", message, "body", cap));
            return netFailure("too_large", message, current, { phase: "body", httpStatus: status, cap });
          }
          // A HEAD answer has no body: its Content-Length is the size a GET would get (a browser's HEAD for a
          // large file through the guarded browser was refused as too_large).
          const declared = Number(resHeaders["content-length"]);
          if (
            method !== "HEAD" &&
            Number.isFinite(declared) &&
            declared > limits.maxBytes &&
            !resHeaders["content-encoding"]
          ) {
            const message = `${vettedUrl.host} announced ${declared} bytes, over ${limits.maxBytes}`;
            const cap = { name: "announced_bytes", limit: limits.maxBytes } as const;
            res.cancel(new NetError("too_large", message, "body", cap));
            return netFailure("too_large", message, current, { phase: "body", httpStatus: status, cap });
          }
          let bytes: Buffer = NO_BYTES;
          if (method !== "HEAD") {
            const wire = res.body();
            bytes = wire instanceof Promise ? await wire : wire;
            if (res.codings.length > 0)
              bytes = await decodeBody(bytes, res.codings, limits.maxDecodedBytes, vettedUrl.host, deadline);
          }
          const retryAfter = parseRetryAfter(resHeaders["retry-after"]);
          if (options.failOnHttpError && status >= 400)
            return netFailure(
              "http_status",
              `${vettedUrl.host} answered HTTP ${status}${retryAfter !== undefined ? ` (retry after ${retryAfter} s)` : ""}`,
              current,
              { httpStatus: status, ...(retryAfter !== undefined ? { retryAfter } : {}) },
            );
          return new Response(
            rawUrl,
            vettedUrl.href,
            status,
            resHeaders,
            redirects,
            bytes,
            Date.now() - t0,
            retryAfter,
          );
        } catch (err) {
          // Before the response head: still connecting while this call's connection is being set up.
          const own = exchange !== undefined && connecting.has(exchange);
          const at = phase === "connect" && !own ? "headers" : phase;
          if (deadline.expired()) {
            if (at === "connect" && exchange) connecting.abandon(exchange, new Error("deadline"));
            return timeoutFailure(deadline, current, at);
          }
          return classifyError(err, current, at);
        }
      }
    } catch (err) {
      if (deadline.expired()) return timeoutFailure(deadline, current, "connect");
      return classifyError(err, current, "connect");
    }
  }

  return {
    request,
    async close() {
      // A graceful close waits for requests in flight; a hostile peer must not hold the caller's shutdown.
      const dispatchers: Dispatcher[] = [
        direct,
        ...proxies.values(),
        ...(trustedAgent ? [trustedAgent] : []),
      ];
      const graceful = Promise.allSettled(dispatchers.map((d) => d.close()));
      const late = await Promise.race([graceful.then(() => false), sleep(1000).then(() => true)]);
      if (late) await Promise.allSettled(dispatchers.map((d) => d.destroy()));
    },
  };
}

function timeoutFailure(deadline: Deadline, url: string, phase: NetPhase): NetFailure {
  if (deadline.cancelled())
    return netFailure("cancelled", "the request was cancelled by the caller", url, { phase });
  const what = {
    dns: "resolving",
    connect: "connecting to",
    headers: "waiting for a response from",
    body: "reading the body from",
  }[phase];
  return netFailure("timeout", `timeout ${what} ${safeHost(url)}`, url, { phase });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** A class rather than an object literal with closures: one allocation per response on the hot path. */
class Response implements NetResponse {
  readonly ok = true as const;
  readonly contentType: string;
  readonly retryAfter?: number;
  private decoded: string | undefined;

  constructor(
    readonly url: string,
    readonly finalUrl: string,
    readonly status: number,
    readonly headers: Record<string, string>,
    readonly redirects: string[],
    readonly bytes: Buffer,
    readonly ms: number,
    retryAfter?: number,
  ) {
    this.contentType = mediaType(headers["content-type"]);
    if (retryAfter !== undefined) this.retryAfter = retryAfter;
  }

  text(): string {
    this.decoded ??= decodeText(this.bytes, this.headers["content-type"]).text;
    return this.decoded;
  }

  json<T = unknown>(): T | undefined {
    try {
      return JSON.parse(this.text()) as T;
    } catch {
      return undefined;
    }
  }
}

function mediaType(header: string | undefined): string {
  if (!header) return "";
  const semicolon = header.indexOf(";");
  return (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase();
}

const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;
const NO_BYTES: Buffer = Buffer.alloc(0);

function stripOriginBound(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !ORIGIN_BOUND.test(k)));
}

function withoutBodyHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !/^content-(type|length)$/i.test(k)));
}

function resolveLocation(location: string, base: URL): string | undefined {
  try {
    return new URL(location, base).href;
  } catch {
    return undefined;
  }
}

export function acceptLanguage(locale: string | undefined): string {
  if (!locale) return "en-US,en;q=0.9";
  const tag = locale.replace("_", "-");
  const lang = tag.split("-")[0];
  return tag === lang ? `${lang},en;q=0.8` : `${tag},${lang};q=0.9,en;q=0.8`;
}

/** A URL as errors and logs show it: no credentials, no query string (it can hold a key or a user's words). */
export function withoutQuery(raw: string): string {
  try {
    const u = new URL(raw);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return "the URL";
  }
}

/** `http://searx.lan:8888/search` → `http://searx.lan:8888`; undefined for anything that is not http(s). */
function originOf(raw: string): string | undefined {
  try {
    const url = new URL(raw);
    return url.protocol === "http:" || url.protocol === "https:" ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

function redirectAllowed(allowed: (url: URL) => boolean, next: string): boolean {
  try {
    return allowed(new URL(next)) === true;
  } catch {
    return false;
  }
}

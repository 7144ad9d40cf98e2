import type { Dispatcher } from "undici";
import { settingsFromEnv } from "../config/load.js";
import type { NetSettings } from "../config/settings.js";
import { Deadline } from "../core/deadline.js";
import { type BodyLimits, decodeBody } from "./body.js";
import { ConnectingSockets, type ConnectTo, VettedAddresses } from "./connector.js";
import { Dispatchers } from "./dispatchers.js";
import { Exchange } from "./exchange.js";
import { classifyError, type NetFailure, type NetPhase, netFailure, safeHost } from "./failure.js";
import { hopVetter, originOf } from "./hop-vetting.js";
import { redirectHop } from "./redirect.js";
import { CHROME_USER_AGENT, hopHeadersFor } from "./request-headers.js";
import { systemResolve } from "./resolver.js";
import { type NetResponse, Response } from "./response.js";
import { parseRetryAfter } from "./retry-after.js";
import type { Resolve } from "./url-policy.js";

export { withoutQuery } from "./hop-vetting.js";
export { acceptLanguage, CHROME_USER_AGENT } from "./request-headers.js";
export type { NetResponse } from "./response.js";

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
  /** Proxies and extra CAs as the loader read them (HTTP(S)_PROXY, NO_PROXY, NODE_EXTRA_CA_CERTS). */
  proxies?: NetSettings;
  /** Without `proxies`: the environment the loader reads them from (default process.env). */
  env?: Record<string, string | undefined>;
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

/**
 * The network client: every request of websift goes through it. Each concern is a step of its own, composed
 * here in the order a hop meets them, as undici composes interceptors around a dispatcher:
 * `hop-vetting.ts` (rules 1 and 2: the URL, then its resolved addresses, pinned) → `request-headers.ts` (a
 * browser's manners) → `dispatchers.ts` (direct, trusted or proxied; the pinned connector) → `exchange.ts`
 * (the deadline and the byte caps, on the wire) → `redirect.ts` (the next hop, a pure decision; this loop
 * vets it as a new hop) → `body.ts` (decoding, capped) → `response.ts`.
 */
export function createNet(config: NetConfig = {}): Net {
  const vetted = new VettedAddresses();
  const proxyEnv: NetSettings = config.proxies ?? settingsFromEnv(config.env).net;
  const connecting = new ConnectingSockets();
  const trusted = new Set((config.trustedOrigins ?? []).flatMap((o) => originOf(o) ?? []));
  // Trusted origins get their own pin table and agent: their private addresses must never be reused for an
  // untrusted request to the same host name.
  const trustedPins = new VettedAddresses();
  const dispatchers = new Dispatchers(
    { ...config, extraCaCertsFile: proxyEnv.extraCaCertsFile },
    proxyEnv,
    vetted,
    trustedPins,
    connecting,
  );
  const vetHop = hopVetter({
    resolve: config.resolve ?? systemResolve,
    proxyEnv,
    vetted,
    trustedPins,
    trusted,
    dnsCacheMs: config.dnsCacheMs ?? 30_000,
  });
  const hopHeaders = hopHeadersFor(config.userAgent ?? CHROME_USER_AGENT);

  /** One hop on the wire; its handler carries the deadline and the byte caps. */
  function send(
    url: URL,
    options: Partial<NetRequestOptions>,
    headers: Record<string, string>,
    method: string,
    deadline: Deadline,
    limits: BodyLimits,
  ): Exchange {
    const exchange = new Exchange(deadline, url.host, {
      wireBytes: limits.maxBytes,
      plainBytes: limits.maxDecodedBytes,
      codingLayers: MAX_CODINGS,
    });
    // The dispatcher's own dispatch(), not undici's request(): see Exchange for what that saves. undici opens a
    // needed connection inside this call, so the attempt is tagged as this exchange's own.
    connecting.owner = exchange;
    try {
      dispatchers.for(url, options.trusted === true && trusted.has(url.origin)).dispatch(
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

  /** Every hop of one call, each vetted anew; catches whatever it meets, so its promise never rejects. */
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
        phase = "connect";
        let exchange: Exchange | undefined;
        try {
          exchange = send(
            vettedUrl,
            options,
            hopHeaders(options.locale, callerHeaders),
            method,
            deadline,
            limits,
          );
          const res = await exchange.head;
          phase = "body";
          const status = res.status;
          const next =
            options.followRedirects === false
              ? undefined
              : redirectHop(status, res.headers, method, callerHeaders, vettedUrl);
          if (next !== undefined) {
            res.discard();
            if (next === "invalid")
              return netFailure("protocol", `invalid redirect from ${vettedUrl.host}`, current);
            seen ??= new Set();
            const refused = refusedHop(next.url, vettedUrl, current, status, options, seen);
            if (refused) return refused;
            if (hop >= maxRedirects)
              return netFailure(
                "too_many_redirects",
                `more than ${maxRedirects} redirects from ${safeHost(rawUrl)}`,
                current,
              );
            ({ method, headers: callerHeaders } = next);
            redirects.push(next.url);
            current = next.url;
            continue;
          }
          // A HEAD answer has no body: its Content-Length is the size a GET would get (a browser's HEAD for a
          // large file through the guarded browser was refused as too_large).
          const bytes = method === "HEAD" ? NO_BYTES : await bodyOf(res, limits, vettedUrl.host, deadline);
          const retryAfter = parseRetryAfter(res.headers["retry-after"]);
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
            res.headers,
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

  return { request, close: () => dispatchers.close() };
}

/**
 * What the call's own rules say of a redirect target before it is vetted as a hop: the caller's host rule
 * (`redirectAllowed`), then loops. Records the hop that redirected in `seen`.
 */
function refusedHop(
  next: string,
  from: URL,
  current: string,
  status: number,
  options: Partial<NetRequestOptions>,
  seen: Set<string>,
): NetFailure | undefined {
  if (options.redirectAllowed && !redirectAllowed(options.redirectAllowed, next))
    return netFailure(
      "redirect_refused",
      `redirect from ${from.host} to ${safeHost(next)} refused: not a host this request may reach`,
      current,
      { httpStatus: status },
    );
  seen.add(from.href);
  if (seen.has(next))
    return netFailure("too_many_redirects", `redirect loop at ${safeHost(next)}`, current, {
      httpStatus: status,
    });
  return undefined;
}

/** The body as the caller gets it: the wire bytes (capped by the exchange), their codings undone (capped). */
async function bodyOf(res: Exchange, limits: BodyLimits, host: string, deadline: Deadline): Promise<Buffer> {
  const wire = res.body();
  const bytes = wire instanceof Promise ? await wire : wire;
  return res.codings.length > 0
    ? decodeBody(bytes, res.codings, limits.maxDecodedBytes, host, deadline)
    : bytes;
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

const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;
const NO_BYTES: Buffer = Buffer.alloc(0);

function redirectAllowed(allowed: (url: URL) => boolean, next: string): boolean {
  try {
    return allowed(new URL(next)) === true;
  } catch {
    return false;
  }
}

import { isIP } from "node:net";
import type { Deadline } from "../core/deadline.js";
import type { VettedAddresses } from "./connector.js";
import { classifyError, type NetFailure, netFailure } from "./failure.js";
import { type ProxySettings, proxyFor } from "./proxy.js";
import { resolveWithin } from "./resolver.js";
import { checkUrl, type Resolve, vetAddresses } from "./url-policy.js";

export interface HopVettingConfig {
  resolve: Resolve;
  proxyEnv: ProxySettings;
  /** Pins of every name vetted by the address policy. */
  vetted: VettedAddresses;
  /** Pins of the operator-trusted origins, whose addresses are not judged. */
  trustedPins: VettedAddresses;
  trusted: ReadonlySet<string>;
  dnsCacheMs: number;
}

/**
 * Rules 1 and 2 for one hop (the URL, then the addresses its name resolves to, pinned for the connector);
 * through a proxy the proxy resolves, so only rule 1 runs here. Synchronous when nothing needs resolving (a
 * literal, a proxy, a fresh vetted answer): no promise on the keep-alive hot path.
 */
export function hopVetter(config: HopVettingConfig) {
  const { resolve, proxyEnv, vetted, trustedPins, trusted, dnsCacheMs } = config;
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

  return function vetHop(
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
  };
}

/** `http://searx.lan:8888/search` → `http://searx.lan:8888`; undefined for anything that is not http(s). */
export function originOf(raw: string): string | undefined {
  try {
    const url = new URL(raw);
    return url.protocol === "http:" || url.protocol === "https:" ? url.origin : undefined;
  } catch {
    return undefined;
  }
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

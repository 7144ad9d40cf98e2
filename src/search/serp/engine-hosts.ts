import type { Failure } from "../../core/status.js";
import type { NetRequestOptions, NetResponse } from "../../net/client.js";
import { transportFailure } from "../../provider-http/http-errors.js";
import type { ProviderContext } from "../provider.js";

/**
 * The hosts a scraped engine may be asked on, as its provider file declares them: exact names, or `*.suffix` for
 * one label under a suffix (`*.wikipedia.org` for every language's wiki). A page from anywhere else is not that
 * engine's answer: parsed as its results, any redirect could inject results.
 */
export type EngineHosts = readonly string[];

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** `url` is https on one of the engine's hosts (no port, no credentials). */
export function onEngineHosts(url: URL, hosts: EngineHosts): boolean {
  if (url.protocol !== "https:" || url.port !== "" || url.username !== "" || url.password !== "")
    return false;
  const name = url.hostname;
  return hosts.some((host) => {
    if (!host.startsWith("*.")) return name === host;
    const suffix = host.slice(1);
    return name.endsWith(suffix) && LABEL.test(name.slice(0, -suffix.length));
  });
}

/** Thrown by `engineUrl` for a URL off the engine's hosts: a bug in the engine's URL building, never a page's doing. */
export class OffEngineHost extends Error {
  constructor(engine: string, host: string) {
    super(`${engine} built a URL for ${host}, which is not one of its hosts`);
    this.name = "OffEngineHost";
  }
}

/** The engine's request URL, held to its hosts where it is built: a language or a path cannot move it elsewhere. */
export function engineUrl(engine: string, hosts: EngineHosts, href: string): URL {
  const url = new URL(href);
  if (!onEngineHosts(url, hosts)) throw new OffEngineHost(engine, url.host);
  return url;
}

export type PinnedResult = { ok: true; res: NetResponse } | { ok: false; failure: Failure };

/**
 * One request of a scraped engine, kept on its hosts in depth: the URL is checked again before it is sent, a
 * redirect off the hosts is refused by net before it is followed, and the final URL is checked once more. A
 * refusal is an `error` naming it; the page is never parsed.
 */
export async function requestOnEngineHosts(
  engine: string,
  hosts: EngineHosts,
  url: string,
  options: NetRequestOptions,
  ctx: Pick<ProviderContext, "net">,
): Promise<PinnedResult> {
  const target = parsed(url);
  if (!target || !onEngineHosts(target, hosts))
    return offHost(
      engine,
      "off_host",
      `refused to ask ${target?.host ?? "an invalid URL"}: not one of its hosts`,
    );
  let refused: string | undefined;
  const res = await ctx.net.request(url, {
    ...options,
    redirectAllowed: (next) => {
      const allowed = onEngineHosts(next, hosts);
      if (!allowed) refused = next.host;
      return allowed;
    },
  });
  if (!res.ok) {
    if (res.code === "redirect_refused" && refused)
      return offHost(
        engine,
        "off_host_redirect",
        `was redirected off its hosts, to ${refused}; not followed`,
      );
    return { ok: false, failure: transportFailure(engine, res) };
  }
  const final = parsed(res.finalUrl);
  if (!final || !onEngineHosts(final, hosts))
    return offHost(
      engine,
      "off_host_redirect",
      `answered from ${final?.host ?? "an invalid URL"}, not one of its hosts`,
    );
  return { ok: true, res };
}

function offHost(engine: string, code: string, reason: string): PinnedResult {
  return { ok: false, failure: { status: "error", code, message: `${engine} ${reason}` } };
}

function parsed(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

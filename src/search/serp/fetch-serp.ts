import type { Deadline } from "../../core/deadline.js";
import type { NetRequestOptions } from "../../net/client.js";
import type { ProviderContext, ProviderOutcome, ProviderQuery } from "../provider.js";
import { type EngineHosts, requestOnEngineHosts } from "./engine-hosts.js";
import { httpStatusFailure, type SerpParse, serpOutcome } from "./outcome.js";

export interface SerpRequest {
  engine: string;
  /** The engine's own hosts: the request, its redirects and its final URL stay on them. */
  hosts: EngineHosts;
  url: string;
  parse(html: string, finalUrl: string): SerpParse;
  /** Method, body, headers, locale: everything but the deadline. */
  options?: Omit<NetRequestOptions, "deadline">;
}

/** One GET/POST of a result page through net, on the engine's hosts, then its parser and the shared classification. */
export async function fetchSerp(
  request: SerpRequest,
  query: ProviderQuery,
  ctx: ProviderContext,
  deadline: Deadline,
): Promise<ProviderOutcome> {
  const pinned = await requestOnEngineHosts(
    request.engine,
    request.hosts,
    request.url,
    { ...request.options, deadline },
    ctx,
  );
  if (!pinned.ok) return pinned.failure;
  const res = pinned.res;
  // A challenge can come with 200 or 403 alike; a recognised challenge body names the block better than a status.
  const parsed = request.parse(res.text(), res.finalUrl);
  if (parsed.kind === "blocked") return serpOutcome(request.engine, parsed, query);
  return httpStatusFailure(request.engine, res) ?? serpOutcome(request.engine, parsed, query);
}

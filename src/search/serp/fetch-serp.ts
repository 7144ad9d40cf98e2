import type { Deadline } from "../../core/deadline.js";
import type { NetRequestOptions } from "../../net/client.js";
import type { ProviderContext, ProviderOutcome, ProviderQuery } from "../provider.js";
import { transportFailure } from "../providers/http-errors.js";
import { httpStatusFailure, type SerpParse, serpOutcome } from "./outcome.js";

export interface SerpRequest {
  engine: string;
  url: string;
  parse(html: string, finalUrl: string): SerpParse;
  /** Method, body, headers, locale: everything but the deadline. */
  options?: Omit<NetRequestOptions, "deadline">;
}

/** One GET/POST of a result page through net, then the engine's parser and the shared classification. */
export async function fetchSerp(
  request: SerpRequest,
  query: ProviderQuery,
  ctx: ProviderContext,
  deadline: Deadline,
): Promise<ProviderOutcome> {
  const res = await ctx.net.request(request.url, { ...request.options, deadline });
  if (!res.ok) return transportFailure(request.engine, res);
  // A challenge can come with 200 or 403 alike; a recognised challenge body names the block better than a status.
  const parsed = request.parse(res.text(), res.finalUrl);
  if (parsed.kind === "blocked") return serpOutcome(request.engine, parsed, query);
  return httpStatusFailure(request.engine, res) ?? serpOutcome(request.engine, parsed, query);
}

import { lazySchema } from "../core/lazy-zod.js";
import { optionalLine } from "../core/one-line.js";
import type { Failure } from "../core/status.js";
import type { NetResponse } from "../net/client.js";
import { httpFailure } from "./http-errors.js";
import { anyField, maybe } from "./json-fields.js";

/** Tavily's API, shared by its search provider and its page reader. */
export const TAVILY_API = "https://api.tavily.com";

export function tavilyHeaders(key: string | undefined): Record<string, string> {
  return { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json" };
}

const TavilyError = lazySchema((z) =>
  z.object({
    detail: maybe(z.union([z.string(), z.object({ error: anyField() })])),
  }),
);

/** Tavily's own codes: 432 is the plan's credit limit, 433 the pay-as-you-go limit; errors sit in detail.error. */
export function tavilyFailure(res: NetResponse): Failure {
  const body = TavilyError().safeParse(res.json()).data;
  const detail = optionalLine(typeof body?.detail === "string" ? body.detail : body?.detail?.error, 200);
  if (res.status === 432 || res.status === 433)
    return {
      status: "quota",
      code: "quota",
      message: `tavily: ${res.status === 432 ? "plan" : "pay-as-you-go"} limit reached (HTTP ${res.status})${detail ? `: ${detail}` : ""}`,
    };
  if (res.status === 401)
    return { status: "error", code: "key_rejected", message: "tavily: key rejected (HTTP 401)" };
  return httpFailure("tavily", res, detail);
}

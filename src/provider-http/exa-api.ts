import { lazySchema } from "../core/lazy-zod.js";
import { optionalLine } from "../core/one-line.js";
import type { Failure } from "../core/status.js";
import type { NetResponse } from "../net/client.js";
import { httpFailure } from "./http-errors.js";
import { anyField, maybeText } from "./json-fields.js";

/** Exa's API, shared by its search provider and its page reader. */
export const EXA_API = "https://api.exa.ai";

export function exaHeaders(key: string | undefined): Record<string, string> {
  return { "x-api-key": key ?? "", "content-type": "application/json", accept: "application/json" };
}

const ExaError = lazySchema((z) => z.object({ error: anyField(), tag: maybeText() }));

/** Exa errors carry `{requestId, error, tag}`; 402/403 mean the credits ran out. */
export function exaFailure(res: NetResponse): Failure {
  const body = ExaError().safeParse(res.json()).data;
  const tag = body?.tag;
  const detail = optionalLine(body?.error, 200) ?? tag;
  if (res.status === 401 || tag === "INVALID_API_KEY")
    return { status: "error", code: "key_rejected", message: `exa: key rejected (HTTP ${res.status})` };
  if (res.status === 402 || res.status === 403)
    return {
      status: "quota",
      code: "quota",
      message: `exa: credits exhausted (HTTP ${res.status})${detail ? `: ${detail}` : ""}`,
    };
  return httpFailure("exa", res, detail);
}

import type * as Zod from "zod";
import type { Deadline } from "../../core/deadline.js";
import type { Failure } from "../../core/status.js";
import type { NetRequestOptions, NetResponse } from "../../net/client.js";
import { DEFAULT_USER_AGENT } from "../../search/providers/wikipedia.js";
import { failureForStatus } from "../http-failure.js";
import { readerDrift, type SiteContext } from "./site-reader.js";

/**
 * Public APIs (Wikimedia's, crates.io's) ask for an agent that names the tool and a way to reach its operator,
 * and refuse generic library agents; websift's own is the one its Wikipedia search already sends.
 */
export const API_USER_AGENT = DEFAULT_USER_AGENT;

export type SiteFetch = { ok: true; res: NetResponse } | ({ ok: false } & Failure);

/**
 * One GET of a site's endpoint through the guarded client: a refusal, a rate limit or a server error is a
 * failure of its own (the ladder then reads the page), a missing page is `not_found`.
 */
export async function siteGet(
  ctx: SiteContext,
  url: string,
  deadline: Deadline,
  options: Omit<NetRequestOptions, "deadline"> = {},
): Promise<SiteFetch> {
  const res = await ctx.net.request(url, { ...options, deadline });
  if (!res.ok) return { ok: false, status: res.status, code: res.code, message: res.message };
  if (res.status === 404 || res.status === 410)
    return {
      ok: false,
      status: "error",
      code: "not_found",
      message: `${new URL(res.finalUrl).host} has no such page (HTTP ${res.status})`,
    };
  const failure = failureForStatus(res);
  return failure ? { ok: false, ...failure } : { ok: true, res };
}

export type Parsed<T> = { ok: true; value: T } | ({ ok: false } & Failure);

/**
 * A JSON answer read through its schema: a body that is not JSON, or JSON without the fields the reader uses,
 * is drift named by the reader and the first field that failed, never an empty page.
 */
export function parseJson<T>(reader: string, res: NetResponse, schema: () => Zod.ZodType<T>): Parsed<T> {
  const body = res.json();
  if (body === undefined) return readerDrift(reader, "the answer is not JSON");
  return parseBody(reader, body, schema);
}

/** Parsed JSON (or a part of it) read through its schema, a mismatch being drift as in `parseJson`. */
export function parseBody<T>(reader: string, body: unknown, schema: () => Zod.ZodType<T>): Parsed<T> {
  const parsed = schema().safeParse(body);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  const field = issue?.path.length ? issue.path.join(".") : "the answer";
  return readerDrift(reader, `${field}: ${issue?.message ?? "unexpected shape"}`);
}

import type { z } from "zod";
import type { Deadline } from "../../core/deadline.js";
import type { Failure } from "../../core/status.js";
import type { NetResponse } from "../../net/client.js";
import { failureForStatus } from "../http-failure.js";
import { readerDrift, type SiteContext } from "./site-reader.js";

/**
 * Public APIs (Wikimedia's, crates.io's) ask for an agent that names the tool and a way to reach its operator,
 * and refuse generic library agents; websift's own is the one its Wikipedia search already sends.
 */
export { DEFAULT_USER_AGENT as API_USER_AGENT } from "../../search/providers/wikipedia.js";

/** An API's answer or a watch page: a few MB at most; more is not the document a reader was written for. */
export const MAX_SITE_BYTES = 4 * 1024 * 1024;

/** A failure of a site's endpoint; `httpStatus` when the site answered (a 404 may mean "none", not "broken"). */
export type SiteFailure = { ok: false; httpStatus?: number } & Failure;
export type Fetched<T> = { ok: true; value: T; res: NetResponse } | SiteFailure;

export interface SiteRequest {
  headers?: Record<string, string>;
  /** The site's own reading of a non-2xx answer (GitHub's rate-limit headers, an API's error body), else none. */
  failure?: (res: NetResponse) => Failure | undefined;
  maxBytes?: number;
  /** Statuses outside 2xx that are answers all the same (416 for a Range over an empty file). */
  accept?: readonly number[];
  /** Where a redirect may lead (net refuses another hop with `redirect_refused`). */
  redirectAllowed?: (url: URL) => boolean;
}

/** A failure of a site's endpoint, as the ladder records it (only the fields of a `Failure`). */
export function siteFailure(f: Failure): SiteFailure {
  return {
    ok: false,
    status: f.status,
    code: f.code,
    message: f.message,
    ...(f.retryAfter !== undefined ? { retryAfter: f.retryAfter } : {}),
  };
}

/** One GET of a site's endpoint through net; a non-2xx answer is the site's failure, never a body to parse. */
export async function fetchSite(
  url: string,
  ctx: SiteContext,
  deadline: Deadline,
  request: SiteRequest = {},
): Promise<{ ok: true; res: NetResponse } | SiteFailure> {
  const res = await ctx.net.request(url, {
    deadline,
    ...(request.headers ? { headers: request.headers } : {}),
    ...(request.maxBytes ? { maxBytes: request.maxBytes } : {}),
    ...(request.redirectAllowed ? { redirectAllowed: request.redirectAllowed } : {}),
  });
  if (!res.ok) return siteFailure(res);
  if ((res.status < 200 || res.status >= 300) && !request.accept?.includes(res.status)) {
    const failure = request.failure?.(res) ?? failureForStatus(res);
    if (failure) return { ...siteFailure(failure), httpStatus: res.status };
  }
  return { ok: true, res };
}

/**
 * An API's JSON answer read with the schema of the fields the reader uses: a body that is not JSON, or lacks a
 * field the schema requires, is drift naming the reader and the field, so the ladder reads the page instead.
 */
export async function fetchSiteJson<S extends z.ZodType>(
  reader: string,
  url: string,
  ctx: SiteContext,
  deadline: Deadline,
  schema: () => S,
  request: SiteRequest = {},
): Promise<Fetched<z.output<S>>> {
  const got = await fetchSite(url, ctx, deadline, {
    ...request,
    headers: { accept: "application/json", ...request.headers },
  });
  if (!got.ok) return got;
  const parsed = parseSiteJson(reader, url, got.res.json(), schema);
  return parsed.ok ? { ...parsed, res: got.res } : parsed;
}

/**
 * A JSON body (or a part of one) the reader already holds, read with its schema as `fetchSiteJson` reads an
 * answer: `undefined` (no JSON) or a missing field is drift naming the reader, the endpoint and the field.
 */
export function parseSiteJson<S extends z.ZodType>(
  reader: string,
  url: string,
  body: unknown,
  schema: () => S,
): { ok: true; value: z.output<S> } | SiteFailure {
  if (body === undefined) return readerDrift(reader, `${endpointOf(url)} did not answer JSON`);
  const parsed = schema().safeParse(body);
  if (!parsed.success) return readerDrift(reader, `${endpointOf(url)}: ${firstIssue(parsed.error)}`);
  return { ok: true, value: parsed.data as z.output<S> };
}

/** What a schema missed, by the path of the first field that did not fit ("items.0.title: expected string"). */
function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "unexpected shape";
  const path = issue.path.length ? issue.path.join(".") : "the body";
  return `${path}: ${issue.message.toLowerCase()}`;
}

function endpointOf(url: string): string {
  const u = new URL(url);
  return `${u.host}${u.pathname}`;
}

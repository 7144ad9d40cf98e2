import type { Deadline } from "../../core/deadline.js";
import type { Failure } from "../../core/status.js";
import type { NetResponse } from "../../net/client.js";
import { failureForStatus } from "../http-failure.js";
import type { SiteContext } from "./site-reader.js";

// An API's answer or a watch page: a few MB at most; more is not the document a reader was written for.
const MAX_SITE_BYTES = 4 * 1024 * 1024;

export type SiteGet = { ok: true; res: NetResponse } | ({ ok: false } & Failure);

/** One GET of a site's endpoint through the guarded client: a transport failure or a non-2xx is a value. */
export async function siteGet(
  ctx: SiteContext,
  url: string,
  deadline: Deadline,
  accept: string,
): Promise<SiteGet> {
  const res = await ctx.net.request(url, { deadline, headers: { accept }, maxBytes: MAX_SITE_BYTES });
  if (!res.ok) return { ok: false, status: res.status, code: res.code, message: res.message };
  const failure = failureForStatus(res);
  return failure ? { ok: false, ...failure } : { ok: true, res };
}

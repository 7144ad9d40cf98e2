import type { Deadline } from "../../core/deadline.js";
import type { Failure } from "../../core/status.js";
import type { Net, NetResponse } from "../../net/client.js";
import { badResponse, transportFailure, withoutSecrets } from "../../search/providers/http-errors.js";

/** One page's text from a paid reading API, or why not. */
export type ProviderRead<S extends string> =
  | { ok: true; markdown: string; title?: string; source: S }
  | (Failure & { ok: false });

export interface KeyedReadSpec<S extends string> {
  source: S;
  keyEnv: string;
  endpoint: string;
  headers(key: string): Record<string, string>;
  body(url: string, deadline: Deadline): unknown;
  /** The provider's reading of a non-200 answer (quota, bad key, rate limit). */
  httpFailure(res: NetResponse): Failure;
  parse(body: unknown, url: string): ProviderRead<S>;
}

// Providers answer with the page's whole text; the reader sizes it afterwards.
const MAX_BYTES = 10 * 1024 * 1024;

/** POSTs one URL to the provider and parses the answer; the key never appears in what comes back. */
export async function keyedRead<S extends string>(
  spec: KeyedReadSpec<S>,
  url: string,
  ctx: { net: Net; env: Record<string, string | undefined> },
  deadline: Deadline,
): Promise<ProviderRead<S>> {
  const key = ctx.env[spec.keyEnv];
  if (!key)
    return failed({
      status: "disabled",
      code: "no_key",
      message: `${spec.source}: ${spec.keyEnv} is not set`,
    });
  const res = await ctx.net.request(spec.endpoint, {
    deadline,
    method: "POST",
    headers: spec.headers(key),
    body: JSON.stringify(spec.body(url, deadline)),
    maxBytes: MAX_BYTES,
  });
  if (!res.ok) return failed(withoutSecrets(transportFailure(spec.source, res), [key]));
  if (res.status !== 200) return failed(withoutSecrets(spec.httpFailure(res), [key]));
  const body = res.json();
  if (body === undefined) return failed(badResponse(spec.source, "a body that is not JSON"));
  return withoutSecrets(spec.parse(body, url), [key]);
}

/** The one result for `url` in a provider's list: matched by URL, or the only one there is. */
export function resultFor<T>(results: T[], matches: (r: T) => boolean): T | undefined {
  return results.find(matches) ?? (results.length === 1 ? results[0] : undefined);
}

export function noText(source: string, url: string): Failure & { ok: false } {
  return failed({
    status: "empty",
    code: "no_content",
    message: `${source} returned no text for ${hostOf(url)}`,
  });
}

export function failed(failure: Failure): Failure & { ok: false } {
  return { ...failure, ok: false };
}

export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "the page";
  }
}

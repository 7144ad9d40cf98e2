import type { Settings } from "../config/settings.js";
import type { Deadline } from "../core/deadline.js";
import type { Failure } from "../core/status.js";
import type { Net, NetResponse } from "../net/client.js";
import type { NetFailure } from "../net/failure.js";
import { badResponse, transportFailure, withoutSecrets } from "./http-errors.js";

/** One JSON request to a provider's API, as its provider file describes it. */
export interface KeyedJsonCall {
  /** Named in every failure (`brave`, `tavily-extract`). */
  provider: string;
  /** The variables its key may be in, first set wins; none for an API without a key (SearXNG). */
  keyEnv?: readonly string[];
  url: string;
  method?: "GET" | "POST";
  headers(key: string | undefined): Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  /** Bodies bigger than net's default (a reader's whole page). */
  maxBytes?: number;
  /** An operator-trusted origin (a self-hosted SearXNG). */
  trusted?: boolean;
  /** Run once the key is known and before the request; a failure answers instead (a rate slot, a bad setting). */
  before?(): Promise<Failure | undefined> | Failure | undefined;
  /** The provider's own reading of a transport failure; undefined leaves it to the shared one. */
  transportFailure?(failure: NetFailure): Failure | undefined;
  /** The provider's reading of an answer that is not 200 (its quota, key and rate-limit dialect). */
  failure(res: NetResponse): Failure;
}

export type KeyedJsonResult<T> = { ok: true; value: T } | { ok: false; failure: Failure };

/**
 * Key → request → failure → JSON, the sequence every API provider repeats: a missing key answers `disabled`
 * without a request, a transport failure or a non-200 answer is the provider's failure, a body that is not JSON
 * is `bad_response`, and `read` turns the JSON into the caller's value. The key is scrubbed from everything that
 * comes back, failures and value alike: providers echo keys in their error bodies.
 */
export async function keyedJson<T>(
  call: KeyedJsonCall,
  ctx: { net: Net; config: Pick<Settings, "keys"> },
  deadline: Deadline,
  read: (body: unknown) => T | Promise<T>,
): Promise<KeyedJsonResult<T>> {
  const names = call.keyEnv ?? [];
  const key = names.map((name) => ctx.config.keys[name]).find((value) => value);
  if (names.length && !key)
    return {
      ok: false,
      failure: { status: "disabled", code: "no_key", message: noKey(call.provider, names) },
    };
  const secrets = [key];
  const fail = (failure: Failure): KeyedJsonResult<T> => ({
    ok: false,
    failure: withoutSecrets(failure, secrets),
  });
  const refused = await call.before?.();
  if (refused) return fail(refused);
  const res = await ctx.net.request(call.url, {
    deadline,
    headers: call.headers(key),
    ...(call.method ? { method: call.method } : {}),
    ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
    ...(call.maxBytes !== undefined ? { maxBytes: call.maxBytes } : {}),
    ...(call.trusted ? { trusted: true } : {}),
  });
  if (!res.ok) return fail(call.transportFailure?.(res) ?? transportFailure(call.provider, res));
  if (res.status !== 200) return fail(call.failure(res));
  const body = res.json();
  if (body === undefined) return fail(badResponse(call.provider, "a body that is not JSON"));
  return { ok: true, value: withoutSecrets(await read(body), secrets) };
}

function noKey(provider: string, names: readonly string[]): string {
  if (names.length === 1) return `${provider}: ${names[0]} is not set`;
  return `${provider}: neither ${names.slice(0, -1).join(", ")} nor ${names[names.length - 1]} is set`;
}

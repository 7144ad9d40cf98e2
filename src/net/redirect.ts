const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
// Headers that may carry a credential: never forwarded to another origin on a redirect.
const ORIGIN_BOUND =
  /^(authorization|cookie|proxy-authorization|x-api-key|x-subscription-token|x-goog-api-key)$/i;
const BODY_HEADERS = /^content-(type|length)$/i;

/** The next hop a redirect asks for: where, with which method and which of the caller's headers. */
export interface RedirectHop {
  url: string;
  method: string;
  /** The caller's headers as the next hop may carry them; the same object when nothing was dropped. */
  headers: Record<string, string>;
}

/**
 * What a response asks of the next hop, as a pure function of the response and the request that got it:
 * undefined when it is no redirect (not a 3xx with a Location), `"invalid"` when its Location is no URL, else
 * the hop. The rules are the browsers' (Fetch §4.4): 303, and 301/302 after a POST, become a GET without the
 * body's headers; credentials stay with the origin that was given them. Whether the hop may be taken at all
 * (the address policy, the caller's hosts, loops, the count) is the caller's loop, which vets every hop.
 */
export function redirectHop(
  status: number,
  responseHeaders: Readonly<Record<string, string>>,
  method: string,
  callerHeaders: Record<string, string>,
  from: URL,
): RedirectHop | "invalid" | undefined {
  const location = responseHeaders.location;
  if (!REDIRECT_STATUSES.has(status) || !location) return undefined;
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    return "invalid";
  }
  let headers = callerHeaders;
  if (next.origin !== from.origin) headers = without(headers, ORIGIN_BOUND);
  if (status === 303 || ((status === 301 || status === 302) && method === "POST")) {
    method = "GET";
    headers = without(headers, BODY_HEADERS);
  }
  return { url: next.href, method, headers };
}

function without(headers: Record<string, string>, names: RegExp): Record<string, string> {
  let kept: Record<string, string> | undefined;
  for (const k in headers) {
    if (names.test(k)) kept ??= {};
  }
  if (!kept) return headers;
  for (const k in headers) if (!names.test(k)) kept[k] = headers[k];
  return kept;
}

import type { Failure } from "../core/status.js";
import type { NetResponse } from "../net/client.js";

/** Non-2xx answers are failures with the HTTP status, never text. Challenges are `blocked`, not `denied`. */
export function failureForStatus(res: NetResponse): Failure | undefined {
  const status = res.status;
  if (status >= 200 && status < 300) return undefined;
  const host = new URL(res.finalUrl).host;
  const message = `${host} answered HTTP ${status}`;
  const retry = res.retryAfter !== undefined ? { retryAfter: res.retryAfter } : {};
  if (status === 429)
    return {
      status: "rate_limited",
      code: "http_status",
      message: `${message} (too many requests)`,
      ...retry,
    };
  if ((status === 403 || status === 503) && isChallenge(res))
    return {
      status: "blocked",
      code: "challenge",
      message: `${host} answered with a bot challenge (HTTP ${status})`,
    };
  if (status === 401 || status === 403 || status === 407 || status === 451)
    return { status: "denied", code: "http_status", message: `${message} (access denied)` };
  return { status: "error", code: "http_status", message, ...retry };
}

function isChallenge(res: NetResponse): boolean {
  if (res.headers["cf-mitigated"] === "challenge") return true;
  const head = res.bytes.subarray(0, 20_000).toString("latin1");
  return /<title>\s*(just a moment|attention required|access denied)|captcha|challenge-platform/i.test(head);
}

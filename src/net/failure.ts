import { oneLine } from "../core/one-line.js";
import type { Failure } from "../core/status.js";
import { redactUrl, redactUrlsIn } from "./redact-url.js";

export const NET_CODES = [
  "blocked_url",
  "dns",
  "connect",
  "tls",
  "timeout",
  "too_large",
  "too_many_redirects",
  "redirect_refused",
  "http_status",
  "protocol",
  "offline",
  "cancelled",
] as const;
export type NetCode = (typeof NET_CODES)[number];
export type NetPhase = "dns" | "connect" | "headers" | "body";

/** Which bound a `too_large` (or a coding refused as too deep) tripped, and its value. */
export interface NetCap {
  name: "wire_bytes" | "announced_bytes" | "decoded_bytes" | "header_bytes" | "coding_layers";
  limit: number;
}

/** Every failure of the client is one of these values; nothing is thrown to the caller. */
export interface NetFailure extends Failure {
  ok: false;
  code: NetCode;
  /** The URL that failed (a redirect hop's, when a hop failed), credentials and key-like query values redacted. */
  url: string;
  phase?: NetPhase;
  httpStatus?: number;
  cap?: NetCap;
}

/** The response head's size limit (undici's maxHeaderSize), set on every agent of the client. */
export const MAX_HEADER_BYTES = 64 * 1024;

export function netFailure(
  code: NetCode,
  message: string,
  url: string,
  extra: Partial<Pick<NetFailure, "phase" | "httpStatus" | "retryAfter" | "cap">> = {},
): NetFailure {
  // Failures end up in attempts, envelopes and logs: no credential or key-like query value leaves in them.
  return {
    ok: false,
    status: statusOf(code, extra.httpStatus),
    code,
    message: redactUrlsIn(message),
    url: redactUrl(url),
    ...extra,
  };
}

function statusOf(code: NetCode, httpStatus?: number): NetFailure["status"] {
  if (code === "http_status" && httpStatus === 429) return "rate_limited";
  switch (code) {
    case "blocked_url":
      return "denied";
    case "timeout":
      return "timeout";
    case "offline":
      return "offline";
    case "too_large":
      return "unsupported";
    default:
      return "error";
  }
}

/** Raised inside the client's own machinery (connector, body reader) and turned into a NetFailure at the edge. */
export class NetError extends Error {
  constructor(
    readonly code: NetCode,
    message: string,
    readonly phase?: NetPhase,
    readonly cap?: NetCap,
    /** The status of a response refused after its head (a cap), for the failure's `httpStatus`. */
    readonly httpStatus?: number,
  ) {
    super(message);
    this.name = "NetError";
  }
}

const TLS_CODES = new Set([
  "CERT_HAS_EXPIRED",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "ERR_SSL_WRONG_VERSION_NUMBER",
  "ERR_TLS_HANDSHAKE_TIMEOUT",
  "CERT_NOT_YET_VALID",
]);

/** Maps what Node, undici and zlib throw to our vocabulary. The message stays one line and host-level only. */
export function classifyError(err: unknown, url: string, phase: NetPhase): NetFailure {
  if (err instanceof NetError)
    return netFailure(err.code, err.message, url, {
      phase: err.phase ?? phase,
      ...(err.cap ? { cap: err.cap } : {}),
      ...(err.httpStatus !== undefined ? { httpStatus: err.httpStatus } : {}),
    });
  const e = err as { code?: string; message?: string; cause?: unknown; name?: string };
  const code = e?.code ?? (e?.cause as { code?: string } | undefined)?.code ?? "";
  const host = safeHost(url);
  if (e?.cause instanceof NetError) return classifyError(e.cause, url, phase);
  if (code === "ENETUNREACH" || code === "EHOSTUNREACH" || code === "EAI_AGAIN" || code === "ENETDOWN")
    return netFailure("offline", `no network route to ${host} (${code}); the machine looks offline`, url, {
      phase,
    });
  if (code === "ENOTFOUND" || code === "ENODATA")
    return netFailure("dns", `the name ${host} does not resolve`, url, { phase: "dns" });
  if (code === "ECONNREFUSED") return netFailure("connect", `${host} refused the connection`, url, { phase });
  if (TLS_CODES.has(code) || /certificate|ssl|tls/i.test(e?.message ?? ""))
    return netFailure("tls", `TLS failed with ${host}: ${code || "handshake error"}`, url, { phase });
  if (code === "UND_ERR_HEADERS_OVERFLOW" || code === "HPE_HEADER_OVERFLOW")
    return netFailure("too_large", `${host} sent response headers larger than allowed`, url, {
      phase: "headers",
      cap: { name: "header_bytes", limit: MAX_HEADER_BYTES },
    });
  if (code === "UND_ERR_CONNECT_TIMEOUT")
    return netFailure("timeout", `timeout connecting to ${host}`, url, { phase: "connect" });
  if (code === "ECONNRESET" || code === "UND_ERR_SOCKET" || code === "EPIPE")
    return netFailure("protocol", `${host} closed the connection during ${phase}`, url, { phase });
  // undici's parser errors carry no code (it looks the number up in the wrong table), only their name.
  if (e?.name === "HTTPParserError")
    return netFailure("protocol", `malformed response from ${host}${parserReason(e.message)}`, url, {
      phase,
    });
  if (
    code.startsWith("UND_ERR_") ||
    code.startsWith("HPE_") ||
    code.startsWith("Z_") ||
    code.startsWith("ERR_")
  )
    return netFailure("protocol", `malformed response from ${host} (${code})`, url, { phase });
  return netFailure("connect", `request to ${host} failed: ${oneLine(e?.message ?? String(err), 200)}`, url, {
    phase,
  });
}

export function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "the server";
  }
}

/** "Response does not match the HTTP/1.1 protocol (Invalid character in chunk size)" → " (invalid character in chunk size)". */
function parserReason(message: string | undefined): string {
  const reason = /\(([^()]{1,100})\)\s*$/.exec(oneLine(message ?? "", 200))?.[1];
  return reason ? ` (${reason.charAt(0).toLowerCase()}${reason.slice(1)})` : "";
}

import { decodeText } from "./decode.js";

export interface NetResponse {
  ok: true;
  url: string;
  finalUrl: string;
  status: number;
  headers: Record<string, string>;
  redirects: string[];
  bytes: Buffer;
  /** Lower-cased media type without parameters ("text/html"). */
  contentType: string;
  /** Seconds to wait before asking again, from a Retry-After header (429, 503). */
  retryAfter?: number;
  ms: number;
  text(): string;
  json<T = unknown>(): T | undefined;
}

/** A class rather than an object literal with closures: one allocation per response on the hot path. */
export class Response implements NetResponse {
  readonly ok = true as const;
  readonly contentType: string;
  readonly retryAfter?: number;
  private decoded: string | undefined;

  constructor(
    readonly url: string,
    readonly finalUrl: string,
    readonly status: number,
    readonly headers: Record<string, string>,
    readonly redirects: string[],
    readonly bytes: Buffer,
    readonly ms: number,
    retryAfter?: number,
  ) {
    this.contentType = mediaType(headers["content-type"]);
    if (retryAfter !== undefined) this.retryAfter = retryAfter;
  }

  text(): string {
    this.decoded ??= decodeText(this.bytes, this.headers["content-type"]).text;
    return this.decoded;
  }

  json<T = unknown>(): T | undefined {
    try {
      return JSON.parse(this.text()) as T;
    } catch {
      return undefined;
    }
  }
}

function mediaType(header: string | undefined): string {
  if (!header) return "";
  const semicolon = header.indexOf(";");
  return (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase();
}

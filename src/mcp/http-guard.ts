import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

/**
 * Checks run on every HTTP request before MCP sees it. A local MCP server is a target for DNS rebinding: a web
 * page the user visits resolves its own name to 127.0.0.1 and posts to us, so its requests carry a foreign
 * Host and Origin. Only names of this very listener pass.
 */
export interface HttpGuardConfig {
  /** host:port spellings this server answers to. */
  hosts: string[];
  /** Origins allowed to call from a browser (none by default: MCP clients are not web pages). */
  origins: string[];
  token?: string;
}

export type GuardVerdict = { ok: true } | { ok: false; status: 401 | 403; reason: string };

const LOOPBACK = ["127.0.0.1", "localhost", "[::1]"];

export function isLoopbackHost(host: string): boolean {
  return host === "127.0.0.1" || host === "localhost" || host === "::1";
}

/** The Host values a listener on `host:port` answers to. */
export function allowedHosts(host: string, port: number): string[] {
  const names = isLoopbackHost(host) ? LOOPBACK : [host.includes(":") ? `[${host}]` : host];
  return names.map((n) => `${n}:${port}`);
}

export function checkRequest(req: IncomingMessage, config: HttpGuardConfig): GuardVerdict {
  const host = (req.headers.host ?? "").toLowerCase();
  if (!config.hosts.includes(host)) return { ok: false, status: 403, reason: "Host not allowed" };
  const origin = req.headers.origin;
  if (origin !== undefined && !config.origins.includes(origin.toLowerCase()))
    return { ok: false, status: 403, reason: "Origin not allowed" };
  if (config.token !== undefined && !bearerMatches(req.headers.authorization, config.token))
    return { ok: false, status: 401, reason: "missing or wrong bearer token" };
  return { ok: true };
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(header ?? "");
  if (!m?.[1]) return false;
  const given = Buffer.from(m[1].trim());
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}

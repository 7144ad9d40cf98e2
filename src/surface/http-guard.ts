import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { networkInterfaces } from "node:os";

/**
 * Checks run on every HTTP request before MCP sees it. A local MCP server is a target for DNS rebinding: a web
 * page the user visits resolves its own name to 127.0.0.1 and posts to us, so its requests carry a foreign
 * Host and Origin. Only names of this very listener (and those the operator adds) pass.
 */
export interface HttpGuardConfig {
  /** host:port spellings this server answers to, or a bare name for any port (see `hostMatches`). */
  hosts: string[];
  /** Origins allowed to call from a browser (none by default: MCP clients are not web pages). */
  origins: string[];
  token?: string;
}

export type GuardVerdict = { ok: true } | { ok: false; status: 401 | 403; reason: string };

const LOOPBACK = ["127.0.0.1", "localhost", "[::1]"];
const WILDCARD = new Set(["0.0.0.0", "::", "[::]"]);

export function isLoopbackHost(host: string): boolean {
  return host === "127.0.0.1" || host === "localhost" || host === "::1" || host === "[::1]";
}

export function isWildcardHost(host: string): boolean {
  return WILDCARD.has(host);
}

/**
 * The Host values a listener bound to `host` on `port` answers to: its own name, or, bound to every interface,
 * the name of each local address (such a listener needs a token anyway).
 */
export function allowedHosts(host: string, port: number): string[] {
  if (isLoopbackHost(host)) return LOOPBACK.map((n) => `${n}:${port}`);
  if (isWildcardHost(host)) return everyLocalName(port);
  return [`${host.includes(":") && !host.startsWith("[") ? `[${host}]` : host}:${port}`.toLowerCase()];
}

function everyLocalName(port: number): string[] {
  const names = [...LOOPBACK];
  for (const list of Object.values(networkInterfaces()))
    for (const iface of list ?? [])
      names.push(iface.family === "IPv6" ? `[${iface.address}]` : iface.address);
  return [...new Set(names)].map((n) => `${n}:${port}`.toLowerCase());
}

/** The guard of a listener: its own names, the operator's extra hosts and origins, the token. */
export function guardFor(
  host: string,
  port: number,
  extra: { hosts?: string[]; origins?: string[]; token?: string },
): HttpGuardConfig {
  const hosts = [
    ...allowedHosts(host, port),
    ...(extra.hosts ?? []).map((h) => h.trim().toLowerCase()).filter(Boolean),
  ];
  return {
    hosts,
    origins: [
      ...hosts.map((h) => `http://${h}`),
      ...(extra.origins ?? []).map((o) => o.trim().toLowerCase().replace(/\/+$/, "")).filter(Boolean),
    ],
    token: extra.token,
  };
}

/**
 * An allowed entry with a port matches that Host exactly; a bare name matches it on any port, since behind a
 * container's port mapping or a proxy the port the client dialled is not the one we listen on.
 */
function hostMatches(host: string, allowed: string[]): boolean {
  if (allowed.includes(host)) return true;
  const name = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.replace(/:\d+$/, "");
  return allowed.includes(name);
}

export function checkRequest(req: IncomingMessage, config: HttpGuardConfig): GuardVerdict {
  const host = (req.headers.host ?? "").toLowerCase();
  if (!hostMatches(host, config.hosts))
    return {
      ok: false,
      status: 403,
      reason: `Host not allowed: ${host || "(none)"} is not a name of this server (add it with --allow-host)`,
    };
  const origin = req.headers.origin;
  if (origin !== undefined && !config.origins.includes(origin.toLowerCase()))
    return { ok: false, status: 403, reason: "Origin not allowed (add it with --allow-origin)" };
  if (config.token !== undefined && !sameToken(bearerToken(req.headers.authorization), config.token))
    return { ok: false, status: 401, reason: "missing or wrong bearer token" };
  return { ok: true };
}

/** What the MCP server says wherever a client may look: a 401's body and header, and every OAuth endpoint. */
export const MISSING_TOKEN =
  "missing or wrong bearer token: this server takes a static token, not OAuth; put the header 'Authorization: Bearer <WEBSIFT_MCP_TOKEN>' in the client's config for this server";

/** For a 401: the scheme, and the reason in RFC 6750's attributes (ASCII, no quotes inside). */
export const WWW_AUTHENTICATE = `Bearer realm="websift", error="invalid_token", error_description="${MISSING_TOKEN.replace(/'/g, "")}"`;

/** The token of an `Authorization: Bearer <token>` header, trimmed; undefined without one. */
export function bearerToken(header: string | undefined): string | undefined {
  return /^Bearer\s+(.+)$/i.exec(header ?? "")?.[1]?.trim();
}

/** Whether a token given matches the one wanted, in time that does not depend on the tokens' content. */
export function sameToken(given: string | undefined, want: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(want);
  return a.length === b.length && timingSafeEqual(a, b);
}

import { vetAddress } from "./address-policy.js";
import { BAD_PORTS, vetHostname } from "./host-policy.js";

const IPV4_DOTTED = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

export type Resolve = (hostname: string) => Promise<string[]>;

export type UrlVerdict =
  | { ok: true; url: URL; hostname: string; literal?: string }
  | { ok: false; code: "blocked_url"; reason: string };

/**
 * Rule 1: everything that can be decided from the URL alone. The WHATWG parser turns `http://2130706433/`,
 * `http://0x7f.1/` and `http://127.1/` into the dotted IPv4 they really are, so one check sees them all.
 */
export function checkUrl(raw: string | URL): UrlVerdict {
  let url: URL;
  try {
    url = typeof raw === "string" ? new URL(raw) : new URL(raw.href);
  } catch {
    return refuse("not a valid absolute URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return refuse(`the ${url.protocol.replace(":", "")} scheme is not allowed (only http and https)`);
  if (url.username || url.password) return refuse("URLs with embedded credentials (user:pass@) are refused");
  const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
  if (BAD_PORTS.has(port)) return refuse(`port ${port} is on the browsers' list of blocked ports`);
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  // The WHATWG parser leaves an IPv4 host in dotted-decimal form and an IPv6 host in brackets, so these two
  // cheap tests find every literal (node:net's isIP runs a large IPv6 regex on every name).
  if (hostname.includes(":") || IPV4_DOTTED.test(hostname)) {
    const verdict = vetAddress(hostname);
    if (!verdict.ok) return refuse(verdict.reason);
    return { ok: true, url, hostname, literal: hostname };
  }
  const named = vetHostname(hostname);
  if (!named.ok) return refuse(named.reason);
  return { ok: true, url, hostname };
}

/**
 * Rule 2: every address the name resolves to must be public. A record set that mixes public and private
 * answers is refused whole: picking the public one would leave a rebinding attacker the other.
 */
export function vetAddresses(
  hostname: string,
  addresses: string[],
): { ok: true } | { ok: false; reason: string } {
  if (addresses.length === 0) return { ok: false, reason: `${hostname} resolved to no address` };
  for (const address of addresses) {
    const verdict = vetAddress(address);
    if (!verdict.ok)
      return { ok: false, reason: `${hostname} resolves to a refused address (${verdict.reason})` };
  }
  return { ok: true };
}

function refuse(reason: string): { ok: false; code: "blocked_url"; reason: string } {
  return { ok: false, code: "blocked_url", reason };
}

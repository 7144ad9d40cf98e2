import ipaddr from "ipaddr.js";

export type AddressVerdict = { ok: true } | { ok: false; reason: string };

/**
 * Only ordinary global unicast may be dialled. ipaddr.js names the special ranges; anything it does not call
 * plain `unicast` is refused, and IPv6 forms that carry an IPv4 address inside are judged by that IPv4.
 */
export function vetAddress(address: string): AddressVerdict {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.replace(/^\[|\]$/g, ""));
  } catch {
    return { ok: false, reason: `${address} is not an IP address` };
  }
  return parsed.kind() === "ipv4" ? vetIPv4(parsed as ipaddr.IPv4) : vetIPv6(parsed as ipaddr.IPv6);
}

function vetIPv4(ip: ipaddr.IPv4): AddressVerdict {
  const range = ip.range();
  if (range === "unicast") return { ok: true };
  return { ok: false, reason: `${ip.toString()} is a ${describe(range)} address` };
}

function vetIPv6(ip: ipaddr.IPv6): AddressVerdict {
  const parts = ip.parts;
  const range = ip.range();
  const embedded = embeddedIPv4(ip, range);
  if (embedded) {
    for (const v4 of embedded) {
      const verdict = vetIPv4(v4);
      if (!verdict.ok)
        return { ok: false, reason: `${ip.toString()} carries a refused IPv4 inside (${verdict.reason})` };
    }
    return { ok: true };
  }
  if (range !== "unicast") return { ok: false, reason: `${ip.toString()} is a ${describe(range)} address` };
  // Global unicast is 2000::/3; everything else unassigned is not somewhere a page should send us.
  if ((parts[0] & 0xe000) !== 0x2000) return { ok: false, reason: `${ip.toString()} is not global unicast` };
  return { ok: true };
}

/** IPv4 addresses carried by IPv4-mapped, IPv4-compatible, NAT64, 6to4 and Teredo forms. */
function embeddedIPv4(ip: ipaddr.IPv6, range: string): ipaddr.IPv4[] | undefined {
  const p = ip.parts;
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  if (range === "ipv4Mapped" || range === "rfc6145") return [v4(p[6], p[7])];
  if (range === "rfc6052" && p[2] === 0) return [v4(p[6], p[7])]; // 64:ff9b::/96 (well-known NAT64)
  if (range === "6to4") return [v4(p[1], p[2])];
  if (range === "teredo") return [v4(p[2], p[3]), v4(p[6] ^ 0xffff, p[7] ^ 0xffff)];
  // IPv4-compatible ::a.b.c.d (deprecated, still routed by some stacks); :: and ::1 are caught as their own ranges.
  if (range === "unicast" && p.slice(0, 6).every((x) => x === 0)) return [v4(p[6], p[7])];
  return undefined;
}

const NAMES: Record<string, string> = {
  unspecified: "unspecified",
  broadcast: "broadcast",
  multicast: "multicast",
  linkLocal: "link-local",
  loopback: "loopback",
  carrierGradeNat: "carrier-grade NAT (100.64/10)",
  private: "private-network",
  reserved: "reserved or documentation",
  uniqueLocal: "unique-local (fc00::/7)",
  deprecatedSiteLocal: "site-local (fec0::/10)",
  rfc6052: "local-use NAT64",
  benchmarking: "benchmarking",
};

function describe(range: string): string {
  return NAMES[range] ?? `special-purpose (${range})`;
}

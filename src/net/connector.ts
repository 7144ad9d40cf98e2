import { isIP } from "node:net";
import { buildConnector } from "undici";
import { NetError } from "./failure.js";
import { trustContext } from "./trust.js";

/** Where a vetted connection really goes; production dials the address itself. */
export interface DialTarget {
  hostname: string;
  address: string;
  port: number;
  protocol: string;
}
export type ConnectTo = (target: DialTarget) => { host: string; port: number };

/**
 * Addresses that passed the policy, per host name. The client fills it right after vetting; the connector
 * reads it at connect time and dials only what is here, so the socket never follows a second resolution.
 */
export class VettedAddresses {
  private readonly table = new Map<string, { addresses: string[]; at: number }>();
  constructor(private readonly maxEntries = 2000) {}

  set(hostname: string, addresses: string[]): void {
    this.table.delete(hostname);
    this.table.set(hostname, { addresses, at: Date.now() });
    if (this.table.size > this.maxEntries) this.table.delete(this.table.keys().next().value as string);
  }

  /** Addresses still fresh enough to reuse without a new lookup. */
  fresh(hostname: string, maxAgeMs: number): string[] | undefined {
    const entry = this.table.get(hostname);
    return entry && Date.now() - entry.at <= maxAgeMs ? entry.addresses : undefined;
  }

  any(hostname: string): string[] | undefined {
    return this.table.get(hostname)?.addresses;
  }
}

/**
 * Sockets still connecting, per host name. undici lets an aborted request wait for its connection to finish
 * (up to the connect timeout), so when a deadline strikes while connecting, the client ends these itself.
 */
export class ConnectingSockets {
  private readonly byHost = new Map<string, Set<{ destroy(error?: Error): void }>>();

  add(hostname: string, socket: { destroy(error?: Error): void }): () => void {
    const set = this.byHost.get(hostname) ?? new Set();
    this.byHost.set(hostname, set);
    set.add(socket);
    return () => {
      set.delete(socket);
      if (set.size === 0 && this.byHost.get(hostname) === set) this.byHost.delete(hostname);
    };
  }

  has(hostname: string): boolean {
    return this.byHost.has(hostname);
  }

  /** Ends every connection attempt to `hostname` that has not completed yet. */
  abandon(hostname: string, reason: Error): void {
    const set = this.byHost.get(hostname);
    if (!set) return;
    this.byHost.delete(hostname);
    for (const socket of set) socket.destroy(reason);
  }
}

export function pinnedConnector(
  vetted: VettedAddresses,
  options: { connectTo?: ConnectTo; ca?: string | string[]; connectTimeoutMs?: number },
  connecting?: ConnectingSockets,
): buildConnector.connector {
  const base = buildConnector({
    ...trustContext(options.ca),
    timeout: options.connectTimeoutMs ?? 30_000,
  });
  return (opts, callback) => {
    const hostname = opts.hostname.replace(/^\[|\]$/g, "");
    const literal = isIP(hostname) !== 0;
    const addresses = literal ? [hostname] : vetted.any(hostname);
    if (!addresses?.length) {
      // Fail closed: a connection for a name nobody vetted means a path around the guard.
      callback(new NetError("blocked_url", `no vetted address for ${hostname}`, "connect"), null);
      return;
    }
    const port = Number(opts.port) || (opts.protocol === "https:" ? 443 : 80);
    const ordered = literal ? addresses : preferIPv4(addresses);
    // Every address tried is one that was vetted; the next is tried only when this one is plainly unusable
    // (no route, refused), as browsers do, so a dual-stack name still works on an IPv4-only machine.
    const attempt = (index: number) => {
      const address = ordered[index];
      const target = options.connectTo
        ? options.connectTo({ hostname, address, port, protocol: opts.protocol })
        : { host: address, port };
      let done: (() => void) | undefined;
      let finished = false;
      const socket = base(
        {
          ...opts,
          hostname: target.host,
          port: String(target.port),
          servername: literal ? undefined : (opts.servername ?? hostname),
        },
        (err, connected) => {
          finished = true;
          done?.();
          const code = (err as { code?: string } | null)?.code;
          if (err && code && FALL_THROUGH.has(code) && index + 1 < ordered.length) return attempt(index + 1);
          callback(err, connected as never);
        },
      );
      if (connecting && socket && !finished) done = connecting.add(hostname, socket);
    };
    attempt(0);
  };
}

const FALL_THROUGH = new Set([
  "ENETUNREACH",
  "EHOSTUNREACH",
  "EADDRNOTAVAIL",
  "EAFNOSUPPORT",
  "ECONNREFUSED",
]);

/** IPv4 first: many machines resolve AAAA records they have no route for. The rest keep their order. */
function preferIPv4(addresses: string[]): string[] {
  const v4 = addresses.filter((a) => isIP(a) === 4);
  return v4.length === 0 || v4.length === addresses.length
    ? addresses
    : [...v4, ...addresses.filter((a) => isIP(a) !== 4)];
}

import { isIP } from "node:net";
import type { buildConnector } from "undici";
import { NetError } from "./failure.js";
import { trustContext } from "./trust.js";
import { loadUndici } from "./undici.js";

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
 * Sockets still connecting, per call. undici lets an aborted request wait for its connection to finish (up to
 * the connect timeout), so when a call's deadline strikes while it is connecting, the client ends the attempt
 * itself. Only that call's own attempts: ending every attempt to the host also failed other calls to it that
 * still had time.
 *
 * undici calls the connector synchronously inside `dispatch()` when the request needs a new connection, so the
 * client names the call in `owner` around that dispatch and the connector tags what it opens with it. An attempt
 * made later (a reconnect for a queued request) belongs to no single call and is left to its connect timeout.
 */
export class ConnectingSockets {
  /** The call whose dispatch is running right now, if any. */
  owner: object | undefined;
  private readonly byOwner = new Map<object, Set<{ destroy(error?: Error): void }>>();

  /** Tracks `socket` for the current owner; returns the function that forgets it once it has connected. */
  add(socket: { destroy(error?: Error): void }): () => void {
    const owner = this.owner;
    if (owner === undefined) return () => {};
    let set = this.byOwner.get(owner);
    if (!set) {
      set = new Set();
      this.byOwner.set(owner, set);
    }
    set.add(socket);
    const own = set;
    return () => {
      own.delete(socket);
      if (own.size === 0 && this.byOwner.get(owner) === own) this.byOwner.delete(owner);
    };
  }

  /** Whether `owner` has a connection attempt under way. */
  has(owner: object): boolean {
    return this.byOwner.has(owner);
  }

  /** Ends the connection attempts that `owner`'s dispatch started and that have not completed yet. */
  abandon(owner: object, reason: Error): void {
    const set = this.byOwner.get(owner);
    if (!set) return;
    this.byOwner.delete(owner);
    for (const socket of set) socket.destroy(reason);
  }
}

export function pinnedConnector(
  vetted: VettedAddresses,
  options: {
    connectTo?: ConnectTo;
    ca?: string | string[];
    extraCaCertsFile?: string;
    connectTimeoutMs?: number;
  },
  connecting?: ConnectingSockets,
): buildConnector.connector {
  const base = loadUndici().buildConnector({
    ...trustContext(options.ca, options.extraCaCertsFile),
    timeout: options.connectTimeoutMs ?? 30_000,
  });
  return (opts, callback) => {
    const hostname = opts.hostname.replace(/^\[|\]$/g, "");
    // Read now: the owner is set only while the dispatch that called us runs.
    const owner = connecting?.owner;
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
      if (connecting && socket && !finished) {
        const current = connecting.owner;
        connecting.owner = owner;
        done = connecting.add(socket);
        connecting.owner = current;
      }
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

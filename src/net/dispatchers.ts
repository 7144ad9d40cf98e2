import type { Agent, Dispatcher, ProxyAgent } from "undici";
import {
  type ConnectingSockets,
  type ConnectTo,
  pinnedConnector,
  type VettedAddresses,
} from "./connector.js";
import { MAX_HEADER_BYTES } from "./failure.js";
import { interimTolerantFactory } from "./interim-responses.js";
import { type ProxySettings, proxyFor } from "./proxy.js";
import { trustContext } from "./trust.js";
import { loadUndici } from "./undici.js";

export interface DispatcherConfig {
  connectTo?: ConnectTo;
  ca?: string | string[];
  /** NODE_EXTRA_CA_CERTS, read with the settings: joined to `ca` when that replaces Node's store. */
  extraCaCertsFile?: string;
}

/**
 * Which undici dispatcher carries a hop: the proxy's agent when HTTP(S)_PROXY covers the URL, the trusted agent
 * for an operator-trusted origin that asked for it, else the direct agent. Each dials through the pinned
 * connector of its own pin table (trusted origins' private addresses must never be reused for an untrusted
 * request to the same name), and every one parses through the interim-tolerant factory.
 */
export class Dispatchers {
  private readonly direct: Agent;
  private trustedAgent: Agent | undefined;
  private readonly proxies = new Map<string, ProxyAgent>();

  constructor(
    private readonly config: DispatcherConfig,
    private readonly proxyEnv: ProxySettings,
    vetted: VettedAddresses,
    private readonly trustedPins: VettedAddresses,
    private readonly connecting: ConnectingSockets,
  ) {
    const { Agent } = loadUndici();
    this.direct = new Agent({
      connect: pinnedConnector(vetted, config, connecting),
      factory: interimTolerantFactory,
      maxHeaderSize: MAX_HEADER_BYTES,
    });
  }

  /** `trustedOrigin`: the call asked for trust and its origin is one the operator configured. */
  for(url: URL, trustedOrigin: boolean): Dispatcher {
    const proxy = proxyFor(url, this.proxyEnv);
    if (!proxy && trustedOrigin) {
      const { Agent } = loadUndici();
      this.trustedAgent ??= new Agent({
        connect: pinnedConnector(this.trustedPins, this.config, this.connecting),
        factory: interimTolerantFactory,
        maxHeaderSize: MAX_HEADER_BYTES,
      });
      return this.trustedAgent;
    }
    if (!proxy) return this.direct;
    let agent = this.proxies.get(proxy);
    if (!agent) {
      const tls = trustContext(this.config.ca, this.config.extraCaCertsFile);
      // proxyTunnel false: plain http goes to the proxy in absolute form, as curl and browsers send it; many
      // corporate proxies refuse CONNECT to port 80. https is always tunnelled.
      const { ProxyAgent } = loadUndici();
      agent = new ProxyAgent({
        uri: proxy,
        requestTls: tls,
        proxyTls: tls,
        proxyTunnel: false,
        factory: interimTolerantFactory,
        maxHeaderSize: MAX_HEADER_BYTES,
      });
      this.proxies.set(proxy, agent);
    }
    return agent;
  }

  /** A graceful close waits for requests in flight; a hostile peer must not hold the caller's shutdown. */
  async close(): Promise<void> {
    const all: Dispatcher[] = [
      this.direct,
      ...this.proxies.values(),
      ...(this.trustedAgent ? [this.trustedAgent] : []),
    ];
    const graceful = Promise.allSettled(all.map((d) => d.close()));
    const late = await Promise.race([graceful.then(() => false), sleep(1000).then(() => true)]);
    if (late) await Promise.allSettled(all.map((d) => d.destroy()));
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

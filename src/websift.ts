import { createNet, type Net, type NetConfig } from "./net/client.js";
import { MemoryStore, type Store } from "./store/store.js";

export interface WebsiftConfig extends NetConfig {
  /** Shared state (cache, cooldowns, rate limits); memory by default. */
  store?: Store;
}

export interface Websift {
  readonly net: Net;
  readonly store: Store;
  close(): Promise<void>;
}

/** The library's front door; search, read and answer hang off this object. */
export function createWebsift(config: WebsiftConfig = {}): Websift {
  const net = createNet(config);
  const store = config.store ?? new MemoryStore();
  return {
    net,
    store,
    async close() {
      await net.close();
      await store.close();
    },
  };
}

import { createNet, type Net } from "../../../src/net/client.js";
import type { ProviderContext } from "../../../src/search/provider.js";
import { MemoryStore } from "../../../src/store/store.js";
import type { SimWeb } from "../../simweb/index.js";

/** A provider context whose net is the production client routed to the simulated web. */
export function simContext(
  sim: SimWeb,
  settings: Record<string, unknown> = {},
): ProviderContext & { net: Net } {
  return {
    net: createNet(sim.netConfig),
    env: {},
    store: new MemoryStore(),
    log: () => {},
    settings,
  };
}

import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { settingsFromEnv } from "../../../src/config/load.js";
import { createNet, type Net } from "../../../src/net/client.js";
import type { ProviderContext } from "../../../src/search/provider.js";
import { MemoryStore } from "../../../src/store/store.js";
import { type SimWeb, startSimWeb } from "../../simweb/index.js";

/** A provider context whose net is the production client routed to the simulated web. */
export function simContext(
  sim: SimWeb,
  settings: Record<string, unknown> = {},
): ProviderContext & { net: Net } {
  return {
    net: createNet(sim.netConfig),
    config: settingsFromEnv({}),
    store: new MemoryStore(),
    log: () => {},
    settings,
  };
}

/** One simulated web per file, reset before each test, and a fresh provider context per test (its net closed after). */
export function useSimProviders(): { readonly sim: SimWeb; readonly ctx: ProviderContext & { net: Net } } {
  const state = {} as { sim: SimWeb; ctx: ProviderContext & { net: Net } };
  beforeAll(async () => {
    state.sim = await startSimWeb();
  });
  afterAll(async () => {
    await state.sim.close();
  });
  beforeEach(() => {
    state.sim.reset();
    state.ctx = simContext(state.sim);
  });
  afterEach(async () => {
    await state.ctx.net.close();
  });
  return state;
}

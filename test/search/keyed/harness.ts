import { readFileSync } from "node:fs";
import { settingsFromEnv } from "../../../src/config/load.js";
import { createNet, type Net } from "../../../src/net/client.js";
import type { ProviderContext } from "../../../src/search/provider.js";
import { MemoryStore, type Store } from "../../../src/store/store.js";
import { type SimWeb, startSimWeb } from "../../simweb/index.js";

/** test/fixtures/providers/<rel> (provenance in its README). */
export function fixtureText(rel: string): string {
  return readFileSync(new URL(`../../fixtures/providers/${rel}`, import.meta.url), "utf8");
}

export function fixtureJson(rel: string): unknown {
  return JSON.parse(fixtureText(rel));
}

export interface Harness {
  sim: SimWeb;
  net: Net;
  logs: string[];
  ctx(
    env: Record<string, string | undefined>,
    extra?: { store?: Store; settings?: Record<string, unknown> },
  ): ProviderContext;
  close(): Promise<void>;
}

/** The simulated web plus the production net client routed to it, and a context whose log lines are kept. */
export async function startHarness(): Promise<Harness> {
  const sim = await startSimWeb();
  const net = createNet(sim.netConfig);
  const logs: string[] = [];
  return {
    sim,
    net,
    logs,
    ctx: (env, extra = {}) => ({
      net,
      config: settingsFromEnv(env),
      store: extra.store ?? new MemoryStore(),
      log: (m) => logs.push(m),
      // As createWebsift builds it: the loader's provider tuning (BRAVE_RATE_PER_SEC), the caller's over it.
      settings: { ...settingsFromEnv(env).search.tuning, ...extra.settings },
    }),
    async close() {
      await net.close();
      await sim.close();
    },
  };
}

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) => ({
  status,
  headers: { "content-type": "application/json", ...headers },
  body: typeof body === "string" ? body : JSON.stringify(body),
});

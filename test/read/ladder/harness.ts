import { settingsFromEnv } from "../../../src/config/load.js";
import { createNet, type Net } from "../../../src/net/client.js";
import type { ReadContext } from "../../../src/read/read.js";
import { MemoryStore } from "../../../src/store/store.js";
import { type SimWeb, startSimWeb } from "../../simweb/index.js";

/** The production net and a memory store against the simulated web: what read() gets in real use. */
export interface ReadHarness {
  sim: SimWeb;
  net: Net;
  logs: string[];
  ctx(env?: Record<string, string | undefined>): ReadContext;
  close(): Promise<void>;
}

export async function startReadHarness(): Promise<ReadHarness> {
  const sim = await startSimWeb();
  const net = createNet(sim.netConfig);
  const logs: string[] = [];
  return {
    sim,
    net,
    logs,
    ctx: (env = {}) => ({
      net,
      store: new MemoryStore(),
      config: settingsFromEnv(env),
      log: (m) => logs.push(m),
    }),
    async close() {
      await net.close();
      await sim.close();
    },
  };
}

export const html = (body: string, head = "") => ({
  headers: { "content-type": "text/html; charset=utf-8" },
  body: `<!doctype html><html lang="en"><head>${head}</head><body>${body}</body></html>`,
});

/** An article long enough to be content, not a shell. */
export function article(title: string, paragraphs: string[]): string {
  return `<header><nav><a href="/">Home</a> <a href="/about">About</a></nav></header>
<main><article><h1>${title}</h1>${paragraphs.map((p) => `<p>${p}</p>`).join("\n")}</article></main>
<footer>© Example</footer>`;
}

export const PARAGRAPHS = [
  "The harbour at Lowmouth was rebuilt in 1922 after a winter storm destroyed the old wooden piers and most of the fleet moored behind them.",
  "Engineers chose granite from the quarry upriver, and the new breakwater was finished in three summers by crews who lived in huts on the shore.",
  "Trade returned within a decade: coal went out, timber and grain came in, and the fish market moved from the beach to a covered hall by the quay.",
  "Today the harbour is used mostly by small boats, though the lifeboat station built in 1931 still launches several times each year.",
];

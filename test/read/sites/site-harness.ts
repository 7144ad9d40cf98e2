import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { closePagePool } from "../../../src/read/page-pool.js";
import type { Websift } from "../../../src/websift.js";
import { connectInProcess, websiftFor } from "../../mcp/harness.js";
import { type SimWeb, startSimWeb } from "../../simweb/index.js";
import { type ReadHarness, startReadHarness } from "../ladder/harness.js";

/**
 * The setup every site reader's test file shares, as hooks of the file that calls it: the simulated web starts
 * before its first test (not when the file is collected, so a filtered-out file starts nothing), each test finds
 * no routes, requests or logs of the one before, and everything is closed after the last, the page pool too
 * (a reader's README or a fallback page may have started it).
 */

function started<T>(value: T | undefined): T {
  if (value === undefined) throw new Error("the site harness starts in beforeAll: use it inside a test");
  return value;
}

/** read() against the simulated web, with the production net and a memory store a context. */
export function useReadHarness(): Omit<ReadHarness, "close"> {
  let h: ReadHarness | undefined;
  beforeAll(async () => {
    h = await startReadHarness();
  });
  afterAll(async () => {
    await h?.close();
    await closePagePool();
  });
  beforeEach(() => {
    started(h).sim.reset();
    started(h).logs.length = 0;
  });
  return {
    get sim() {
      return started(h).sim;
    },
    get net() {
      return started(h).net;
    },
    get logs() {
      return started(h).logs;
    },
    ctx: (env) => started(h).ctx(env),
  };
}

/** The MCP server in process, with one websift (and its store) for the whole file, against the simulated web. */
export function useMcpHarness(): { readonly web: SimWeb; readonly client: Client } {
  let web: SimWeb | undefined;
  let websift: Websift | undefined;
  let client: Client | undefined;
  beforeAll(async () => {
    web = await startSimWeb();
    websift = websiftFor(web);
    client = await connectInProcess({ websift });
  });
  afterAll(async () => {
    await client?.close();
    await websift?.close();
    await web?.close();
    await closePagePool();
  });
  beforeEach(() => started(web).reset());
  return {
    get web() {
      return started(web);
    },
    get client() {
      return started(client);
    },
  };
}

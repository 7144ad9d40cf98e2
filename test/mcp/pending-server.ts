/**
 * `websift mcp` on stdio with short waits, for test/mcp/pending.test.ts: the CLI has no flag for the wait, and
 * a test cannot sit through the 25 s default. The web is reached through HTTPS_PROXY (the simulated web's proxy).
 */
import { serveMcpStdio } from "../../src/mcp/stdio.js";
import { MemoryStore } from "../../src/store/store.js";
import { createWebsift } from "../../src/websift.js";

const websift = createWebsift({
  env: process.env,
  store: new MemoryStore(),
  settings: { ddgRetryDelayMs: 5 },
});
await serveMcpStdio({
  websift,
  waitMs: Number(process.env.TEST_WAIT_SECONDS) * 1000,
  lookupTimeoutMs: Number(process.env.TEST_DEADLINE_SECONDS) * 1000,
});
await websift.close();

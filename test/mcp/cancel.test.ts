import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Websift } from "../../src/websift.js";
import { type SimWeb, startSimWeb } from "../simweb/index.js";
import { connectInProcess, type ToolResult, textOf, websiftFor } from "./harness.js";

let web: SimWeb;
let websift: Websift;

beforeAll(async () => {
  web = await startSimWeb();
  websift = websiftFor(web);
});
afterAll(async () => {
  await websift.close();
  await web.close();
});
afterEach(() => web.reset());

/** A page that never answers; resolves `arrived` when asked and `gone` when the client hangs up. */
function hangingPage(path: string) {
  let arrived!: () => void;
  let gone!: () => void;
  const state = {
    arrived: new Promise<void>((r) => {
      arrived = r;
    }),
    gone: new Promise<void>((r) => {
      gone = r;
    }),
  };
  web.route("www.example.com", path, (_req, raw) => {
    arrived();
    raw.req.socket.on("close", () => gone());
    return new Promise<void>(() => {});
  });
  return state;
}

describe("MCP cancellation and limits", () => {
  // A cancelled MCP call gets no reply, so the client never learns its lookup's id: such a lookup is stopped.
  // One whose id the client was given earlier runs on (test/mcp/pending-cancel.test.ts).
  it("a cancelled call aborts the request it was waiting on", async () => {
    const client = await connectInProcess({ websift });
    const page = hangingPage("/slow");
    const abort = new AbortController();
    const pending = client.callTool(
      { name: "web_fetch", arguments: { url: "https://www.example.com/slow" } },
      undefined,
      { signal: abort.signal },
    );
    await page.arrived;
    abort.abort(new Error("user pressed stop"));
    await expect(pending).rejects.toThrow(/user pressed stop|abort/i);
    // The server side hung up on the loopback page: the library call was aborted, not left running.
    await page.gone;
    await client.close();
  });

  it("bounds the calls one client has in flight, and frees the slot when a call ends", async () => {
    const client = await connectInProcess({ websift, maxConcurrentCalls: 1, maxQueuedCalls: 0 });
    const page = hangingPage("/slow2");
    const abort = new AbortController();
    const first = client.callTool(
      { name: "web_fetch", arguments: { url: "https://www.example.com/slow2" } },
      undefined,
      { signal: abort.signal },
    );
    await page.arrived;
    const second = (await client.callTool({
      name: "web_fetch",
      arguments: { url: "https://www.example.com/" },
    })) as ToolResult;
    expect(second.isError).toBe(true);
    expect(textOf(second)).toMatch(/too many calls at once from this client/);
    abort.abort();
    await first.catch(() => {});
    await page.gone;
    const third = (await client.callTool({
      name: "web_fetch",
      arguments: { url: "https://www.example.com/" },
    })) as ToolResult;
    expect(third.isError).toBeFalsy();
    // Another client has its own budget.
    await client.close();
  });
});

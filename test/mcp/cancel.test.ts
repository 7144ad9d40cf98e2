import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Websift } from "../../src/websift.js";
import { heldRoute, page } from "../session/harness.js";
import { type SimWeb, startSimWeb } from "../simweb/index.js";
import { connectInProcess, type ToolResult, textOf, websiftFor } from "./harness.js";

const PARAGRAPH = "The reported page has a first paragraph long enough to be kept by the reader.";

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

  it("a cancelled call does not stop a lookup the client was told is still running: web_result returns it", async () => {
    // One call at a time: a probe refused as "too many calls" shows the cancelled call is waiting on its lookup.
    const client = await connectInProcess({
      websift,
      waitSeconds: 0.2,
      maxConcurrentCalls: 1,
      maxQueuedCalls: 0,
    });
    const busy = async () =>
      textOf((await client.callTool({ name: "web_result", arguments: { id: "probe" } })) as ToolResult);
    const route = heldRoute(web, "www.example.com", "/reported", page("Reported page", [PARAGRAPH]));
    const url = "https://www.example.com/reported";
    try {
      const first = (await client.callTool({ name: "web_fetch", arguments: { url } })) as ToolResult;
      const id = String(first.structuredContent?.id);
      expect(first.structuredContent).toMatchObject({ status: "pending" });

      // The same page asked again (it joins the running lookup), and the wait on it cancelled.
      const abort = new AbortController();
      const again = client.callTool({ name: "web_fetch", arguments: { url } }, undefined, {
        signal: abort.signal,
      });
      while (!(await busy()).startsWith("too many calls")) {}
      abort.abort(new Error("user pressed stop"));
      await expect(again).rejects.toThrow(/user pressed stop|abort/i);

      route.release();
      let r: ToolResult;
      do r = (await client.callTool({ name: "web_result", arguments: { id } })) as ToolResult;
      while (r.structuredContent?.status === "pending");
      expect(r.isError).toBeFalsy();
      expect(textOf(r)).toContain("Reported page");
      expect(route.dropped()).toBe(false);
    } finally {
      route.release();
      await client.close();
    }
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

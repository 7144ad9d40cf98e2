import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type McpHttpServer, startMcpHttp } from "../../src/mcp/http.js";
import type { Websift } from "../../src/websift.js";
import { ddgResultsPage } from "../ground/answer/ddg-page.js";
import {
  ddgChallenge,
  type SimProxy,
  type SimWeb,
  startProxy,
  startSimWeb,
  TEST_CA_PATH,
} from "../simweb/index.js";
import { connectInProcess, serveWeb, websiftFor } from "./harness.js";

type Progress = { progress: number; message?: string };

let web: SimWeb;
let websift: Websift;
let server: McpHttpServer | undefined;
let proxy: SimProxy | undefined;
const clients: Client[] = [];
beforeAll(async () => {
  web = await startSimWeb();
});
afterAll(async () => {
  await web.close();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await server?.close();
  server = undefined;
  await proxy?.close();
  proxy = undefined;
  await websift?.close();
  web.reset();
});

const MAIN = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));

const transports = {
  "in process": async () => connectInProcess({ websift }),
  // The built server as a client starts it, its requests through a real forward proxy to the simulated web.
  "stdio (the built CLI)": async () => {
    proxy = await startProxy(web);
    const client = new Client({ name: "progress-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [MAIN, "mcp"],
        env: {
          PATH: process.env.PATH ?? "",
          HOME: tmpdir(),
          HTTPS_PROXY: proxy.url,
          HTTP_PROXY: proxy.url,
          NODE_EXTRA_CA_CERTS: TEST_CA_PATH,
          WEBSIFT_STORE: "memory",
        },
        stderr: "ignore",
      }),
    );
    return client;
  },
  "Streamable HTTP": async () => {
    const http = await startMcpHttp({ websift, port: 0 });
    server = http;
    const client = new Client({ name: "progress-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    return client;
  },
};

/**
 * The call's progress notifications, and those that came after its result, in the order the transport received
 * them. They are read off the transport, not through the SDK's `onprogress`: the SDK client runs notification
 * handlers a microtask late but handles a response at once, so a last notification that arrives in the same
 * chunk as the response is dropped as "unknown token" by the client whatever order the server sent them in.
 */
async function call(client: Client, name: string, args: Record<string, unknown>) {
  const seen: Progress[] = [];
  const late: Progress[] = [];
  let answered = false;
  const transport = client.transport;
  const inner = transport?.onmessage;
  if (!transport || !inner) throw new Error("the client is not connected");
  transport.onmessage = (message, extra) => {
    if ("method" in message && message.method === "notifications/progress")
      (answered ? late : seen).push(message.params as Progress);
    else if ("id" in message && ("result" in message || "error" in message)) answered = true;
    inner(message, extra);
  };
  try {
    const result = await client.callTool({ name, arguments: args }, undefined, { onprogress: () => {} });
    // A round trip on the same session: any notification the server sent before it is in by now.
    await client.ping();
    const status = (result.structuredContent as { status?: string } | undefined)?.status;
    return { seen, late, status, messages: seen.map((p) => p.message) };
  } finally {
    transport.onmessage = inner;
  }
}

describe.each(Object.entries(transports))("progress notifications (%s)", (_name, connect) => {
  it("web_search: one per provider attempt, the last one included, with increasing progress", async () => {
    websift = websiftFor(web);
    serveWeb(web);
    web.route("html.duckduckgo.com", "/html/", ddgChallenge(web));
    web.route("lite.duckduckgo.com", "/lite/", ddgChallenge(web));
    const client = await connect();
    clients.push(client);
    const { seen, late, messages } = await call(client, "web_search", { query: "weather jakarta" });
    expect(messages).toEqual([
      "Searching the web for 'weather jakarta'",
      "duckduckgo: blocked",
      "bing: error",
      "mojeek: error",
      "startpage: error",
      "brave-web: error",
      "wikipedia: error",
    ]);
    expect(seen.map((p) => p.progress)).toEqual(seen.map((_, i) => i + 1));
    expect(late).toEqual([]);
  });

  it("web_answer: each attempt and each page read of the cascade, then the answer, and nothing after", async () => {
    websift = websiftFor(web);
    serveWeb(web);
    // No instant answer, and three results: the top page is broken, the second answers, the third never does
    // (the cascade stops it once the second is in; its read settles after the answer and must say nothing).
    web.route("api.duckduckgo.com", "/", {
      headers: { "content-type": "application/x-javascript" },
      body: "{}",
    });
    const urls = [
      "https://www.example.com/broken",
      "https://www.example.com/tides",
      "https://www.example.com/hang",
    ];
    web.route("html.duckduckgo.com", "/html/", {
      headers: { "content-type": "text/html; charset=utf-8" },
      body: ddgResultsPage(
        urls.map((url) => ({ title: "Tide tables", url, snippet: "tide tables harbour" })),
      ),
    });
    web.route("www.example.com", "/broken", { status: 500, body: "oops" });
    web.route("www.example.com", "/hang", () => new Promise<void>(() => {}));
    const client = await connect();
    clients.push(client);
    const { seen, late, status, messages } = await call(client, "web_answer", {
      query: "tide tables harbour",
    });
    expect(status).toBe("ok");
    expect(messages[0]).toBe("🌐 Searching the web for 'tide tables harbour'…");
    // The instant answer and the search run in parallel: their lines come in either order.
    expect(messages.slice(1, 3).sort()).toEqual(["duckduckgo-instant: empty (0)", "duckduckgo: ok (3)"]);
    // The cascade reads its pages in parallel: their lines come in the order the reads end, the answer last.
    expect(messages.slice(3, 5).sort()).toEqual([
      "📄 Read https://www.example.com/broken: error (www.example.com answered HTTP 500)",
      "📄 Read https://www.example.com/tides: ok",
    ]);
    expect(messages.slice(5)).toEqual(["✅ Answered via duckduckgo."]);
    expect(seen.map((p) => p.progress)).toEqual(seen.map((_, i) => i + 1));
    expect(late).toEqual([]);
  });
});

import http from "node:http";
import { networkInterfaces } from "node:os";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type McpHttpServer, startMcpHttp } from "../../src/mcp/http.js";
import type { Websift } from "../../src/websift.js";
import { type SimWeb, startSimWeb } from "../simweb/index.js";
import { serveWeb, type ToolResult, textOf, websiftFor } from "./harness.js";

const TOKEN = "test-SECRET-mcp-token-0123456789";

let web: SimWeb;
let websift: Websift;
let open: McpHttpServer;
let locked: McpHttpServer;

beforeAll(async () => {
  web = await startSimWeb();
  websift = websiftFor(web);
  open = await startMcpHttp({ websift, port: 0 });
  locked = await startMcpHttp({ websift, port: 0, token: TOKEN });
});
afterAll(async () => {
  await open.close();
  await locked.close();
  await websift.close();
  await web.close();
});
afterEach(() => web.reset());

async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "websift-http-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

/** A raw POST with full control over Host and Origin, as a rebinding web page would send it. */
function rawPost(
  port: number,
  headers: Record<string, string>,
  body: unknown = INIT,
): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path: "/mcp",
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
      },
      (res) => {
        let body = "";
        res.on("data", (c) => {
          body += c;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

describe("MCP over Streamable HTTP", () => {
  it("initializes, lists the tools and calls each one", async () => {
    serveWeb(web);
    const client = await connect(open.url);
    expect(client.getServerVersion()?.name).toBe("websift");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["web_search", "web_fetch", "web_answer", "web_result"]);
    const search = (await client.callTool({
      name: "web_search",
      arguments: { query: "weather jakarta", provider: "duckduckgo" },
    })) as ToolResult;
    expect(search.structuredContent).toMatchObject({ status: "ok" });
    const page = (await client.callTool({
      name: "web_fetch",
      arguments: { url: "https://www.example.com/tides" },
    })) as ToolResult;
    expect(textOf(page)).toContain("Spring tides follow the new and full moon");
    const answer = (await client.callTool({
      name: "web_answer",
      arguments: { query: "typescript" },
    })) as ToolResult;
    expect(answer.structuredContent).toMatchObject({ status: "ok" });
    await client.close();
  });

  it("binds to 127.0.0.1 by default and refuses to listen elsewhere without a token", async () => {
    expect(open.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    await expect(startMcpHttp({ websift, port: 0, host: "0.0.0.0" })).rejects.toThrow(/WEBSIFT_MCP_TOKEN/);
  });

  it("requires the bearer token when one is set, and accepts it", async () => {
    const missing = await rawPost(locked.port, { host: `127.0.0.1:${locked.port}` });
    expect(missing.status).toBe(401);
    expect(missing.headers["www-authenticate"]).toMatch(/^Bearer realm="websift", error="invalid_token"/);
    expect(missing.headers["www-authenticate"]).toContain("WEBSIFT_MCP_TOKEN");
    expect(JSON.parse(missing.body).error.message).toMatch(/Authorization: Bearer <WEBSIFT_MCP_TOKEN>/);
    const wrong = await rawPost(locked.port, {
      host: `127.0.0.1:${locked.port}`,
      authorization: "Bearer test-SECRET-wrong",
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).not.toContain(TOKEN);
    await expect(connect(locked.url)).rejects.toThrow();
    const client = await connect(locked.url, { authorization: `Bearer ${TOKEN}` });
    expect((await client.listTools()).tools).toHaveLength(4);
    await client.close();
  });

  it("leads an OAuth client to an error naming the token, never into a browser flow", async () => {
    // What an MCP client with OAuth support does after a 401: RFC 9728 and RFC 8414 discovery, then dynamic
    // registration. Each probe is answered at once, and the client's error is the token's sentence.
    const seen: string[] = [];
    const provider: OAuthClientProvider = {
      redirectUrl: "http://127.0.0.1:1/callback",
      clientMetadata: { redirect_uris: ["http://127.0.0.1:1/callback"], client_name: "probe" },
      clientInformation: () => undefined,
      saveClientInformation: () => {},
      tokens: () => undefined,
      saveTokens: () => {},
      redirectToAuthorization: (url) => {
        seen.push(`redirect ${url}`);
      },
      saveCodeVerifier: () => {},
      codeVerifier: () => "v",
    };
    const fetchSeen: typeof fetch = (input, init) => {
      seen.push(new URL(String(input instanceof Request ? input.url : input)).pathname);
      return fetch(input, init);
    };
    const client = new Client({ name: "oauth-probe", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(locked.url), {
      authProvider: provider,
      fetch: fetchSeen,
    });
    await expect(client.connect(transport)).rejects.toThrow(/Authorization: Bearer <WEBSIFT_MCP_TOKEN>/);
    expect(seen).toContain("/.well-known/oauth-protected-resource/mcp");
    expect(seen).toContain("/.well-known/oauth-authorization-server");
    expect(seen.filter((s) => s.startsWith("redirect"))).toEqual([]);
    for (const path of [
      "/.well-known/oauth-protected-resource",
      "/.well-known/openid-configuration",
      "/register",
    ]) {
      const res = await fetch(`http://127.0.0.1:${locked.port}${path}`, {
        method: path === "/register" ? "POST" : "GET",
      });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(((await res.json()) as { error_description: string }).error_description).toMatch(/not OAuth/);
    }
  });

  it("bound to every interface, answers to each local name and to --allow-host, and refuses others", async () => {
    const wide = await startMcpHttp({
      websift,
      port: 0,
      host: "0.0.0.0",
      token: TOKEN,
      allowedHosts: ["websift.internal", "lan-box:9000"],
      allowedOrigins: ["https://app.example/"],
    });
    const auth = { authorization: `Bearer ${TOKEN}` };
    const local = Object.values(networkInterfaces())
      .flat()
      .filter((i) => i !== undefined)
      .map((i) => (i.family === "IPv6" ? `[${i.address}]` : i.address));
    try {
      for (const name of ["127.0.0.1", "localhost", ...local])
        expect((await rawPost(wide.port, { host: `${name}:${wide.port}`, ...auth })).status, name).toBe(200);
      // A bare allowed name matches on any port (a container's port mapping), a name:port on that port only.
      expect((await rawPost(wide.port, { host: "websift.internal:18080", ...auth })).status).toBe(200);
      expect((await rawPost(wide.port, { host: "lan-box:9000", ...auth })).status).toBe(200);
      expect((await rawPost(wide.port, { host: "lan-box:9001", ...auth })).status).toBe(403);
      const foreign = await rawPost(wide.port, { host: `attacker.example:${wide.port}`, ...auth });
      expect(foreign.status).toBe(403);
      expect(foreign.body).toMatch(/Host not allowed.*--allow-host/);
      const origin = { host: `localhost:${wide.port}`, ...auth };
      expect((await rawPost(wide.port, { ...origin, origin: "https://app.example" })).status).toBe(200);
      expect((await rawPost(wide.port, { ...origin, origin: "https://other.example" })).status).toBe(403);
      // The token is still checked for every name.
      expect((await rawPost(wide.port, { host: `localhost:${wide.port}` })).status).toBe(401);
      const client = await connect(`http://localhost:${wide.port}/mcp`, auth);
      expect((await client.listTools()).tools).toHaveLength(4);
      await client.close();
    } finally {
      await wide.close();
    }
  });

  it("refuses a foreign Host or Origin (DNS rebinding of the local server)", async () => {
    const rebound = await rawPost(open.port, { host: `attacker.example:${open.port}` });
    expect(rebound.status).toBe(403);
    expect(rebound.body).toMatch(/Host not allowed/);
    const crossSite = await rawPost(open.port, {
      host: `127.0.0.1:${open.port}`,
      origin: "https://attacker.example",
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body).toMatch(/Origin not allowed/);
    const local = await rawPost(open.port, {
      host: `localhost:${open.port}`,
      origin: `http://localhost:${open.port}`,
    });
    expect(local.status).toBe(200);
  });

  it("answers 404 off /mcp, a parse error to a body that is not JSON, and 'no valid session' to a call without one", async () => {
    const res = await fetch(`http://127.0.0.1:${open.port}/other`);
    expect(res.status).toBe(404);
    const bad = await fetch(open.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: "{ nope",
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: number } }).error.code).toBe(-32700);
    const list = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };
    const sessionless = await rawPost(open.port, { host: `127.0.0.1:${open.port}` }, list);
    expect(sessionless.status).toBe(400);
    const { error } = JSON.parse(sessionless.body) as { error: { code: number; message: string } };
    expect(error.code).toBe(-32000);
    expect(error.message).toMatch(/no valid session/i);
    const stale = await rawPost(
      open.port,
      { host: `127.0.0.1:${open.port}`, "mcp-session-id": "gone" },
      list,
    );
    expect(stale.status).toBe(404);
    expect(JSON.parse(stale.body).error.code).toBe(-32001);
  });

  it("bounds open sessions, letting a new client replace only a session left idle", async () => {
    const busy = await startMcpHttp({ websift, port: 0, maxSessions: 1 });
    const first = await connect(busy.url);
    const refused = await rawPost(busy.port, { host: `127.0.0.1:${busy.port}` });
    expect(refused.status).toBe(503);
    expect((await first.listTools()).tools).toHaveLength(4);
    await first.close();
    await busy.close();

    const recycling = await startMcpHttp({ websift, port: 0, maxSessions: 1, sessionIdleMs: 0 });
    const gone = await connect(recycling.url);
    const next = await connect(recycling.url);
    expect((await next.listTools()).tools).toHaveLength(4);
    await expect(gone.listTools()).rejects.toThrow();
    await next.close();
    await recycling.close();
  });

  it("cancelling a call over HTTP aborts the request it was waiting on", async () => {
    let arrived!: () => void;
    let gone!: () => void;
    const reached = new Promise<void>((r) => {
      arrived = r;
    });
    const hungUp = new Promise<void>((r) => {
      gone = r;
    });
    web.route("www.example.com", "/hang", (_req, raw) => {
      arrived();
      raw.req.socket.on("close", () => gone());
      return new Promise<void>(() => {});
    });
    const client = await connect(open.url);
    const abort = new AbortController();
    const pending = client.callTool(
      { name: "web_fetch", arguments: { url: "https://www.example.com/hang" } },
      undefined,
      { signal: abort.signal },
    );
    await reached;
    abort.abort(new Error("stop"));
    await expect(pending).rejects.toThrow(/stop|abort/i);
    await hungUp;
    await client.close();
  });
});

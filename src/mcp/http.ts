import { randomUUID } from "node:crypto";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { allowedHosts, checkRequest, type HttpGuardConfig, isLoopbackHost } from "./http-guard.js";
import { createMcpServer, type McpServerOptions } from "./server.js";

export interface McpHttpOptions extends McpServerOptions {
  /** Default 127.0.0.1; anything else needs a token. */
  host?: string;
  /** Default 8787; 0 picks a free port. */
  port?: number;
  /** Bearer token every request must carry (WEBSIFT_MCP_TOKEN). */
  token?: string;
  /** Browser origins allowed besides the server's own. */
  allowedOrigins?: string[];
  /** Open sessions at once (default 32). */
  maxSessions?: number;
  /** A session with no request for this long may be closed to admit a new one (default 30 min). */
  sessionIdleMs?: number;
}

export interface McpHttpServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

const MAX_BODY = 1024 * 1024;

/** Streamable HTTP on /mcp, one MCP server (and call limit) per session. */
export async function startMcpHttp(options: McpHttpOptions): Promise<McpHttpServer> {
  const host = options.host ?? "127.0.0.1";
  if (!isLoopbackHost(host) && !options.token)
    throw new Error(
      `listening on ${host} exposes the server beyond this machine: set WEBSIFT_MCP_TOKEN first`,
    );
  const sessions = new Map<string, Session>();
  const maxSessions = options.maxSessions ?? 32;
  const idleMs = options.sessionIdleMs ?? 30 * 60_000;
  let guard: HttpGuardConfig = { hosts: [], origins: [], token: options.token };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      options.log?.(`mcp http: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) reply(res, 500, "internal error");
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (path !== "/mcp") return reply(res, 404, "not found: use /mcp");
    const verdict = checkRequest(req, guard);
    if (!verdict.ok) {
      if (verdict.status === 401) res.setHeader("WWW-Authenticate", 'Bearer realm="websift"');
      return reply(res, verdict.status, verdict.reason);
    }
    const sessionId = req.headers["mcp-session-id"];
    const existing = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    if (req.method === "GET") {
      if (!existing) return reply(res, 404, "unknown or missing Mcp-Session-Id");
      return existing.transport.handleRequest(req, res);
    }
    if (existing) {
      existing.lastSeen = Date.now();
      existing.busy++;
      res.once("close", () => {
        existing.busy--;
        existing.lastSeen = Date.now();
      });
    }
    if (req.method !== "POST") {
      if (!existing) return reply(res, 404, "unknown or missing Mcp-Session-Id");
      return existing.transport.handleRequest(req, res);
    }
    const body = await readJson(req);
    if (!body.ok) return reply(res, body.status, body.reason);
    if (existing) return existing.transport.handleRequest(req, res, body.value);
    if (typeof sessionId === "string") return reply(res, 404, "unknown Mcp-Session-Id");
    if (!isInitializeRequest(body.value)) return reply(res, 400, "no session: send initialize first");
    if (sessions.size >= maxSessions && !(await closeIdleSession()))
      return reply(res, 503, "too many open sessions");

    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, lastSeen: Date.now(), busy: 0 });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await createMcpServer(options).connect(transport);
    await transport.handleRequest(req, res, body.value);
  }

  /** Clients that vanish without DELETE leave sessions behind; the longest-idle one makes room. */
  async function closeIdleSession(): Promise<boolean> {
    let oldest: [string, Session] | undefined;
    for (const entry of sessions)
      if (
        entry[1].busy === 0 &&
        Date.now() - entry[1].lastSeen >= idleMs &&
        (!oldest || entry[1].lastSeen < oldest[1].lastSeen)
      )
        oldest = entry;
    if (!oldest) return false;
    sessions.delete(oldest[0]);
    await oldest[1].transport.close().catch(() => {});
    return true;
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 8787, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const hosts = allowedHosts(host, port);
  guard = {
    hosts,
    origins: [
      ...hosts.map((h) => `http://${h}`),
      ...(options.allowedOrigins ?? []).map((o) => o.toLowerCase()),
    ],
    token: options.token,
  };
  const shown = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}/mcp`,
    port,
    async close() {
      await Promise.all([...sessions.values()].map((s) => s.transport.close().catch(() => {})));
      sessions.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

interface Session {
  transport: StreamableHTTPServerTransport;
  lastSeen: number;
  /** POST/DELETE requests in progress (a GET stream stays open for the session's life and does not count). */
  busy: number;
}

type Body = { ok: true; value: unknown } | { ok: false; status: 400 | 413; reason: string };

async function readJson(req: IncomingMessage): Promise<Body> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return { ok: false, status: 413, reason: "request body too large" };
    chunks.push(chunk as Buffer);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString("utf8")) };
  } catch {
    return { ok: false, status: 400, reason: "body is not JSON" };
  }
}

function reply(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" }).end(
    JSON.stringify({
      jsonrpc: "2.0",
      error: { code: status === 400 ? -32700 : -32000, message },
      id: null,
    }),
  );
}

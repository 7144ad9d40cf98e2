import { randomUUID } from "node:crypto";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { Mailbox } from "../session/mailbox.js";
import {
  checkRequest,
  guardFor,
  type HttpGuardConfig,
  isLoopbackHost,
  MISSING_TOKEN,
  WWW_AUTHENTICATE,
} from "../surface/http-guard.js";
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
  /** Host names the server answers to besides its own (`name` for any port, or `name:port`). */
  allowedHosts?: string[];
  /** Open sessions at once (default 32). */
  maxSessions?: number;
  /** A session with no request for this long may be closed to admit a new one (default 30 min). */
  sessionIdleMs?: number;
}

export interface McpHttpServer {
  url: string;
  port: number;
  /** The results owed to this server's conversations, shared by all its sessions (`options.mailbox` if given). */
  readonly mailbox: Mailbox;
  close(): Promise<void>;
}

const MAX_BODY = 1024 * 1024;

/**
 * A client that sends this header at initialize names its conversation: its sessions (a reconnect, another
 * instance of a fleet sharing one mailbox) share what lands for it. Without it, each session is a conversation.
 */
export const CONVERSATION_HEADER = "websift-conversation";
/** 16 characters or more, so that a name chosen at random cannot be guessed; only what a store key may hold. */
const CONVERSATION_NAME = /^[A-Za-z0-9._~-]{16,128}$/;

/**
 * Streamable HTTP on /mcp, one MCP server (and call limit) per session, every session's results in one mailbox
 * (a fleet's instances share theirs when `options.mailbox` is backed by Redis).
 */
export async function startMcpHttp(options: McpHttpOptions): Promise<McpHttpServer> {
  const host = options.host ?? "127.0.0.1";
  if (!isLoopbackHost(host) && !options.token)
    throw new Error(
      `listening on ${host} exposes the server beyond this machine: set WEBSIFT_MCP_TOKEN first`,
    );
  const sessions = new Map<string, Session>();
  // One mailbox for every session: a conversation's result is kept once, whichever session it is taken through.
  const mailbox = options.mailbox ?? new Mailbox({ log: options.log });
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
    if (path !== "/mcp") {
      if (isOAuthProbe(path)) return refuseOAuth(req, res, path, guard);
      return reply(res, 404, "not found: use /mcp");
    }
    const verdict = checkRequest(req, guard);
    if (!verdict.ok) {
      if (verdict.status !== 401) return reply(res, verdict.status, verdict.reason);
      res.setHeader("WWW-Authenticate", WWW_AUTHENTICATE);
      return reply(res, 401, MISSING_TOKEN);
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
    if (!body.ok) return reply(res, body.status, body.reason, body.code);
    if (existing) return existing.transport.handleRequest(req, res, body.value);
    if (typeof sessionId === "string") return reply(res, 404, "unknown Mcp-Session-Id", -32001);
    if (!isInitializeRequest(body.value))
      return reply(res, 400, "Bad Request: no valid session ID provided; send initialize first");
    const named = req.headers[CONVERSATION_HEADER];
    if (named !== undefined && (typeof named !== "string" || !CONVERSATION_NAME.test(named)))
      return reply(
        res,
        400,
        `${CONVERSATION_HEADER} must be 16 to 128 letters, digits or "._~-" (a name of the client's own choosing)`,
      );
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
    // A named conversation has a prefix of its own, so a client cannot name another session's conversation.
    const conversationId = named === undefined ? undefined : `mcp-named:${named}`;
    await createMcpServer({ ...options, mailbox, conversationId }).connect(transport);
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
  guard = guardFor(host, port, {
    hosts: options.allowedHosts,
    origins: options.allowedOrigins,
    token: options.token,
  });
  const shown = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}/mcp`,
    port,
    mailbox,
    async close() {
      await Promise.all([...sessions.values()].map((s) => s.transport.close().catch(() => {})));
      sessions.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (!options.mailbox) await mailbox.close();
    },
  };
}

interface Session {
  transport: StreamableHTTPServerTransport;
  lastSeen: number;
  /** POST/DELETE requests in progress (a GET stream stays open for the session's life and does not count). */
  busy: number;
}

type Body = { ok: true; value: unknown } | { ok: false; status: 400 | 413; reason: string; code: number };

async function readJson(req: IncomingMessage): Promise<Body> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return { ok: false, status: 413, reason: "request body too large", code: -32000 };
    chunks.push(chunk as Buffer);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString("utf8")) };
  } catch {
    return { ok: false, status: 400, reason: "Parse error: body is not JSON", code: -32700 };
  }
}

/** -32000 is JSON-RPC's range for server errors (the SDK's transport uses it alike); -32001 an unknown session. */
function reply(res: ServerResponse, status: number, message: string, code = -32000): void {
  res
    .writeHead(status, { "content-type": "application/json" })
    .end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

/**
 * Where an OAuth client looks after a 401: RFC 9728 and RFC 8414 metadata (path-aware and at the root), OpenID
 * discovery, and the default endpoints the MCP SDK falls back to when no metadata exists.
 */
function isOAuthProbe(path: string): boolean {
  return (
    /^\/\.well-known\/(oauth-protected-resource|oauth-authorization-server|openid-configuration)(\/|$)/.test(
      path,
    ) ||
    path.endsWith("/.well-known/openid-configuration") ||
    path === "/register" ||
    path === "/authorize" ||
    path === "/token"
  );
}

/**
 * websift takes a static token, not OAuth. A 404 on the metadata lets a client give up discovery at once (the
 * SDK then tries `/register`, which fails with this same OAuth error), and the error's description, which
 * clients show, names the header to set, instead of a browser flow that can never finish.
 */
function refuseOAuth(req: IncomingMessage, res: ServerResponse, path: string, guard: HttpGuardConfig): void {
  const verdict = checkRequest(req, { ...guard, token: undefined });
  if (!verdict.ok) {
    reply(res, verdict.status, verdict.reason);
    return;
  }
  const status = path.includes("/.well-known/") ? 404 : 400;
  res
    .writeHead(status, { "content-type": "application/json", "cache-control": "no-store" })
    .end(JSON.stringify({ error: "invalid_request", error_description: MISSING_TOKEN }));
}

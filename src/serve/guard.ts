import type { IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import {
  bearerToken,
  checkRequest,
  guardFor,
  type HttpGuardConfig,
  sameToken,
} from "../surface/http-guard.js";

export interface GuardOptions {
  /** WEBSIFT_SERVE_TOKEN: every /v1 request must carry `Authorization: Bearer <token>`. */
  token?: string;
  /**
   * WEBSIFT_ADMIN_TOKEN: the only token `/v1/admin/*` accepts (the API token does not open them); it opens the
   * other /v1 routes too, so the dashboard needs one token. Without it the admin routes answer loopback only.
   */
  adminToken?: string;
  /** Browser origins allowed besides the server's own (the dashboard page's origin is always allowed). */
  allowedOrigins?: string[];
  /** Host names the server answers to besides the address it listens on (`name:port`, or `name` for any port). */
  allowedHosts?: string[];
}

/**
 * Host, Origin and token checks on every /v1 route and on unknown paths, as for the MCP server: a web page that
 * rebinds its own name to this machine sends a foreign Host and Origin and is refused. The admin routes take the
 * admin token only. The names come from the real listening port, so they are worked out on the first request.
 */
export function installGuard(app: FastifyInstance, options: GuardOptions): void {
  let config: HttpGuardConfig | undefined;
  const configure = (): HttpGuardConfig => {
    const address = app.server.address() as AddressInfo;
    // Tokens are checked below, by route (the admin routes take their own), so the shared guard checks names only.
    return guardFor(address.address, address.port, {
      hosts: options.allowedHosts,
      origins: options.allowedOrigins,
    });
  };
  app.addHook("onRequest", async (request, reply) => {
    // By the route matched, not the raw URL: the router decodes the path, so /%761/health is /v1/health. Only
    // routes outside /v1 (the dashboard's page and assets) are open; an unknown path is guarded too.
    const route = request.routeOptions.url;
    if (route !== undefined && route !== "/v1" && !route.startsWith("/v1/")) return;
    config ??= configure();
    const admin = route?.startsWith("/v1/admin/") === true;
    const origin = request.headers.origin;
    // A browser page on an allowed origin other than ours may call: it asks first (preflight, never with the
    // token), and reads an answer only when it names its origin.
    if (request.method === "OPTIONS" && origin !== undefined) {
      const verdict = checkRequest(request.raw, config);
      if (!verdict.ok) return reply.code(verdict.status).send({ error: verdict.reason });
      return reply
        .code(204)
        .headers({
          "access-control-allow-origin": origin,
          "access-control-allow-methods": "GET, POST, PUT, DELETE",
          "access-control-allow-headers": "authorization, content-type",
          "access-control-max-age": "600",
          vary: "Origin",
        })
        .send();
    }
    const verdict = checkRequest(request.raw, config);
    if (!verdict.ok) return reply.code(verdict.status).send({ error: verdict.reason });
    if (origin !== undefined) reply.headers({ "access-control-allow-origin": origin, vary: "Origin" });
    const refusal = admin ? adminRefusal(request.raw, options) : apiRefusal(request.raw, options);
    if (refusal === undefined) return;
    if (refusal.status === 401) reply.header("WWW-Authenticate", 'Bearer realm="websift"');
    return reply.code(refusal.status).send({ error: refusal.reason });
  });
}

type Refusal = { status: 401 | 403; reason: string } | undefined;
const WRONG_TOKEN: Refusal = { status: 401, reason: "missing or wrong bearer token" };

/** Use: the API token, or the admin token (which can do anything the API token can). */
function apiRefusal(req: IncomingMessage, { token, adminToken }: GuardOptions): Refusal {
  if (token === undefined) return undefined;
  const given = bearerToken(req.headers.authorization);
  return sameToken(given, token) || (adminToken !== undefined && sameToken(given, adminToken))
    ? undefined
    : WRONG_TOKEN;
}

/**
 * Admin (the switch, settings, keys written to .env): only the admin token. Without one, only this machine may
 * administer, and only with the API token where there is one, as before admin had a token of its own.
 */
function adminRefusal(req: IncomingMessage, options: GuardOptions): Refusal {
  if (options.adminToken !== undefined)
    return sameToken(bearerToken(req.headers.authorization), options.adminToken) ? undefined : WRONG_TOKEN;
  if (!fromThisMachine(req))
    return {
      status: 403,
      reason: "admin routes answer this machine only; set WEBSIFT_ADMIN_TOKEN to open them",
    };
  return apiRefusal(req, options);
}

/**
 * A loopback peer that no proxy speaks for: a reverse proxy on this machine forwards outside clients from
 * 127.0.0.1, and says so in X-Forwarded-For or Forwarded.
 */
function fromThisMachine(req: IncomingMessage): boolean {
  if (req.headers["x-forwarded-for"] !== undefined || req.headers.forwarded !== undefined) return false;
  const peer = req.socket.remoteAddress ?? "";
  return peer === "::1" || /^(::ffff:)?127\./.test(peer);
}

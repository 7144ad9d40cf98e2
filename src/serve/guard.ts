import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { checkRequest, guardFor, type HttpGuardConfig } from "../mcp/http-guard.js";

export interface GuardOptions {
  /** WEBSIFT_SERVE_TOKEN: every /v1 request must carry `Authorization: Bearer <token>`. */
  token?: string;
  /** Browser origins allowed besides the server's own (the dashboard page's origin is always allowed). */
  allowedOrigins?: string[];
  /** Host names the server answers to besides the address it listens on (`name:port`, or `name` for any port). */
  allowedHosts?: string[];
}

/**
 * Host, Origin and token checks on every /v1 route (the dashboard's admin routes included) and on unknown paths, as for the MCP
 * server: a web page that rebinds its own name to this machine sends a foreign Host and Origin and is refused.
 * The names come from the real listening port, so they are worked out on the first request.
 */
export function installGuard(app: FastifyInstance, options: GuardOptions): void {
  let config: HttpGuardConfig | undefined;
  const configure = (): HttpGuardConfig => {
    const address = app.server.address() as AddressInfo;
    return guardFor(address.address, address.port, {
      hosts: options.allowedHosts,
      origins: options.allowedOrigins,
      token: options.token,
    });
  };
  app.addHook("onRequest", async (request, reply) => {
    // By the route matched, not the raw URL: the router decodes the path, so /%761/health is /v1/health. Only
    // routes outside /v1 (the dashboard's page and assets) are open; an unknown path is guarded too.
    const route = request.routeOptions.url;
    if (route !== undefined && route !== "/v1" && !route.startsWith("/v1/")) return;
    config ??= configure();
    const origin = request.headers.origin;
    // A browser page on an allowed origin other than ours may call: it asks first (preflight, never with the
    // token), and reads an answer only when it names its origin.
    if (request.method === "OPTIONS" && origin !== undefined) {
      const verdict = checkRequest(request.raw, { ...config, token: undefined });
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
    if (origin !== undefined && (verdict.ok || verdict.status !== 403))
      reply.headers({ "access-control-allow-origin": origin, vary: "Origin" });
    if (verdict.ok) return;
    if (verdict.status === 401) reply.header("WWW-Authenticate", 'Bearer realm="websift"');
    return reply.code(verdict.status).send({ error: verdict.reason });
  });
}

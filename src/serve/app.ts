import type { AddressInfo } from "node:net";
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyRequest,
  type FastifyServerOptions,
} from "fastify";
import { oneLine } from "../core/one-line.js";
import { modelSafe } from "../ground/fence.js";
import type { Clock } from "../session/clock.js";
import { isLoopbackHost } from "../surface/http-guard.js";
import { registerApi } from "./api.js";
import { ClientLimits } from "./client-limits.js";
import type { ServeContext } from "./context.js";
import { ConversationIds } from "./conversation-ids.js";
import { registerConversations } from "./conversations.js";
import { registerEvents } from "./events.js";
import { type GuardOptions, installGuard } from "./guard.js";
import type { ServeRuntime } from "./serve-context.js";

/** More routes on the same app and context (the dashboard registers `/` and `/v1/admin/*` this way). */
export type RouteRegistrar = (app: FastifyInstance, ctx: ServeContext) => Promise<void> | void;

export interface ServeAppOptions extends GuardOptions {
  /** Request bodies above this are refused with 413 (default 64 KB). */
  bodyLimit?: number;
  /** Per client (remote address): calls running at once and queued beyond them (default 4 and 16). */
  clientCap?: { running: number; waiting: number };
  /** Event streams one client may hold open (default 16). */
  maxStreamsPerClient?: number;
  /** Keep-alive comment interval of the event streams (default 15 s). */
  keepAliveMs?: number;
  /** The event streams' clock (tests move it by hand). */
  clock?: Clock;
  /** Registered after the API, in order. */
  routes?: RouteRegistrar[];
  /**
   * Behind a load balancer: the client is the address X-Forwarded-For names (Fastify's trustProxy: true, or the
   * proxies' addresses), so per-client caps apply per real client, not to the balancer as a whole.
   */
  trustProxy?: boolean | string | string[];
  /**
   * Signs the conversation ids this service issues (default: the API token, which every instance of a fleet
   * holds); instances with the same key honour each other's ids. Without either, the key is the process's own.
   */
  conversationKey?: string;
}

/** The HTTP service on one Fastify app: the JSON API, the conversation event streams, then any extra routes. */
export async function buildServeApp(
  ctx: ServeRuntime,
  options: ServeAppOptions = {},
): Promise<FastifyInstance> {
  if (options.adminToken !== undefined && options.adminToken === options.token)
    throw new Error(
      "WEBSIFT_ADMIN_TOKEN must differ from WEBSIFT_SERVE_TOKEN: whoever may use must not administer",
    );
  const bodyLimit = options.bodyLimit ?? 64 * 1024;
  const cap = options.clientCap ?? { running: 4, waiting: 16 };
  const serverOptions: FastifyServerOptions = {
    bodyLimit,
    logger: false,
    return503OnClosing: true,
    trustProxy: options.trustProxy ?? false,
  };
  const app = Fastify(serverOptions);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE")
      return reply.code(413).send({ error: `body larger than ${Math.round(bodyLimit / 1024)} KB` });
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500)
      return reply.code(status).send({ error: oneLine(error.message, 200, modelSafe) });
    ctx.log(`serve: ${request.method} ${request.routeOptions.url ?? "?"}: ${error.stack ?? error.message}`);
    return reply.code(500).send({ error: "internal error (details in the server log)" });
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({
      error: `no route ${request.method} ${oneLine(request.url.split("?")[0] ?? "", 200, modelSafe)}`,
    }),
  );

  installGuard(app, options);

  const store = ctx.store.status();
  const clientOf = (request: FastifyRequest) => request.ip;
  const conversationKey = options.conversationKey ?? options.token;
  const ids = new ConversationIds(conversationKey);
  if (!conversationKey && store.backend === "redis")
    ctx.log(
      "serve: conversation ids hold on this instance only: set WEBSIFT_SERVE_TOKEN (the same on every instance) so the fleet shares them",
    );
  registerConversations(app, ids);
  registerApi(app, ctx, {
    limits: new ClientLimits(cap.running, cap.waiting),
    clientOf,
    capText: `at most ${cap.running} running and ${cap.waiting} waiting`,
  });
  registerEvents(app, {
    mailbox: ctx.session().mailbox,
    ids,
    keepAliveMs: options.keepAliveMs,
    clock: options.clock,
    clientOf,
    maxStreamsPerClient: options.maxStreamsPerClient,
  });
  for (const register of options.routes ?? []) await register(app, ctx);
  return app;
}

/** Beside `websift mcp --http` (8787). */
export const DEFAULT_SERVE_PORT = 8788;

export interface Listening {
  url: string;
  port: number;
  host: string;
}

/** Listens (port 0 picks a free one) and says so on the operator log; warns when open beyond this machine. */
export async function listen(
  app: FastifyInstance,
  ctx: ServeContext,
  {
    host = "127.0.0.1",
    port = DEFAULT_SERVE_PORT,
    token,
    adminToken,
  }: { host?: string; port?: number; token?: string; adminToken?: string },
): Promise<Listening> {
  await app.listen({ host, port });
  const real = (app.server.address() as AddressInfo).port;
  if (!isLoopbackHost(host) && !token)
    ctx.log(
      `serve: listening on ${host} without a token: anyone who can reach this port can use it; set WEBSIFT_SERVE_TOKEN`,
    );
  if (!isLoopbackHost(host) && !adminToken)
    ctx.log(
      "serve: the dashboard's admin routes answer this machine only; set WEBSIFT_ADMIN_TOKEN to open them",
    );
  const shown = host.includes(":") ? `[${host}]` : host;
  return { url: `http://${shown}:${real}`, port: real, host };
}

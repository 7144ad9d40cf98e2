// The package's `websift/serve` entry: the HTTP service as `websift serve` builds it (context, app, dashboard,
// listen). Kept off the root so that a library user never loads Fastify.
export type { Listening, RouteRegistrar, ServeAppOptions } from "./app.js";
export { buildServeApp, DEFAULT_SERVE_PORT, listen } from "./app.js";
export { registerDashboard } from "./dashboard/index.js";
export type { ServeContextOptions, ServeRuntime } from "./serve-context.js";
export { createServeContext } from "./serve-context.js";

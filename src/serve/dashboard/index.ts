import type { FastifyInstance } from "fastify";
import type { ServeContext } from "../context.js";

/** The operator's dashboard: `GET /` (one offline page) and its JSON routes under `/v1/admin/*`. */
export async function registerDashboard(app: FastifyInstance, ctx: ServeContext): Promise<void> {
  app.get("/", async (_req, reply) => {
    reply.type("text/html; charset=utf-8");
    return `<!doctype html><title>websift</title><p>websift dashboard (${ctx.configPath ? "ready" : ""})</p>`;
  });
}

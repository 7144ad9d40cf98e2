import type { FastifyInstance } from "fastify";
import type { ServeContext } from "../context.js";
import { registerAdmin } from "./admin.js";
import { ICON_SVG, PAGE_HTML } from "./page.js";
import { PAGE_JS } from "./script.js";
import { PAGE_CSS } from "./style.js";

// The page loads nothing but its own two files and talks to nothing but this server.
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** The operator's dashboard: `GET /` (one offline page and its style and script) and `/v1/admin/*`. */
export function registerDashboard(app: FastifyInstance, ctx: ServeContext): void {
  const asset = (path: string, type: string, body: string) =>
    app.get(path, async (_request, reply) =>
      reply
        .type(type)
        .header("content-security-policy", CSP)
        .header("x-content-type-options", "nosniff")
        .header("referrer-policy", "no-referrer")
        .header("cache-control", "no-cache")
        .send(body),
    );
  asset("/", "text/html; charset=utf-8", PAGE_HTML);
  asset("/dashboard/style.css", "text/css; charset=utf-8", PAGE_CSS);
  asset("/dashboard/app.js", "text/javascript; charset=utf-8", PAGE_JS);
  asset("/dashboard/icon.svg", "image/svg+xml", ICON_SVG);
  registerAdmin(app, ctx);
}

import { readFileSync } from "node:fs";
import { providerHealth } from "../surface/doctor.js";
import type { ServeRuntime } from "./serve-context.js";

// package.json sits two levels up from both src/serve and dist/serve.
const VERSION = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }
).version;

/**
 * GET /v1/health: what a load balancer and an operator need, never a key or a URL that may carry one. `ok` is
 * false while the instance drains before it stops, so a balancer sends its calls elsewhere.
 */
export async function health(ctx: ServeRuntime) {
  return {
    ok: !ctx.draining(),
    ...(ctx.draining() ? { draining: true } : {}),
    version: VERSION,
    store: ctx.store.status(),
    mailbox: ctx.session().mailbox.status(),
    abilities: { web: (await ctx.enabled()) ? "on" : "off" },
    providers: await providerHealth(ctx.websift(), ctx.config().values),
  };
}

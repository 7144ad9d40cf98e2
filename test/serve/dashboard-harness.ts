import { writeFileSync } from "node:fs";
import { webAbilityGate } from "../../src/config/abilities.js";
import { registerDashboard } from "../../src/serve/dashboard/index.js";
import { MemoryStore } from "../../src/store/store.js";
import type { SimWeb } from "../simweb/index.js";
import { type Served, serve } from "./harness.js";

/** `websift serve` with the dashboard, its switch read from the store every surface shares. */
export async function dashboardServer(
  web: SimWeb,
  options: { env?: Record<string, string>; token?: string; config?: object } = {},
): Promise<Served> {
  const store = Object.assign(new MemoryStore(), {
    status: () => ({ backend: "memory" as const, degraded: false }),
  });
  const served = await serve(web, {
    env: options.env,
    context: {
      store,
      overrides: {
        ...web.netConfig,
        settings: { ddgRetryDelayMs: 5 },
        timeoutMs: 15_000,
        enabled: webAbilityGate(store),
      },
    },
    app: { routes: [registerDashboard], token: options.token },
  });
  if (options.config) {
    writeFileSync(served.ctx.configPath, JSON.stringify(options.config));
    await served.ctx.reload();
  }
  return served;
}

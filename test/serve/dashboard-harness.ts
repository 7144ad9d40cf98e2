import { writeFileSync } from "node:fs";
import type { Provider } from "../../src/search/provider.js";
import { registerDashboard } from "../../src/serve/dashboard/index.js";
import { MemoryStore } from "../../src/store/store.js";
import type { SimWeb } from "../simweb/index.js";
import { type Served, serve } from "./harness.js";

/** `websift serve` with the dashboard, as the CLI builds it, its library pointed at the simulated web. */
export async function dashboardServer(
  web: SimWeb,
  options: {
    env?: Record<string, string>;
    token?: string;
    config?: object;
    providers?: readonly Provider[];
  } = {},
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
        ...(options.providers ? { providers: [...options.providers] } : {}),
      },
      // The conversation wait comes from the config (Settings → Web), as in `websift serve`.
      session: {},
    },
    app: { routes: [registerDashboard], token: options.token },
  });
  if (options.config) {
    writeFileSync(served.ctx.configPath, JSON.stringify(options.config));
    await served.ctx.reload();
  }
  return served;
}

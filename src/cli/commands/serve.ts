import type { Command } from "commander";
import { EXIT, parseIntOption } from "../runtime.js";

export function registerServe(program: Command): void {
  program
    .command("serve")
    .description(
      "Run the HTTP service: the dashboard at / and a JSON API under /v1 (search, read, answer, health, conversation events).",
    )
    .option(
      "--port <n>",
      "port (default 8788, or servePort; 0 picks a free one)",
      parseIntOption("--port", 0, 65535),
    )
    .option("--host <addr>", "address (default 127.0.0.1, or serveHost; elsewhere set WEBSIFT_SERVE_TOKEN)")
    .option(
      "--allow-origin <origin>",
      "browser origin allowed to call (repeatable)",
      (v: string, acc: string[]) => [...acc, v],
      [] as string[],
    )
    .option(
      "--allow-host <host:port>",
      "extra Host this server answers to, e.g. behind a load balancer (repeatable)",
      (v: string, acc: string[]) => [...acc, v],
      [] as string[],
    )
    .option("--trust-proxy", "per-client caps by X-Forwarded-For (only behind a proxy that sets it)")
    .option(
      "--grace <seconds>",
      "on SIGTERM/SIGINT, how long calls in flight may finish before they are stopped (default 8)",
      parseIntOption("--grace", 0, 600),
    )
    .option("--json", "print the listening address as JSON")
    .addHelpText(
      "after",
      `
stdout carries the listening URL only; logs go to stderr. Set WEBSIFT_SERVE_TOKEN to require
"Authorization: Bearer <token>" on every /v1 request. Instances sharing WEBSIFT_REDIS_URL share cache,
cooldowns, rate limits and conversation events.

Examples:
  websift serve
  websift serve --port 0 --json
  WEBSIFT_SERVE_TOKEN=… websift serve --host 0.0.0.0`,
    )
    .action(async (opts) => {
      const log = (line: string) => process.stderr.write(`websift: ${line}\n`);
      const [{ createServeContext }, { buildServeApp, DEFAULT_SERVE_PORT, listen }, { registerDashboard }] =
        await Promise.all([
          import("../../serve/serve-context.js"),
          import("../../serve/app.js"),
          import("../../serve/dashboard/index.js"),
        ]);
      let ctx: ReturnType<typeof createServeContext>;
      try {
        ctx = createServeContext({ log });
      } catch (err) {
        log(err instanceof Error ? err.message : String(err));
        process.exitCode = EXIT.badInput;
        return;
      }
      const setting = (key: string) => ctx.config().settings.find((s) => s.key === key)?.value;
      const token = ctx.config().values.serve.token || undefined;
      const adminToken = ctx.config().values.serve.adminToken || undefined;
      let app: Awaited<ReturnType<typeof buildServeApp>>;
      try {
        app = await buildServeApp(ctx, {
          token,
          adminToken,
          allowedOrigins: opts.allowOrigin,
          allowedHosts: opts.allowHost,
          trustProxy: opts.trustProxy === true,
          routes: [registerDashboard],
        });
      } catch (err) {
        log(err instanceof Error ? err.message : String(err));
        await ctx.close();
        process.exitCode = EXIT.badInput;
        return;
      }
      const host = opts.host ?? (setting("serveHost") as string | undefined) ?? "127.0.0.1";
      const port = opts.port ?? (setting("servePort") as number | undefined) ?? DEFAULT_SERVE_PORT;
      let where: Awaited<ReturnType<typeof listen>>;
      try {
        where = await listen(app, ctx, { host, port, token, adminToken });
      } catch (err) {
        log(`cannot listen on ${host}:${port}: ${err instanceof Error ? err.message : String(err)}`);
        await app.close();
        await ctx.close();
        process.exitCode = EXIT.failure;
        return;
      }
      process.stdout.write(opts.json ? `${JSON.stringify(where)}\n` : `${where.url}\n`);
      log(`serving on ${where.url}${token ? " (bearer token required)" : ""}`);
      let stopping = false;
      const stop = async () => {
        if (stopping) return;
        stopping = true;
        const grace = (opts.grace as number | undefined) ?? 8;
        log(`stopping: calls in flight have ${grace} s to finish`);
        await ctx.drain(grace * 1000);
        await app.close();
        await ctx.close();
        process.exit(EXIT.ok);
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
}

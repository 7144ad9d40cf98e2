import { setFlagsFromString } from "node:v8";
import type { Command } from "commander";
import type { ResolvedConfig } from "../../config/load.js";
import type { Mailbox } from "../../session/mailbox.js";
import type { StatusStore } from "../../store/open-store.js";
import type { Websift } from "../../websift.js";
import { EXIT, parseIntOption, websiftFromEnv } from "../runtime.js";

export function registerMcp(program: Command): void {
  program
    .command("mcp")
    .description(
      "Run the MCP server (tools web_search, web_fetch, web_answer, web_result) on stdio, or Streamable HTTP with --http.",
    )
    .option("--http", "serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio")
    .option(
      "--port <n>",
      "HTTP port (default 8787, or mcpPort in the config)",
      parseIntOption("--port", 0, 65535),
    )
    .option(
      "--host <addr>",
      "HTTP address (default 127.0.0.1; 0.0.0.0 for every interface; beyond loopback needs WEBSIFT_MCP_TOKEN)",
    )
    .option(
      "--allow-host <name[:port]>",
      "extra Host the server answers to, e.g. a container's or LAN name (repeatable; also WEBSIFT_MCP_ALLOWED_HOSTS)",
      (v: string, acc: string[]) => [...acc, v],
      [] as string[],
    )
    .option(
      "--allow-origin <origin>",
      "browser origin allowed to call (repeatable; also WEBSIFT_MCP_ALLOWED_ORIGINS)",
      (v: string, acc: string[]) => [...acc, v],
      [] as string[],
    )
    .option("--verbose", "log provider steps to stderr")
    .addHelpText(
      "after",
      `
stdout carries JSON-RPC only; logs go to stderr. Set WEBSIFT_MCP_TOKEN to require "Authorization: Bearer <token>"
(the client sends it as a header; there is no OAuth). The server answers to the names of the address it binds
(every local address for 0.0.0.0) and to --allow-host; a request naming another Host is refused.

Examples:
  websift mcp
  websift mcp --http --port 8787
  WEBSIFT_MCP_TOKEN=… websift mcp --http --host 0.0.0.0 --allow-host websift.internal`,
    )
    .action(async (opts) => {
      // undici parses HTTP with llhttp compiled to WebAssembly. Once it runs hot, V8 recompiles it with TurboFan
      // on a worker thread, whose ~25 MB of scratch memory was the server's whole peak RSS above its steady
      // state (bench/mcp.bench.mjs: 8 sessions × 120 calls). Staying on the baseline compiler costs a few ms on
      // a megabyte-sized body, nothing next to the page's download and extraction. WebAssembly flags are read
      // when a module compiles, so this must run before the library (and undici) loads.
      setFlagsFromString("--liftoff-only");
      const log = (line: string) => process.stderr.write(`websift: ${line}\n`);
      const [{ loadConfig }, { startMcpHttp }, { serveMcpStdio }] = await Promise.all([
        import("../../config/load.js"),
        import("../../mcp/http.js"),
        import("../../mcp/stdio.js"),
      ]);
      let config: ResolvedConfig;
      try {
        config = loadConfig();
      } catch (err) {
        log(err instanceof Error ? err.message : String(err));
        process.exitCode = EXIT.badInput;
        return;
      }
      const setting = (key: string) => config.settings.find((s) => s.key === key)?.value;
      // Settings are seconds; the server takes ms.
      const ms = (key: string) => {
        const seconds = setting(key) as number | undefined;
        return seconds === undefined ? undefined : seconds * 1000;
      };
      const timeoutMs = ms("timeout");
      const serverOptions = {
        log,
        fetchTimeoutMs: timeoutMs,
        researchTimeoutMs: timeoutMs,
        lookupTimeoutMs: timeoutMs,
        waitMs: ms("mcpWaitSeconds"),
      };
      if (!opts.http) {
        // The library loads while the server answers initialize; calls wait for it.
        const [{ deferredWebsift }, { llmConfigured }] = await Promise.all([
          import("../deferred-websift.js"),
          import("../../agent/llm.js"),
        ]);
        const loading = websiftFromEnv({ verbose: opts.verbose, config });
        // A library that cannot start fails each call (and the run, at close), never as an unhandled rejection.
        loading.catch(() => {});
        const websift = deferredWebsift(loading);
        await serveMcpStdio({ ...serverOptions, websift, research: llmConfigured(config.values.llm) });
        await websift.close();
        return;
      }
      const websift = await websiftFromEnv({ verbose: opts.verbose, config });
      const token = config.values.mcp.token || undefined;
      const mailbox = await fleetMailbox(websift, config.values.store.redisUrl, log);
      let server: Awaited<ReturnType<typeof startMcpHttp>>;
      try {
        server = await startMcpHttp({
          ...serverOptions,
          websift,
          mailbox,
          host: opts.host ?? (setting("mcpHost") as string | undefined),
          port: opts.port ?? (setting("mcpPort") as number | undefined),
          token,
          allowedHosts: [...opts.allowHost, ...list(setting("mcpAllowedHosts"))],
          allowedOrigins: [...opts.allowOrigin, ...list(setting("mcpAllowedOrigins"))],
        });
      } catch (err) {
        log(err instanceof Error ? err.message : String(err));
        await mailbox?.close();
        await websift.close();
        process.exitCode = EXIT.badInput;
        return;
      }
      log(`MCP server listening on ${server.url}${token ? " (bearer token required)" : ""}`);
      const stop = async () => {
        await server.close();
        await mailbox?.close();
        await websift.close();
        process.exit(0);
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
}

/**
 * Results owed to the server's conversations live in Redis when the store does (a fleet: a conversation's result
 * is taken through any instance, and a stopped one's lookups land as failures from another), else in the server.
 */
async function fleetMailbox(
  websift: Websift,
  redisUrl: string | undefined,
  log: (line: string) => void,
): Promise<Mailbox | undefined> {
  const url = redisUrl?.trim();
  const backend = (websift.store as Partial<StatusStore>).status?.().backend;
  if (backend !== "redis" || !url) return undefined;
  const [{ Mailbox }, { RedisMailboxStore }] = await Promise.all([
    import("../../session/mailbox.js"),
    import("../../store/redis-mailbox.js"),
  ]);
  const store = new RedisMailboxStore({ url, log });
  // Lookups owed before the store is connected would carry no lease, and a crash would lose them silently: wait
  // for the first connection (bounded, so a Redis that is down starts the server degraded, not never).
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, 2000);
    const stop = store.listen(() => {}, done);
    function done() {
      clearTimeout(timer);
      stop();
      resolve();
    }
  });
  return new Mailbox({ store, log });
}

/** A comma-separated setting as a list. */
function list(value: unknown): string[] {
  return typeof value === "string"
    ? value
        .split(",")
        .map((v) => v.trim())
        .filter(Boolean)
    : [];
}

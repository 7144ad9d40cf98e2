import { setFlagsFromString } from "node:v8";
import type { Command } from "commander";
import type { ResolvedConfig } from "../../config/load.js";
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
    .option("--host <addr>", "HTTP address (default 127.0.0.1; anything else needs WEBSIFT_MCP_TOKEN)")
    .option(
      "--allow-origin <origin>",
      "browser origin allowed to call (repeatable)",
      (v: string, acc: string[]) => [...acc, v],
      [] as string[],
    )
    .option("--verbose", "log provider steps to stderr")
    .addHelpText(
      "after",
      `
stdout carries JSON-RPC only; logs go to stderr. Set WEBSIFT_MCP_TOKEN to require "Authorization: Bearer <token>".

Examples:
  websift mcp
  websift mcp --http --port 8787
  WEBSIFT_MCP_TOKEN=… websift mcp --http --host 0.0.0.0`,
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
      const timeout = setting("timeout") as number | undefined;
      const websift = await websiftFromEnv({ verbose: opts.verbose });
      const serverOptions = {
        websift,
        log,
        timeoutMs: timeout ? timeout * 1000 : undefined,
        deadlineSeconds: timeout,
      };
      if (!opts.http) {
        await serveMcpStdio(serverOptions);
        await websift.close();
        return;
      }
      const token = config.env.WEBSIFT_MCP_TOKEN || undefined;
      const server = await startMcpHttp({
        ...serverOptions,
        host: opts.host ?? (setting("mcpHost") as string | undefined),
        port: opts.port ?? (setting("mcpPort") as number | undefined),
        token,
        allowedOrigins: opts.allowOrigin,
      });
      log(`MCP server listening on ${server.url}${token ? " (bearer token required)" : ""}`);
      const stop = async () => {
        await server.close();
        await websift.close();
        process.exit(0);
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
}

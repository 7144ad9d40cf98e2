import type { Command } from "commander";
import { startMcpHttp } from "../../mcp/http.js";
import { serveMcpStdio } from "../../mcp/stdio.js";
import { parseIntOption, websiftFromEnv } from "../runtime.js";

export function registerMcp(program: Command): void {
  program
    .command("mcp")
    .description(
      "Run the MCP server (tools web_search, web_fetch, web_answer) on stdio, or Streamable HTTP with --http.",
    )
    .option("--http", "serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio")
    .option("--port <n>", "HTTP port", parseIntOption("--port", 0, 65535), 8787)
    .option(
      "--host <addr>",
      "HTTP address to bind (anything but loopback needs WEBSIFT_MCP_TOKEN)",
      "127.0.0.1",
    )
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
      const log = (line: string) => process.stderr.write(`websift: ${line}\n`);
      const websift = websiftFromEnv({ verbose: opts.verbose });
      if (!opts.http) {
        await serveMcpStdio({ websift, log });
        await websift.close();
        return;
      }
      const server = await startMcpHttp({
        websift,
        log,
        host: opts.host,
        port: opts.port,
        token: process.env.WEBSIFT_MCP_TOKEN || undefined,
        allowedOrigins: opts.allowOrigin,
      });
      log(
        `MCP server listening on ${server.url}${process.env.WEBSIFT_MCP_TOKEN ? " (bearer token required)" : ""}`,
      );
      const stop = async () => {
        await server.close();
        await websift.close();
        process.exit(0);
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
}

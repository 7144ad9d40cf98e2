import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createMcpServer, type McpServerOptions } from "./server.js";

/**
 * Serves MCP on stdin/stdout until the client closes stdin. stdout carries JSON-RPC only, so anything that
 * would print to it (a stray console.log in a dependency) is sent to stderr instead.
 */
export async function serveMcpStdio(options: McpServerOptions): Promise<void> {
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  const server = createMcpServer(options);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once("end", resolve);
  });
  await server.connect(transport);
  await closed;
  await server.close();
}

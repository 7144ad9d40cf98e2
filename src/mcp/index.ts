// The package's `websift/mcp` entry: the MCP server and its transports. Kept off the root so that a library
// user never loads the MCP SDK.
export type { McpHttpOptions, McpHttpServer } from "./http.js";
export { startMcpHttp } from "./http.js";
export type { McpServerOptions } from "./server.js";
export { createMcpServer } from "./server.js";
export { serveMcpStdio } from "./stdio.js";

import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";
import { type ToolResult, textOf } from "./harness.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** `websift mcp` as a client starts it: a child process speaking JSON-RPC on stdio. */
async function spawnServer(env: Record<string, string>) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--import", "tsx", "src/cli/main.ts", "mcp"],
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stderr: "pipe",
  });
  const stderr: string[] = [];
  transport.stderr?.on("data", (c) => stderr.push(String(c)));
  const errors: Error[] = [];
  const client = new Client({ name: "websift-stdio-test", version: "1.0.0" });
  client.onerror = (e) => errors.push(e);
  await client.connect(transport);
  return { client, stderr, errors };
}

describe("websift mcp over stdio", () => {
  it("initializes, lists the tools, and answers disabled without a request when WEBSIFT_ENABLED=0", async () => {
    const { client, errors } = await spawnServer({ WEBSIFT_ENABLED: "0" });
    expect(client.getServerVersion()?.name).toBe("websift");
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
      "web_search",
      "web_fetch",
      "web_answer",
      "web_result",
    ]);
    const r = (await client.callTool({
      name: "web_search",
      arguments: { query: "rust async" },
    })) as ToolResult;
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toMatchObject({ status: "disabled" });
    expect(textOf(r)).toMatch(/^web_search failed \(disabled\): /);
    await client.close();
    // Every stdout line was JSON-RPC: a stray line would have surfaced as a parse error here.
    expect(errors).toEqual([]);
  }, 30_000);

  it("refuses a query that leaks a local path, before any request", async () => {
    const { client, errors } = await spawnServer({});
    const r = (await client.callTool({
      name: "web_answer",
      arguments: { query: "summarise ~/.aws/credentials for me" },
    })) as ToolResult;
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toMatchObject({ status: "denied", text: textOf(r) });
    await client.close();
    expect(errors).toEqual([]);
  }, 30_000);
});

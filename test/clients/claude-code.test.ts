import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ModelStandIn, startMessagesApi } from "./model-api.js";
import { expectModelRead, SCRIPT } from "./pages.js";
import { CLAUDE_BIN, type ClientWorld, cannotRun, MAIN, startWorld } from "./setup.js";

// Claude Code, pinned in test/clients/package.json, in print mode, with ANTHROPIC_BASE_URL at a loopback
// stand-in for the Messages API and websift's built MCP server as its only MCP server.
const why = cannotRun(CLAUDE_BIN);
if (why) console.warn(`Claude Code skipped: ${why}`);

/** Claude Code's environment: the stand-in, a fake key, and every switch that keeps it off the network. */
export function claudeEnv(world: ClientWorld, model: ModelStandIn): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    HOME: world.home,
    CLAUDE_CONFIG_DIR: join(world.home, ".claude"),
    ANTHROPIC_BASE_URL: model.url,
    ANTHROPIC_API_KEY: "test-SECRET-anthropic",
    // MCP tools are not deferred behind tool search, so the model sees them on the first turn.
    ENABLE_TOOL_SEARCH: "false",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_ERROR_REPORTING: "1",
    DISABLE_BUG_COMMAND: "1",
    MCP_TIMEOUT: "60000",
    MCP_TOOL_TIMEOUT: "60000",
  };
}

export function runClaude(
  world: ClientWorld,
  model: ModelStandIn,
  mcpConfig: unknown,
  tools: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const config = join(world.home, `mcp-${Date.now()}.json`);
  mkdirSync(world.home, { recursive: true });
  writeFileSync(config, JSON.stringify(mcpConfig));
  return new Promise((resolve, reject) => {
    const child = spawn(
      CLAUDE_BIN,
      [
        ...["-p", "Read the tide tables page, search, then read on."],
        ...["--mcp-config", config, "--strict-mcp-config"],
        ...["--output-format", "stream-json", "--verbose"],
        ...["--allowedTools", tools.join(",")],
        ...["--model", "claude-sonnet-4-5"],
      ],
      { cwd: world.home, env: claudeEnv(world, model), stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const TOOLS = ["web_search", "web_fetch", "web_answer", "web_result"].map((t) => `mcp__websift__${t}`);

describe.skipIf(why !== undefined)("Claude Code hands the model websift's model view", () => {
  let world: ClientWorld;
  let model: ModelStandIn;
  let run: { code: number | null; stdout: string; stderr: string };

  beforeAll(async () => {
    world = await startWorld();
    model = await startMessagesApi(SCRIPT);
    run = await runClaude(
      world,
      model,
      {
        mcpServers: {
          websift: { type: "stdio", command: process.execPath, args: [MAIN, "mcp"], env: world.serverEnv },
        },
      },
      TOOLS,
    );
  }, 180_000);
  afterAll(async () => {
    await model?.close();
    await world?.close();
  });

  const context = () =>
    `claude exited ${run.code}\nstderr: ${run.stderr.slice(-2000)}\nstdout: ${run.stdout.slice(-3000)}\nrequests: ${JSON.stringify(model.requests.map((r) => r.path))}`;

  it("offers websift's tools to the model and finishes the scripted turns", () => {
    expect(model.toolNames, context()).toEqual(expect.arrayContaining(TOOLS));
    expect(model.outputs, context()).toHaveLength(SCRIPT.length);
    expect(run.code, context()).toBe(0);
  });

  it("web_fetch: the model reads fenced page text, our status line, no secret", () => {
    expectModelRead.page(model.outputs[0] ?? "");
  });

  it("web_search: the model reads the results fenced, no secret", () => {
    expectModelRead.search(model.outputs[1] ?? "");
  });

  it("a fetch that outlives the call's wait: the model is told to call web_result", () => {
    expectModelRead.pending(model.outputs[2] ?? "");
  });
});

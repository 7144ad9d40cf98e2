import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "smol-toml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ModelStandIn, startResponsesApi } from "./model-api.js";
import { expectModelRead, SCRIPT } from "./pages.js";
import { type ClientWorld, CODEX_BIN, cannotRun, MAIN, startWorld } from "./setup.js";

// Codex CLI, pinned in test/clients/package.json, with a custom model provider on a loopback stand-in for the
// Responses API, and websift's built MCP server as a required stdio server.
const why = cannotRun(CODEX_BIN);
if (why) console.warn(`Codex CLI skipped: ${why}`);

describe.skipIf(why !== undefined)("Codex CLI hands the model websift's model view", () => {
  let world: ClientWorld;
  let model: ModelStandIn;
  let run: { code: number | null; stdout: string; stderr: string };

  beforeAll(async () => {
    world = await startWorld();
    model = await startResponsesApi(SCRIPT);
    const codexHome = join(world.home, "codex");
    mkdirSync(codexHome, { recursive: true });
    writeFileSync(
      join(codexHome, "config.toml"),
      stringify({
        model: "stand-in-model",
        model_provider: "standin",
        approval_policy: "never",
        sandbox_mode: "read-only",
        // Offline-safe: no update check, no analytics, no feedback upload.
        check_for_update_on_startup: false,
        analytics: { enabled: false },
        feedback: { enabled: false },
        model_providers: {
          standin: {
            name: "loopback stand-in",
            base_url: `${model.url}/v1`,
            wire_api: "responses",
            env_key: "STANDIN_API_KEY",
            request_max_retries: 0,
            stream_max_retries: 0,
          },
        },
        mcp_servers: {
          websift: {
            command: process.execPath,
            args: [MAIN, "mcp"],
            // Without it, `codex exec` may send the first turn before the tools are listed.
            required: true,
            startup_timeout_sec: 60,
            tool_timeout_sec: 60,
            env: world.serverEnv,
          },
        },
      }),
    );
    run = await new Promise((resolve, reject) => {
      const child = spawn(
        CODEX_BIN,
        [
          "exec",
          "--skip-git-repo-check",
          "--color",
          "never",
          "Read the tide tables page, search, then read on.",
        ],
        {
          cwd: world.home,
          env: {
            PATH: process.env.PATH ?? "",
            HOME: world.home,
            CODEX_HOME: codexHome,
            STANDIN_API_KEY: "test-SECRET-openai-standin",
            RUST_LOG: "error",
          },
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d) => (stdout += d));
      child.stderr.on("data", (d) => (stderr += d));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });
  }, 180_000);
  afterAll(async () => {
    await model?.close();
    await world?.close();
  });

  const context = () =>
    `codex exited ${run.code}\nstderr: ${run.stderr.slice(-2000)}\nrequests: ${JSON.stringify(model.requests.map((r) => r.path))}`;

  it("lists websift's tools to the model and finishes the scripted turns", () => {
    expect(
      model.toolNames.some((n) => n.endsWith("web_fetch")),
      context(),
    ).toBe(true);
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

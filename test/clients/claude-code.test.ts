import { type ChildProcess, spawn } from "node:child_process";
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

/**
 * A reverse proxy that records what the client asks websift's HTTP server and the status it got ("POST /mcp
 * 200"), Host rewritten to the server's.
 */
async function recording(target: string): Promise<{ url: string; paths: string[]; close(): Promise<void> }> {
  const { default: http } = await import("node:http");
  const upstream = new URL(target);
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    const line = `${req.method} ${req.url}`;
    const out = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, host: upstream.host },
      },
      (back) => {
        paths.push(`${line} ${back.statusCode}`);
        res.writeHead(back.statusCode ?? 502, back.headers);
        back.pipe(res);
      },
    );
    out.on("error", () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    paths,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe.skipIf(why !== undefined)("Claude Code over Streamable HTTP with websift's token", () => {
  const token = "test-SECRET-claude-http-token-01";
  let world: ClientWorld;
  let server: ChildProcess;
  let proxy: Awaited<ReturnType<typeof recording>>;
  beforeAll(async () => {
    world = await startWorld();
    server = spawn(process.execPath, [MAIN, "mcp", "--http", "--port", "0"], {
      cwd: world.home,
      env: { ...world.serverEnv, WEBSIFT_MCP_TOKEN: token },
      stdio: ["ignore", "ignore", "pipe"],
    });
    const url = await new Promise<string>((resolve, reject) => {
      let stderr = "";
      server.stderr?.on("data", (d) => {
        stderr += d;
        const m = /listening on (http:\/\/[^/\s]+)/.exec(stderr);
        if (m?.[1]) resolve(m[1]);
      });
      server.on("exit", (code) => reject(new Error(`websift mcp --http exited ${code}: ${stderr}`)));
    });
    proxy = await recording(url);
  }, 60_000);
  afterAll(async () => {
    server?.kill();
    await proxy?.close();
    await world?.close();
  });

  it("with the token in its headers: connects, with no OAuth request, and the model reads the model view", async () => {
    const model = await startMessagesApi(SCRIPT);
    try {
      const run = await runClaude(
        world,
        model,
        {
          mcpServers: {
            websift: { type: "http", url: `${proxy.url}/mcp`, headers: { Authorization: `Bearer ${token}` } },
          },
        },
        TOOLS,
      );
      const context = `claude exited ${run.code}: ${run.stderr.slice(-1500)} ${JSON.stringify(proxy.paths)}`;
      expect(model.toolNames, context).toEqual(expect.arrayContaining(TOOLS));
      // Nothing but /mcp, never a 401: no OAuth discovery at all. (Its first POST is a sessionless
      // `server/discover` probe of a newer protocol; the JSON-RPC "no valid session" error sends it on to
      // initialize.)
      expect(
        proxy.paths.filter((p) => !/^(POST|GET|DELETE) \/mcp \d+$/.test(p)),
        context,
      ).toEqual([]);
      expect(
        proxy.paths.filter((p) => p.endsWith(" 401")),
        context,
      ).toEqual([]);
      expectModelRead.page(model.outputs[0] ?? "");
      expectModelRead.search(model.outputs[1] ?? "");
      expectModelRead.pending(model.outputs[2] ?? "");
    } finally {
      await model.close();
    }
  }, 180_000);

  it("without the token: refused at once, no login started, the model never sees the tools", async () => {
    const model = await startMessagesApi(SCRIPT);
    proxy.paths.length = 0;
    try {
      const run = await runClaude(
        world,
        model,
        { mcpServers: { websift: { type: "http", url: `${proxy.url}/mcp` } } },
        TOOLS,
      );
      const context = `claude exited ${run.code}: ${run.stderr.slice(-1500)} ${JSON.stringify(proxy.paths)}`;
      // What Claude Code 2.1.332 does after the 401: RFC 9728 and 8414 discovery, then dynamic registration,
      // each answered at once with the token's sentence; it marks the server failed (not "needs-auth", which
      // would send the user into a login that cannot finish) and goes on without it.
      const init = run.stdout
        .split("\n")
        .map((line) => {
          try {
            return JSON.parse(line) as {
              type?: string;
              subtype?: string;
              mcp_servers?: { name: string; status: string }[];
            };
          } catch {
            return undefined;
          }
        })
        .find((e) => e?.type === "system" && e.subtype === "init");
      expect(init?.mcp_servers, context).toEqual([
        expect.objectContaining({ name: "websift", status: "failed" }),
      ]);
      expect(proxy.paths, context).toContain("POST /mcp 401");
      expect(
        proxy.paths.filter((p) => p.includes("/.well-known/")).every((p) => p.endsWith(" 404")),
        context,
      ).toBe(true);
      expect(
        proxy.paths.filter((p) => /^POST \/register /.test(p)),
        context,
      ).toEqual(expect.arrayContaining(["POST /register 400"]));
      expect(
        proxy.paths.some((p) => /\/authorize|\/token/.test(p)),
        context,
      ).toBe(false);
      expect(
        model.toolNames.some((n) => n.includes("websift")),
        context,
      ).toBe(false);
      expect(run.code, context).toBe(0);
    } finally {
      await model.close();
    }
  }, 180_000);
});

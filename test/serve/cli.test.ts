import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

// `websift serve` as users start it: the built CLI in its own process (npm test builds dist/ first).
const MAIN = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "websift-serve-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Running {
  child: ChildProcess;
  first: Promise<string>;
  stderr: () => string;
  exited: Promise<number | null>;
}

function start(args: string[], env: Record<string, string> = {}): Running {
  const child = spawn(process.execPath, [MAIN, "serve", ...args], {
    env: { PATH: process.env.PATH ?? "", HOME: dir, WEBSIFT_STORE: "memory", WEBSIFT_ENABLED: "0", ...env },
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  const first = new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (d) => {
      out += d;
      const at = out.indexOf("\n");
      if (at >= 0) resolve(out.slice(0, at));
    });
    exited.then((code) => reject(new Error(`serve exited (${code}) before listening: ${stderr}`)));
  });
  // A run that is expected to fail never awaits `first`.
  first.catch(() => {});
  return { child, first, stderr: () => stderr, exited };
}

describe("websift serve", () => {
  it("starts on a free port, answers /v1/health and stops cleanly on SIGTERM", async () => {
    const run = start(["--port", "0", "--json"]);
    const where = JSON.parse(await run.first);
    expect(where).toMatchObject({ host: "127.0.0.1" });
    expect(where.port).toBeGreaterThan(0);
    expect(where.url).toBe(`http://127.0.0.1:${where.port}`);
    const health = await fetch(`${where.url}/v1/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ ok: true, abilities: { web: "off" } });
    const search = await fetch(`${where.url}/v1/search`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "tide tables" }),
    });
    expect((await search.json()).status).toBe("disabled");
    run.child.kill("SIGTERM");
    expect(await run.exited).toBe(0);
    expect(run.stderr()).toMatch(/serving on http:\/\/127\.0\.0\.1:\d+/);
  });

  it("requires the token from WEBSIFT_SERVE_TOKEN and prints the plain URL without --json", async () => {
    const token = "test-SECRET-cli-token-42";
    const run = start(["--port", "0"], { WEBSIFT_SERVE_TOKEN: token });
    const url = await run.first;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${url}/v1/health`)).status).toBe(401);
    const ok = await fetch(`${url}/v1/health`, { headers: { authorization: `Bearer ${token}` } });
    expect(ok.status).toBe(200);
    run.child.kill("SIGINT");
    expect(await run.exited).toBe(0);
    expect(run.stderr()).not.toContain(token);
  });

  it("warns when listening beyond this machine without a token", async () => {
    const run = start(["--port", "0", "--host", "0.0.0.0", "--json"]);
    const where = JSON.parse(await run.first);
    const health = await fetch(`http://127.0.0.1:${where.port}/v1/health`);
    expect(health.status).toBe(200);
    run.child.kill("SIGTERM");
    expect(await run.exited).toBe(0);
    expect(run.stderr()).toMatch(/without a token.*WEBSIFT_SERVE_TOKEN/);
  });

  it("refuses an admin token equal to the API token with exit code 2, naming neither", async () => {
    const token = "test-SECRET-cli-same-token";
    const run = start(["--port", "0"], { WEBSIFT_SERVE_TOKEN: token, WEBSIFT_ADMIN_TOKEN: token });
    expect(await run.exited).toBe(2);
    expect(run.stderr()).toMatch(/WEBSIFT_ADMIN_TOKEN must differ from WEBSIFT_SERVE_TOKEN/);
    expect(run.stderr()).not.toContain(token);
  });

  it("refuses a bad port with exit code 2", async () => {
    const run = start(["--port", "70000"]);
    expect(await run.exited).toBe(2);
    expect(run.stderr()).toMatch(/--port must be an integer/);
  });
});

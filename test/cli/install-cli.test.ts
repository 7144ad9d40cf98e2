import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "websift-install-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TSX = fileURLToPath(import.meta.resolve("tsx"));
const run = (...args: string[]) => runIn(ROOT, {}, ...args);
const runIn = (cwd: string, env: Record<string, string>, ...args: string[]) =>
  promisify(execFile)(process.execPath, ["--import", TSX, join(ROOT, "src/cli/main.ts"), ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? "", HOME: dir, BRAVE_API_KEY: "test-SECRET-brave-cli", ...env },
  });

describe("websift install (CLI)", () => {
  it("says what it changed and where, then that it changed nothing", async () => {
    const first = await run(
      "install",
      "codex",
      "--codex-home",
      dir,
      "--command-path",
      "/usr/local/bin/websift",
    );
    const file = join(dir, "config.toml");
    expect(first.stdout).toBe(
      `codex: created ${file} ([mcp_servers.websift] command = /usr/local/bin/websift)\n`,
    );
    const toml = readFileSync(file, "utf8");
    expect(toml).toContain('env_vars = [ "BRAVE_API_KEY" ]');
    expect(toml).not.toContain("test-SECRET");
    const again = await run(
      "install",
      "codex",
      "--codex-home",
      dir,
      "--command-path",
      "/usr/local/bin/websift",
      "--json",
    );
    expect(JSON.parse(again.stdout)).toMatchObject({ client: "codex", file, action: "unchanged" });
    expect(readFileSync(file, "utf8")).toBe(toml);
  }, 60_000);

  it("takes an empty CODEX_HOME as unset: ~/.codex, never the working folder", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "websift-install-cwd-"));
    try {
      const r = await runIn(cwd, { CODEX_HOME: "" }, "install", "codex", "--command-path", "/bin/websift");
      expect(r.stdout).toContain(join(dir, ".codex", "config.toml"));
      expect(existsSync(join(dir, ".codex", "config.toml"))).toBe(true);
      expect(existsSync(join(cwd, "config.toml"))).toBe(false);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  }, 60_000);
});

import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "websift-install-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (...args: string[]) =>
  promisify(execFile)(process.execPath, ["--import", "tsx", "src/cli/main.ts", ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: dir, BRAVE_API_KEY: "test-SECRET-brave-cli" },
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
});

import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// What a user of the package gets: the tarball `npm pack` makes (its prepare step builds dist/ as publishing
// does), installed with npm into a folder that is not this repository, then used from there, as a user
// would, through the `websift` command and `import("websift")`. Slow (better-sqlite3 compiles its native
// module when no prebuilt binary can be downloaded), so it runs in `npm run test:package`, not in `npm test`.

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };

type Run = { code: number | null; stdout: string; stderr: string };

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * The environment of a user's shell: an enclosing `npm run` adds variables about this repository
 * (`npm_config_local_prefix` would point the consumer's npm back here, `npm_config_loglevel` would silence it).
 */
function shellEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(npm_package_|npm_lifecycle_|WEBSIFT_)/i.test(name)) continue;
    if (/^(npm_config_local_prefix|npm_config_loglevel|npm_command|INIT_CWD)$/i.test(name)) continue;
    env[name] = value;
  }
  return env;
}

let work: string;
let consumer: string;
let cache: string;
let installed: Run;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "websift-package-"));
  consumer = join(work, "consumer");
  cache = join(work, "cache");
  mkdirSync(consumer);
  const packed = await run("npm", ["pack", "--json", "--pack-destination", work], ROOT, shellEnv());
  if (packed.code !== 0) throw new Error(`npm pack failed (${packed.code}):\n${packed.stderr}`);
  const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
  writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "websift-consumer", private: true }));
  installed = await run(
    "npm",
    // --foreground-scripts: install scripts print here, so the test sees what websift's postinstall did.
    ["install", join(work, filename), "--prefer-offline", "--no-audit", "--no-fund", "--foreground-scripts"],
    consumer,
    shellEnv(),
  );
  if (installed.code !== 0)
    throw new Error(`npm install of the tarball failed (${installed.code}):\n${installed.stderr}`);
}, 1_800_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The installed command, run from the consumer's folder with its own cache folder (where the sqlite store goes). */
const websift = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  // --no: the local install must answer; npx must never fetch a package of that name from the registry.
  run("npx", ["--no", "--", "websift", ...args], consumer, { ...shellEnv(), XDG_CACHE_HOME: cache, ...env });

const node = (script: string, env: NodeJS.ProcessEnv = {}) =>
  run(process.execPath, ["--input-type=module", "-e", script], consumer, {
    ...shellEnv(),
    XDG_CACHE_HOME: cache,
    ...env,
  });

describe("the packed package, installed into a clean folder", () => {
  const pkgDir = () => join(consumer, "node_modules", "websift");

  it("holds every file its exports and bin name, and none of the repository's sources or tests", () => {
    const manifest = JSON.parse(readFileSync(join(pkgDir(), "package.json"), "utf8")) as {
      bin: Record<string, string>;
      exports: Record<string, string | Record<string, string>>;
    };
    const targets = [
      ...Object.values(manifest.bin),
      ...Object.values(manifest.exports).flatMap((t) => (typeof t === "string" ? [t] : Object.values(t))),
    ];
    expect(targets.length).toBeGreaterThan(5);
    for (const target of targets) expect(existsSync(join(pkgDir(), target)), target).toBe(true);
    expect(existsSync(join(pkgDir(), "README.md"))).toBe(true);
    for (const absent of ["src", "test", "bench", "patches", "tsconfig.json"]) {
      expect(existsSync(join(pkgDir(), absent)), absent).toBe(false);
    }
  });

  it("runs its install scripts without failing: the patch step is skipped where patches/ is not shipped", () => {
    const log = `${installed.stdout}${installed.stderr}`;
    expect(installed.code).toBe(0);
    expect(log).toContain(`> websift@${version} postinstall`);
    expect(log).not.toContain("Applying patches");
    expect(log).not.toMatch(/npm error/i);
  });

  it("answers `websift --help` with its usage on stdout", async () => {
    const help = await websift(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: websift /);
    for (const command of ["answer", "search", "fetch", "mcp", "serve"])
      expect(help.stdout).toContain(command);
  }, 60_000);

  it("refuses a loopback URL: `websift fetch http://127.0.0.1/` is denied with exit 1, on its sqlite store", async () => {
    const fetched = await websift(["fetch", "--json", "http://127.0.0.1/"]);
    expect(fetched.code).toBe(1);
    const view = JSON.parse(fetched.stdout) as { status: string; text: string };
    expect(view.status).toBe("denied");
    expect(view.text).toContain("127.0.0.1 is a loopback address");
    // The native better-sqlite3 build works: the store opened its file instead of standing in with memory.
    expect(fetched.stderr).not.toContain("unavailable");
    expect(existsSync(join(cache, "websift", "state.db"))).toBe(true);
  }, 60_000);

  it('imports as a library: createWebsift exists, and a search with WEBSIFT_ENABLED=0 answers "disabled"', async () => {
    const script = `
      const { createWebsift } = await import("websift");
      const { openaiTools } = await import("websift/openai");
      const websift = createWebsift();
      const result = await websift.search("who maintains undici");
      console.log(JSON.stringify({ createWebsift: typeof createWebsift, openaiTools: typeof openaiTools, result }));
      await websift.close();`;
    const imported = await node(script, { WEBSIFT_ENABLED: "0", WEBSIFT_STORE: "memory" });
    expect(imported.stderr).toBe("");
    expect(imported.code).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({
      createWebsift: "function",
      openaiTools: "function",
      result: { status: "disabled", results: [] },
    });
  }, 60_000);
});

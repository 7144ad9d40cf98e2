import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { type SimProxy, TEST_CA_PATH } from "../simweb/index.js";

/** The built CLI (npm install and npm test build it first), started as `node dist/cli/main.js`. */
export const CLI_MAIN = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The CLI as users run it, in its own process: its requests reach the simulated web through a real forward
 * proxy (HTTPS_PROXY), as they would through a corporate egress proxy. Each run starts with no memory of the
 * last one (a memory store) unless `env` says otherwise.
 */
export function runCli(
  proxy: SimProxy,
  args: string[],
  env: Record<string, string> = {},
  { terminal = false, cwd = "/tmp", home = process.env.HOME ?? "/tmp" } = {},
): Promise<CliRun> {
  // On a terminal: under script(1), which gives the CLI a pseudo-terminal for stdout, as a person's shell does.
  const [command, argv] = terminal
    ? ["script", ["-qec", [process.execPath, CLI_MAIN, ...args].map(shellQuoted).join(" "), "/dev/null"]]
    : [process.execPath, [CLI_MAIN, ...args]];
  return new Promise((resolve) => {
    const child = spawn(command, argv, {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: home,
        HTTPS_PROXY: proxy.url,
        HTTP_PROXY: proxy.url,
        NODE_EXTRA_CA_CERTS: TEST_CA_PATH,
        WEBSIFT_STORE: "memory",
        ...env,
      },
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const shellQuoted = (arg: string) => `'${arg.replace(/'/g, "'\\''")}'`;

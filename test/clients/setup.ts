import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type SimProxy, type SimWeb, startProxy, startSimWeb, TEST_CA_PATH } from "../simweb/index.js";
import { servePages } from "./pages.js";

/** The built CLI, as a user's MCP client starts it. */
export const MAIN = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
/** The pinned clients, installed by scripts/test-clients.sh into test/clients/node_modules. */
const CLIENTS = fileURLToPath(new URL("./node_modules/", import.meta.url));
export const CODEX_BIN = join(CLIENTS, "@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex");
export const CLAUDE_BIN = join(CLIENTS, "@anthropic-ai/claude-code-linux-x64/claude");

/** A lookup slower than a call's wait: the server waits this long, the page takes much longer. */
export const WAIT_SECONDS = 1;
const SLOW_MS = 8000;

/**
 * Why a real client cannot run here, or undefined when it can. A third-party client gets no route off the
 * machine: it runs only inside a network namespace with loopback alone (scripts/test-clients.sh makes one).
 */
export function cannotRun(bin: string): string | undefined {
  if (process.platform !== "linux" || process.arch !== "x64")
    return `the pinned client binaries are linux-x64 (this is ${process.platform}-${process.arch})`;
  if (!existsSync(bin)) return `${bin} is not installed (npm run test:clients installs it)`;
  const outside = Object.entries(networkInterfaces()).filter(([name, list]) =>
    (list ?? []).some((i) => !i.internal && name !== "lo"),
  );
  if (outside.length)
    return `this process can reach the network (${outside.map(([n]) => n).join(", ")}); run it through npm run test:clients, which gives it loopback only`;
  return undefined;
}

export interface ClientWorld {
  web: SimWeb;
  proxy: SimProxy;
  home: string;
  /** What websift's MCP server needs to reach the simulated web, and nothing of this machine's state. */
  serverEnv: Record<string, string>;
  close(): Promise<void>;
}

export async function startWorld(): Promise<ClientWorld> {
  const web = await startSimWeb();
  const proxy = await startProxy(web);
  servePages(web, SLOW_MS);
  const home = mkdtempSync(join(tmpdir(), "websift-clients-"));
  return {
    web,
    proxy,
    home,
    serverEnv: {
      PATH: process.env.PATH ?? "",
      HOME: home,
      HTTPS_PROXY: proxy.url,
      HTTP_PROXY: proxy.url,
      NODE_EXTRA_CA_CERTS: TEST_CA_PATH,
      WEBSIFT_STORE: "memory",
      WEBSIFT_MCP_WAIT_SECONDS: String(WAIT_SECONDS),
    },
    async close() {
      await proxy.close();
      await web.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

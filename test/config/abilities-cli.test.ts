import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeWebAbility } from "../../src/config/abilities.js";
import { SqliteStore } from "../../src/store/sqlite.js";
import { ddgResultsPage } from "../ground/answer/ddg-page.js";
import { type SimProxy, type SimWeb, startProxy, startSimWeb, TEST_CA_PATH } from "../simweb/index.js";

// The switch as another process sees it: the dashboard writes it to the shared state file, and a CLI run
// (the same runtime the MCP server starts with) reads it on its next call. The built CLI, as npm test builds it.
const MAIN = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));

let web: SimWeb;
let proxy: SimProxy;
let cache: string;
beforeAll(async () => {
  web = await startSimWeb();
  proxy = await startProxy(web);
  cache = mkdtempSync(join(tmpdir(), "websift-abilities-cli-"));
});
afterAll(async () => {
  await proxy.close();
  await web.close();
  rmSync(cache, { recursive: true, force: true });
});

function search(query: string): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, "search", query, "--json"], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: cache,
        XDG_CACHE_HOME: cache,
        WEBSIFT_STORE: "sqlite",
        HTTPS_PROXY: proxy.url,
        HTTP_PROXY: proxy.url,
        NODE_EXTRA_CA_CERTS: TEST_CA_PATH,
      },
      cwd: cache,
      stdio: ["ignore", "pipe", "ignore"],
    });
    let stdout = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.on("close", (code) => resolve({ code, stdout }));
  });
}

describe("the switch seen by a CLI run", { timeout: 60_000 }, () => {
  it("off in the shared state file: the run answers disabled and nothing leaves; on: it searches", async () => {
    web.route("html.duckduckgo.com", "/html/", {
      headers: { "content-type": "text/html; charset=utf-8" },
      body: ddgResultsPage(
        ["1", "2", "3"].map((n) => ({
          title: `Zugspitze glacier ${n}`,
          url: `https://www.example.com/z${n}`,
          snippet: `The Zugspitze glacier, part ${n}`,
        })),
      ),
    });
    const state = new SqliteStore(join(cache, "websift", "state.db"));
    await writeWebAbility(state, false);
    const off = await search("zugspitze glacier");
    expect(JSON.parse(off.stdout).status).toBe("disabled");
    expect(proxy.log).toEqual([]);
    expect(web.requests).toHaveLength(0);

    await writeWebAbility(state, true);
    await state.close();
    const on = await search("zugspitze glacier");
    expect(JSON.parse(on.stdout).status).toBe("ok");
    expect(web.requests.length).toBeGreaterThan(0);
  });
});

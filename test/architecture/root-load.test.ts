import { spawnSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

// The built package (npm test builds it first): what `import("websift")` loads is the emitted dist/, not src/.
const DIST = fileURLToPath(new URL("../../dist/", import.meta.url));
const entry = (path: string) => pathToFileURL(`${DIST}${path}`).href;

// A load hook that names every module the ES loader loads, and a wrap of the CommonJS loader that names every
// request a require makes (zod's first use is a require, which Node 20's load hooks do not see): one line each.
const HOOK = `export async function load(url, context, next) { process.stderr.write("loaded " + url + "\\n"); return next(url, context); }`;
const REGISTER = `import Module, { register } from "node:module";
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOK)}`)});
const load = Module._load;
Module._load = function (request, ...rest) { process.stderr.write("loaded " + request + "\\n"); return load.call(this, request, ...rest); };`;

/** Runs `script` in a fresh Node with the hook; the URLs it loaded, and what the script printed on stdout. */
function run(script: string): { loaded: string[]; stdout: string } {
  const r = spawnSync(
    process.execPath,
    ["--import", `data:text/javascript,${encodeURIComponent(REGISTER)}`, "--input-type=module", "-e", script],
    { encoding: "utf8", env: { PATH: process.env.PATH, HOME: process.env.HOME }, timeout: 30_000 },
  );
  expect(r.status, r.stderr).toBe(0);
  const loaded = r.stderr
    .split("\n")
    .filter((line) => line.startsWith("loaded "))
    .map((line) => line.slice("loaded ".length));
  return { loaded, stdout: r.stdout };
}
const zodModules = (loaded: string[]) => loaded.filter((url) => url.includes("/node_modules/zod/"));

describe("what the package root loads", () => {
  it("loads zod when a schema is first used: the one ES module instance the surfaces use, at the same moment", () => {
    const script = `
      const root = await import(${JSON.stringify(entry("index.js"))});
      console.log("imported");
      let refused = "";
      try { root.createWebsift({ timeoutMs: -1 }); } catch (err) { refused = err.message; }
      console.log(refused);
      const { zod } = await import(${JSON.stringify(entry("core/lazy-zod.js"))});
      console.log(zod().z === (await import("zod")).z);
    `;
    const { loaded, stdout } = run(script);
    const [imported, refused, same] = stdout.trim().split("\n");
    expect(imported).toBe("imported");
    // The check of an option is what brought zod in.
    expect(zodModules(loaded).length).toBeGreaterThan(0);
    // A bad option is still refused as createWebsift is called, in the same words.
    expect(refused).toBe(
      "createWebsift: config.timeoutMs must be a number of milliseconds, more than 0 (got -1)",
    );
    // One zod per process: the library's schemas come from the instance `import "zod"` gives the MCP SDK.
    expect(same).toBe("true");
  });

  it("loads none of zod's modules at import", () => {
    const { loaded } = run(`await import(${JSON.stringify(entry("index.js"))});`);
    expect(loaded).toContain(entry("index.js"));
    expect(zodModules(loaded)).toEqual([]);
    // The hook does see zod where it is loaded at import: the MCP entry's tool schemas are built with it.
    expect(
      zodModules(run(`await import(${JSON.stringify(entry("mcp/index.js"))});`).loaded).length,
    ).toBeGreaterThan(0);
  });

  it("loads the extractor and the page pool's piscina with the first page, not at import", () => {
    const heavy = (loaded: string[]) =>
      loaded.filter((url) => url.includes("/read/extract/") || url.includes("/node_modules/piscina/"));
    expect(heavy(run(`await import(${JSON.stringify(entry("index.js"))});`).loaded)).toEqual([]);
    const { loaded } = run(`
      const { extractMarkdown } = await import(${JSON.stringify(entry("index.js"))});
      await extractMarkdown("<html><body><article><p>One paragraph of the page.</p></article></body></html>", "https://example.org/");
    `);
    expect(heavy(loaded).length).toBeGreaterThan(0);
  });
});

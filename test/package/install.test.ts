import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTINUE, type RawServer, startRawServer } from "../net/raw-server.js";

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
    // --foreground-scripts: install scripts print here, so the test sees that websift runs none.
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

  it("installs without failing and runs no install script of its own (its dependency fixes live in dist/)", () => {
    const log = `${installed.stdout}${installed.stderr}`;
    expect(installed.code).toBe(0);
    expect(log).not.toContain(`> websift@${version} postinstall`);
    expect(log).not.toMatch(/npm error/i);
    const manifest = JSON.parse(readFileSync(join(pkgDir(), "package.json"), "utf8")) as {
      scripts?: Record<string, string>;
    };
    for (const hook of ["preinstall", "install", "postinstall"])
      expect(manifest.scripts?.[hook], hook).toBeUndefined();
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

  it("imports each entry: the root without the MCP SDK, Fastify or a store driver, and websift/mcp, websift/serve", async () => {
    const script = `
      import { createRequire } from "node:module";
      const root = await import("websift");
      // What the root alone loaded, by package, from the require cache (the drivers and SDKs are CommonJS or
      // ship a CommonJS build that the ESM loader also registers there).
      const loaded = (name) => Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes("/node_modules/" + name + "/"));
      const heavy = Object.fromEntries(["ioredis", "better-sqlite3", "fastify", "playwright-core", "unpdf"].map((n) => [n, loaded(n)]));
      const mcp = await import("websift/mcp");
      const serve = await import("websift/serve");
      const websift = root.createWebsift();
      const session = root.createSession(websift, { waitMs: 1000 });
      await session.close();
      await websift.close();
      console.log(JSON.stringify({
        heavy,
        // The check above sees a CommonJS package the ESM loader brought in: Fastify is there once serve is.
        fastifyWithServe: loaded("fastify"),
        root: [typeof root.createWebsift, typeof root.createSession, typeof root.openStore, typeof root.startMcpHttp],
        mcp: [typeof mcp.createMcpServer, typeof mcp.startMcpHttp, typeof mcp.serveMcpStdio],
        serve: [typeof serve.createServeContext, typeof serve.buildServeApp, typeof serve.listen, typeof serve.registerDashboard],
      }));`;
    const imported = await node(script, { WEBSIFT_ENABLED: "0", WEBSIFT_STORE: "memory" });
    expect(imported.code, imported.stderr).toBe(0);
    const out = JSON.parse(imported.stdout) as Record<string, unknown>;
    expect(out.heavy).toEqual({
      ioredis: false,
      "better-sqlite3": false,
      fastify: false,
      "playwright-core": false,
      unpdf: false,
    });
    expect(out.fastifyWithServe).toBe(true);
    expect(out.root).toEqual(["function", "function", "function", "function"]);
    expect(out.mcp).toEqual(["function", "function", "function"]);
    expect(out.serve).toEqual(["function", "function", "function", "function"]);
  }, 60_000);
});

// The published undici, as npm installs it: what websift does with responses that undici alone handles otherwise
// is websift's own code, shipped in dist/.
describe("the installed package on responses undici alone gets wrong", () => {
  let raw: RawServer;
  beforeAll(async () => {
    raw = await startRawServer();
  });
  afterAll(async () => {
    await raw?.close();
  });

  /** Options that send every name the installed code looks up to the raw server, as the net tests do. */
  const routed = () =>
    `{ resolve: async () => ["93.184.215.14"], connectTo: () => ({ host: "127.0.0.1", port: ${raw.port} }) }`;

  const page = (title: string, words: string) => {
    const body = `<html><head><title>${title}</title></head><body><article><h1>${title}</h1><p>${words}</p></article></body></html>`;
    return `HTTP/1.1 200 OK\r\ncontent-type: text/html; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  };

  it("reads pages whose server sends 100 Continue before each answer: ok, keep-alive connection included", async () => {
    let reused = 0;
    raw.requests.length = 0;
    raw.script = (index, line) => {
      if (index > 0) reused++;
      const path = line.split(" ")[1];
      if (path === "/first")
        return [CONTINUE, page("First page", "The first page, after an interim 100 Continue.")];
      if (path === "/second")
        return [CONTINUE, page("Second page", "The second page, after another 100 Continue.")];
      return [CONTINUE, "HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n"];
    };
    const script = `
      const { createWebsift } = await import("websift");
      const websift = createWebsift(${routed()});
      const first = await websift.read("http://interim.example.com/first");
      // undici frees the connection one turn after an answer: the next read then goes on the same connection.
      await new Promise((resolve) => setImmediate(resolve));
      const second = await websift.read("http://interim.example.com/second");
      console.log(JSON.stringify([first, second].map((r) => ({ status: r.status, markdown: r.markdown }))));
      await websift.close();`;
    // The undici the package resolves is the published one, which on its own drops the connection on a 100.
    const undiciParser = createRequire(join(consumer, "node_modules", "websift", "package.json")).resolve(
      "undici/lib/dispatcher/client-h1.js",
    );
    expect(readFileSync(undiciParser, "utf8")).toMatch(
      /if \(statusCode === 100\) \{\s+util\.destroy\(socket/,
    );
    const ran = await node(script, { WEBSIFT_STORE: "memory" });
    expect(ran.code, ran.stderr).toBe(0);
    const [first, second] = JSON.parse(ran.stdout) as { status: string; markdown: string }[];
    expect(first.status).toBe("ok");
    expect(first.markdown).toContain("The first page, after an interim 100 Continue.");
    expect(second.status).toBe("ok");
    expect(second.markdown).toContain("The second page, after another 100 Continue.");
    expect(raw.requests).toContain("GET /second HTTP/1.1");
    expect(reused).toBeGreaterThan(0);
  }, 60_000);

  it("names malformed responses protocol and refuses more than 3 stacked codings, never crashing", async () => {
    let layered = Buffer.from("<html><body><p>the innermost layer</p></body></html>");
    for (let i = 0; i < 4; i++) layered = zlib.gzipSync(layered);
    const head = "HTTP/1.1 200 OK\r\ncontent-type: text/html\r\n";
    const answers: Record<string, string> = {
      "/garbage": "\x00\x17garbage\xff\xfe not a response\r\n\r\n",
      "/http09": "<html><body>an HTTP/0.9 answer</body></html>\r\n",
      "/bogus-chunk-size": `${head}transfer-encoding: chunked\r\n\r\n5\r\nhello\r\nzz\r\nwhat\r\n0\r\n\r\n`,
      "/negative-length": `${head}content-length: -5\r\n\r\nhello`,
      "/gzip-layers": `${head}content-encoding: gzip, gzip, gzip, gzip\r\ncontent-length: ${layered.length}\r\n\r\n`,
    };
    raw.script = (_index, line) => {
      const path = line.split(" ")[1];
      if (path === "/gzip-layers") return [answers[path], layered];
      return [answers[path] ?? "HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n"];
    };
    const script = `
      const { createNet, Deadline } = await import("websift");
      const net = createNet({ ...${routed()}, env: {} });
      const out = {};
      for (const path of ${JSON.stringify(Object.keys(answers))}) {
        const r = await net.request("http://malformed.example.com" + path, { deadline: Deadline.after(5000) });
        out[path] = r.ok ? { ok: true, status: r.status } : { code: r.code, cap: r.cap };
      }
      console.log(JSON.stringify(out));
      await net.close();`;
    const ran = await node(script);
    expect(ran.code, ran.stderr).toBe(0);
    const out = JSON.parse(ran.stdout) as Record<string, { code?: string; cap?: unknown }>;
    for (const path of ["/garbage", "/http09", "/bogus-chunk-size", "/negative-length"])
      expect(out[path], path).toEqual({ code: "protocol" });
    expect(out["/gzip-layers"]).toEqual({ code: "too_large", cap: { name: "coding_layers", limit: 3 } });
  }, 60_000);
});

describe("the installed package parses deep nesting in linear work", () => {
  // npm installs upstream htmlparser2, whose open-tag stack is quadratic in depth: websift's own parser must be
  // what reads pages, and this checks it where a user runs it. Work is counted in elements that Array methods
  // move or scan on the main thread (no wall-clock), and a read through the installed library's own net and
  // page pool, to a loopback server named as a public host, must come back `ok` with the innermost text.
  it("100,000 nested <div>s are read `ok`, and 4× the depth costs about 4× the work", async () => {
    const script = `
      import http from "node:http";
      const { createWebsift, extractMarkdown, MemoryStore } = await import("websift");
      const { parseDocument } = await import("htmlparser2");
      const nested = (n) => "<!doctype html><html><body>" + "<div>".repeat(n) + "the innermost words" + "</div>".repeat(n) + "</body></html>";
      const proto = Array.prototype;
      // What each call looks at: the whole array for a move, up to the element found for a search.
      const cost = {
        unshift: (a) => a.length,
        shift: (a) => a.length,
        splice: (a, [start]) => Math.max(1, a.length - Number(start ?? 0)),
        includes: (a) => a.length,
        indexOf: (a, _, at) => (at === -1 ? a.length : at + 1),
        lastIndexOf: (a, _, at) => (at === -1 ? a.length : a.length - at),
      };
      const counted = Object.keys(cost);
      async function work(run) {
        const saved = counted.map((name) => proto[name]);
        let moved = 0;
        counted.forEach((name, i) => {
          proto[name] = function (...args) {
            const length = this.length;
            const at = saved[i].apply(this, args);
            moved += cost[name]({ length }, args, at);
            return at;
          };
        });
        try { await run(); } finally { counted.forEach((name, i) => (proto[name] = saved[i])); }
        return moved;
      }
      const upstream = (await work(() => parseDocument(nested(8000)))) / (await work(() => parseDocument(nested(2000))));
      const small = await work(() => extractMarkdown(nested(25000), "https://deep.example/"));
      const large = await work(() => extractMarkdown(nested(100000), "https://deep.example/"));
      const body = nested(100000);
      const server = http.createServer((_, res) => { res.writeHead(200, { "content-type": "text/html" }); res.end(body); });
      await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
      const { port } = server.address();
      const websift = createWebsift({
        store: new MemoryStore(),
        env: {},
        resolve: async () => ["93.184.215.14"],
        connectTo: () => ({ host: "127.0.0.1", port }),
      });
      const got = await websift.read("http://deep.example/", { render: "never" });
      await websift.close();
      server.close();
      console.log(JSON.stringify({ upstream, extraction: large / small, status: got.status, markdown: got.markdown.slice(0, 200) }));`;
    const ran = await node(script, { WEBSIFT_STORE: "memory" });
    expect(ran.stderr).toBe("");
    expect(ran.code).toBe(0);
    const out = JSON.parse(ran.stdout) as {
      upstream: number;
      extraction: number;
      status: string;
      markdown: string;
    };
    // The installed dependency is upstream's: the check below would pass for nothing if it were linear.
    expect(out.upstream).toBeGreaterThan(12);
    expect(out.extraction).toBeLessThan(6);
    expect(out.status).toBe("ok");
    expect(out.markdown).toContain("the innermost words");
  }, 120_000);
});

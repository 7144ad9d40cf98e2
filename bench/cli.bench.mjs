// Cold start: `node dist/cli/main.js --help` and `import("websift")` (the library, by its package name), each a
// fresh process, side by side with a bare Node process in the same run; median of 15 runs.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";

const main = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
if (!existsSync(main)) {
  console.error("bench/cli: dist/cli/main.js is missing; run `npm run build` first (npm run bench does)");
  process.exit(1);
}
const fmt = (x) => x.toFixed(1);
const quick = process.argv.includes("--quick");
const runs = quick ? 5 : 15;

const ROOT = fileURLToPath(new URL("..", import.meta.url));
function once(args) {
  const t0 = process.hrtime.bigint();
  // From the repository's folder, so that `import("websift")` resolves the package by its own name and exports.
  const r = spawnSync(process.execPath, args, { encoding: "utf8", cwd: ROOT });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(" ")} exited ${r.status}: ${r.stderr.slice(0, 300)}`);
  return ms;
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const importing = (spec) => ["--input-type=module", "-e", `await import(${JSON.stringify(spec)})`];
once([main, "--help"]); // warm the file cache, not the process
once(importing("websift"));
once(importing("websift/mcp"));
// Interleaved, so that a change of load on the machine during the run falls on every case alike.
const help = [];
const library = [];
const mcpEntry = [];
const bare = [];
for (let i = 0; i < runs; i++) {
  help.push(once([main, "--help"]));
  library.push(once(importing("websift")));
  mcpEntry.push(once(importing("websift/mcp")));
  bare.push(once(["-e", ""]));
}
/** `websift mcp` spawned until its answer to initialize is on stdout (web access off: nothing leaves the machine). */
function mcpInitialize() {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, [main, "mcp"], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, WEBSIFT_ENABLED: "0", WEBSIFT_STORE: "memory" },
      stdio: ["pipe", "pipe", "ignore"],
    });
    let out = "";
    child.stdout.on("data", (c) => {
      out += c;
      if (out.includes('"id":1')) {
        resolve(Number(process.hrtime.bigint() - t0) / 1e6);
        child.kill();
      }
    });
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`websift mcp exited ${code} before answering initialize`)));
    const params = {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "bench", version: "1" },
    };
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params })}\n`);
  });
}
const mcp = [];
for (let i = 0; i < runs; i++) mcp.push(await mcpInitialize());

const over = (xs) => median(xs) - median(bare);
const verdict = (ms, target) =>
  `${fmt(ms)} ms over bare Node (target ≤ ${target} ms: ${ms <= target ? "met" : "missed"})`;

console.log(`## Cold start: CLI and library

A new process each run, the cases interleaved, median of ${runs} runs (min … max).

| command | median ms | min ms | max ms |
| --- | ---: | ---: | ---: |
| \`websift --help\` | ${fmt(median(help))} | ${fmt(Math.min(...help))} | ${fmt(Math.max(...help))} |
| \`import("websift")\` (the library) | ${fmt(median(library))} | ${fmt(Math.min(...library))} | ${fmt(Math.max(...library))} |
| \`import("websift/mcp")\` (the MCP server) | ${fmt(median(mcpEntry))} | ${fmt(Math.min(...mcpEntry))} | ${fmt(Math.max(...mcpEntry))} |
| \`websift mcp\`: spawn → initialize answered (stdio) | ${fmt(median(mcp))} | ${fmt(Math.min(...mcp))} | ${fmt(Math.max(...mcp))} |
| \`node -e ""\` (baseline: Node itself) | ${fmt(median(bare))} | ${fmt(Math.min(...bare))} | ${fmt(Math.max(...bare))} |

- \`websift --help\`: **${verdict(over(help), 100)}**.
- \`import("websift")\`: **${verdict(over(library), 200)}**.
- \`websift mcp\` initialize answered **${fmt(median(mcp))} ms after spawn** (target ≤ 350 ms: ${median(mcp) <= 350 ? "met" : "missed"}).

Load average at the end of this bench: ${os
  .loadavg()
  .map((l) => l.toFixed(2))
  .join(", ")} on ${os.cpus().length} cores.`);

// Cold start of the CLI: `node dist/cli/main.js --help`, a fresh process each time, median of 15 runs.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const main = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
if (!existsSync(main)) {
  console.error("bench/cli: dist/cli/main.js is missing; run `npm run build` first (npm run bench does)");
  process.exit(1);
}
const quick = process.argv.includes("--quick");
const runs = quick ? 5 : 15;

function once(args) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { encoding: "utf8" });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(" ")} exited ${r.status}: ${r.stderr.slice(0, 300)}`);
  return ms;
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

once([main, "--help"]); // warm the file cache, not the process
const help = Array.from({ length: runs }, () => once([main, "--help"]));
const bare = Array.from({ length: runs }, () => once(["-e", ""]));

const fmt = (x) => x.toFixed(1);
console.log(`## CLI cold start

\`node dist/cli/main.js --help\`, a new process each run, median of ${runs} runs (min … max).

| command | median ms | min ms | max ms |
| --- | ---: | ---: | ---: |
| \`websift --help\` | ${fmt(median(help))} | ${fmt(Math.min(...help))} | ${fmt(Math.max(...help))} |
| \`node -e ""\` (baseline: Node itself) | ${fmt(median(bare))} | ${fmt(Math.min(...bare))} | ${fmt(Math.max(...bare))} |

websift's own start-up: **${fmt(median(help) - median(bare))} ms** over a bare Node process.`);

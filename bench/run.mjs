// Runs every bench/*.bench.mjs in name order (each prints one markdown section) and rewrites bench/RESULTS.md
// as a header about this machine followed by those sections. `node bench/run.mjs --quick` for a short run;
// `node bench/run.mjs serve mcp` runs the named benches only and replaces just their sections (each section
// carries the time it was measured). Run through `npm run bench`, which builds dist/ first.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";

const dir = fileURLToPath(new URL(".", import.meta.url));
const args = process.argv.slice(2);
const only = args.filter((a) => !a.startsWith("--"));
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".bench.mjs"))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

function cpuModel() {
  try {
    const line = readFileSync("/proc/cpuinfo", "utf8")
      .split("\n")
      .find((l) => l.startsWith("model name"));
    if (line) return line.split(":")[1].trim();
  } catch {}
  return os.cpus()[0]?.model ?? "unknown";
}

const header = [
  "# websift benchmarks",
  "",
  "Written by `npm run bench` (bench/run.mjs); do not edit by hand.",
  "",
  "| | |",
  "| --- | --- |",
  `| date | ${new Date().toISOString()} |`,
  `| node | ${process.version} |`,
  `| CPU | ${cpuModel()} |`,
  `| cores | ${os.cpus().length} |`,
  `| memory | ${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB |`,
  `| load average at start | ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(", ")} |`,
  `| mode | ${args.includes("--quick") ? "quick" : "full"} |`,
  "",
].join("\n");

// Sections of benches not run this time are kept from the last file, each behind its `<!-- bench: file -->` mark.
const kept = new Map();
if (only.length > 0 && existsSync(`${dir}RESULTS.md`)) {
  const parts = readFileSync(`${dir}RESULTS.md`, "utf8").split(/^<!-- bench: (\S+) -->$/m);
  for (let i = 1; i < parts.length; i += 2) kept.set(parts[i], parts[i + 1].trim());
}
const sections = new Map();
const failed = [];
for (const file of files) {
  process.stderr.write(`bench: ${file}\n`);
  const t0 = Date.now();
  const run = spawnSync(process.execPath, [`${dir}${file}`, ...args.filter((a) => a.startsWith("--"))], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 16 * 1024 * 1024,
  });
  const seconds = ((Date.now() - t0) / 1000).toFixed(0);
  if (run.status === 0) {
    process.stdout.write(run.stdout);
    const [title, ...body] = run.stdout.trim().split("\n");
    sections.set(file, [title, "", `_measured ${new Date().toISOString()}_`, ...body].join("\n"));
    process.stderr.write(`bench: ${file} done in ${seconds} s\n`);
  } else {
    // One broken benchmark must not cost the others their results: note it and go on.
    failed.push(file);
    const why = run.error ? run.error.message : `exit code ${run.status ?? run.signal}`;
    sections.set(file, `## ${file}\n\nFailed after ${seconds} s (${why}); see the run's stderr.`);
    process.stderr.write(`bench: ${file} FAILED (${why})\n`);
  }
}
const all = readdirSync(dir)
  .filter((f) => f.endsWith(".bench.mjs"))
  .sort()
  .filter((f) => sections.has(f) || kept.has(f))
  .map((f) => `<!-- bench: ${f} -->\n${sections.get(f) ?? kept.get(f)}`);
writeFileSync(`${dir}RESULTS.md`, `${header}\n${all.join("\n\n")}\n`);
process.stderr.write(`bench: wrote bench/RESULTS.md (${files.length} sections, ${failed.length} failed)\n`);
if (failed.length) process.exitCode = 1;

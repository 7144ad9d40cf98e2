import type { Command } from "commander";
import { outputMode, RAW_HELP } from "../output.js";
import { EXIT, oneOf, parseIntOption, printJson, websiftFromEnv } from "../runtime.js";

export function registerFetch(program: Command): void {
  program
    .command("fetch")
    .description("Read a page as clean markdown sized for a context window.")
    .argument("<url>", "an http(s) URL")
    .option(
      "--max-chars <n>",
      "characters to return (default maxChars, else 6000)",
      parseIntOption("--max-chars", 200, 1_000_000),
    )
    .option("--looking-for <text>", "what you are after: the page start, then matching passages")
    .option(
      "--mode <mode>",
      "passages, cut or head-tail (default longPageMode)",
      oneOf("--mode", ["passages", "cut", "head-tail"] as const),
    )
    .option("--offset <n>", "read on from this character", parseIntOption("--offset", 0, 100_000_000))
    .option(
      "--render <when>",
      "auto, never or always (headless Chromium)",
      oneOf("--render", ["auto", "never", "always"] as const),
    )
    .option(
      "--json",
      "print { status, text, source, truncated, totalChars, nextOffset? } as JSON (the fenced model view)",
    )
    .option("--raw", RAW_HELP)
    .option("--verbose", "log steps to stderr")
    .addHelpText(
      "after",
      `
Examples:
  websift fetch https://nodejs.org/en/learn/getting-started/introduction-to-nodejs
  websift fetch https://example.org/long-report.pdf --looking-for "energy prices" --max-chars 3000
  websift fetch https://example.org/post --offset 6000 --json`,
    )
    .action(async (url: string, opts) => {
      // Loaded here, not with the command table: `websift --help` never pays for the renderers.
      const [{ pageView, redactedRaw }, { redactSecrets }] = await Promise.all([
        import("../../ground/model-view.js"),
        import("../../ground/redact.js"),
      ]);
      const websift = await websiftFromEnv({ verbose: opts.verbose });
      try {
        const page = await websift.read(url, {
          maxChars: opts.maxChars,
          lookingFor: opts.lookingFor,
          mode: opts.mode,
          offset: opts.offset,
          render: opts.render,
        });
        const badInput = page.error?.code === "blocked_url" && /scheme|not a valid/.test(page.error.message);
        const view = pageView(url, page, {
          tool: "websift fetch",
          readOn: (offset) => `to read on run websift fetch with --offset ${offset}`,
        });
        const mode = outputMode(opts);
        if (mode === "json-raw") printJson(redactedRaw(page));
        else if (mode === "json") printJson(view.structured);
        else if (mode === "model" && !badInput) process.stdout.write(`${view.text}\n`);
        else if (mode === "plain" && page.status === "ok") {
          const head = page.title ? `# ${page.title}\n\n` : "";
          process.stdout.write(`${redactSecrets(`${head}${page.markdown}`).text}\n`);
        }
        if (page.cached && !opts.json) process.stderr.write("(served from the page cache)\n");
        if (page.status !== "ok" && !opts.json)
          process.stderr.write(
            redactSecrets(`websift: could not read ${url}: ${page.error?.message ?? page.status}\n`).text,
          );
        if (badInput) {
          process.exitCode = EXIT.badInput;
          return;
        }
        process.exitCode = page.status === "ok" ? EXIT.ok : EXIT.failure;
      } finally {
        await websift.close();
      }
    });
}

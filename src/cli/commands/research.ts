import type { Command } from "commander";
import { EXIT, parseIntOption, printJson, websiftFromEnv } from "../runtime.js";

export function registerResearch(program: Command): void {
  program
    .command("research")
    .description("Research a question in several searches: the model names the missing fact after each hop.")
    .argument("<question...>", "the question")
    .option("--max-hops <n>", "searches at most (default 4)", parseIntOption("--max-hops", 1, 8), 4)
    .option(
      "--json",
      "print { status, text, sources } as JSON (text: the fenced envelope; sources: numbered, fenced)",
    )
    .option(
      "--raw",
      "with --json: the whole result { status, envelope, facts, sources, hops, attempts, degraded }",
    )
    .option("--verbose", "log provider steps to stderr")
    .addHelpText(
      "after",
      `
Needs WEBSIFT_LLM_BASE_URL (and WEBSIFT_LLM_MODEL, optional WEBSIFT_LLM_API_KEY) for planning and reflection;
without a model it makes one search for the question and says it ran degraded.

Examples:
  websift research "how tall is the Zugspitze and when did its first cable car open"
  websift research --max-hops 2 --json "latest node.js LTS and its end-of-life date"`,
    )
    .action(async (words: string[], opts) => {
      const { researchView, redactedRaw } = await import("../../ground/model-view.js");
      const websift = await websiftFromEnv({ verbose: opts.verbose });
      const llm = websift.llm;
      // Hop progress goes to stderr always: a research run takes long enough that silence looks like a hang,
      // and stdout stays the result alone.
      const progress = (line: string) => process.stderr.write(`${line}\n`);
      if (!llm) progress("⚠️ No language model configured (WEBSIFT_LLM_BASE_URL): one search, no reflection.");
      try {
        const result = await websift.research(words.join(" "), {
          maxHops: opts.maxHops,
          onProgress: progress,
        });
        if (result.degraded && llm)
          progress("⚠️ The language model failed on the way; rules and passages stood in.");
        if (opts.json) printJson(opts.raw ? redactedRaw(result) : researchView(result).structured);
        else process.stdout.write(`${result.envelope}\n`);
        process.exitCode =
          result.status === "ok" ? EXIT.ok : result.status === "denied" ? EXIT.badInput : EXIT.failure;
      } finally {
        await websift.close();
      }
    });
}

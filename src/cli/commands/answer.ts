import type { Command } from "commander";
import { outputMode } from "../output.js";
import { EXIT, oneOf, printJson, progressSink, websiftFromEnv } from "../runtime.js";

export function registerAnswer(program: Command): void {
  program
    .command("answer")
    .description("Answer a question from the web: the fenced envelope an LLM can reply from.")
    .argument("<question...>", "the question")
    .option("--lang <code>", "language of the question (Wikipedia fallback), e.g. en, de")
    .option(
      "--route <route>",
      "browser, gemini-cli or gemini-api (opt-in real-time routes)",
      oneOf("--route", ["browser", "gemini-cli", "gemini-api"] as const),
    )
    .option("--sources-apart", "keep URLs out of the text; sources are listed separately")
    .option(
      "--json",
      "print { status, text, provider, lookedUpAt, sources } as JSON (text: the fenced envelope; sources: numbered, dated, with passage links, fenced)",
    )
    .option(
      "--raw",
      "with --json: { status, envelope, sources, attempts, provider }; else also list the sources",
    )
    .option("--progress", "print progress lines to stderr even when not on a terminal")
    .option("--verbose", "log provider steps to stderr")
    .addHelpText(
      "after",
      `
Examples:
  websift answer "who maintains undici"
  websift answer --lang de "Wie hoch ist die Zugspitze?"
  websift answer --sources-apart --json "latest node.js LTS"`,
    )
    .action(async (words: string[], opts) => {
      // Loaded here, not with the command table: `websift --help` never pays for the renderers.
      const [{ answerView, redactedRaw }, { redactSecrets }, { datesLine }] = await Promise.all([
        import("../../ground/model-view.js"),
        import("../../ground/redact.js"),
        import("../../ground/sources.js"),
      ]);
      const websift = await websiftFromEnv({ verbose: opts.verbose });
      try {
        const result = await websift.answer(words.join(" "), {
          language: opts.lang,
          route: opts.route,
          mode: opts.sourcesApart ? "sources" : "text",
          onProgress: progressSink(!!opts.progress),
        });
        const mode = outputMode(opts);
        if (mode === "json-raw") printJson(redactedRaw(result));
        else if (mode === "json") printJson(answerView(result).structured);
        else {
          process.stdout.write(`${result.envelope}\n`);
          // Sources kept apart are for a person to see: their titles are strangers' words, outside any fence.
          if (mode === "plain" && opts.sourcesApart && result.sources.length) {
            const lines = result.sources.map((s) => {
              const dates = datesLine(s);
              const note = [s.read ? "" : "not read", dates].filter(Boolean).join("; ");
              return `[${s.n}] ${s.title.replace(/\s+/g, " ")} — ${s.url}${note ? ` (${note})` : ""}`;
            });
            process.stdout.write(redactSecrets(`\nSources:\n${lines.join("\n")}\n`).text);
          }
        }
        process.exitCode =
          result.status === "ok"
            ? EXIT.ok
            : result.status === "error" && !result.attempts.length
              ? EXIT.badInput
              : EXIT.failure;
      } finally {
        await websift.close();
      }
    });
}

import type { Command } from "commander";
import { outputMode, RAW_HELP } from "../output.js";
import { EXIT, InputError, oneOf, parseIntOption, printJson, websiftFromEnv } from "../runtime.js";

export function registerSearch(program: Command): void {
  program
    .command("search")
    .description("Search the web through the provider chain (keyless by default).")
    .argument("<query...>", "what to search for")
    .option(
      "--limit <n>",
      "results wanted (1-20; default maxResults, else 5)",
      parseIntOption("--limit", 1, 20),
    )
    .option("--provider <name>", "pin one provider (its failure is the answer), or auto", "auto")
    .option("--scope <scope>", "general or code", oneOf("--scope", ["general", "code"] as const), "general")
    .option(
      "--allow-host <host>",
      "extra host for --scope code (repeatable)",
      (v: string, acc: string[]) => [...acc, v],
      [] as string[],
    )
    .option("--region <kl>", "region such as us-en, de-de, wt-wt")
    .option("--lang <code>", "language code such as en, de")
    .option("--time <range>", "d, w, m or y", oneOf("--time", ["d", "w", "m", "y"] as const))
    .option(
      "--safesearch <level>",
      "off, moderate or strict",
      oneOf("--safesearch", ["off", "moderate", "strict"] as const),
    )
    .option("--json", "print { status, text, provider, count } as JSON (the fenced model view)")
    .option("--raw", RAW_HELP)
    .option("--verbose", "log provider steps to stderr")
    .addHelpText(
      "after",
      `
Examples:
  websift search rust async traits
  websift search --scope code --allow-host docs.astro.build "astro content collections"
  websift search --provider wikipedia --lang de Berlin --json`,
    )
    .action(async (words: string[], opts) => {
      // Loaded here, not with the command table: `websift --help` never pays for the renderers.
      const [{ redactedRaw, searchView }, { searchMarkdown }] = await Promise.all([
        import("../../ground/model-view.js"),
        import("../../ground/search-markdown.js"),
      ]);
      const websift = await websiftFromEnv({ verbose: opts.verbose });
      try {
        const response = await websift.search(words.join(" "), {
          limit: opts.limit,
          provider: opts.provider,
          scope: opts.scope,
          allowedHosts: opts.allowHost.length ? opts.allowHost : undefined,
          region: opts.region,
          language: opts.lang,
          timeRange: opts.time,
          safesearch: opts.safesearch,
        });
        if (response.code === "bad_input") throw new InputError(response.error ?? "bad input");
        const mode = outputMode(opts);
        if (mode === "json-raw") printJson(redactedRaw(response));
        else if (mode === "json") printJson(searchView(response, "websift search").structured);
        else if (mode === "model") process.stdout.write(`${searchView(response, "websift search").text}\n`);
        else process.stdout.write(`${searchMarkdown(response)}\n`);
        if (response.status !== "ok" && !opts.json)
          process.stderr.write(redactedRaw(describeAttempts(response.attempted)));
        process.exitCode = response.status === "ok" ? EXIT.ok : EXIT.failure;
      } finally {
        await websift.close();
      }
    });
}

function describeAttempts(attempts: { provider: string; status: string; error?: string }[]): string {
  return attempts.map((a) => `  ${a.provider}: ${a.status}${a.error ? ` (${a.error})` : ""}\n`).join("");
}

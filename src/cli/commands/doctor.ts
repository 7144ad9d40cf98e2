import type { Command } from "commander";
import type { ResolvedConfig } from "../../config/load.js";
import { EXIT, printJson, websiftFromEnv } from "../runtime.js";

export function registerDoctor(program: Command): void {
  program
    .command("doctor")
    .description(
      "Check connectivity, DuckDuckGo, providers, SearXNG, proxy, Chromium and the resolved settings.",
    )
    .option("--json", "print the report as JSON")
    .option(
      "--live",
      "ask every keyless engine one canary query: answered, challenged, layout unrecognised, unreachable",
    )
    .addHelpText(
      "after",
      "\nMakes one real DuckDuckGo request (and one to SEARXNG_URL when set); --live makes one to every keyless\nengine instead.\n\nExamples:\n  websift doctor\n  websift doctor --live\n  websift doctor --json",
    )
    .action(async (opts) => {
      const [{ diagnose, doctorText }, { loadConfig }] = await Promise.all([
        import("../../surface/doctor.js"),
        import("../../config/load.js"),
      ]);
      let config: ResolvedConfig;
      try {
        config = loadConfig();
      } catch (err) {
        process.stderr.write(`websift doctor: ${err instanceof Error ? err.message : String(err)}\n`);
        process.exitCode = EXIT.badInput;
        return;
      }
      const websift = await websiftFromEnv({ config });
      try {
        const report = await diagnose(websift, config, { live: opts.live === true });
        if (opts.json) printJson(report);
        else process.stdout.write(`${doctorText(report)}\n`);
        process.exitCode = report.online === false ? EXIT.failure : EXIT.ok;
      } finally {
        await websift.close();
      }
    });
}

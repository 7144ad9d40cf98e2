#!/usr/bin/env node
import { Command, CommanderError } from "commander";
import { registerAnswer } from "./commands/answer.js";
import { registerDoctor } from "./commands/doctor.js";
import { registerFetch } from "./commands/fetch.js";
import { registerInstall } from "./commands/install.js";
import { registerMcp } from "./commands/mcp.js";
import { registerResearch } from "./commands/research.js";
import { registerSearch } from "./commands/search.js";
import { registerServe } from "./commands/serve.js";
import { EXIT, InputError } from "./runtime.js";

const program = new Command()
  .name("websift")
  .description("Web search and page reading for LLM agents: safe, honest, fast.")
  .version("0.1.0")
  .showHelpAfterError()
  .exitOverride()
  .configureOutput({ writeErr: (s) => process.stderr.write(s), writeOut: (s) => process.stdout.write(s) });

registerSearch(program);
registerFetch(program);
registerAnswer(program);
registerResearch(program);
registerMcp(program);
registerServe(program);
registerInstall(program);
registerDoctor(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    process.exit(err.exitCode === 0 ? EXIT.ok : EXIT.badInput);
  }
  // ConfigError is matched by name: importing its module here would load the config schema for `--help` too.
  if (err instanceof InputError || (err instanceof Error && err.name === "ConfigError")) {
    process.stderr.write(`error: ${err.message}\n`);
    process.exit(EXIT.badInput);
  }
  process.stderr.write(`websift: unexpected error: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(EXIT.failure);
}

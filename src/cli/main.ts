#!/usr/bin/env node
import { Command, CommanderError } from "commander";

const program = new Command()
  .name("websift")
  .description("Web search and page reading for LLM agents: safe, honest, fast.")
  .version("0.1.0")
  .showHelpAfterError()
  .exitOverride()
  .configureOutput({ writeErr: (s) => process.stderr.write(s), writeOut: (s) => process.stdout.write(s) });

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) process.exit(err.exitCode === 0 ? 0 : 2);
  throw err;
}

import { existsSync, realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { settingSpecs } from "../../config/schema.js";

/** How an MCP client starts the stdio server: a command and its arguments. */
export interface Launch {
  command: string;
  args: string[];
}

/**
 * With `--command-path` (a container set-up writing the in-container path) the given executable is run as is;
 * otherwise this very Node binary runs this very CLI by absolute path, so the client needs no PATH lookup
 * (Claude Desktop and Codex start servers without the user's shell).
 */
export function launchFor(commandPath?: string): Launch {
  if (commandPath) return { command: commandPath, args: ["mcp"] };
  const built = fileURLToPath(new URL("../../cli/main.js", import.meta.url));
  // Run from source (tsx) there is no built CLI to point a client at, and node alone cannot run the .ts one.
  if (!existsSync(built))
    throw new Error("no built CLI beside this one: run `npm run build` first, or pass --command-path");
  const cli = realpathSync(built);
  return { command: process.execPath, args: [cli, "mcp"] };
}

/** Names (never values) of websift's variables the user already exports, for clients that forward by name. */
export function exportedVariableNames(env: Record<string, string | undefined>): string[] {
  return settingSpecs()
    .map((s) => s.env)
    .filter((name) => env[name] !== undefined && env[name] !== "");
}

/** One line of what `websift install` did, for people. */
export interface InstallChange {
  client: string;
  file: string;
  action: "created" | "added" | "unchanged";
  detail: string;
}

export function describeChange(change: InstallChange): string {
  const verb = { created: "created", added: "updated", unchanged: "left unchanged" }[change.action];
  return `${change.client}: ${verb} ${change.file} (${change.detail})`;
}

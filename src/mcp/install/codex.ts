import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { parse, stringify } from "smol-toml";
import type { InstallChange, Launch } from "./launch.js";
import { writeFileAtomic } from "./write-file.js";

export interface CodexInstallOptions {
  launch: Launch;
  /** CODEX_HOME; default $CODEX_HOME, else ~/.codex. */
  codexHome?: string;
  env?: Record<string, string | undefined>;
  /** Variable names Codex should forward to the server (values stay in the user's environment). */
  envVars?: string[];
}

export function codexConfigPath(options: {
  codexHome?: string;
  env?: Record<string, string | undefined>;
}): string {
  const env = options.env ?? process.env;
  return join(options.codexHome ?? env.CODEX_HOME ?? join(homedir(), ".codex"), "config.toml");
}

/**
 * Adds `[mcp_servers.websift]` to Codex's config.toml when it is missing. The user's file is kept byte for byte:
 * the section is appended as text, never re-serialised from a parsed copy (that would drop comments and
 * reorder keys), and an existing websift section is never touched, so running twice changes nothing.
 */
export function installCodex(options: CodexInstallOptions): InstallChange {
  const file = codexConfigPath(options);
  const existed = existsSync(file);
  const before = existed ? readFileSync(file, "utf8") : "";
  const parsed = parseToml(before, file);
  const servers = parsed.mcp_servers as Record<string, unknown> | undefined;
  if (servers && typeof servers === "object" && "websift" in servers)
    return { client: "codex", file, action: "unchanged", detail: "[mcp_servers.websift] already present" };

  const section: Record<string, unknown> = { command: options.launch.command, args: options.launch.args };
  if (options.envVars?.length) section.env_vars = options.envVars;
  const block = stringify({ mcp_servers: { websift: section } });
  const separator = before === "" ? "" : before.endsWith("\n\n") ? "" : before.endsWith("\n") ? "\n" : "\n\n";
  const after = `${before}${separator}${block.endsWith("\n") ? block : `${block}\n`}`;
  // An inline `mcp_servers = { … }` table cannot be extended by a header; check instead of writing a broken file.
  const check = parseToml(after, file) as { mcp_servers?: { websift?: unknown } };
  if (!check.mcp_servers?.websift)
    throw new Error(`${file}: could not add [mcp_servers.websift]; add it by hand`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileAtomic(file, after);
  return {
    client: "codex",
    file,
    action: existed ? "added" : "created",
    detail: `[mcp_servers.websift] command = ${options.launch.command}`,
  };
}

function parseToml(text: string, file: string): Record<string, unknown> {
  try {
    return parse(text) as Record<string, unknown>;
  } catch (err) {
    const reason = err instanceof Error ? err.message.split("\n")[0] : String(err);
    throw new Error(`${file} is not valid TOML (${reason}); nothing was changed`);
  }
}

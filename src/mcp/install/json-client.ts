import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import type { InstallChange, Launch } from "./launch.js";
import { writeFileAtomic } from "./write-file.js";

export type JsonClient = "claude-code" | "claude-desktop" | "cursor";

export interface JsonInstallOptions {
  client: JsonClient;
  launch: Launch;
  /** Overrides the client's usual config path. */
  file?: string;
  home?: string;
  platform?: NodeJS.Platform;
  env?: Record<string, string | undefined>;
}

/** Where each client keeps its MCP servers, per OS. */
export function jsonClientPath(
  client: JsonClient,
  options: { home?: string; platform?: NodeJS.Platform; env?: Record<string, string | undefined> } = {},
): string {
  const home = options.home ?? homedir();
  const platform = options.platform ?? process.platform;
  const env = options.env ?? process.env;
  switch (client) {
    case "claude-code":
      return join(home, ".claude.json");
    case "cursor":
      return join(home, ".cursor", "mcp.json");
    case "claude-desktop":
      if (platform === "darwin")
        return join(home, "Library", "Application Support", "Claude", "claude_desktop_config.json");
      if (platform === "win32")
        return join(env.APPDATA ?? join(home, "AppData", "Roaming"), "Claude", "claude_desktop_config.json");
      return join(env.XDG_CONFIG_HOME ?? join(home, ".config"), "Claude", "claude_desktop_config.json");
  }
}

/**
 * Adds `mcpServers.websift` to a JSON client config when it is missing. Every other key is kept as it was (the
 * file is re-serialised with its own indentation); an existing websift entry is never overwritten; no `env`
 * values are written: keys reach the server from the environment the client starts it in, or from `.env`.
 */
export function installJsonClient(options: JsonInstallOptions): InstallChange {
  const file = options.file ?? jsonClientPath(options.client, options);
  const existed = existsSync(file);
  const text = existed ? readFileSync(file, "utf8") : "";
  const data = text.trim() === "" ? {} : parseObject(text, file);
  const servers = data.mcpServers ?? {};
  if (typeof servers !== "object" || servers === null || Array.isArray(servers))
    throw new Error(`${file}: "mcpServers" is not an object; nothing was changed`);
  if ("websift" in servers)
    return {
      client: options.client,
      file,
      action: "unchanged",
      detail: "mcpServers.websift already present",
    };

  const entry =
    options.client === "claude-code"
      ? { type: "stdio", command: options.launch.command, args: options.launch.args }
      : { command: options.launch.command, args: options.launch.args };
  data.mcpServers = { ...servers, websift: entry };
  mkdirSync(dirname(file), { recursive: true });
  writeFileAtomic(file, `${JSON.stringify(data, null, indentOf(text))}\n`);
  return {
    client: options.client,
    file,
    action: existed ? "added" : "created",
    detail: `mcpServers.websift command = ${options.launch.command}`,
  };
}

function parseObject(text: string, file: string): Record<string, unknown> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(
      `${file} is not valid JSON (${err instanceof Error ? err.message : String(err)}); nothing was changed`,
    );
  }
  if (typeof data !== "object" || data === null || Array.isArray(data))
    throw new Error(`${file} does not hold a JSON object; nothing was changed`);
  return data as Record<string, unknown>;
}

function indentOf(text: string): string | number {
  const m = /\n([ \t]+)"/.exec(text);
  return m?.[1] ?? 2;
}

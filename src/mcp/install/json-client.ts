import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join } from "node:path";
import {
  applyEdits,
  findNodeAtLocation,
  type Node as JsonNode,
  modify,
  type ParseError,
  parseTree,
  printParseErrorCode,
} from "jsonc-parser";
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
  /** Where APPDATA and XDG_CONFIG_HOME are read from: the CLI passes its environment. */
  env?: Record<string, string | undefined>;
}

/** Where each client keeps its MCP servers, per OS. */
export function jsonClientPath(
  client: JsonClient,
  options: { home?: string; platform?: NodeJS.Platform; env?: Record<string, string | undefined> } = {},
): string {
  const home = options.home || homedir();
  const platform = options.platform ?? process.platform;
  const env = options.env ?? {};
  switch (client) {
    case "claude-code":
      return join(home, ".claude.json");
    case "cursor":
      return join(home, ".cursor", "mcp.json");
    case "claude-desktop":
      if (platform === "darwin")
        return join(home, "Library", "Application Support", "Claude", "claude_desktop_config.json");
      if (platform === "win32")
        return join(env.APPDATA || join(home, "AppData", "Roaming"), "Claude", "claude_desktop_config.json");
      return join(
        xdgConfigHome(env.XDG_CONFIG_HOME) ?? join(home, ".config"),
        "Claude",
        "claude_desktop_config.json",
      );
  }
}

/** The XDG spec: an empty or relative XDG_CONFIG_HOME is invalid and must be ignored. */
function xdgConfigHome(value: string | undefined): string | undefined {
  return value && isAbsolute(value) ? value : undefined;
}

/**
 * Adds `mcpServers.websift` to a JSON client config when it is missing. The file is edited, not re-serialised:
 * only the inserted entry is new, every other byte stays (big integers, `1.0`, escapes, JSONC comments), so
 * a client's own numbers and a user's comments survive. An existing websift entry is never overwritten; no
 * `env` values are written: keys reach the server from the environment the client starts it in, or `.env`.
 */
export function installJsonClient(options: JsonInstallOptions): InstallChange {
  const file = options.file || jsonClientPath(options.client, options);
  const existed = existsSync(file);
  const text = existed ? readFileSync(file, "utf8") : "";
  const entry =
    options.client === "claude-code"
      ? { type: "stdio", command: options.launch.command, args: options.launch.args }
      : { command: options.launch.command, args: options.launch.args };
  let after: string;
  if (text.trim() === "") after = `${JSON.stringify({ mcpServers: { websift: entry } }, null, 2)}\n`;
  else {
    const root = parseObject(text, file);
    const servers = findNodeAtLocation(root, ["mcpServers"]);
    if (servers && servers.type !== "object")
      throw new Error(`${file}: "mcpServers" is not an object; nothing was changed`);
    if (servers && findNodeAtLocation(servers, ["websift"]))
      return {
        client: options.client,
        file,
        action: "unchanged",
        detail: "mcpServers.websift already present",
      };
    after = insertProperty(
      text,
      servers ?? root,
      servers ? ["mcpServers", "websift"] : ["mcpServers"],
      servers ? entry : { websift: entry },
    );
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileAtomic(file, after);
  return {
    client: options.client,
    file,
    action: existed ? "added" : "created",
    detail: `mcpServers.websift command = ${options.launch.command}`,
  };
}

function parseObject(text: string, file: string): JsonNode {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length || !root) {
    const first = errors[0];
    const where = first ? `${printParseErrorCode(first.error)} at offset ${first.offset}` : "empty";
    throw new Error(`${file} is not valid JSON (${where}); nothing was changed`);
  }
  if (root.type !== "object") throw new Error(`${file} does not hold a JSON object; nothing was changed`);
  return root;
}

/**
 * jsonc-parser's `modify` finds where the property goes (after the last one, before a trailing comma or a
 * comment) as a pure insertion; asked to format, it would re-indent every line the insertion touches, other
 * values on those lines included. So the insertion is taken unformatted and only its own text is laid out, in
 * the style of the object it goes into: one line in a one-line object, the file's indentation otherwise.
 */
function insertProperty(text: string, container: JsonNode, path: string[], value: unknown): string {
  const edits = modify(text, path, value, {});
  const edit = edits[0];
  if (edits.length !== 1 || !edit || edit.length !== 0) throw new Error("unexpected edit of a JSON config");
  const body = text.slice(container.offset, container.offset + container.length);
  const empty = !container.children?.length;
  const multiLine = /\r?\n/.test(body) || (empty && container.parent === undefined);
  if (!multiLine) return applyEdits(text, edits);
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const unit = /\n([ \t]+)\S/.exec(text)?.[1] ?? "  ";
  const outer = lineIndent(text, container.offset);
  const first = container.children?.[0];
  const inner = first ? lineIndent(text, first.offset) : outer + unit;
  const pretty = JSON.stringify(value, null, unit.includes("\t") ? "\t" : unit.length).replace(
    /\n/g,
    eol + inner,
  );
  const comma = edit.content.startsWith(",") ? "," : "";
  const key = JSON.stringify(path[path.length - 1]);
  // An empty `{}` on one line opens up; an object already spanning lines keeps its own closing line.
  const close = empty && !/\r?\n/.test(body) ? eol + outer : "";
  return applyEdits(text, [{ ...edit, content: `${comma}${eol}${inner}${key}: ${pretty}${close}` }]);
}

/** The whitespace that starts the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf("\n", offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))?.[0] ?? "";
}

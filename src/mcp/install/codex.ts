import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { parse, stringify } from "smol-toml";
import { errorLine } from "../../core/one-line.js";
import type { InstallChange, Launch } from "./launch.js";
import { writeFileAtomic } from "./write-file.js";

export interface CodexInstallOptions {
  launch: Launch;
  /** CODEX_HOME; default $CODEX_HOME, else ~/.codex. */
  codexHome?: string;
  /** Where CODEX_HOME is read from: the CLI passes its environment (none: ~/.codex unless `codexHome`). */
  env?: Record<string, string | undefined>;
  /** Variable names Codex should forward to the server (values stay in the user's environment). */
  envVars?: string[];
}

export function codexConfigPath(options: {
  codexHome?: string;
  /** Where CODEX_HOME is read from: the CLI passes its environment (none: ~/.codex unless `codexHome`). */
  env?: Record<string, string | undefined>;
}): string {
  const env = options.env ?? {};
  // An empty CODEX_HOME is unset (as Codex itself reads it), not the working folder.
  return join(options.codexHome || env.CODEX_HOME || join(homedir(), ".codex"), "config.toml");
}

/**
 * Adds `[mcp_servers.websift]` to Codex's config.toml when it is missing. The user's file is kept byte for byte:
 * the entry is inserted as text, never re-serialised from a parsed copy (that would drop comments and
 * reorder keys), and an existing websift entry is never touched, so running twice changes nothing.
 */
export function installCodex(options: CodexInstallOptions): InstallChange {
  const file = codexConfigPath(options);
  const existed = existsSync(file);
  const before = existed ? readFileSync(file, "utf8") : "";
  const parsed = parseToml(before, file);
  const servers = parsed.mcp_servers as Record<string, unknown> | undefined;
  if (servers !== undefined && (typeof servers !== "object" || servers === null || Array.isArray(servers)))
    throw new Error(`${file}: mcp_servers is not a table; nothing was changed`);
  if (servers && "websift" in servers)
    return { client: "codex", file, action: "unchanged", detail: "mcp_servers.websift already present" };

  const section: Record<string, unknown> = { command: options.launch.command, args: options.launch.args };
  if (options.envVars?.length) section.env_vars = options.envVars;
  const inline = inlineTableStart(before);
  const after =
    inline === undefined ? appendSection(before, section) : mergeIntoInline(before, inline, section, file);
  // Whatever the route, the result must read back as the user's settings plus websift, or nothing is written.
  const check = parseToml(after, file) as { mcp_servers?: Record<string, unknown> };
  const { websift, ...others } = check.mcp_servers ?? {};
  // structuredClone: smol-toml's tables have no prototype, the spread copies do.
  const kept = structuredClone({ ...check, mcp_servers: others });
  if (!websift || !isDeepStrictEqual(kept, structuredClone({ ...parsed, mcp_servers: servers ?? {} })))
    throw new Error(
      `${file}: could not add mcp_servers.websift without changing other settings; add it by hand`,
    );
  mkdirSync(dirname(file), { recursive: true });
  writeFileAtomic(file, after);
  return {
    client: "codex",
    file,
    action: existed ? "added" : "created",
    detail: `${inline === undefined ? "[mcp_servers.websift]" : "websift in the inline mcp_servers table,"} command = ${options.launch.command}`,
  };
}

function appendSection(before: string, section: Record<string, unknown>): string {
  const block = stringify({ mcp_servers: { websift: section } });
  const separator = before === "" ? "" : before.endsWith("\n\n") ? "" : before.endsWith("\n") ? "\n" : "\n\n";
  return `${before}${separator}${block.endsWith("\n") ? block : `${block}\n`}`;
}

/**
 * Where a root `mcp_servers = { … }` inline table opens (the offset of its `{`), if the file has one. TOML
 * forbids adding to an inline table from a `[mcp_servers.websift]` header, so the entry goes inside it.
 */
function inlineTableStart(text: string): number | undefined {
  const m = /^[ \t]*(?:mcp_servers|"mcp_servers"|'mcp_servers')[ \t]*=[ \t]*\{/m.exec(text);
  return m ? m.index + m[0].length - 1 : undefined;
}

/**
 * Inserts `websift = { … }` before the inline table's closing brace. smol-toml parses but keeps no positions,
 * so the brace is found by a scan that skips strings and nested tables and arrays; the read-back check in
 * `installCodex` catches any file this scan misreads.
 */
function mergeIntoInline(text: string, open: number, section: Record<string, unknown>, file: string): string {
  const close = matchingBrace(text, open);
  if (close === undefined)
    throw new Error(`${file}: the inline mcp_servers table has no closing brace; add websift by hand`);
  const inside = text.slice(open + 1, close);
  const pairs = stringify(section).trim().split("\n").join(", ");
  const entry = `websift = { ${pairs} }`;
  const trimmed = inside.trimEnd();
  const insertion = trimmed.trim() === "" ? ` ${entry} ` : trimmed.endsWith(",") ? ` ${entry}` : `, ${entry}`;
  const at = open + 1 + trimmed.length;
  return text.slice(0, at) + insertion + text.slice(at);
}

function matchingBrace(text: string, open: number): number | undefined {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") {
      const triple = text.startsWith(c.repeat(3), i);
      const quote = triple ? c.repeat(3) : c;
      let j = i + quote.length;
      while (j < text.length && !text.startsWith(quote, j)) j += c === '"' && text[j] === "\\" ? 2 : 1;
      i = j + quote.length - 1;
    } else if (c === "#") {
      const end = text.indexOf("\n", i);
      i = end < 0 ? text.length : end;
    } else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0) return c === "}" ? i : undefined;
    }
  }
  return undefined;
}

function parseToml(text: string, file: string): Record<string, unknown> {
  try {
    return parse(text) as Record<string, unknown>;
  } catch (err) {
    throw new Error(`${file} is not valid TOML (${errorLine(err)}); nothing was changed`);
  }
}

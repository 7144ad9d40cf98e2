import type { Command } from "commander";
import type { JsonClient } from "../../mcp/install/json-client.js";
import type { InstallChange } from "../../mcp/install/launch.js";
import { EXIT, printJson } from "../runtime.js";

export function registerInstall(program: Command): void {
  const install = program
    .command("install")
    .description(
      "Add websift's MCP server to an agent's config (merges; never overwrites; never writes a key).",
    );

  install
    .command("codex")
    .description("Add [mcp_servers.websift] to Codex's config.toml ($CODEX_HOME, default ~/.codex).")
    .option("--codex-home <dir>", "Codex home directory")
    .option("--command-path <path>", "websift executable to write (e.g. its path inside a container)")
    .option("--json", "print the change as JSON")
    .addHelpText(
      "after",
      "\nExamples:\n  websift install codex\n  websift install codex --codex-home /srv/codex --command-path /usr/local/bin/websift",
    )
    .action((opts) =>
      report(opts.json, async () => {
        const [{ installCodex }, { exportedVariableNames, launchFor }] = await Promise.all([
          import("../../mcp/install/codex.js"),
          import("../../mcp/install/launch.js"),
        ]);
        return installCodex({
          launch: launchFor(opts.commandPath),
          codexHome: opts.codexHome,
          env: process.env,
          envVars: exportedVariableNames(process.env),
        });
      }),
    );

  install
    .command("claude")
    .description("Add mcpServers.websift to Claude Code (~/.claude.json) or, with --desktop, Claude Desktop.")
    .option("--desktop", "Claude Desktop's claude_desktop_config.json instead of Claude Code")
    .option("--config <file>", "the config file to change")
    .option("--command-path <path>", "websift executable to write")
    .option("--json", "print the change as JSON")
    .addHelpText("after", "\nExamples:\n  websift install claude\n  websift install claude --desktop")
    .action((opts) => report(opts.json, () => json(opts.desktop ? "claude-desktop" : "claude-code", opts)));

  install
    .command("cursor")
    .description("Add mcpServers.websift to Cursor's ~/.cursor/mcp.json.")
    .option("--config <file>", "the config file to change (e.g. a project's .cursor/mcp.json)")
    .option("--command-path <path>", "websift executable to write")
    .option("--json", "print the change as JSON")
    .action((opts) => report(opts.json, () => json("cursor", opts)));
}

async function json(
  client: JsonClient,
  opts: { config?: string; commandPath?: string },
): Promise<InstallChange> {
  const [{ installJsonClient }, { launchFor }] = await Promise.all([
    import("../../mcp/install/json-client.js"),
    import("../../mcp/install/launch.js"),
  ]);
  return installJsonClient({
    client,
    file: opts.config,
    launch: launchFor(opts.commandPath),
    env: process.env,
  });
}

// The installers (and the TOML and JSONC parsers they use) load when a client is installed, not for `--help`.
async function report(asJson: boolean | undefined, run: () => Promise<InstallChange>): Promise<void> {
  let change: InstallChange;
  try {
    change = await run();
  } catch (err) {
    process.stderr.write(`websift install: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = EXIT.failure;
    return;
  }
  const { describeChange } = await import("../../mcp/install/launch.js");
  if (asJson) printJson(change);
  else process.stdout.write(`${describeChange(change)}\n`);
  if (change.action !== "unchanged" && !asJson)
    process.stderr.write(
      "Keys are not written anywhere: the server reads them from its environment or a .env file.\n",
    );
}

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "smol-toml";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { codexConfigPath, installCodex } from "../../src/mcp/install/codex.js";
import { installJsonClient, jsonClientPath } from "../../src/mcp/install/json-client.js";
import { exportedVariableNames, launchFor } from "../../src/mcp/install/launch.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "websift-install-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const launch = { command: "/opt/websift/bin/websift", args: ["mcp"] };

describe("install codex", () => {
  it("creates config.toml with [mcp_servers.websift] when there is none", () => {
    const change = installCodex({ launch, codexHome: join(dir, "codex") });
    expect(change.action).toBe("created");
    const toml = parse(readFileSync(join(dir, "codex", "config.toml"), "utf8")) as never as {
      mcp_servers: { websift: { command: string; args: string[] } };
    };
    expect(toml.mcp_servers.websift).toEqual({ command: "/opt/websift/bin/websift", args: ["mcp"] });
  });

  it("appends to an existing file and keeps the user's text byte for byte", () => {
    const user = `# my settings\nmodel = "o3"  # keep this comment\n\n[mcp_servers.other]\ncommand = "other"\nargs = []\n`;
    writeFileSync(join(dir, "config.toml"), user);
    const change = installCodex({ launch, codexHome: dir, envVars: ["BRAVE_API_KEY"] });
    expect(change.action).toBe("added");
    const after = readFileSync(join(dir, "config.toml"), "utf8");
    expect(after.startsWith(user)).toBe(true);
    const toml = parse(after) as { mcp_servers: Record<string, Record<string, unknown>> };
    expect(toml.mcp_servers.other).toEqual({ command: "other", args: [] });
    expect(toml.mcp_servers.websift.env_vars).toEqual(["BRAVE_API_KEY"]);
  });

  it("is idempotent and never rewrites an existing websift section", () => {
    const user = `[mcp_servers.websift]\ncommand = "my-own-websift"\nargs = ["mcp", "--verbose"]\n`;
    writeFileSync(join(dir, "config.toml"), user);
    expect(installCodex({ launch, codexHome: dir }).action).toBe("unchanged");
    expect(readFileSync(join(dir, "config.toml"), "utf8")).toBe(user);
    rmSync(join(dir, "config.toml"));
    installCodex({ launch, codexHome: dir });
    const once = readFileSync(join(dir, "config.toml"), "utf8");
    expect(installCodex({ launch, codexHome: dir }).action).toBe("unchanged");
    expect(readFileSync(join(dir, "config.toml"), "utf8")).toBe(once);
  });

  it("adds a newline before the section when the file lacks a final one", () => {
    writeFileSync(join(dir, "config.toml"), `model = "o3"`);
    installCodex({ launch, codexHome: dir });
    const after = readFileSync(join(dir, "config.toml"), "utf8");
    expect(after.startsWith(`model = "o3"\n`)).toBe(true);
    expect((parse(after) as { model: string }).model).toBe("o3");
  });

  it("refuses, changing nothing, when the file is not valid TOML or uses an inline mcp_servers table", () => {
    writeFileSync(join(dir, "config.toml"), "model = \n");
    expect(() => installCodex({ launch, codexHome: dir })).toThrow(/not valid TOML.*nothing was changed/);
    expect(readFileSync(join(dir, "config.toml"), "utf8")).toBe("model = \n");
    const inline = `mcp_servers = { other = { command = "x" } }\n`;
    writeFileSync(join(dir, "config.toml"), inline);
    expect(() => installCodex({ launch, codexHome: dir })).toThrow();
    expect(readFileSync(join(dir, "config.toml"), "utf8")).toBe(inline);
  });

  it("never writes a key value, only variable names", () => {
    const env = { BRAVE_API_KEY: "test-SECRET-brave-123", WEBSIFT_TIMEOUT: "10", UNRELATED: "x" };
    const names = exportedVariableNames(env);
    expect(names).toEqual(expect.arrayContaining(["BRAVE_API_KEY", "WEBSIFT_TIMEOUT"]));
    expect(names).not.toContain("UNRELATED");
    installCodex({ launch, codexHome: dir, envVars: names });
    expect(readFileSync(join(dir, "config.toml"), "utf8")).not.toContain("test-SECRET");
  });

  it("finds CODEX_HOME from the environment, else ~/.codex", () => {
    expect(codexConfigPath({ env: { CODEX_HOME: "/x/codex" } })).toBe("/x/codex/config.toml");
    expect(codexConfigPath({ env: {}, codexHome: "/y" })).toBe("/y/config.toml");
  });
});

describe("install claude / cursor (JSON)", () => {
  it("merges into ~/.claude.json without touching other keys or servers", () => {
    const file = join(dir, ".claude.json");
    const user = {
      numStartups: 12,
      projects: { "/p": { allowedTools: ["x"] } },
      mcpServers: { other: { command: "o" } },
    };
    writeFileSync(file, JSON.stringify(user, null, 2));
    const change = installJsonClient({ client: "claude-code", launch, home: dir });
    expect(change).toMatchObject({ action: "added", file });
    const after = JSON.parse(readFileSync(file, "utf8"));
    expect(after.numStartups).toBe(12);
    expect(after.projects).toEqual(user.projects);
    expect(after.mcpServers.other).toEqual({ command: "o" });
    expect(after.mcpServers.websift).toEqual({ type: "stdio", command: launch.command, args: ["mcp"] });
    expect(JSON.stringify(after.mcpServers.websift)).not.toContain("env");
  });

  it("never clobbers an existing websift entry and is idempotent", () => {
    const file = join(dir, "mcp.json");
    const text = `{\n    "mcpServers": {\n        "websift": { "command": "mine" }\n    }\n}\n`;
    writeFileSync(file, text);
    expect(installJsonClient({ client: "cursor", launch, file }).action).toBe("unchanged");
    expect(readFileSync(file, "utf8")).toBe(text);
  });

  it("creates cursor's mcp.json and keeps a file's own indentation", () => {
    const change = installJsonClient({ client: "cursor", launch, home: dir });
    expect(change).toMatchObject({ action: "created", file: join(dir, ".cursor", "mcp.json") });
    const tabbed = join(dir, "tabbed.json");
    writeFileSync(tabbed, '{\n\t"a": 1\n}\n');
    installJsonClient({ client: "cursor", launch, file: tabbed });
    expect(readFileSync(tabbed, "utf8")).toContain('\n\t"a": 1');
  });

  it("refuses a broken file and changes nothing", () => {
    const file = join(dir, "broken.json");
    writeFileSync(file, "{ not json");
    expect(() => installJsonClient({ client: "cursor", launch, file })).toThrow(/not valid JSON/);
    expect(readFileSync(file, "utf8")).toBe("{ not json");
    writeFileSync(file, '{"mcpServers": []}');
    expect(() => installJsonClient({ client: "cursor", launch, file })).toThrow(/not an object/);
  });

  it("picks Claude Desktop's path per OS", () => {
    expect(jsonClientPath("claude-desktop", { home: "/h", platform: "darwin" })).toBe(
      "/h/Library/Application Support/Claude/claude_desktop_config.json",
    );
    expect(jsonClientPath("claude-desktop", { home: "/h", platform: "linux", env: {} })).toBe(
      "/h/.config/Claude/claude_desktop_config.json",
    );
    expect(
      jsonClientPath("claude-desktop", { home: "C:\\h", platform: "win32", env: { APPDATA: "/appdata" } }),
    ).toContain(join("/appdata", "Claude", "claude_desktop_config.json"));
    const desktop = installJsonClient({
      client: "claude-desktop",
      launch,
      home: dir,
      platform: "linux",
      env: {},
    });
    expect(existsSync(desktop.file)).toBe(true);
    expect(JSON.parse(readFileSync(desktop.file, "utf8")).mcpServers.websift).toEqual({
      command: launch.command,
      args: ["mcp"],
    });
  });
});

describe("launchFor", () => {
  it("runs the given executable with mcp, and refuses to point a client at an unbuilt source tree", () => {
    expect(launchFor("/usr/local/bin/websift")).toEqual({ command: "/usr/local/bin/websift", args: ["mcp"] });
    // These tests run from src/, where no built main.js sits beside the module.
    expect(() => launchFor()).toThrow(/npm run build.*--command-path/);
  });
});

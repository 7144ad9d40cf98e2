import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { findNodeAtLocation, getNodeValue, parseTree } from "jsonc-parser";
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

  it("refuses, changing nothing, when the file is not valid TOML", () => {
    writeFileSync(join(dir, "config.toml"), "model = \n");
    expect(() => installCodex({ launch, codexHome: dir })).toThrow(/not valid TOML.*nothing was changed/);
    expect(readFileSync(join(dir, "config.toml"), "utf8")).toBe("model = \n");
    writeFileSync(join(dir, "config.toml"), 'mcp_servers = "x"\n');
    expect(() => installCodex({ launch, codexHome: dir })).toThrow(/mcp_servers is not a table/);
  });

  it("merges into an inline mcp_servers table, keeping every other byte", () => {
    const cases = [
      // Strings holding braces, brackets, quotes and comment marks must not end the table early.
      [
        `model = "o3"\nmcp_servers = { other = { command = "x}", args = ["]", '{'] } } # mine\n[profiles.a]\nmodel = "b"\n`,
        ` } # mine`,
      ],
      [`mcp_servers = {}\n`, `}\n`],
      [`mcp_servers = { a = { command = """q"}""" } }\n`, ` }\n`],
    ] as const;
    for (const [user, tail] of cases) {
      writeFileSync(join(dir, "config.toml"), user);
      expect(installCodex({ launch, codexHome: dir, envVars: ["BRAVE_API_KEY"] }).action).toBe("added");
      const after = readFileSync(join(dir, "config.toml"), "utf8");
      const toml = parse(after) as { mcp_servers: Record<string, unknown> };
      expect(toml.mcp_servers.websift).toEqual({
        command: launch.command,
        args: ["mcp"],
        env_vars: ["BRAVE_API_KEY"],
      });
      const before = parse(user) as { mcp_servers: Record<string, unknown> };
      expect({ ...toml.mcp_servers, websift: undefined }).toEqual({
        ...before.mcp_servers,
        websift: undefined,
      });
      // One pure insertion inside the table's braces: nothing of the user's text removed or moved.
      let head = 0;
      while (head < user.length && after[head] === user[head]) head++;
      const inserted = after.slice(head, after.length - (user.length - head));
      expect(after).toBe(user.slice(0, head) + inserted + user.slice(head));
      expect(inserted).toMatch(/^,? ?websift = \{ command = .* \} ?$/);
      expect(user.slice(head).startsWith(tail)).toBe(true);
      expect(installCodex({ launch, codexHome: dir }).action).toBe("unchanged");
    }
  });

  it("never writes a key value, only variable names", () => {
    const env = { BRAVE_API_KEY: "test-SECRET-brave-123", WEBSIFT_TIMEOUT: "10", UNRELATED: "x" };
    const names = exportedVariableNames(env);
    expect(names).toEqual(expect.arrayContaining(["BRAVE_API_KEY", "WEBSIFT_TIMEOUT"]));
    expect(names).not.toContain("UNRELATED");
    installCodex({ launch, codexHome: dir, envVars: names });
    expect(readFileSync(join(dir, "config.toml"), "utf8")).not.toContain("test-SECRET");
  });

  it("finds CODEX_HOME from the environment, else ~/.codex; an empty one is unset", () => {
    expect(codexConfigPath({ env: { CODEX_HOME: "/x/codex" } })).toBe("/x/codex/config.toml");
    expect(codexConfigPath({ env: {}, codexHome: "/y" })).toBe("/y/config.toml");
    expect(codexConfigPath({ env: { CODEX_HOME: "" } })).toBe(join(homedir(), ".codex", "config.toml"));
    expect(codexConfigPath({ env: { CODEX_HOME: "" }, codexHome: "" })).toBe(
      join(homedir(), ".codex", "config.toml"),
    );
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

  it("edits the file in place: only the inserted entry is new, byte for byte", () => {
    const cases = [
      // Big integers, 1.0, escapes and JSONC comments would not survive a parse and re-serialise.
      `{\n  // Claude's own counters\n  "userID": 123456789012345678901234567890,\n  "ratio": 1.0,\n  "name": "caf\\u00e9 \\/ \\"q\\"",\n  "mcpServers": {\n    "other": { "command": "o" } /* keep */\n  }\n}\n`,
      `{\r\n\t"big": 9007199254740993,\r\n\t"mcpServers": {}\r\n}\r\n`,
      `{"a": 1.50, "mcpServers": {"o": {"command": "o"}}}`,
      `{\n  "e": 1e400,\n  "trailing": [1, 2,],\n}\n`,
      `{}`,
    ];
    for (const user of cases) {
      const file = join(dir, "edit.json");
      writeFileSync(file, user);
      expect(installJsonClient({ client: "cursor", launch, file }).action).toBe("added");
      const after = readFileSync(file, "utf8");
      const tree = parseTree(after, [], { allowTrailingComma: true });
      const node = tree && findNodeAtLocation(tree, ["mcpServers", "websift"]);
      expect(node && getNodeValue(node)).toEqual({ command: launch.command, args: ["mcp"] });
      // One pure insertion: the file is the user's text with one run of new text in it, nothing removed.
      let head = 0;
      while (head < user.length && after[head] === user[head]) head++;
      const inserted = after.slice(head, after.length - (user.length - head));
      expect(after).toBe(user.slice(0, head) + inserted + user.slice(head));
      expect(inserted).toContain('"websift"');
      expect(inserted).not.toMatch(/other|big|ratio|trailing/);
      for (const kept of [
        "123456789012345678901234567890",
        "1.0,",
        "caf\\u00e9 \\/",
        "/* keep */",
        "1.50",
        "1e400",
        "// Claude's",
      ])
        if (user.includes(kept)) expect(after).toContain(kept);
      expect(installJsonClient({ client: "cursor", launch, file }).action).toBe("unchanged");
      rmSync(file);
    }
  });

  it("lays the entry out in the file's own style", () => {
    const file = join(dir, "style.json");
    writeFileSync(file, `{\n    "mcpServers": {\n        "o": {}\n    }\n}\n`);
    installJsonClient({ client: "cursor", launch, file });
    expect(readFileSync(file, "utf8")).toBe(
      `{\n    "mcpServers": {\n        "o": {},\n        "websift": {\n            "command": "${launch.command}",\n            "args": [\n                "mcp"\n            ]\n        }\n    }\n}\n`,
    );
    writeFileSync(file, `{"a": 1.0, "mcpServers": {}}`);
    installJsonClient({ client: "cursor", launch, file });
    expect(readFileSync(file, "utf8")).toBe(
      `{"a": 1.0, "mcpServers": {"websift": {"command":"${launch.command}","args":["mcp"]}}}`,
    );
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
    // Empty variables are unset; a relative XDG_CONFIG_HOME is invalid by the XDG spec.
    expect(
      jsonClientPath("claude-desktop", { home: "/h", platform: "linux", env: { XDG_CONFIG_HOME: "" } }),
    ).toBe("/h/.config/Claude/claude_desktop_config.json");
    expect(
      jsonClientPath("claude-desktop", { home: "/h", platform: "linux", env: { XDG_CONFIG_HOME: "rel" } }),
    ).toBe("/h/.config/Claude/claude_desktop_config.json");
    expect(
      jsonClientPath("claude-desktop", { home: "/h", platform: "linux", env: { XDG_CONFIG_HOME: "/xdg" } }),
    ).toBe("/xdg/Claude/claude_desktop_config.json");
    expect(jsonClientPath("claude-desktop", { home: "/h", platform: "win32", env: { APPDATA: "" } })).toBe(
      join("/h", "AppData", "Roaming", "Claude", "claude_desktop_config.json"),
    );
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

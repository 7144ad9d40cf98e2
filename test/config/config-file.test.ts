import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { updateConfigFile } from "../../src/config/config-file.js";
import { readEnvFile, writeEnvVariable } from "../../src/config/env-file.js";
import { ConfigError, loadConfig } from "../../src/config/load.js";

const dir = mkdtempSync(join(tmpdir(), "websift-config-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("updateConfigFile", () => {
  it("keeps keys it was not asked to change, even ones this version does not know, and leaves no temp file", () => {
    const path = join(dir, "keep.json");
    writeFileSync(path, JSON.stringify({ fromTheFuture: { a: 1 }, mcpPort: 8000, maxResults: 3 }), {
      mode: 0o640,
    });
    updateConfigFile(path, { maxResults: 9, safeSearch: "off", mcpPort: null });
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({
      fromTheFuture: { a: 1 },
      maxResults: 9,
      safeSearch: "off",
    });
    expect(statSync(path).mode & 0o777).toBe(0o640);
    expect(readdirSync(dir)).toEqual(["keep.json"]);
  });

  it("refuses a value the schema refuses, or a secret, and writes nothing", () => {
    const path = join(dir, "refuse.json");
    writeFileSync(path, '{"maxResults":3}');
    expect(() => updateConfigFile(path, { maxResults: 0 })).toThrow(ConfigError);
    expect(() => updateConfigFile(path, { braveApiKey: "test-SECRET-x" })).toThrow(/braveApiKey/);
    expect(readFileSync(path, "utf8")).toBe('{"maxResults":3}');
  });

  it("writes a file loadConfig reads back, the new settings in toWebsiftConfig", () => {
    const cwd = mkdtempSync(join(dir, "cwd-"));
    updateConfigFile(join(cwd, "websift.config.json"), {
      providerOrder: "searxng,brave",
      maxResults: 8,
      maxChars: 3000,
      longPageMode: "head-tail",
      safeSearch: "strict",
      waitSeconds: 1.5,
    });
    const config = loadConfig({ cwd, home: cwd, env: {} });
    expect(config.toWebsiftConfig()).toMatchObject({
      providerOrder: ["searxng", "brave"],
      defaults: { limit: 8, maxChars: 3000, mode: "head-tail", safesearch: "strict" },
    });
    expect(config.waitSeconds).toBe(1.5);
  });
});

describe("writeEnvVariable", () => {
  it("sets, replaces and removes one variable, keeping the other lines, always mode 0600", () => {
    const path = join(dir, "one.env");
    writeFileSync(path, "# comment\nA=1\nexport BRAVE_API_KEY=old-value-123\nB='two words'\n", {
      mode: 0o666,
    });
    writeEnvVariable(path, "BRAVE_API_KEY", "test-SECRET-brave-9");
    expect(readFileSync(path, "utf8")).toBe(
      "# comment\nA=1\nB='two words'\nBRAVE_API_KEY=test-SECRET-brave-9\n",
    );
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readEnvFile(path)).toEqual({ A: "1", B: "two words", BRAVE_API_KEY: "test-SECRET-brave-9" });
    writeEnvVariable(path, "BRAVE_API_KEY", undefined);
    expect(readFileSync(path, "utf8")).toBe("# comment\nA=1\nB='two words'\n");
  });

  it("leaves a multi-line quoted value whole, even a line of it that reads like the key's assignment", () => {
    const path = join(dir, "multi.env");
    const pem = 'PRIVATE="line1\nBRAVE_API_KEY=inside-the-value\nline3"\n';
    writeFileSync(path, `${pem}BRAVE_API_KEY=old-value-123\n`);
    writeEnvVariable(path, "BRAVE_API_KEY", undefined);
    expect(readFileSync(path, "utf8")).toBe(pem);
    expect(readEnvFile(path).PRIVATE).toBe("line1\nBRAVE_API_KEY=inside-the-value\nline3");
  });

  it("creates the file 0600 and refuses values that would need quoting", () => {
    const path = join(dir, "new.env");
    expect(() => writeEnvVariable(path, "EXA_API_KEY", "two words here")).toThrow(RangeError);
    writeEnvVariable(path, "EXA_API_KEY", "test-SECRET-exa-1234");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(loadConfig({ cwd: dir, home: dir, env: {}, envPath: path }).values.keys.EXA_API_KEY).toBe(
      "test-SECRET-exa-1234",
    );
  });
});

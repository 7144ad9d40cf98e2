import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError, loadConfig, maskedValue } from "../../src/config/load.js";

let cwd: string;
let home: string;

beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "websift-cfg-cwd-"));
  home = mkdtempSync(join(tmpdir(), "websift-cfg-home-"));
});
afterEach(() => {
  rmSync(cwd, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

const writeCwdConfig = (data: unknown) =>
  writeFileSync(join(cwd, "websift.config.json"), JSON.stringify(data));
const setting = (cfg: ReturnType<typeof loadConfig>, key: string) => cfg.settings.find((s) => s.key === key);

describe("loadConfig", () => {
  it("resolves defaults when there is no file and no environment", () => {
    const cfg = loadConfig({ cwd, home, env: {} });
    expect(cfg.file).toBeUndefined();
    expect(setting(cfg, "timeout")).toMatchObject({ source: "default", value: undefined });
    expect(cfg.toWebsiftConfig().timeoutMs).toBeUndefined();
  });

  it("reads websift.config.json in cwd before ~/.config/websift/config.json", () => {
    mkdirSync(join(home, ".config", "websift"), { recursive: true });
    writeFileSync(join(home, ".config", "websift", "config.json"), JSON.stringify({ timeout: 7 }));
    expect(setting(loadConfig({ cwd, home, env: {} }), "timeout")?.value).toBe(7);
    writeCwdConfig({ timeout: 9 });
    const cfg = loadConfig({ cwd, home, env: {} });
    expect(cfg.file).toBe(join(cwd, "websift.config.json"));
    expect(setting(cfg, "timeout")).toMatchObject({ value: 9, source: "file" });
  });

  it("lets the environment win over the file, and the file over defaults", () => {
    writeCwdConfig({ timeout: 9, searxngUrl: "https://searx.example.org", budgets: { brave: 3000 } });
    const cfg = loadConfig({ cwd, home, env: { WEBSIFT_TIMEOUT: "12" } });
    expect(setting(cfg, "timeout")).toMatchObject({ value: 12, source: "env" });
    const wc = cfg.toWebsiftConfig();
    expect(wc.timeoutMs).toBe(12_000);
    expect(wc.budgets).toEqual({ brave: 3000 });
    // Providers read SEARXNG_URL from env: a file setting must reach them there.
    expect(wc.env?.SEARXNG_URL).toBe("https://searx.example.org");
    expect(wc.env?.WEBSIFT_TIMEOUT).toBe("12");
  });

  it("takes secrets from .env, with the real environment winning", () => {
    writeFileSync(join(cwd, ".env"), "BRAVE_API_KEY=test-SECRET-from-dotenv\nEXA_API_KEY=test-SECRET-exa\n");
    const cfg = loadConfig({ cwd, home, env: { BRAVE_API_KEY: "test-SECRET-from-env" } });
    expect(cfg.env.BRAVE_API_KEY).toBe("test-SECRET-from-env");
    expect(cfg.env.EXA_API_KEY).toBe("test-SECRET-exa");
  });

  it("refuses a key in a config file, naming the setting, the file and the variable to use", () => {
    writeCwdConfig({ braveApiKey: "test-SECRET-abc" });
    const err = catchError(() => loadConfig({ cwd, home, env: {} }));
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toContain("braveApiKey");
    expect(err.message).toContain(join(cwd, "websift.config.json"));
    expect(err.message).toContain("BRAVE_API_KEY");
    expect(err.message).not.toContain("test-SECRET-abc");
    writeCwdConfig({ TAVILY_API_KEY: "test-SECRET-abc" });
    expect(catchError(() => loadConfig({ cwd, home, env: {} })).message).toContain("TAVILY_API_KEY");
  });

  it("names the setting and the file for a wrong type, an unknown key and broken JSON", () => {
    writeCwdConfig({ timeout: "soon" });
    const typeErr = catchError(() => loadConfig({ cwd, home, env: {} }));
    expect(typeErr).toMatchObject({ setting: "timeout", file: join(cwd, "websift.config.json") });
    writeCwdConfig({ timeot: 5 });
    expect(catchError(() => loadConfig({ cwd, home, env: {} }))).toMatchObject({ setting: "timeot" });
    writeCwdConfig({ budgets: { brave: -1 } });
    expect(catchError(() => loadConfig({ cwd, home, env: {} }))).toMatchObject({ setting: "budgets.brave" });
    writeFileSync(join(cwd, "websift.config.json"), "{ timeout: 5 ");
    expect(catchError(() => loadConfig({ cwd, home, env: {} })).message).toMatch(/not valid JSON/);
  });

  it("names the variable when the environment holds a bad value", () => {
    expect(catchError(() => loadConfig({ cwd, home, env: { WEBSIFT_TIMEOUT: "abc" } }))).toMatchObject({
      setting: "WEBSIFT_TIMEOUT",
      file: "environment",
    });
  });

  it("reads switches as 1 or 0 and refuses any other spelling by name (it would be read as off below)", () => {
    for (const word of ["true", "yes", "on", "2"])
      expect(catchError(() => loadConfig({ cwd, home, env: { WEBSIFT_ENABLE_PAID: word } }))).toMatchObject({
        setting: "WEBSIFT_ENABLE_PAID",
        file: "environment",
      });
    expect(setting(loadConfig({ cwd, home, env: { WEBSIFT_ENABLE_PAID: "0" } }), "enablePaid")?.value).toBe(
      false,
    );
    expect(setting(loadConfig({ cwd, home, env: { WEBSIFT_ENABLE_PAID: "1" } }), "enablePaid")?.value).toBe(
      true,
    );
    writeCwdConfig({ enabled: false });
    expect(loadConfig({ cwd, home, env: {} }).toWebsiftConfig()).toMatchObject({ enabled: false });
    expect(loadConfig({ cwd, home, env: { WEBSIFT_ENABLED: "1" } }).toWebsiftConfig()).toMatchObject({
      enabled: true,
    });
  });

  it("masks secrets for display", () => {
    const cfg = loadConfig({ cwd, home, env: { BRAVE_API_KEY: "test-SECRET-xyz", WEBSIFT_TIMEOUT: "5" } });
    const shown = cfg.settings.map(maskedValue).join("\n");
    expect(shown).not.toContain("test-SECRET-xyz");
    expect(maskedValue(setting(cfg, "braveApiKey") as never)).toBe("set (BRAVE_API_KEY)");
    expect(maskedValue(setting(cfg, "timeout") as never)).toBe("5");
  });
});

function catchError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    return err as ConfigError;
  }
  throw new Error("expected an error");
}

describe("variables nothing reads", () => {
  it("warns on stderr about an unknown WEBSIFT_ name, saying where it was and what was meant", () => {
    writeFileSync(join(cwd, ".env"), "WEBSIFT_TIMEUOT=5\nOTHER_TOOL=1\n");
    const lines: string[] = [];
    const cfg = loadConfig({
      cwd,
      home,
      env: { WEBSIFT_ENABLE_PAYD: "1", WEBSIFT_TIMEOUT: "7", PATH: "/bin" },
      warn: (l) => lines.push(l),
    });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain(join(cwd, ".env"));
    expect(lines[0]).toContain("WEBSIFT_TIMEUOT");
    expect(lines[0]).toContain("did you mean WEBSIFT_TIMEOUT?");
    expect(lines[1]).toContain("the environment: WEBSIFT_ENABLE_PAYD");
    expect(lines[1]).toContain("did you mean WEBSIFT_ENABLE_PAID?");
    // The misspelt switch did not turn paid use on.
    expect(setting(cfg, "enablePaid")?.value).toBeUndefined();
  });

  it("knows every WEBSIFT_ variable the code reads, so none of them is ever warned about", () => {
    const src = fileURLToPath(new URL("../../src", import.meta.url));
    const names = new Set<string>();
    for (const file of readdirSync(src, { recursive: true }) as string[])
      if (file.endsWith(".ts"))
        for (const m of readFileSync(join(src, file), "utf8").matchAll(/WEBSIFT_[A-Z0-9_]*[A-Z0-9]/g))
          if (!/^WEBSIFT_(CONFIG|LLM)$/.test(m[0])) names.add(m[0]);
    const lines: string[] = [];
    loadConfig({
      cwd,
      home,
      env: Object.fromEntries([...names].map((n) => [n, ""])),
      warn: (l) => lines.push(l),
    });
    expect(names.size).toBeGreaterThan(20);
    expect(lines).toEqual([]);
  });
});

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError, loadConfig, maskedValue, settingsFromEnv } from "../../src/config/load.js";
import { settingSpecs } from "../../src/config/schema.js";

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
    expect(wc.providerTimeoutMs).toEqual({ brave: 3000 });
    // The file's setting reaches the providers through the typed settings, as the environment's would.
    expect(wc.resolved?.search.searxngUrl).toBe("https://searx.example.org");
    expect(wc.resolved?.search.timeoutSeconds).toBe(12);
  });

  it("takes secrets from .env, with the real environment winning", () => {
    writeFileSync(join(cwd, ".env"), "BRAVE_API_KEY=test-SECRET-from-dotenv\nEXA_API_KEY=test-SECRET-exa\n");
    const cfg = loadConfig({ cwd, home, env: { BRAVE_API_KEY: "test-SECRET-from-env" } });
    expect(cfg.values.keys.BRAVE_API_KEY).toBe("test-SECRET-from-env");
    expect(cfg.values.keys.EXA_API_KEY).toBe("test-SECRET-exa");
    expect(cfg.origin("BRAVE_API_KEY")).toBe("process");
    expect(cfg.origin("EXA_API_KEY")).toBe("dotenv");
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

describe("the typed settings: every variable of README's configuration table, read once", () => {
  const values = (env: Record<string, string>) => loadConfig({ cwd, home, env }).values;

  it("knows every variable README's table documents (the table is the contract)", () => {
    const readme = readFileSync(fileURLToPath(new URL("../../README.md", import.meta.url)), "utf8");
    const table = readme.slice(
      readme.indexOf("## Configuration"),
      readme.indexOf("Settings other than keys"),
    );
    const documented = new Set([...table.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]));
    expect(documented.size).toBeGreaterThan(30);
    const known = new Set(settingSpecs().map((s) => s.env));
    expect([...documented].filter((name) => !known.has(name))).toEqual([]);
  });

  it("reads each search setting into its field", () => {
    const s = values({
      WEBSIFT_TIMEOUT: "12.5",
      WEBSIFT_ENABLE_PAID: "1",
      WEBSIFT_ENABLED: "0",
      WEBSIFT_WIKIPEDIA_FALLBACK: "0",
      SEARXNG_URL: " https://searx.example.org ",
      SEARXNG_ENGINES: "",
      BRAVE_RATE_PER_SEC: "4",
      GEMINI_MODEL: "gemini-2.5-pro",
      WEBSIFT_PROVIDER_ORDER: "searxng,brave",
      WEBSIFT_MAX_RESULTS: "7",
      WEBSIFT_SAFESEARCH: "strict",
      WEBSIFT_MAX_CHARS: "3000",
      WEBSIFT_LONG_PAGE: "head-tail",
      WEBSIFT_WAIT_SECONDS: "1.5",
    }).search;
    expect(s).toMatchObject({
      timeoutSeconds: 12.5,
      enablePaid: true,
      enabled: false,
      wikipediaFallback: false,
      searxngUrl: "https://searx.example.org",
      geminiModel: "gemini-2.5-pro",
      providerOrder: ["searxng", "brave"],
      defaults: { limit: 7, safesearch: "strict", maxChars: 3000, mode: "head-tail" },
      waitSeconds: 1.5,
      tuning: { braveRatePerSec: 4 },
    });
    // Set but empty: the instance's own choice of engines, not the default pair.
    expect(s.searxngEngines).toBeUndefined();
    expect(values({}).search).toMatchObject({ enabled: true, enablePaid: false, wikipediaFallback: true });
  });

  it("reads which reads robots.txt decides (WEBSIFT_ROBOTS, or robots in the file), automated unless set", () => {
    expect(values({}).read.robots).toBe("automated");
    expect(values({ WEBSIFT_ROBOTS: "respect" }).read.robots).toBe("respect");
    writeCwdConfig({ robots: "ignore" });
    expect(values({}).read.robots).toBe("ignore");
    expect(values({ WEBSIFT_ROBOTS: "respect" }).read.robots).toBe("respect");
    expect(catchError(() => values({ WEBSIFT_ROBOTS: "sometimes" }))).toMatchObject({
      setting: "WEBSIFT_ROBOTS",
    });
  });

  it("reads each provider key into keys, by the variable the provider declares, never an empty one", () => {
    const keys = values({
      BRAVE_API_KEY: "test-SECRET-brave",
      TAVILY_API_KEY: "test-SECRET-tavily",
      EXA_API_KEY: "test-SECRET-exa",
      PERPLEXITY_API_KEY: "test-SECRET-perplexity",
      GEMINI_API_KEY: "",
      GOOGLE_API_KEY: "test-SECRET-google",
    }).keys;
    expect(keys).toEqual({
      BRAVE_API_KEY: "test-SECRET-brave",
      TAVILY_API_KEY: "test-SECRET-tavily",
      EXA_API_KEY: "test-SECRET-exa",
      PERPLEXITY_API_KEY: "test-SECRET-perplexity",
      GOOGLE_API_KEY: "test-SECRET-google",
    });
    const custom = loadConfig({ cwd, home, env: { ACME_KEY: "test-SECRET-acme" }, keyNames: ["ACME_KEY"] });
    expect(custom.values.keys.ACME_KEY).toBe("test-SECRET-acme");
  });

  it("reads the store's variables: WEBSIFT_STORE, WEBSIFT_REDIS_URL and the cache home", () => {
    const s = values({
      WEBSIFT_STORE: " Redis ",
      WEBSIFT_REDIS_URL: " redis://127.0.0.1:6379 ",
      XDG_CACHE_HOME: "/tmp/websift-cache-test",
    }).store;
    expect(s).toEqual({
      kind: "redis",
      redisUrl: "redis://127.0.0.1:6379",
      path: "/tmp/websift-cache-test/websift/state.db",
    });
    // A value openStore does not know is kept, for it to name and fall back from, as before.
    expect(values({ WEBSIFT_STORE: "postgres" }).store.kind).toBe("postgres");
    expect(values({ HOME: "/tmp/websift-home-test" }).store.path).toBe(
      "/tmp/websift-home-test/.cache/websift/state.db",
    );
  });

  it("reads the model's variables: WEBSIFT_LLM_BASE_URL, WEBSIFT_LLM_MODEL, WEBSIFT_LLM_API_KEY", () => {
    expect(
      values({
        WEBSIFT_LLM_BASE_URL: " http://127.0.0.1:8080/v1 ",
        WEBSIFT_LLM_MODEL: "qwen3",
        WEBSIFT_LLM_API_KEY: "test-SECRET-llm",
      }).llm,
    ).toEqual({ baseUrl: "http://127.0.0.1:8080/v1", model: "qwen3", apiKey: "test-SECRET-llm" });
    // Blank is unset: no model.
    expect(values({ WEBSIFT_LLM_BASE_URL: "  " }).llm.baseUrl).toBeUndefined();
  });

  it("reads the browser route's variables: WEBSIFT_BROWSER_ENGINE, WEBSIFT_BROWSER_CDP_URL", () => {
    expect(
      values({ WEBSIFT_BROWSER_ENGINE: "bing", WEBSIFT_BROWSER_CDP_URL: " http://127.0.0.1:9222 " }).browser,
    ).toEqual({ engine: "bing", cdpUrl: "http://127.0.0.1:9222" });
  });

  it("reads proxies (upper case winning over lower case), NO_PROXY from the file too, and NODE_EXTRA_CA_CERTS", () => {
    expect(
      values({
        HTTP_PROXY: "http://proxy.test:3128",
        http_proxy: "http://lower.test:3128",
        https_proxy: "http://lower-tls.test:3128",
        no_proxy: ".intranet.example",
        NODE_EXTRA_CA_CERTS: "/etc/corp-ca.pem",
      }).net,
    ).toEqual({
      httpProxy: "http://proxy.test:3128",
      httpsProxy: "http://lower-tls.test:3128",
      noProxy: ".intranet.example",
      extraCaCertsFile: "/etc/corp-ca.pem",
    });
    writeCwdConfig({ noProxy: "from.file.example" });
    expect(values({}).net.noProxy).toBe("from.file.example");
    expect(values({ NO_PROXY: "from.env.example" }).net.noProxy).toBe("from.env.example");
  });

  it("reads the surfaces' variables: MCP and serve addresses, waits, hosts and tokens, WEBSIFT_DEBUG", () => {
    const s = values({
      WEBSIFT_MCP_HOST: "0.0.0.0",
      WEBSIFT_MCP_PORT: "8787",
      WEBSIFT_MCP_WAIT_SECONDS: "10",
      WEBSIFT_MCP_TOKEN: "test-SECRET-mcp",
      WEBSIFT_MCP_ALLOWED_HOSTS: "websift.internal",
      WEBSIFT_MCP_ALLOWED_ORIGINS: "https://app.example",
      WEBSIFT_SERVE_HOST: "0.0.0.0",
      WEBSIFT_SERVE_PORT: "8788",
      WEBSIFT_SERVE_TOKEN: "test-SECRET-serve",
      WEBSIFT_ADMIN_TOKEN: "test-SECRET-admin",
      WEBSIFT_DEBUG: "1",
    });
    expect(s.mcp).toEqual({
      host: "0.0.0.0",
      port: 8787,
      waitSeconds: 10,
      token: "test-SECRET-mcp",
      allowedHosts: "websift.internal",
      allowedOrigins: "https://app.example",
    });
    expect(s.serve).toEqual({
      host: "0.0.0.0",
      port: 8788,
      token: "test-SECRET-serve",
      adminToken: "test-SECRET-admin",
    });
    expect(s.debug).toBe(true);
  });

  it("never takes the new variables from a config file: secrets are refused, the others are unknown", () => {
    writeCwdConfig({ redisUrl: "redis://x" });
    expect(catchError(() => loadConfig({ cwd, home, env: {} })).message).toMatch(/is a secret/);
    // An endpoint's URL may carry credentials: a secret, like a proxy's.
    writeCwdConfig({ llmBaseUrl: "http://127.0.0.1:8080" });
    expect(catchError(() => loadConfig({ cwd, home, env: {} })).message).toMatch(/is a secret/);
    writeCwdConfig({ llmModel: "local" });
    expect(catchError(() => loadConfig({ cwd, home, env: {} })).message).toMatch(/unknown setting/);
  });

  it("for the library's env alone, leaves out a value the schema refuses instead of throwing", () => {
    const s = settingsFromEnv({
      WEBSIFT_TIMEOUT: "abc",
      WEBSIFT_ENABLE_PAID: "true",
      WEBSIFT_MAX_RESULTS: "99",
    });
    expect(s.search.timeoutSeconds).toBeUndefined();
    expect(s.search.enablePaid).toBe(false);
    expect(s.search.defaults.limit).toBeUndefined();
    expect(settingsFromEnv({ WEBSIFT_TIMEOUT: "7" }).search.timeoutSeconds).toBe(7);
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

import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import dotenv from "dotenv";
import { defaultStatePath } from "../store/sqlite.js";
import { fileSchema, fromEnv, isSwitch, providerSettings, type SettingSpec, settingSpecs } from "./schema.js";
import { type ConfiguredOptions, configuredTimeoutMs, type Settings } from "./settings.js";

export type SettingSource = "default" | "file" | "env";

export interface ResolvedSetting {
  key: string;
  env: string;
  secret: boolean;
  value: unknown;
  source: SettingSource;
  /** For source "env": whether the value came from the `.env` file or the real environment (which wins). */
  envOrigin?: "dotenv" | "process";
}

export interface ResolvedConfig {
  /** The config file read, if any. */
  file?: string;
  settings: ResolvedSetting[];
  budgets: Record<string, number>;
  providers: Record<string, unknown>;
  /** The typed settings everything below the loader reads: defaults < file < `.env` < real environment. */
  values: Settings;
  /** Where a variable's value came from: the real environment (which wins) or `.env`; undefined when neither. */
  origin(name: string): "process" | "dotenv" | undefined;
  /** How long a conversation waits for a lookup before going on (createSession's waitSeconds), when set. */
  waitSeconds?: number;
  /** Options for createWebsift() (`resolved` and the fields it sets); call options still win over all of it. */
  toWebsiftConfig(): ConfiguredOptions;
}

/** A configuration mistake: names the setting and the file so the user can fix it in one go. */
export class ConfigError extends Error {
  readonly code = "config_error";
  constructor(
    readonly setting: string,
    readonly file: string,
    problem: string,
  ) {
    super(`${file}: ${setting}: ${problem}`);
    this.name = "ConfigError";
  }
}

export interface LoadConfigOptions {
  cwd?: string;
  home?: string;
  env?: Record<string, string | undefined>;
  /** The `.env` file (default `.env` in cwd). */
  envPath?: string;
  /** Where a warning about a setting goes (default stderr). */
  warn?: (line: string) => void;
  /** Variables providers declare for their keys (`keyEnv`) beyond the built-in ones, for `Settings.keys`. */
  keyNames?: readonly string[];
}

export const CONFIG_FILE_NAME = "websift.config.json";

/** The first config file that exists: `websift.config.json` in cwd, else `~/.config/websift/config.json`. */
export function findConfigFile(cwd: string, home: string): string | undefined {
  return [join(cwd, CONFIG_FILE_NAME), join(home, ".config", "websift", "config.json")].find((p) =>
    existsSync(p),
  );
}

/** Precedence: defaults < config file < environment (`.env` below the real one) < call options. */
export function loadConfig(options: LoadConfigOptions = {}): ResolvedConfig {
  const cwd = options.cwd ?? process.cwd();
  const home = options.home ?? homedir();
  const realEnv = options.env ?? process.env;
  const dotEnvPath = options.envPath ?? join(cwd, ".env");
  const dotEnv = existsSync(dotEnvPath) ? dotenv.parse(readFileSync(dotEnvPath)) : {};
  const warn = options.warn ?? ((line: string) => process.stderr.write(`${line}\n`));
  for (const name of unknownVariables(Object.keys(dotEnv))) warn(unknownVariableLine(name, dotEnvPath));
  for (const name of unknownVariables(Object.keys(realEnv)))
    warn(unknownVariableLine(name, "the environment"));

  const file = findConfigFile(cwd, home);
  const fromFile = file ? readConfigFile(file) : {};
  const resolved = resolveSettings({ dotEnv, realEnv, file: fromFile, keyNames: options.keyNames });
  const { values } = resolved;
  return {
    file,
    settings: resolved.list,
    budgets: { ...values.search.budgets },
    providers: (fromFile.providers ?? {}) as Record<string, unknown>,
    values,
    origin: (name) =>
      realEnv[name] !== undefined ? "process" : dotEnv[name] !== undefined ? "dotenv" : undefined,
    waitSeconds: values.search.waitSeconds,
    toWebsiftConfig: () => websiftConfigOf(values),
  };
}

/**
 * The settings of a library call that names only an environment (`createWebsift({ env })`, process.env by
 * default): no file and no `.env`, as before. A value the schema refuses is left out (the setting keeps its
 * default), as the library has always ignored a variable it could not read; the CLI refuses it by name.
 */
export function settingsFromEnv(
  env: Record<string, string | undefined> = process.env,
  keyNames?: readonly string[],
): Settings {
  return resolveSettings({ dotEnv: {}, realEnv: env, file: {}, keyNames, lenient: true }).values;
}

/** createWebsift's options from resolved settings: `resolved` itself, and the fields callers used to read. */
function websiftConfigOf(values: Settings): ConfiguredOptions {
  const search = values.search;
  return {
    resolved: values,
    providerTimeoutMs: Object.keys(search.budgets).length ? { ...search.budgets } : undefined,
    settings: { ...search.tuning },
    timeoutMs: configuredTimeoutMs(values),
    enabled: search.enabled,
    wikipediaFallback: search.wikipediaFallback,
    providerOrder: search.providerOrder,
    defaults: { ...search.defaults },
  };
}

interface Sources {
  dotEnv: Record<string, string | undefined>;
  realEnv: Record<string, string | undefined>;
  file: Record<string, unknown>;
  keyNames?: readonly string[];
  /** Leave out a value the schema refuses instead of throwing ConfigError. */
  lenient?: boolean;
}

/** Every setting from its sources, checked against the one schema, then nested into `Settings`. */
function resolveSettings(sources: Sources): { list: ResolvedSetting[]; values: Settings } {
  const { dotEnv, realEnv, file } = sources;
  const env: Record<string, string | undefined> = { ...dotEnv, ...realEnv };
  const list: ResolvedSetting[] = [];
  const value = new Map<string, unknown>();
  for (const spec of settingSpecs()) {
    const raw = env[spec.env];
    const envValue = raw === undefined ? undefined : checkEnv(spec, raw, sources.lenient);
    const fileValue = spec.secret || spec.envOnly ? undefined : file[spec.key];
    const source: SettingSource =
      envValue !== undefined ? "env" : fileValue !== undefined ? "file" : "default";
    value.set(spec.key, envValue ?? fileValue);
    list.push({
      key: spec.key,
      env: spec.env,
      secret: spec.secret,
      value: envValue ?? fileValue,
      source,
      ...(envValue !== undefined
        ? { envOrigin: realEnv[spec.env] === undefined ? "dotenv" : "process" }
        : {}),
    });
  }
  const of = <T>(key: string) => value.get(key) as T | undefined;
  const text = (key: string) => of<string>(key)?.trim() || undefined;
  // A proxy variable may be spelt in lower case, as curl and undici read it; the upper-case one wins.
  const proxy = (key: string, lower: string) => of<string>(key) ?? (env[lower] || undefined);
  const order = of<string>("providerOrder");
  const braveRate = of<number>("braveRatePerSec");
  const keyNames = new Set([
    ...settingSpecs()
      .filter((s) => s.secret && s.env.endsWith("_API_KEY") && !s.env.startsWith("WEBSIFT_"))
      .map((s) => s.env),
    ...(sources.keyNames ?? []),
  ]);
  const keys = keysFrom(env, keyNames);
  const values: Settings = {
    search: {
      timeoutSeconds: of<number>("timeout"),
      enabled: of<boolean>("enabled") ?? true,
      enablePaid: of<boolean>("enablePaid") ?? false,
      wikipediaFallback: of<boolean>("wikipediaFallback") ?? true,
      providerOrder: order ? order.split(",") : undefined,
      budgets: (file.budgets as Record<string, number> | undefined) ?? {},
      tuning: {
        ...((file.providers as Record<string, unknown> | undefined) ?? {}),
        ...(braveRate !== undefined ? { braveRatePerSec: braveRate } : {}),
      },
      searxngUrl: text("searxngUrl"),
      searxngEngines: of<string>("searxngEngines"),
      geminiModel: text("geminiModel"),
      defaults: {
        limit: of<number>("maxResults"),
        safesearch: of<"off" | "moderate" | "strict">("safeSearch"),
        maxChars: of<number>("maxChars"),
        mode: of<"passages" | "cut" | "head-tail">("longPageMode"),
      },
      waitSeconds: of<number>("waitSeconds"),
    },
    read: { robots: of<"respect" | "automated" | "ignore">("robots") ?? "automated" },
    keys,
    store: {
      kind: text("store")?.toLowerCase(),
      redisUrl: text("redisUrl"),
      path: defaultStatePath(env),
    },
    llm: { baseUrl: text("llmBaseUrl"), apiKey: text("llmApiKey"), model: text("llmModel") },
    browser: { engine: of<string>("browserEngine"), cdpUrl: text("browserCdpUrl") },
    net: {
      httpProxy: proxy("httpProxy", "http_proxy"),
      httpsProxy: proxy("httpsProxy", "https_proxy"),
      noProxy: proxy("noProxy", "no_proxy"),
      extraCaCertsFile: of<string>("extraCaCerts"),
    },
    mcp: {
      host: of<string>("mcpHost"),
      port: of<number>("mcpPort"),
      waitSeconds: of<number>("mcpWaitSeconds"),
      token: of<string>("mcpToken"),
      allowedHosts: of<string>("mcpAllowedHosts"),
      allowedOrigins: of<string>("mcpAllowedOrigins"),
    },
    serve: {
      host: of<string>("serveHost"),
      port: of<number>("servePort"),
      token: of<string>("serveToken"),
      adminToken: of<string>("adminToken"),
    },
    debug: of<boolean>("debug") ?? false,
    environment: Object.freeze(env),
  };
  return { list, values };
}

function readConfigFile(path: string) {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new ConfigError(
      "(file)",
      path,
      `not valid JSON (${err instanceof Error ? err.message : String(err)})`,
    );
  }
  if (data && typeof data === "object" && !Array.isArray(data)) {
    const tuning = (data as { providers?: unknown }).providers;
    if (tuning && typeof tuning === "object" && !Array.isArray(tuning))
      for (const name of Object.keys(tuning))
        if (!(name in providerSettings().shape))
          throw new ConfigError(
            `providers.${name}`,
            path,
            name === "wikipedia"
              ? 'is not a setting: to turn the Wikipedia fallback off, set "wikipediaFallback": false'
              : `unknown provider setting (known: ${Object.keys(providerSettings().shape).join(", ")})`,
          );
    for (const name of Object.keys(data)) {
      const secret = settingSpecs().find((s) => s.secret && (s.key === name || s.env === name));
      if (secret)
        throw new ConfigError(
          name,
          path,
          `is a secret and is never read from a config file; set ${secret.env} in the environment or .env instead`,
        );
    }
  }
  const parsed = fileSchema().safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join(".") : "(file)";
    if (issue?.code === "unrecognized_keys")
      throw new ConfigError(issue.keys.join(", "), path, "unknown setting (check the spelling)");
    throw new ConfigError(where, path, issue?.message ?? "invalid");
  }
  return parsed.data;
}

const knownVariables = () => new Set(settingSpecs().map((s) => s.env));

/** WEBSIFT_ names nothing reads: a typo that would otherwise look as if it worked. */
function unknownVariables(names: string[]): string[] {
  const known = knownVariables();
  return names.filter((n) => n.startsWith("WEBSIFT_") && !known.has(n));
}

function unknownVariableLine(name: string, where: string): string {
  const near = closest(name, [...knownVariables()]);
  return `websift: ${where}: ${name} is not a websift setting and is ignored${near ? ` (did you mean ${near}?)` : ""}`;
}

/** The known name a typo most likely meant: at most two edits away (a few lines, not worth a dependency). */
function closest(name: string, known: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of known) {
    const d = editDistance(name, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length];
}

function checkEnv(spec: SettingSpec, raw: string, lenient = false): unknown {
  const value = fromEnv(spec, raw);
  if (value === undefined) return undefined;
  if (isSwitch(spec) && typeof value !== "boolean") {
    if (lenient) return undefined;
    throw new ConfigError(spec.env, "environment", `is a switch: set it to 1 (on) or 0 (off), not "${raw}"`);
  }
  const ok = spec.schema.safeParse(value);
  if (ok.success) return value;
  if (lenient) return undefined;
  throw new ConfigError(spec.env, "environment", ok.error.issues[0]?.message ?? "invalid");
}

/** For display: secrets shown as set or unset, never their value. */
export function maskedValue(setting: ResolvedSetting): string {
  if (setting.value === undefined) return "(unset)";
  if (setting.secret) return `set (${setting.env})`;
  return String(setting.value);
}

/** The keys set (and not empty) among `names`, by variable name. */
function keysFrom(
  env: Readonly<Record<string, string | undefined>>,
  names: Iterable<string>,
): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const name of names) {
    const v = env[name];
    if (v) keys[name] = v;
  }
  return keys;
}

/**
 * Settings loaded elsewhere (`loadConfig().values`) know the built-in providers' keys; a provider of the
 * caller's declares its own `keyEnv`, read from the same environment the settings were loaded from.
 */
export function withProviderKeys(settings: Settings, keyNames: readonly string[]): Settings {
  const found = keysFrom(
    settings.environment,
    keyNames.filter((name) => !(name in settings.keys)),
  );
  return Object.keys(found).length ? { ...settings, keys: { ...settings.keys, ...found } } : settings;
}

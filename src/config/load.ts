import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import dotenv from "dotenv";
import type { WebsiftConfig } from "../websift.js";
import {
  fileSchema,
  fromEnv,
  isSwitch,
  OTHER_VARIABLES,
  providerSettings,
  SETTINGS,
  type SettingSpec,
  toEnv,
} from "./schema.js";

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
  /** The environment the library sees: .env < file settings < real environment. */
  env: Record<string, string | undefined>;
  /** Where a variable's value came from: the real environment (which wins) or `.env`; undefined when neither. */
  origin(name: string): "process" | "dotenv" | undefined;
  /** How long a conversation waits for a lookup before going on (createSession's waitSeconds), when set. */
  waitSeconds?: number;
  /** Options for createWebsift(); call options still win over all of it. */
  toWebsiftConfig(): WebsiftConfig;
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
  const env: Record<string, string | undefined> = { ...dotEnv, ...realEnv };
  const warn = options.warn ?? ((line: string) => process.stderr.write(`${line}\n`));
  for (const name of unknownVariables(Object.keys(dotEnv))) warn(unknownVariableLine(name, dotEnvPath));
  for (const name of unknownVariables(Object.keys(realEnv)))
    warn(unknownVariableLine(name, "the environment"));

  const file = findConfigFile(cwd, home);
  const fromFile = file ? readConfigFile(file) : {};

  const settings: ResolvedSetting[] = [];
  const fileEnv: Record<string, string> = {};
  for (const spec of SETTINGS) {
    const raw = env[spec.env];
    const envValue = raw === undefined ? undefined : checkEnv(spec, raw);
    const fileValue = (fromFile as Record<string, unknown>)[spec.key];
    if (fileValue !== undefined) fileEnv[spec.env] = toEnv(spec, fileValue);
    const source: SettingSource =
      envValue !== undefined ? "env" : fileValue !== undefined ? "file" : "default";
    settings.push({
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

  const merged = { ...fileEnv, ...env };
  const budgets = fromFile.budgets ?? {};
  const providers = fromFile.providers ?? {};
  const timeout = settings.find((s) => s.key === "timeout")?.value as number | undefined;
  const enabled = settings.find((s) => s.key === "enabled")?.value as boolean | undefined;
  const braveRate = settings.find((s) => s.key === "braveRatePerSec")?.value as number | undefined;
  const settingOf = <T>(key: string) => settings.find((s) => s.key === key)?.value as T | undefined;
  const order = settingOf<string>("providerOrder");

  return {
    file,
    settings,
    budgets,
    providers,
    env: merged,
    origin: (name) =>
      realEnv[name] !== undefined ? "process" : dotEnv[name] !== undefined ? "dotenv" : undefined,
    waitSeconds: settingOf<number>("waitSeconds"),
    toWebsiftConfig() {
      return {
        env: merged,
        budgets: Object.keys(budgets).length ? budgets : undefined,
        settings: { ...providers, ...(braveRate !== undefined ? { braveRatePerSec: braveRate } : {}) },
        timeoutMs: timeout !== undefined ? timeout * 1000 : undefined,
        enabled: enabled ?? true,
        wikipediaFallback: settingOf<boolean>("wikipediaFallback") ?? true,
        providerOrder: order ? order.split(",") : undefined,
        defaults: {
          limit: settingOf<number>("maxResults"),
          safesearch: settingOf<"off" | "moderate" | "strict">("safeSearch"),
          maxChars: settingOf<number>("maxChars"),
          mode: settingOf<"passages" | "cut" | "head-tail">("longPageMode"),
        },
      };
    },
  };
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
        if (!(name in providerSettings.shape))
          throw new ConfigError(
            `providers.${name}`,
            path,
            name === "wikipedia"
              ? 'is not a setting: to turn the Wikipedia fallback off, set "wikipediaFallback": false'
              : `unknown provider setting (known: ${Object.keys(providerSettings.shape).join(", ")})`,
          );
    for (const name of Object.keys(data)) {
      const secret = SETTINGS.find((s) => s.secret && (s.key === name || s.env === name));
      if (secret)
        throw new ConfigError(
          name,
          path,
          `is a secret and is never read from a config file; set ${secret.env} in the environment or .env instead`,
        );
    }
  }
  const parsed = fileSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join(".") : "(file)";
    if (issue?.code === "unrecognized_keys")
      throw new ConfigError(issue.keys.join(", "), path, "unknown setting (check the spelling)");
    throw new ConfigError(where, path, issue?.message ?? "invalid");
  }
  return parsed.data;
}

const KNOWN_VARIABLES = new Set([...SETTINGS.map((s) => s.env), ...OTHER_VARIABLES]);

/** WEBSIFT_ names nothing reads: a typo that would otherwise look as if it worked. */
function unknownVariables(names: string[]): string[] {
  return names.filter((n) => n.startsWith("WEBSIFT_") && !KNOWN_VARIABLES.has(n));
}

function unknownVariableLine(name: string, where: string): string {
  const near = closest(name, [...KNOWN_VARIABLES]);
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

function checkEnv(spec: SettingSpec, raw: string): unknown {
  const value = fromEnv(spec, raw);
  if (value === undefined) return undefined;
  if (isSwitch(spec) && typeof value !== "boolean")
    throw new ConfigError(spec.env, "environment", `is a switch: set it to 1 (on) or 0 (off), not "${raw}"`);
  const ok = spec.schema.safeParse(value);
  if (!ok.success) throw new ConfigError(spec.env, "environment", ok.error.issues[0]?.message ?? "invalid");
  return value;
}

/** For display: secrets shown as set or unset, never their value. */
export function maskedValue(setting: ResolvedSetting): string {
  if (setting.value === undefined) return "(unset)";
  if (setting.secret) return `set (${setting.env})`;
  return String(setting.value);
}

import { InvalidArgumentError } from "commander";
import type { ResolvedConfig } from "../config/load.js";
import type { Websift } from "../websift.js";

/** Exit codes: results, an honest failure or empty answer, bad input. */
export const EXIT = { ok: 0, failure: 1, badInput: 2 } as const;

/**
 * The configured library for one CLI run: defaults < config file < environment (a `.env` file included); keys
 * only ever from the environment. State (caches, cooldowns, rate limits) lives in the shared store, so a block
 * met by one run is remembered by the next. A bad config file throws ConfigError naming the setting and file.
 */
// The library is loaded when a command runs, not when the CLI starts: `websift --help` needs none of it.
export async function websiftFromEnv(
  options: { verbose?: boolean; config?: ResolvedConfig } = {},
): Promise<Websift> {
  const [{ loadConfig }, { createWebsift }, { openStore }, { webAbilityGate }] = await Promise.all([
    import("../config/load.js"),
    import("../websift.js"),
    import("../store/open-store.js"),
    import("../config/abilities.js"),
  ]);
  // Loaded once per run: a command that read the configuration already (mcp, doctor) hands it over.
  const config = options.config ?? loadConfig();
  const operatorLog = (line: string) => process.stderr.write(`websift: ${line}\n`);
  const verbose = options.verbose || config.values.debug;
  const settings = config.toWebsiftConfig();
  const store = openStore({ ...config.values.store, log: operatorLog });
  return createWebsift({
    ...settings,
    store,
    // The dashboard's switch: off there means no request leaves from this process either.
    enabled: webAbilityGate(store, settings.enabled),
    log: verbose ? operatorLog : undefined,
  });
}

/** Progress for people: on a terminal, to stderr; piped, nothing but results. */
export function progressSink(enabled: boolean): ((line: string) => void) | undefined {
  if (!enabled && !process.stderr.isTTY) return undefined;
  return (line) => process.stderr.write(`${line}\n`);
}

export class InputError extends Error {}

export function parseIntOption(name: string, min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new InvalidArgumentError(`${name} must be an integer from ${min} to ${max}`);
    return n;
  };
}

export function oneOf<T extends string>(name: string, values: readonly T[]) {
  return (value: string): T => {
    if (!values.includes(value as T))
      throw new InvalidArgumentError(`${name} must be one of ${values.join(", ")}`);
    return value as T;
  };
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

import { existsSync } from "node:fs";
import { InvalidArgumentError } from "commander";
import dotenv from "dotenv";
import { createWebsift, type Websift } from "../websift.js";

/** Exit codes: results, an honest failure or empty answer, bad input. */
export const EXIT = { ok: 0, failure: 1, badInput: 2 } as const;

/** Keys come from the environment or a `.env` file beside the working directory, never from config files. */
export function loadEnv(): void {
  if (existsSync(".env")) dotenv.config({ path: ".env", quiet: true });
}

export function websiftFromEnv(options: { verbose?: boolean } = {}): Websift {
  loadEnv();
  const verbose = options.verbose || process.env.WEBSIFT_DEBUG === "1";
  return createWebsift({ log: verbose ? (line) => process.stderr.write(`websift: ${line}\n`) : undefined });
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

import { existsSync, readFileSync } from "node:fs";
import dotenv from "dotenv";
import { writeFileAtomic } from "./atomic-write.js";

// Keys of every provider are letters, digits and a few separators; anything else (spaces, quotes, `#`, line
// breaks) would need quoting in .env and is far more likely a paste accident than a key.
const VALUE = /^[A-Za-z0-9._~+/=:-]{8,512}$/;

export function validEnvValue(value: string): boolean {
  return VALUE.test(value);
}

/** What the `.env` file sets, as dotenv reads it; empty when there is no file. */
export function readEnvFile(path: string): Record<string, string> {
  return existsSync(path) ? dotenv.parse(readFileSync(path)) : {};
}

/**
 * Sets (or with `undefined` removes) one variable in a `.env` file, keeping every other line as it was. The file
 * holds keys: it is written mode 0600 whatever its mode was.
 */
export function writeEnvVariable(path: string, name: string, value: string | undefined): void {
  if (value !== undefined && !validEnvValue(value)) throw new RangeError(`${name}: not a valid key value`);
  const lines = existsSync(path) ? readFileSync(path, "utf8").split(/\r?\n/) : [];
  if (lines.at(-1) === "") lines.pop();
  const assigns = new RegExp(`^\\s*(export\\s+)?${name}\\s*=`);
  const kept = lines.filter((line) => !assigns.test(line));
  if (value !== undefined) kept.push(`${name}=${value}`);
  writeFileAtomic(path, kept.length ? `${kept.join("\n")}\n` : "", 0o600);
}

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
  const kept = withoutAssignment(lines, name);
  if (value !== undefined) kept.push(`${name}=${value}`);
  writeFileAtomic(path, kept.length ? `${kept.join("\n")}\n` : "", 0o600);
}

/**
 * The lines minus those assigning `name`. dotenv values may span lines inside quotes; a line within another
 * variable's quoted value belongs to that value even when it reads like `NAME=…`, and a removed assignment takes
 * its own continuation lines with it.
 */
function withoutAssignment(lines: string[], name: string): string[] {
  const assigns = new RegExp(`^\\s*(export\\s+)?${name}\\s*=`);
  const kept: string[] = [];
  let open: { quote: string; dropped: boolean } | undefined;
  for (const line of lines) {
    if (open) {
      if (!open.dropped) kept.push(line);
      if (line.includes(open.quote)) open = undefined;
      continue;
    }
    const quoted = /^\s*(?:export\s+)?[\w.-]+\s*=\s*(["'`])(.*)$/.exec(line);
    const dropped = assigns.test(line);
    if (quoted?.[1] && !quoted[2]?.includes(quoted[1])) open = { quote: quoted[1], dropped };
    if (!dropped) kept.push(line);
  }
  return kept;
}

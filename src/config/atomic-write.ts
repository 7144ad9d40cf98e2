import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * Writes through a temporary file in the same directory and renames it over the target, so a crash or a reader
 * in another process sees the old file or the new one, never half of either.
 */
export function writeFileAtomic(path: string, data: string, mode: number): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${randomBytes(6).toString("hex")}.websift-tmp`);
  try {
    writeFileSync(tmp, data, { mode, flag: "wx" });
    // The umask may have narrowed the mode; a wider one than asked must never survive.
    chmodSync(tmp, mode);
    renameSync(tmp, path);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}

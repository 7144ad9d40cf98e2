import { renameSync, statSync, writeFileSync } from "node:fs";

/** Write beside, then rename: a crash mid-write never leaves a client's config half written. Keeps the mode. */
export function writeFileAtomic(path: string, text: string): void {
  let mode = 0o600;
  try {
    mode = statSync(path).mode & 0o777;
  } catch {
    // new file: private by default, these files list a user's tools
  }
  const tmp = `${path}.websift-${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode });
  renameSync(tmp, path);
}

import { existsSync, readFileSync, statSync } from "node:fs";
import { writeFileAtomic } from "./atomic-write.js";
import { ConfigError } from "./load.js";
import { fileSchema } from "./schema.js";

/**
 * Applies `changes` to the JSON config file (`null` removes a setting) and writes it back atomically. Every key
 * not named in `changes` is kept as it was; the result must pass the same schema loadConfig reads it with, so
 * the dashboard can never write a file the next start refuses.
 */
export function updateConfigFile(path: string, changes: Record<string, unknown>): Record<string, unknown> {
  const current = readJsonObject(path);
  const next: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === undefined) delete next[key];
    else next[key] = value;
  }
  const parsed = fileSchema().safeParse(next);
  // A key this call does not touch is the operator's business (perhaps for a newer websift): kept, not judged.
  const issues = (parsed.error?.issues ?? []).filter(
    (i) => !(i.code === "unrecognized_keys" && i.keys.every((k) => !(k in changes))),
  );
  if (issues.length) {
    const issue = issues[0];
    const where = issue?.path.length ? issue.path.join(".") : "(file)";
    throw new ConfigError(where, path, issue?.message ?? "invalid");
  }
  const mode = existsSync(path) ? statSync(path).mode & 0o777 : 0o644;
  writeFileAtomic(path, `${JSON.stringify(next, null, 2)}\n`, mode);
  return next;
}

function readJsonObject(path: string): Record<string, unknown> {
  if (!existsSync(path)) return {};
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    throw new ConfigError("(file)", path, "not valid JSON; fix or remove it before saving settings here");
  }
  if (!data || typeof data !== "object" || Array.isArray(data))
    throw new ConfigError("(file)", path, "is not a JSON object");
  return data as Record<string, unknown>;
}

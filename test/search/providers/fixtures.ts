import { readFileSync } from "node:fs";

/** A recorded provider response from ../shared/fixtures/providers (beside the repository, as in CI). */
export function fixture(relPath: string): string {
  return readFileSync(new URL(`../../../../shared/fixtures/providers/${relPath}`, import.meta.url), "utf8");
}

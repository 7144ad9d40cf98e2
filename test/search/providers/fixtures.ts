import { readFileSync } from "node:fs";

/** A recorded provider response from test/fixtures/providers (provenance in its README). */
export function fixture(relPath: string): string {
  return readFileSync(new URL(`../../fixtures/providers/${relPath}`, import.meta.url), "utf8");
}

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const DIR = fileURLToPath(new URL("../../fixtures/sites/", import.meta.url));

/** test/fixtures/sites/<reader>/<file> (where each shape came from: that folder's README). */
export function siteFixture(reader: string, file: string): string {
  return readFileSync(`${DIR}${reader}/${file}`, "utf8");
}

export const json = (body: string | object, status = 200, headers: Record<string, string> = {}) => ({
  status,
  headers: { "content-type": "application/json; charset=utf-8", ...headers },
  body: typeof body === "string" ? body : JSON.stringify(body),
});

import { crates } from "./crates.js";
import { goPackages } from "./go-packages.js";
import { npm } from "./npm.js";
import { pypi } from "./pypi.js";
import { onHosts, type SiteReader } from "./site-reader.js";
import { wikipedia } from "./wikipedia.js";

/** Every site reader websift knows, asked in this order; adding a site is one file and one line here. */
export const SITE_READERS: readonly SiteReader[] = [wikipedia, npm, pypi, crates, goPackages];

/** The reader that takes this URL, if any. */
export function siteReaderFor(
  url: string,
  readers: readonly SiteReader[] = SITE_READERS,
): SiteReader | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return undefined;
  return readers.find((r) => onHosts(parsed.hostname, r.hosts) && r.takes(parsed));
}

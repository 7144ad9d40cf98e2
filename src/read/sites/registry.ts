import { arxivReader } from "./arxiv.js";
import { crates } from "./crates.js";
import { githubReader } from "./github.js";
import { goPackages } from "./go-packages.js";
import { hackerNewsReader } from "./hacker-news.js";
import { npm } from "./npm.js";
import { pypi } from "./pypi.js";
import { redditReader } from "./reddit.js";
import { onHosts, type SiteReader } from "./site-reader.js";
import { stackExchangeReader } from "./stackexchange.js";
import { wikipedia } from "./wikipedia.js";
import { youtubeReader } from "./youtube.js";

/** Every site reader websift knows, asked in this order; adding a site is one file and one line here. */
// biome-ignore format: one reader a line, so readers added side by side merge line by line
export const SITE_READERS: readonly SiteReader[] = [
  githubReader,
  stackExchangeReader,
  redditReader,
  hackerNewsReader,
  arxivReader,
  youtubeReader,
  wikipedia,
  npm,
  pypi,
  crates,
  goPackages,
];

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

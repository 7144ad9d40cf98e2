import { oneLine } from "../../core/one-line.js";

/** What every package registry's reader says about a package, whatever the registry calls its fields. */
export interface PackageSummary {
  name: string;
  /** The registry's name for the reader ("npm", "PyPI"). */
  registry: string;
  description?: string;
  /** The version described (the latest unless the URL named one). */
  version?: string;
  /** The registry's latest, said beside `version` when the URL named an older one. */
  latest?: string;
  license?: string;
  /** When `version` was published (ISO 8601). */
  published?: string;
  homepage?: string;
  repository?: string;
  /** Other facts worth a line ("Requires Python: >=3.9"). */
  facts?: { label: string; value: string }[];
  /** Other links the registry lists (documentation, issues…), by their label. */
  links?: { label: string; url: string }[];
  /** Why the package or version should not be used, as the registry says it. */
  deprecated?: string;
  install?: string;
  /** The README as markdown; absent when the registry has none. */
  readme?: string;
  /** Said where the README would be when the registry gave none. */
  readmeNote?: string;
  /** Further sections after the README (a Go package's documentation index), each under its heading. */
  sections?: { heading: string; markdown: string }[];
}

const MAX_DESCRIPTION = 600;

/** The package as one markdown page: its name, what it is, the facts a user checks first, then its README. */
export function packageMarkdown(p: PackageSummary): string {
  const facts: string[] = [];
  if (p.version) {
    const when = p.published ? ` (published ${p.published.slice(0, 10)})` : "";
    const label = p.latest && p.latest !== p.version ? "Version" : "Latest version";
    facts.push(`${label}: ${p.version}${when}`);
    if (p.latest && p.latest !== p.version) facts.push(`Latest version: ${p.latest}`);
  }
  if (p.deprecated) facts.push(`Deprecated: ${oneLine(p.deprecated, MAX_DESCRIPTION)}`);
  if (p.license) facts.push(`License: ${oneLine(p.license, 200)}`);
  for (const fact of p.facts ?? []) facts.push(`${fact.label}: ${oneLine(fact.value, 200)}`);
  if (p.homepage) facts.push(`Homepage: ${p.homepage}`);
  if (p.repository && p.repository !== p.homepage) facts.push(`Repository: ${p.repository}`);
  for (const link of p.links ?? []) facts.push(`${oneLine(link.label, 60)}: ${link.url}`);
  if (p.install) facts.push(`Install: \`${p.install}\``);
  const parts = [`# ${p.name}`];
  if (p.description) parts.push(oneLine(p.description, MAX_DESCRIPTION));
  parts.push(`${p.registry} package\n\n${facts.map((f) => `- ${f}`).join("\n")}`);
  const readme = p.readme && withoutNameHeading(p.readme.trim(), p.name);
  if (readme) parts.push(`## README\n\n${readme}`);
  else parts.push(`## README\n\n${p.readmeNote ?? "The registry has no README for this package."}`);
  for (const section of p.sections ?? [])
    if (section.markdown.trim()) parts.push(`## ${section.heading}\n\n${section.markdown.trim()}`);
  return parts.join("\n\n");
}

/** A README's first heading is most often the package's name again, which the page's own heading already says. */
function withoutNameHeading(readme: string, name: string): string {
  const first = /^#{1,6}\s+(.+)\n*/.exec(readme);
  if (!first) return readme;
  const plain = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, "");
  const heading = plain(first[1]!);
  // "@scope/name" and "github.com/owner/name" are titled by their last part.
  const repeats = heading === plain(name) || heading === plain(name.split("/").at(-1)!);
  return repeats ? readme.slice(first[0].length).trim() : readme;
}

/** A package's page as its reader's result: the summary as markdown, titled by the package unless told. */
export function packagePage(
  p: PackageSummary,
  readmeLinks?: string[],
  title = p.name,
): { title: string; markdown: string; links: string[]; published?: string } {
  return {
    title,
    markdown: packageMarkdown(p),
    links: packageLinks(p, readmeLinks),
    ...(p.published ? { published: p.published } : {}),
  };
}

/** The http(s) URLs a summary names, for the result's link list. */
export function packageLinks(p: PackageSummary, readmeLinks: string[] = []): string[] {
  const urls = [p.homepage, p.repository, ...(p.links ?? []).map((l) => l.url), ...readmeLinks];
  return [...new Set(urls.filter((u): u is string => !!u && /^https?:\/\//i.test(u)))];
}

/** A URL a registry holds as written by the author: only http(s), with git+ and .git trimmed from repositories. */
export function webUrl(raw: unknown): string | undefined {
  if (typeof raw !== "string") return undefined;
  let url = raw.trim().replace(/^git\+/, "");
  if (/^git:\/\//.test(url)) url = url.replace(/^git:/, "https:");
  const ssh = /^git@([^:]+):(.+)$/.exec(url);
  if (ssh) url = `https://${ssh[1]}/${ssh[2]}`;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return undefined;
    if (parsed.username || parsed.password) return undefined;
    return parsed.href.replace(/\.git$/, "");
  } catch {
    return undefined;
  }
}

/** The HTML renderer, loaded with the first README that needs it: importing websift need not load the extractor. */
const fragment = () => import("../extract/fragment.js");

const FENCE = /^\s{0,3}(```|~~~)/;
const HTML_BLOCK = /^\s{0,3}<(?!https?:|mailto:)[a-z!/]/i;
// A line of nothing but images (shields and other badges), linked or not.
const BADGE_LINE = /^\s*(?:\[?!\[[^\]]*\]\([^)]*\)(?:\]\([^)]*\))?\s*)+$/;

/**
 * A README written in markdown, as a reader wants it under the package's own heading: badge rows and comments
 * dropped, its headings one level down, and the HTML blocks authors put in (centred logos, `<details>`) read
 * as markdown like any page's HTML. Code blocks are kept as written.
 */
export async function readmeMarkdown(
  markdown: string,
  baseUrl: string,
): Promise<{ markdown: string; links: string[] }> {
  const lines = markdown
    .replace(/\r\n?/g, "\n")
    .replace(/<!--[\s\S]*?-->/g, "")
    .split("\n");
  const out: string[] = [];
  const links: string[] = [];
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const opener = FENCE.exec(line);
    if (fence) {
      out.push(line);
      if (opener && opener[1] === fence) fence = undefined;
      continue;
    }
    if (opener) {
      fence = opener[1];
      out.push(line);
      continue;
    }
    if (HTML_BLOCK.test(line)) {
      // An HTML block runs to the next blank line (CommonMark's rule for block-level tags).
      const block: string[] = [];
      while (i < lines.length && lines[i]!.trim()) block.push(lines[i++]!);
      const { htmlFragmentToMarkdown } = await fragment();
      const html = await htmlFragmentToMarkdown(block.join("\n"), baseUrl);
      if (html.markdown) out.push(html.markdown, "");
      links.push(...html.links);
      continue;
    }
    if (BADGE_LINE.test(line)) continue;
    out.push(inlineHtml(line));
  }
  const joined = out
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return { markdown: demoteHeadings(joined), links };
}

/** A README the registry rendered as HTML, as markdown under the package's heading. */
export async function readmeFromHtml(
  html: string,
  baseUrl: string,
): Promise<{ markdown: string; links: string[] }> {
  const { htmlFragmentToMarkdown } = await fragment();
  const got = await htmlFragmentToMarkdown(html, baseUrl);
  return { markdown: demoteHeadings(got.markdown), links: got.links };
}

/** Headings one level down (a README's `#` title sits under the page's `## README`), code left as written. */
/** The inline tags authors sprinkle in markdown prose, as markdown or as their text. */
function inlineHtml(line: string): string {
  if (!line.includes("<")) return line;
  return line
    .replace(/<code>([^<`]*)<\/code>/gi, "`$1`")
    .replace(/<br\s*\/?>/gi, "  \n")
    .replace(/<\/?(?:b|strong|i|em|span|sup|sub|kbd|p|div|details|summary|center|font)(?:\s[^>]*)?>/gi, "");
}

function demoteHeadings(markdown: string): string {
  let fence: string | undefined;
  return markdown
    .split("\n")
    .map((line) => {
      const opener = FENCE.exec(line);
      if (fence) {
        if (opener && opener[1] === fence) fence = undefined;
        return line;
      }
      if (opener) {
        fence = opener[1];
        return line;
      }
      return /^#{1,5}\s/.test(line) ? `#${line}` : line;
    })
    .join("\n");
}

import render from "dom-serializer";
import {
  collapseWhitespace,
  type Element,
  findAll,
  findFirst,
  hasClass,
  isTag,
  parseHtml,
  removeNodes,
  textContent,
} from "../extract/dom.js";
import { htmlFragmentToMarkdown } from "../extract/fragment.js";
import { type PackageSummary, packagePage, readmeFromHtml, webUrl } from "./package-page.js";

/**
 * A pkg.go.dev unit page as a package page. pkg.go.dev has no JSON API; the page is server-rendered from
 * pkgsite's templates, whose `data-test-id` and `Unit*`/`Documentation-*` classes are what is read here: the
 * header's version, publish date and licenses, the repository beside it, the README, and the documentation's
 * overview and index (or a module's directories). A pure function of the page, so that the page pool can run it.
 */

export type GoPageOutcome =
  | { ok: true; title: string; markdown: string; links: string[]; published?: string }
  | { ok: false; drift: string };

export async function goPackagePage(
  html: string,
  pageUrl: string,
  unit: { path: string; version?: string },
): Promise<GoPageOutcome> {
  const doc = parseHtml(html);
  const byTestId = (id: string) => findFirst(doc, (el) => el.attribs["data-test-id"] === id);
  const byClass = (name: string) => findFirst(doc, (el) => hasClass(el, name));
  const heading = byTestId("UnitHeader-title");
  if (!heading) return { ok: false, drift: "no UnitHeader-title heading" };
  const readmeBox = byTestId("Unit-readmeContent") ?? byClass("UnitReadme-content");
  const overview = byClass("Documentation-overview");
  const index = byClass("Documentation-indexList");
  const directories = byClass("UnitDirectories");
  if (!readmeBox && !overview && !index && !directories)
    return { ok: false, drift: "neither a README nor documentation on the unit page" };

  const readme = readmeBox ? await readmeFromHtml(render(readmeBox.children), pageUrl) : undefined;
  const commitTime = labelled(byTestId("UnitHeader-commitTime"), "Published:");
  const published = isoDate(commitTime);
  const importPath = breadcrumbPath(doc) ?? unit.path;
  const standard = !importPath.split("/")[0]!.includes(".");
  const summary: PackageSummary = {
    name: importPath,
    registry: "Go",
    description: synopsis(doc, overview),
    version: versionOf(byTestId("UnitHeader-version")),
    latest: latestOf(byTestId("UnitHeader-minorVersionBanner")),
    license: licenses(byTestId("UnitHeader-licenses")),
    published,
    // A date pkgsite wrote in a form Date cannot read is said as written.
    facts: !published && commitTime ? [{ label: "Published", value: commitTime }] : [],
    repository: webUrl(findFirst(byClass("UnitMeta-repo") ?? doc, (el) => el.name === "a")?.attribs.href),
    install: standard ? undefined : `go get ${importPath}${unit.version ? `@${unit.version}` : ""}`,
    readme: readme?.markdown,
    readmeNote: "The module has no README here.",
    sections: [
      { heading: "Overview", markdown: overview ? await sectionMarkdown(overview, pageUrl) : "" },
      { heading: "Index", markdown: index ? indexMarkdown(index) : "" },
      { heading: "Directories", markdown: directories ? directoriesMarkdown(directories, importPath) : "" },
    ],
  };
  return {
    ok: true,
    ...packagePage(summary, readme?.links, collapseWhitespace(textContent(heading)) || importPath),
  };
}

/** A header item's value without its label ("Published: Feb 6, 2024" → "Feb 6, 2024"). */
function labelled(el: Element | undefined, label: string): string | undefined {
  if (!el) return undefined;
  removeNodes(findAll(el, (e) => e.attribs.hidden !== undefined || hasClass(e, "screen-reader-only")));
  const text = collapseWhitespace(textContent(el));
  return (text.startsWith(label) ? text.slice(label.length).trim() : text) || undefined;
}

/**
 * The latest version, when the page is of an older one: pkgsite marks its banner `--goToLatest` and writes the
 * latest version into the "Go to latest" link (`…@v1.2.3/…`).
 */
function latestOf(banner: Element | undefined): string | undefined {
  if (!banner || !/--goToLatest\b/.test(banner.attribs.class ?? "")) return undefined;
  const link = findFirst(banner, (el) => el.name === "a" && !!el.attribs.href);
  return /@([^/?#]+)/.exec(link?.attribs.href ?? "")?.[1];
}

/** The version in the header, without the "Latest" chips after it. */
function versionOf(el: Element | undefined): string | undefined {
  return labelled(el, "Version:")?.split(" ")[0];
}

function licenses(el: Element | undefined): string | undefined {
  if (!el) return undefined;
  removeNodes(findAll(el, (e) => hasClass(e, "Disclaimer-link")));
  return labelled(el, "License:");
}

/** pkgsite's commit time ("Feb 6, 2024") as an ISO date, when it reads as one. */
function isoDate(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const ms = Date.parse(`${text} UTC`);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString().slice(0, 10);
}

/** The unit's full path, as the breadcrumb's copy button holds it. */
function breadcrumbPath(doc: ReturnType<typeof parseHtml>): string | undefined {
  const crumb = findFirst(doc, (el) => el.attribs["data-test-id"] === "UnitHeader-breadcrumb");
  const copy = crumb && findFirst(crumb, (el) => !!el.attribs["data-to-copy"]);
  return copy?.attribs["data-to-copy"]?.trim() || undefined;
}

/** The page's synopsis: its meta description, else the overview's first paragraph. */
function synopsis(doc: ReturnType<typeof parseHtml>, overview: Element | undefined): string | undefined {
  const meta = findFirst(doc, (el) => el.name === "meta" && el.attribs.name?.toLowerCase() === "description");
  const content = meta?.attribs.content?.trim();
  if (content) return content;
  const first = overview && findFirst(overview, (el) => el.name === "p");
  return first ? collapseWhitespace(textContent(first)) || undefined : undefined;
}

const MAX_INDEX_ENTRIES = 400;

/**
 * The documentation index as a list of declarations, a type's constructors and methods under it. pkgsite
 * nests those in an item of their own after the type's, which a generic rendering shows as empty bullets.
 */
function indexMarkdown(list: Element): string {
  const lines: string[] = [];
  for (const item of list.children) {
    if (!isTag(item) || item.name !== "li") continue;
    const nested = findFirst(item, (el) => el.name === "ul");
    const entries = nested ? findAll(nested, (el) => el.name === "li") : [item];
    for (const entry of entries) {
      const text = collapseWhitespace(textContent(entry));
      if (!text) continue;
      const declaration = /^(func|type|var|const)\b/.test(text);
      lines.push(`${nested ? "  " : ""}- ${declaration ? `\`${text}\`` : text}`);
    }
    if (lines.length >= MAX_INDEX_ENTRIES) {
      lines.push(`- … (the index goes on; see the package page)`);
      break;
    }
  }
  return lines.join("\n");
}

/**
 * A module's directories, each with its synopsis, internal ones left out as the page leaves them folded away.
 * pkgsite writes each synopsis twice (for narrow and wide screens) and nests subdirectories by their prefix.
 */
function directoriesMarkdown(box: Element, unitPath: string): string {
  const lines: string[] = [];
  for (const row of findAll(box, (el) => el.name === "tr")) {
    if (hasClass(row, "UnitDirectories-internal") || hasClass(row, "UnitDirectories-tableHeader")) continue;
    const link = findFirst(row, (el) => el.name === "a" && !!el.attribs.href);
    if (!link) continue;
    const path = link.attribs.href!.replace(/^\//, "");
    const relative = path.startsWith(`${unitPath}/`) ? path.slice(unitPath.length + 1) : path;
    const synopsisCell = findFirst(row, (el) => hasClass(el, "UnitDirectories-desktopSynopsis"));
    const synopsis = synopsisCell ? collapseWhitespace(textContent(synopsisCell)) : "";
    lines.push(`- \`${relative}\`${synopsis ? `: ${synopsis}` : ""}`);
    if (lines.length >= MAX_INDEX_ENTRIES) break;
  }
  return lines.join("\n");
}

/** A documentation section as markdown, without its own heading, permalink marks and table of contents. */
async function sectionMarkdown(section: Element, baseUrl: string): Promise<string> {
  removeNodes(
    findAll(
      section,
      (el) =>
        el.name === "h2" ||
        el.name === "h3" ||
        el.attribs.role === "navigation" ||
        el.name === "img" ||
        hasClass(el, "Documentation-idLink"),
    ),
  );
  return (await htmlFragmentToMarkdown(render(section.children), baseUrl)).markdown;
}

import type { Deadline } from "../../core/deadline.js";
import { INLINE_BELOW_CHARS, runOnPool } from "../page-pool.js";
import type { GoPageOutcome } from "./go-package-page.js";
import { fetchSite } from "./site-json.js";
import { readerDrift, type SiteReader } from "./site-reader.js";

// The site's own pages, not units: a path whose first segment is one of these is left to the generic ladder.
const SITE_PAGES = new Set([
  "search",
  "about",
  "license-policy",
  "badge",
  "static",
  "vuln",
  "styleguide",
  "play",
]);
const UNIT_PATH = /^\/[\w.~+-]+(?:\/[\w.~+-]+)*(?:@[\w.~+-]+)?\/?$/;
// The main tab (the unit's overview); the others (versions, imports, importers, licenses) are pages of their own.
const MAIN_TABS = new Set(["", "doc", "overview"]);
const MAX_PAGE_BYTES = 10 * 1024 * 1024;
/** The page's share of the read's time; the rest is the generic rungs' if it fails. */
const PAGE_MS = 10_000;

/** The unit path (`net/http`, `github.com/x/y/z`) and the version a pkg.go.dev URL names. */
export function goUnit(url: URL): { path: string; version?: string } | undefined {
  if (!UNIT_PATH.test(url.pathname) || !MAIN_TABS.has(url.searchParams.get("tab") ?? "")) return undefined;
  const trimmed = url.pathname.slice(1).replace(/\/$/, "");
  const [path, version] = trimmed.split("@") as [string, string | undefined];
  if (SITE_PAGES.has(path.split("/")[0]!)) return undefined;
  return version ? { path, version } : { path };
}

export const goPackages: SiteReader = {
  name: "pkg.go.dev",
  hosts: ["pkg.go.dev"],
  takes: (url) => goUnit(url) !== undefined,
  async read(url, ctx, deadline) {
    const unit = goUnit(url)!;
    const pageUrl = `https://pkg.go.dev/${unit.path}${unit.version ? `@${unit.version}` : ""}`;
    const got = await fetchSite(pageUrl, ctx, deadline.child(PAGE_MS), {
      headers: { accept: "text/html" },
      maxBytes: MAX_PAGE_BYTES,
    });
    if (!got.ok) return got;
    const finalUrl = got.res.finalUrl;
    const page = await readPage(got.res.text(), finalUrl, unit, deadline);
    if (!page.ok) return "drift" in page ? readerDrift("pkg.go.dev", page.drift) : page;
    const { ok: _, ...text } = page;
    return {
      ok: true,
      ...text,
      via: "pkg.go.dev page",
      ...(finalUrl !== url.href ? { finalUrl } : {}),
    };
  },
};

/** A package's page is hundreds of kilobytes of markup: past the pool's threshold it is read off the event loop. */
async function readPage(
  html: string,
  pageUrl: string,
  unit: { path: string; version?: string },
  deadline: Deadline,
) {
  if (html.length < INLINE_BELOW_CHARS) {
    // Loaded with the first package page: importing websift need not load the HTML parser and renderer.
    const { goPackagePage } = await import("./go-package-page.js");
    return goPackagePage(html, pageUrl, unit);
  }
  const ran = await runOnPool<GoPageOutcome>(
    "goPackage",
    { html, url: pageUrl, unit },
    deadline,
    "reading the package page",
  );
  return ran.ok ? ran.value : ran;
}

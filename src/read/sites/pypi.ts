import { lazySchema } from "../../core/lazy-zod.js";
import { type PackageSummary, packagePage, readmeMarkdown, webUrl } from "./package-page.js";
import { fetchSiteJson } from "./site-json.js";
import type { SiteReader } from "./site-reader.js";

// PEP 508 names; versions as PEP 440 writes them (letters for pre-, post- and dev-releases, + for local ones).
const NAME = /^[a-z0-9](?:[\w.-]*[a-z0-9])?$/i;
const VERSION = /^[\w.!+-]+$/;
/** The API's share of the read's time; the rest is the generic rungs' if the API fails. */
const PYPI_MS = 10_000;

/** The JSON API's project answer (warehouse's documented shape): only the fields the summary uses. */
const Project = lazySchema((z) => {
  const text = z.string().nullish().catch(undefined);
  return z.object({
    info: z.object({
      name: z.string(),
      version: z.string(),
      summary: text,
      description: text,
      description_content_type: text,
      license: text,
      license_expression: text,
      classifiers: z.array(z.string()).nullish().catch(undefined),
      home_page: text,
      project_urls: z.record(z.string(), z.string()).nullish().catch(undefined),
      requires_python: text,
      yanked: z.boolean().nullish().catch(undefined),
      yanked_reason: text,
    }),
    urls: z
      .array(z.object({ upload_time_iso_8601: z.string().nullish().catch(undefined) }))
      .nullish()
      .catch(undefined),
  });
});
type Project = ReturnType<typeof Project>["_output"];

/** The project and version a URL names: `/project/<name>[/<version>]/` on the site, `/pypi/<name>[/<version>]/json`. */
export function pypiTarget(url: URL): { name: string; version?: string } | undefined {
  const m =
    /^\/project\/([^/]+)\/(?:([^/]+)\/)?$/.exec(
      url.pathname.endsWith("/") ? url.pathname : `${url.pathname}/`,
    ) ?? /^\/pypi\/([^/]+)\/(?:([^/]+)\/)?json\/?$/.exec(url.pathname);
  if (!m) return undefined;
  let name: string;
  let version: string | undefined;
  try {
    name = decodeURIComponent(m[1]!);
    version = m[2] ? decodeURIComponent(m[2]) : undefined;
  } catch {
    return undefined;
  }
  if (!NAME.test(name) || (version !== undefined && !VERSION.test(version))) return undefined;
  return version ? { name, version } : { name };
}

const api = (name: string, version?: string) =>
  `https://pypi.org/pypi/${encodeURIComponent(name)}/${version ? `${encodeURIComponent(version)}/` : ""}json`;

export const pypi: SiteReader = {
  name: "pypi",
  hosts: ["pypi.org"],
  takes: (url) => pypiTarget(url) !== undefined,
  async read(url, ctx, deadline) {
    const target = pypiTarget(url)!;
    const apiDeadline = deadline.child(PYPI_MS);
    // A named version's answer does not say which is the latest; the project's answer does.
    const [parsed, latest] = await Promise.all([
      fetchSiteJson("pypi", api(target.name, target.version), ctx, apiDeadline, Project),
      target.version
        ? fetchSiteJson("pypi", api(target.name), ctx, apiDeadline.child(5000), Project)
        : undefined,
    ]);
    if (!parsed.ok) return parsed;
    const { info, urls } = parsed.value;
    const pageUrl = `https://pypi.org/project/${info.name}/`;
    const links = projectLinks(info);
    const readme = await description(info, links.repository ?? pageUrl);
    const published = urls?.map((u) => u.upload_time_iso_8601).find((t): t is string => !!t);
    const summary: PackageSummary = {
      name: info.name,
      registry: "PyPI",
      description: info.summary ?? undefined,
      version: info.version,
      latest: latest?.ok ? latest.value.info.version : undefined,
      license: licenseOf(info),
      published,
      homepage: links.homepage,
      repository: links.repository,
      facts: info.requires_python ? [{ label: "Requires Python", value: info.requires_python }] : [],
      links: links.others,
      deprecated: info.yanked ? `yanked${info.yanked_reason ? `: ${info.yanked_reason}` : ""}` : undefined,
      install: `pip install ${info.name}${target.version ? `==${info.version}` : ""}`,
      readme: readme?.markdown,
    };
    return { ok: true, ...packagePage(summary, readme?.links), via: "pypi.org JSON API" };
  },
};

type Info = Project["info"];

/**
 * A license expression, else a short declared license, else the classifier's name: many projects declare the
 * license's whole text, whose first line ("Copyright (c) 2016 …") names no license.
 */
function licenseOf(info: Info): string | undefined {
  if (info.license_expression?.trim()) return info.license_expression.trim();
  const declared = info.license?.trim();
  const short = declared && !declared.includes("\n") && declared.length <= 60 ? declared : undefined;
  if (short && short.toUpperCase() !== "UNKNOWN") return short;
  const classifier = info.classifiers?.find((c) => c.startsWith("License ::"));
  return classifier?.split(" :: ").at(-1) ?? declared?.split("\n")[0];
}

const REPOSITORY = /^(source|source code|code|repository|github|gitlab)$/i;
const HOMEPAGE = /^(home|homepage|home page)$/i;
const MAX_OTHER_LINKS = 5;

/** The project's URLs: its homepage, its source repository, and a few others (documentation, issues) by label. */
function projectLinks(info: Info): {
  homepage?: string;
  repository?: string;
  others: { label: string; url: string }[];
} {
  const entries = Object.entries(info.project_urls ?? {})
    .map(([label, raw]) => ({ label, url: webUrl(raw) }))
    .filter((e): e is { label: string; url: string } => !!e.url);
  const homepage = webUrl(info.home_page) ?? entries.find((e) => HOMEPAGE.test(e.label))?.url;
  const repository = entries.find((e) => REPOSITORY.test(e.label))?.url;
  const taken = new Set([homepage, repository]);
  const others = entries.filter((e) => !taken.has(e.url)).slice(0, MAX_OTHER_LINKS);
  return { homepage, repository, others };
}

/** The long description: markdown read as a README, reStructuredText and plain text kept as written. */
async function description(
  info: Info,
  baseUrl: string,
): Promise<{ markdown: string; links: string[] } | undefined> {
  const text = info.description?.trim();
  if (!text || text.toUpperCase() === "UNKNOWN") return undefined;
  if ((info.description_content_type ?? "").toLowerCase().startsWith("text/markdown"))
    return readmeMarkdown(text, baseUrl);
  return { markdown: text, links: [] };
}

import type { Deadline } from "../../core/deadline.js";
import { lazySchema } from "../../core/lazy-zod.js";
import type { Failure } from "../../core/status.js";
import { type PackageSummary, packagePage, readmeMarkdown, webUrl } from "./package-page.js";
import { fetchSite, parseSiteJson } from "./site-json.js";
import { readerDrift, type SiteContext, type SiteReader, siteNotFound } from "./site-reader.js";

const REGISTRY = "https://registry.npmjs.org";
const JSDELIVR = "https://cdn.jsdelivr.net/npm";
const README_MS = 5000;
/** The registry's share of the read's time; the rest is the generic rungs' if the registry fails. */
const REGISTRY_MS = 10_000;
const MAX_README_BYTES = 1024 * 1024;
// npm's naming rules, plus the capitals of packages published before they were forbidden.
const NAME = /^(?:@[a-z0-9~-][\w.~-]*\/)?[a-z0-9~-][\w.~-]*$/i;
/** The registry's own stand-in for a package published without one. */
const NO_README = /^ERROR: No README data found!?\s*$/;

/** Package metadata as the registry documents it: only what the summary uses, loosely typed where authors wrote it. */
const Packument = lazySchema((z) =>
  z.object({
    name: z.string(),
    "dist-tags": z.object({ latest: z.string() }).catchall(z.string()),
    versions: z.record(z.string(), z.unknown()),
    time: z.record(z.string(), z.unknown()).optional().catch(undefined),
    readme: z.string().optional().catch(undefined),
  }),
);

const Manifest = lazySchema((z) => {
  const text = z.string().optional().catch(undefined);
  const urlOf = z
    .union([z.string(), z.object({ url: z.string().optional() }).transform((o) => o.url)])
    .optional()
    .catch(undefined);
  return z.object({
    name: z.string(),
    version: z.string(),
    description: text,
    homepage: text,
    deprecated: z.union([z.string(), z.boolean()]).optional().catch(undefined),
    readme: text,
    license: z
      .union([z.string(), z.object({ type: z.string() }).transform((o) => o.type)])
      .optional()
      .catch(undefined),
    repository: urlOf,
    bugs: urlOf,
  });
});

const Unpublished = lazySchema((z) => z.object({ time: z.object({ unpublished: z.unknown() }) }));

/** The package and version a URL names: `/package/<name>[/v/<version>]` on the site, `/<name>` on the registry. */
export function npmTarget(url: URL): { name: string; version?: string } | undefined {
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return undefined;
  }
  if (url.hostname === "registry.npmjs.org") {
    const name = path.slice(1);
    return NAME.test(name) ? { name } : undefined;
  }
  const m = /^\/package\/((?:@[^/]+\/)?[^/@]+)(?:\/v\/([^/]+))?\/?$/.exec(path);
  if (!m || !NAME.test(m[1]!)) return undefined;
  return m[2] ? { name: m[1]!, version: m[2] } : { name: m[1]! };
}

const registryPath = (name: string) => name.replace("/", "%2f");

export const npm: SiteReader = {
  name: "npm",
  hosts: ["www.npmjs.com", "npmjs.com", "registry.npmjs.org"],
  takes: (url) => npmTarget(url) !== undefined,
  async read(url, ctx, deadline) {
    const target = npmTarget(url)!;
    const found = await versionManifest(target, ctx, deadline.child(REGISTRY_MS));
    if (!found.ok) return found;
    const { manifest, latest, published, partial } = found;
    let { readme } = found;
    let readmeNote: string | undefined;
    const parsed = parseSiteJson("npm", `${REGISTRY}/${registryPath(target.name)}`, manifest, Manifest);
    if (!parsed.ok) return parsed;
    const m = parsed.value;
    readme ??= m.readme;
    if (partial && !readme) {
      readme = await publishedReadme(m.name, m.version, ctx, deadline);
      if (!readme)
        readmeNote =
          "The registry's document for this package is too large to read whole, and the package's README.md could not be fetched; the README is on the package page.";
    }
    const pageUrl = `https://www.npmjs.com/package/${m.name}`;
    const body =
      readme && !NO_README.test(readme)
        ? await readmeMarkdown(readme, webUrl(m.repository) ?? pageUrl)
        : undefined;
    const summary: PackageSummary = {
      name: m.name,
      registry: "npm",
      description: m.description,
      version: m.version,
      latest,
      license: m.license,
      published,
      homepage: webUrl(m.homepage),
      repository: webUrl(m.repository),
      links: issuesLink(m.bugs),
      deprecated: typeof m.deprecated === "string" ? m.deprecated : m.deprecated ? "yes" : undefined,
      install: `npm install ${m.name}${target.version ? `@${m.version}` : ""}`,
      readme: body?.markdown,
      readmeNote,
    };
    return { ok: true, ...packagePage(summary, body?.links), via: "registry.npmjs.org" };
  },
};

/**
 * The README.md inside the published package, from jsDelivr's mirror of the registry's tarballs
 * (`cdn.jsdelivr.net/npm/<name>@<version>/<file>`): the registry keeps a package's README only in its whole
 * document.
 */
async function publishedReadme(
  name: string,
  version: string,
  ctx: SiteContext,
  deadline: Deadline,
): Promise<string | undefined> {
  const got = await fetchSite(`${JSDELIVR}/${name}@${version}/README.md`, ctx, deadline.child(README_MS), {
    headers: { accept: "text/markdown, text/plain;q=0.9" },
    maxBytes: MAX_README_BYTES,
  });
  return got.ok && got.res.text().trim() ? got.res.text() : undefined;
}

type Found =
  | {
      ok: true;
      manifest: unknown;
      latest?: string;
      published?: string;
      readme?: string;
      /** Read from the version's manifest alone, the whole document being too large. */
      partial: boolean;
    }
  | ({ ok: false } & Failure);

/**
 * The manifest of the version asked for (a version or a dist-tag, else the latest), with the publish date and
 * README the package's whole document carries.
 */
async function versionManifest(
  target: { name: string; version?: string },
  ctx: SiteContext,
  deadline: Deadline,
): Promise<Found> {
  const headers = { accept: "application/json" };
  const url = `${REGISTRY}/${registryPath(target.name)}`;
  const doc = await fetchSite(url, ctx, deadline, { headers });
  if (doc.ok) {
    if (Unpublished().safeParse(doc.res.json()).success)
      return siteNotFound(`npm: ${target.name} was unpublished from the registry`);
    const packument = parseSiteJson("npm", url, doc.res.json(), Packument);
    if (!packument.ok) return packument;
    const tags = packument.value["dist-tags"];
    const version = target.version ? (tags[target.version] ?? target.version) : tags.latest;
    const manifest = packument.value.versions[version];
    if (manifest === undefined) return siteNotFound(`npm: ${target.name} has no version ${version}`);
    const time = packument.value.time?.[version];
    return {
      ok: true,
      manifest,
      latest: tags.latest,
      published: typeof time === "string" ? time : undefined,
      readme: packument.value.readme,
      partial: false,
    };
  }
  if (doc.code !== "too_large") return doc;
  // The whole document of a package with thousands of releases is tens of megabytes; its version's manifest is
  // small, though without the publish dates and the README the whole document carries (read from the
  // published package instead).
  const one = await fetchSite(`${url}/${target.version ?? "latest"}`, ctx, deadline, { headers });
  if (!one.ok) return one;
  const manifest = one.res.json();
  if (manifest === undefined) return readerDrift("npm", "the answer is not JSON");
  return { ok: true, manifest, partial: true };
}

function issuesLink(bugs: string | undefined): { label: string; url: string }[] {
  const url = webUrl(bugs);
  return url ? [{ label: "Issues", url }] : [];
}

import type { Deadline } from "../../core/deadline.js";
import { lazySchema } from "../../core/lazy-zod.js";
import { queueForSlot } from "./api-pacing.js";
import { type PackageSummary, packagePage, readmeFromHtml, webUrl } from "./package-page.js";
import { API_USER_AGENT, fetchSite, fetchSiteJson } from "./site-json.js";
import { onHosts, type SiteContext, type SiteReader, siteNotFound } from "./site-reader.js";

const API = "https://crates.io/api/v1/crates";
// Cargo's rules for a crate name; a version is semver.
const NAME = /^[a-z0-9][\w-]{0,63}$/i;
const VERSION = /^\d+\.\d+\.\d+(?:[-+][\w.+-]*)?$/;
/** Where the readme endpoint sends its answer: the rendered README on crates.io's static host. */
const README_HOSTS = ["crates.io", "static.crates.io"];
const README_MS = 5000;
/** The API's share of the read's time; the rest is the generic rungs' if the API fails. */
const CRATES_MS = 10_000;
// crates.io's data access policy: at most one request a second.
const API_INTERVAL_MS = 1000;

/** The crate endpoint's answer (crates.io's own response snapshots): the crate and its versions, newest first. */
const CrateAnswer = lazySchema((z) => {
  const text = z.string().nullish().catch(undefined);
  return z.object({
    crate: z.object({
      name: z.string(),
      description: text,
      homepage: text,
      repository: text,
      documentation: text,
      default_version: text,
      max_stable_version: text,
      max_version: z.string(),
      updated_at: text,
    }),
    versions: z
      .array(
        z.object({
          num: z.string(),
          license: text,
          created_at: text,
          yanked: z.boolean().nullish().catch(undefined),
          yank_message: text,
          rust_version: text,
        }),
      )
      .nullish()
      .catch(undefined),
  });
});

/** The crate and version a URL names: `/crates/<name>[/<version>]` on the site, `/api/v1/crates/<name>`. */
export function crateTarget(url: URL): { name: string; version?: string } | undefined {
  const m =
    /^\/crates\/([^/]+)(?:\/([^/]+))?\/?$/.exec(url.pathname) ??
    /^\/api\/v1\/crates\/([^/]+)\/?$/.exec(url.pathname);
  if (!m || !NAME.test(m[1]!)) return undefined;
  if (m[2] === undefined) return { name: m[1]! };
  return VERSION.test(m[2]) ? { name: m[1]!, version: m[2] } : undefined;
}

export const crates: SiteReader = {
  name: "crates.io",
  hosts: ["crates.io", "www.crates.io"],
  takes: (url) => crateTarget(url) !== undefined,
  async read(url, ctx, deadline) {
    const target = crateTarget(url)!;
    // crates.io refuses requests without an agent that says who is asking.
    const api = deadline.child(CRATES_MS);
    const queued = await queueForSlot(
      ctx,
      "api",
      API_INTERVAL_MS,
      api,
      (s) => `the next API slot is ${s} s away (crates.io asks crawlers for one request a second)`,
    );
    if (queued) return queued;
    const parsed = await fetchSiteJson("crates.io", `${API}/${target.name}`, ctx, api, CrateAnswer, {
      headers: { "user-agent": API_USER_AGENT },
    });
    if (!parsed.ok) return parsed;
    const { crate, versions } = parsed.value;
    const latest = crate.default_version ?? crate.max_stable_version ?? crate.max_version;
    const version = target.version ?? latest;
    const release = versions?.find((v) => v.num === version);
    if (target.version && versions && !release)
      return siteNotFound(`crates.io: ${crate.name} has no version ${target.version}`);
    const pageUrl = `https://crates.io/crates/${crate.name}`;
    const repository = webUrl(crate.repository);
    const readme = await readmeOf(crate.name, version, repository ?? pageUrl, ctx, api);
    const documentation = webUrl(crate.documentation) ?? `https://docs.rs/${crate.name}/${version}`;
    const summary: PackageSummary = {
      name: crate.name,
      registry: "crates.io",
      description: crate.description ?? undefined,
      version,
      latest,
      license: release?.license ?? undefined,
      published: release?.created_at ?? undefined,
      homepage: webUrl(crate.homepage),
      repository,
      facts: release?.rust_version ? [{ label: "Minimum Rust version", value: release.rust_version }] : [],
      links: [{ label: "Documentation", url: documentation }],
      deprecated: release?.yanked
        ? `yanked${release.yank_message ? `: ${release.yank_message}` : ""}`
        : undefined,
      install: `cargo add ${crate.name}${target.version ? `@${version}` : ""}`,
      readme: readme.markdown,
      readmeNote: readme.note,
    };
    return { ok: true, ...packagePage(summary, readme.links), via: "crates.io API" };
  },
};

/** The version's rendered README; a crate published without one is said so, as is a README that could not be had. */
async function readmeOf(
  name: string,
  version: string,
  baseUrl: string,
  ctx: SiteContext,
  deadline: Deadline,
): Promise<{ markdown?: string; links?: string[]; note?: string }> {
  const got = await fetchSite(`${API}/${name}/${version}/readme`, ctx, deadline.child(README_MS), {
    headers: { accept: "text/html", "user-agent": API_USER_AGENT },
    redirectAllowed: (to) => onHosts(to.hostname, README_HOSTS),
  });
  // The static host answers a README that was never rendered with 403 (S3's answer for a missing key).
  if (!got.ok)
    return got.httpStatus === 404 || got.httpStatus === 403
      ? {}
      : { note: `The README could not be fetched (${got.status}: ${got.message}).` };
  const rendered = await readmeFromHtml(got.res.text(), baseUrl);
  return { markdown: rendered.markdown, links: rendered.links };
}

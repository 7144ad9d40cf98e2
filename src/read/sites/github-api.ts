import type { z } from "zod";
import type { Deadline } from "../../core/deadline.js";
import { lazySchema } from "../../core/lazy-zod.js";
import type { Failure } from "../../core/status.js";
import type { NetResponse } from "../../net/client.js";
import { maybe, maybeListOf, maybeText } from "../../provider-http/json-fields.js";
import { type Fetched, fetchSiteJson } from "./site-json.js";
import type { SiteContext } from "./site-reader.js";

/**
 * GitHub's REST API, and the fields the reader uses of it: unauthenticated (60 requests an hour per address)
 * unless GITHUB_TOKEN is set (5,000 an hour), which is sent to api.github.com only.
 */
export const GITHUB_API = "https://api.github.com";

const HEADERS = { accept: "application/vnd.github+json", "x-github-api-version": "2022-11-28" };

export async function githubJson<S extends z.ZodType>(
  path: string,
  ctx: SiteContext,
  deadline: Deadline,
  schema: () => S,
): Promise<Fetched<z.output<S>>> {
  const token = ctx.keys.GITHUB_TOKEN;
  const got = await fetchSiteJson("github", `${GITHUB_API}${path}`, ctx, deadline, schema, {
    headers: token ? { ...HEADERS, authorization: `Bearer ${token}` } : HEADERS,
    failure: githubRateLimit,
  });
  // The answer that spent the last request of the hour still serves; the next would be refused until the reset.
  if (got.ok && rateLimitSpent(got.res)) await ctx.rest(secondsToReset(got.res), "rate limit spent");
  return got;
}

const rateLimitSpent = (res: NetResponse) => res.headers["x-ratelimit-remaining"] === "0";

/** Seconds until `x-ratelimit-reset` (a Unix time), at least one; undefined when the header says none. */
function secondsToReset(res: NetResponse, now = Date.now()): number | undefined {
  const reset = Number(res.headers["x-ratelimit-reset"]);
  return Number.isFinite(reset) && reset > 0 ? Math.max(1, Math.ceil(reset - now / 1000)) : undefined;
}

/**
 * GitHub answers a spent rate limit with 403 (or 429) and `x-ratelimit-remaining: 0`, the reset as a Unix time
 * in `x-ratelimit-reset`; a secondary limit says `retry-after`. Both are `rate_limited`, not `denied`: the read
 * may be asked again later, and meanwhile the page itself is read the generic way.
 */
export function githubRateLimit(res: NetResponse, now = Date.now()): Failure | undefined {
  if (res.status !== 403 && res.status !== 429) return undefined;
  if (!rateLimitSpent(res) && res.retryAfter === undefined) return undefined;
  const retryAfter = Math.max(1, res.retryAfter ?? secondsToReset(res, now) ?? 60);
  return {
    status: "rate_limited",
    code: "rate_limited",
    message: `api.github.com rate limit reached (HTTP ${res.status}); retry after ${retryAfter} s`,
    retryAfter,
  };
}

const user = lazySchema((z) => maybe(z.object({ login: z.string() })));
const count = lazySchema((z) => maybe(z.number()));
const flag = lazySchema((z) => maybe(z.boolean()));
// GitHub sends null for an empty body, description or name.
const text = lazySchema((z) => z.string().nullish());

export const Repo = lazySchema((z) =>
  z.object({
    full_name: z.string(),
    description: maybeText(),
    default_branch: z.string(),
    html_url: maybeText(),
    homepage: maybeText(),
    language: maybeText(),
    stargazers_count: count(),
    forks_count: count(),
    open_issues_count: count(),
    topics: maybeListOf(z.string()),
    license: maybe(z.object({ spdx_id: maybeText(), name: maybeText() })),
    archived: flag(),
    fork: flag(),
    pushed_at: maybeText(),
  }),
);

export const Readme = lazySchema((z) =>
  z.object({ name: z.string(), path: z.string(), content: z.string(), encoding: z.string() }),
);

const Entry = lazySchema((z) =>
  z.object({ name: z.string(), path: z.string(), type: z.string(), size: count() }),
);
export const Listing = lazySchema((z) => z.array(Entry()));
/** The contents endpoint answers a directory with its entries and a file with the file's own entry. */
export const ListingOrFile = lazySchema((z) => z.union([Listing(), Entry()]));

export const Issue = lazySchema((z) =>
  z.object({
    number: z.number(),
    title: z.string(),
    state: z.string(),
    state_reason: maybeText(),
    user: user(),
    body: text(),
    comments: z.number(),
    created_at: maybeText(),
    closed_at: maybeText(),
    locked: flag(),
    labels: maybeListOf(z.object({ name: z.string() })),
    pull_request: maybe(z.object({ merged_at: maybeText() })),
  }),
);

export const Comments = lazySchema((z) =>
  z.array(
    z.object({
      user: user(),
      body: text(),
      created_at: maybeText(),
      author_association: maybeText(),
    }),
  ),
);

export const Pull = lazySchema((z) =>
  z.object({
    merged: z.boolean(),
    draft: flag(),
    merged_at: maybeText(),
    merged_by: user(),
    base: maybe(z.object({ ref: z.string() })),
    head: maybe(z.object({ label: maybeText(), ref: z.string() })),
    commits: count(),
    additions: count(),
    deletions: count(),
    changed_files: count(),
  }),
);

/** A file a pull request or a commit changed. */
const ChangedFile = lazySchema((z) =>
  z.object({
    filename: z.string(),
    status: z.string(),
    additions: count(),
    deletions: count(),
    previous_filename: maybeText(),
  }),
);

export const PullFiles = lazySchema((z) => z.array(ChangedFile()));

export const Commit = lazySchema((z) =>
  z.object({
    sha: z.string(),
    commit: z.object({
      message: z.string(),
      author: maybe(z.object({ name: maybeText(), date: maybeText() })),
    }),
    author: user(),
    parents: maybe(z.array(z.object({ sha: z.string() }))),
    stats: maybe(z.object({ additions: count(), deletions: count() })),
    files: maybe(z.array(ChangedFile().extend({ patch: maybeText() }))),
  }),
);

export const Release = lazySchema((z) =>
  z.object({
    tag_name: z.string(),
    name: text(),
    body: text(),
    draft: flag(),
    prerelease: flag(),
    published_at: maybeText(),
    created_at: maybeText(),
    author: user(),
    html_url: maybeText(),
    assets: maybeListOf(z.object({ name: z.string(), size: count(), browser_download_url: maybeText() })),
  }),
);
export const Releases = lazySchema((z) => z.array(Release()));

export const Gist = lazySchema((z) =>
  z.object({
    id: z.string(),
    description: text(),
    owner: user(),
    html_url: maybeText(),
    created_at: maybeText(),
    updated_at: maybeText(),
    files: z.record(
      z.string(),
      z.object({
        filename: z.string(),
        language: maybeText(),
        raw_url: maybeText(),
        size: count(),
        truncated: flag(),
        content: maybeText(),
      }),
    ),
  }),
);

import type { z } from "zod";
import type { Deadline } from "../../core/deadline.js";
import { oneLine } from "../../core/one-line.js";
import {
  Gist,
  githubJson,
  type Listing,
  ListingOrFile,
  Readme,
  Release,
  Releases,
  Repo,
} from "./github-api.js";
import { readCommit } from "./github-commit.js";
import { absoluteLinks, languageOf, readRepoFile } from "./github-files.js";
import { readIssue } from "./github-issues.js";
import type { SiteFailure } from "./site-json.js";
import type { SiteContext, SiteOutcome, SiteReader } from "./site-reader.js";
import { codeBlock, counted, cutBody, dayOf, factLine } from "./site-text.js";

/**
 * github.com through its REST API and raw.githubusercontent.com: a repository's README with its facts, a file as
 * stored, a directory's listing, an issue or pull request with its comments in order, a commit with its diff,
 * release notes, a gist.
 * The page itself is a script shell whose content sits in embedded JSON, so the API is the cleaner text.
 * api.github.com URLs are left to the ladder: they are JSON already, which the text rung prints as it is.
 */
export const githubReader: SiteReader = {
  name: "github",
  hosts: ["github.com", "www.github.com", "gist.github.com", "raw.githubusercontent.com"],
  takes: (url) => routeOf(url) !== undefined,
  read(url, ctx, deadline) {
    const route = routeOf(url);
    if (!route) return Promise.resolve(notTaken());
    // The API's share of the read: a slow API leaves the page itself time to be read the generic way.
    return readRoute(route, ctx, deadline.child(GITHUB_API_MS));
  },
};

const GITHUB_API_MS = 10_000;
const README_CHARS = 100_000;
const MAX_ENTRIES = 500;
const MAX_RELEASES = 10;
const RELEASE_CHARS = 10_000;
const MAX_GIST_FILES = 30;
const GIST_FILE_CHARS = 100_000;

type Route =
  | { kind: "repo"; owner: string; repo: string }
  | { kind: "file"; owner: string; repo: string; refAndPath: string; lines?: [number, number] }
  | { kind: "tree"; owner: string; repo: string; refAndPath: string }
  | { kind: "issue" | "pull"; owner: string; repo: string; number: number }
  | { kind: "releases"; owner: string; repo: string }
  | { kind: "release"; owner: string; repo: string; tag: string }
  | { kind: "commit"; owner: string; repo: string; sha: string }
  | { kind: "gist"; id: string };

/** github.com's own pages that look like `/owner/repo` but are not repositories. */
const NOT_OWNERS = new Set(
  (
    "about account apps blog collections contact customer-stories dashboard enterprise events explore features " +
    "issues join login logout marketplace new notifications orgs organizations pricing pulls readme search " +
    "security settings site sponsors stars team topics trending users codespaces copilot solutions resources " +
    "mobile premium-support signup"
  ).split(" "),
);

export function routeOf(url: URL): Route | undefined {
  const parts = url.pathname.split("/").filter(Boolean);
  const host = url.hostname.toLowerCase();
  if (host === "gist.github.com") {
    const id = parts.length === 1 ? parts[0] : parts[1];
    return id && /^[0-9a-f]{5,}$/i.test(id) && parts.length <= 2 ? { kind: "gist", id } : undefined;
  }
  const [owner, rawRepo, section, ...rest] = parts;
  if (!owner || !rawRepo || NOT_OWNERS.has(owner.toLowerCase())) return undefined;
  const repo = rawRepo.replace(/\.git$/, "");
  if (host === "raw.githubusercontent.com")
    return section && rest.length
      ? { kind: "file", owner, repo, refAndPath: [section, ...rest].join("/") }
      : undefined;
  if (!section) return { kind: "repo", owner, repo };
  const number = Number(rest[0]);
  switch (section) {
    case "blob":
    case "raw":
      if (rest.length < 2) return undefined;
      return { kind: "file", owner, repo, refAndPath: rest.join("/"), ...linesOf(url.hash) };
    case "tree":
      return rest.length ? { kind: "tree", owner, repo, refAndPath: rest.join("/") } : undefined;
    case "issues":
    case "pull":
      if (!Number.isInteger(number) || number <= 0) return undefined;
      return { kind: section === "issues" ? "issue" : "pull", owner, repo, number };
    case "commit":
      return rest.length === 1 && /^[0-9a-f]{7,40}$/i.test(rest[0])
        ? { kind: "commit", owner, repo, sha: rest[0] }
        : undefined;
    case "releases":
      if (!rest.length) return { kind: "releases", owner, repo };
      if (rest[0] === "latest" && rest.length === 1) return { kind: "release", owner, repo, tag: "" };
      if (rest[0] === "tag" && rest.length >= 2)
        return { kind: "release", owner, repo, tag: rest.slice(1).join("/") };
      return undefined;
    default:
      return undefined;
  }
}

/** A blob link's line anchor, `#L10` or `#L10-L20`. */
function linesOf(hash: string): { lines?: [number, number] } {
  const m = /^#L(\d+)(?:-L(\d+))?$/.exec(hash);
  if (!m) return {};
  const from = Number(m[1]);
  const to = Math.max(from, Number(m[2] ?? m[1]));
  return from > 0 ? { lines: [from, to] } : {};
}

function readRoute(route: Route, ctx: SiteContext, deadline: Deadline): Promise<SiteOutcome> {
  switch (route.kind) {
    case "repo":
      return readRepo(route.owner, route.repo, ctx, deadline);
    case "file":
      return readRepoFile(route, ctx, deadline);
    case "tree":
      return readTree(route.owner, route.repo, route.refAndPath, ctx, deadline);
    case "issue":
    case "pull":
      return readIssue(route.owner, route.repo, route.number, route.kind === "pull", ctx, deadline);
    case "releases":
      return readReleases(route.owner, route.repo, ctx, deadline);
    case "release":
      return readRelease(route.owner, route.repo, route.tag, ctx, deadline);
    case "commit":
      return readCommit(route.owner, route.repo, route.sha, ctx, deadline);
    case "gist":
      return readGist(route.id, ctx, deadline);
  }
}

async function readRepo(
  owner: string,
  name: string,
  ctx: SiteContext,
  deadline: Deadline,
): Promise<SiteOutcome> {
  const path = `/repos/${owner}/${name}`;
  const [repo, readme] = await Promise.all([
    githubJson(path, ctx, deadline, Repo),
    githubJson(`${path}/readme`, ctx, deadline, Readme),
  ]);
  if (!repo.ok) return repo;
  const r = repo.value;
  const facts = factLine([
    `Default branch: \`${r.default_branch}\``,
    r.language && `Language: ${r.language}`,
    r.stargazers_count !== undefined && counted(r.stargazers_count, "star"),
    r.forks_count !== undefined && counted(r.forks_count, "fork"),
    r.license &&
      (r.license.spdx_id && r.license.spdx_id !== "NOASSERTION" ? r.license.spdx_id : r.license.name),
    r.archived && "archived",
    r.fork && "a fork",
    r.pushed_at && `last push ${dayOf(r.pushed_at)}`,
  ]);
  const head = [`# ${r.full_name}`];
  if (r.description) head.push(r.description);
  head.push(facts);
  if (r.topics.length) head.push(`Topics: ${r.topics.join(", ")}`);
  if (r.homepage) head.push(`Homepage: ${r.homepage}`);
  let readmeText: string;
  if (readme.ok) {
    const { name: file, path: filePath, content, encoding } = readme.value;
    const text = encoding === "base64" ? Buffer.from(content, "base64").toString("utf8") : content;
    const dir = filePath.includes("/") ? filePath.slice(0, filePath.lastIndexOf("/") + 1) : "";
    const base = `https://github.com/${r.full_name}/blob/${r.default_branch}/${dir}`;
    const shown = languageOf(file) === "markdown" || !file.includes(".") ? absoluteLinks(text, base) : text;
    readmeText = `## ${file}\n\n${cutBody(shown.trim(), README_CHARS)}`;
  } else if (readme.httpStatus === 404) {
    readmeText = "This repository has no README.";
  } else if (readme.code === "reader_drift") {
    return readme;
  } else {
    readmeText = `[README not read: ${readme.message}]`;
  }
  return {
    ok: true,
    title: r.full_name,
    markdown: `${head.join("\n\n")}\n\n${readmeText}`,
    via: "api.github.com",
  };
}

async function readTree(
  owner: string,
  repo: string,
  refAndPath: string,
  ctx: SiteContext,
  deadline: Deadline,
): Promise<SiteOutcome> {
  // A ref may hold slashes (`release/2.x`): the shortest split the API knows wins, as github.com resolves it.
  const parts = refAndPath.split("/");
  let failure: SiteFailure | undefined;
  for (let split = 1; split <= Math.min(3, parts.length); split++) {
    const ref = parts.slice(0, split).join("/");
    const path = parts.slice(split).join("/");
    const got = await githubJson(
      `/repos/${owner}/${repo}/contents${path ? `/${path}` : ""}?ref=${encodeURIComponent(decodeURIComponent(ref))}`,
      ctx,
      deadline,
      ListingOrFile,
    );
    if (got.ok) {
      if (!Array.isArray(got.value)) return readRepoFile({ owner, repo, refAndPath }, ctx, deadline);
      return { ok: true, ...listing(owner, repo, ref, path, got.value), via: "api.github.com" };
    }
    failure = got;
    if (got.httpStatus !== 404) break;
  }
  return failure as SiteFailure;
}

function listing(
  owner: string,
  repo: string,
  ref: string,
  path: string,
  entries: z.output<ReturnType<typeof Listing>>,
): { title: string; markdown: string } {
  const dirs = entries.filter((e) => e.type === "dir");
  const others = entries.filter((e) => e.type !== "dir");
  const shown = [...dirs, ...others].slice(0, MAX_ENTRIES);
  const shownPath = decodeURIComponent(path);
  const where = shownPath ? `\`${shownPath}/\`` : "the root";
  const lines = shown.map((e) => {
    const kind = e.type === "dir" ? "tree" : "blob";
    const link = `https://github.com/${owner}/${repo}/${kind}/${ref}/${e.path.split("/").map(encodeURIComponent).join("/")}`;
    const label = e.type === "dir" ? `${e.name}/` : e.name;
    const size =
      e.type === "file" && e.size !== undefined ? ` (${e.size.toLocaleString("en-US")} bytes)` : "";
    const extra = e.type === "symlink" || e.type === "submodule" ? ` (${e.type})` : "";
    return `- [${label}](${link})${size}${extra}`;
  });
  if (entries.length > shown.length) lines.push(`- … ${entries.length - shown.length} more entries`);
  const summary = `${owner}/${repo} @ \`${decodeURIComponent(ref)}\`, ${where}: ${counted(dirs.length, "directory", "directories")}, ${counted(others.length, "file")}`;
  return {
    title: `${shownPath || `${owner}/${repo}`} · ${owner}/${repo}`,
    markdown: `# ${shownPath || `${owner}/${repo}`}\n\n${summary}\n\n${lines.join("\n")}`,
  };
}

async function readReleases(
  owner: string,
  repo: string,
  ctx: SiteContext,
  deadline: Deadline,
): Promise<SiteOutcome> {
  const got = await githubJson(
    `/repos/${owner}/${repo}/releases?per_page=${MAX_RELEASES}`,
    ctx,
    deadline,
    Releases,
  );
  if (!got.ok) return got;
  const head = `# Releases · ${owner}/${repo}`;
  if (!got.value.length)
    return {
      ok: true,
      title: head.slice(2),
      markdown: `${head}\n\nNo releases published.`,
      via: "api.github.com",
    };
  const notes = got.value.map((r) => releaseNotes(r, "##"));
  return { ok: true, title: head.slice(2), markdown: [head, ...notes].join("\n\n"), via: "api.github.com" };
}

async function readRelease(
  owner: string,
  repo: string,
  tag: string,
  ctx: SiteContext,
  deadline: Deadline,
): Promise<SiteOutcome> {
  const which = tag ? `tags/${encodeURIComponent(decodeURIComponent(tag))}` : "latest";
  const got = await githubJson(`/repos/${owner}/${repo}/releases/${which}`, ctx, deadline, Release);
  if (!got.ok) return got;
  const r = got.value;
  return {
    ok: true,
    title: `${r.name?.trim() || r.tag_name} · ${owner}/${repo}`,
    markdown: releaseNotes(r, "#", `${owner}/${repo}`),
    via: "api.github.com",
    ...(r.author ? { byline: r.author.login } : {}),
    ...(r.published_at ? { published: r.published_at } : {}),
  };
}

function releaseNotes(r: z.output<ReturnType<typeof Release>>, level: string, repo?: string): string {
  const name = r.name?.trim() || r.tag_name;
  const facts = factLine([
    repo,
    `tag \`${r.tag_name}\``,
    r.prerelease && "pre-release",
    r.draft && "draft",
    r.published_at && `published ${dayOf(r.published_at)}`,
    r.author && `by ${r.author.login}`,
  ]);
  const parts = [`${level} ${oneLine(name, 200)}`, facts];
  parts.push(r.body?.trim() ? cutBody(r.body.trim(), RELEASE_CHARS) : "*No release notes.*");
  if (r.assets.length) {
    const assets = r.assets
      .slice(0, 20)
      .map((a) => `- ${a.name}${a.size !== undefined ? ` (${a.size.toLocaleString("en-US")} bytes)` : ""}`);
    parts.push(`Assets:\n${assets.join("\n")}`);
  }
  return parts.join("\n\n");
}

async function readGist(id: string, ctx: SiteContext, deadline: Deadline): Promise<SiteOutcome> {
  const got = await githubJson(`/gists/${id}`, ctx, deadline, Gist);
  if (!got.ok) return got;
  const g = got.value;
  const files = Object.values(g.files);
  const title = g.description?.trim() || files[0]?.filename || `gist ${id}`;
  const facts = factLine([
    g.owner ? `Gist by ${g.owner.login}` : "Gist",
    counted(files.length, "file"),
    g.created_at && `created ${dayOf(g.created_at)}`,
    g.updated_at && g.updated_at !== g.created_at && `updated ${dayOf(g.updated_at)}`,
  ]);
  const parts = [`# ${oneLine(title, 300)}`, facts];
  for (const f of files.slice(0, MAX_GIST_FILES)) {
    const lang = languageOf(f.filename) ?? f.language?.toLowerCase();
    const content = f.content ?? "";
    const text =
      lang === "markdown"
        ? cutBody(content.trim(), GIST_FILE_CHARS)
        : codeBlock(content.slice(0, GIST_FILE_CHARS), lang ?? "");
    const cut = f.truncated || content.length > GIST_FILE_CHARS;
    parts.push(
      `## ${f.filename}\n\n${text}${cut && f.raw_url ? `\n\n[cut: the whole file: ${f.raw_url}]` : ""}`,
    );
  }
  if (files.length > MAX_GIST_FILES)
    parts.push(`[${counted(files.length - MAX_GIST_FILES, "more file")} not shown]`);
  return {
    ok: true,
    title: oneLine(title, 300),
    markdown: parts.join("\n\n"),
    via: "api.github.com",
    ...(g.owner ? { byline: g.owner.login } : {}),
  };
}

function notTaken(): SiteFailure {
  return {
    ok: false,
    status: "unsupported",
    code: "not_taken",
    message: "github reader: not a URL it reads",
  };
}

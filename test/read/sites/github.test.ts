import { describe, expect, it } from "vitest";
import { read } from "../../../src/read/read.js";
import { githubReader, routeOf } from "../../../src/read/sites/github.js";
import { githubRateLimit } from "../../../src/read/sites/github-api.js";
import { RAW_BYTES } from "../../../src/read/sites/github-files.js";
import { siteReaderFor } from "../../../src/read/sites/registry.js";
import type { SimReply } from "../../simweb/index.js";
import { article, html, PARAGRAPHS } from "../ladder/harness.js";
import { makePdf } from "../ladder/make-pdf.js";
import { json, siteFixture } from "./site-fixtures.js";
import { useReadHarness } from "./site-harness.js";

const h = useReadHarness();

const API = "api.github.com";
const RAW = "raw.githubusercontent.com";
const fixture = (name: string) => json(siteFixture("github", name));
const get = (url: string, maxChars = 20_000) => read(url, { maxChars, render: "never" }, h.ctx());
const hosts = () => h.sim.requests.map((r) => `${r.host}${r.path}`);

describe("github reader: which URLs it takes", () => {
  it("takes repositories, files, trees, issues, pull requests, releases and gists; leaves github.com's own pages", () => {
    const kind = (u: string) => routeOf(new URL(u))?.kind;
    expect(kind("https://github.com/octocat/octo-tools")).toBe("repo");
    expect(kind("https://github.com/octocat/octo-tools.git")).toBe("repo");
    expect(kind("https://github.com/octocat/octo-tools/blob/main/src/cli.ts")).toBe("file");
    expect(kind("https://raw.githubusercontent.com/octocat/octo-tools/main/src/cli.ts")).toBe("file");
    expect(kind("https://github.com/octocat/octo-tools/tree/main/src")).toBe("tree");
    expect(kind("https://github.com/octocat/octo-tools/issues/1347")).toBe("issue");
    expect(kind("https://github.com/octocat/octo-tools/pull/1348/files")).toBe("pull");
    expect(kind("https://github.com/octocat/octo-tools/releases")).toBe("releases");
    expect(kind("https://github.com/octocat/octo-tools/releases/tag/v1.0.0")).toBe("release");
    expect(kind("https://gist.github.com/octocat/aa5a315d61ae9438b18d")).toBe("gist");
    expect(
      kind("https://github.com/octocat/octo-tools/commit/6dcb09b5b57875f334f61aebed695e2e4193db5e"),
    ).toBe("commit");
    for (const other of [
      "https://github.com/octocat",
      "https://github.com/features/actions",
      "https://github.com/topics/cli",
      "https://github.com/octocat/octo-tools/commits/main",
      "https://github.com/octocat/octo-tools/issues",
      "https://github.com/octocat/octo-tools/issues/new",
      "https://api.github.com/repos/octocat/octo-tools",
    ])
      expect(siteReaderFor(other), other).toBeUndefined();
    expect(siteReaderFor("https://github.com/octocat/octo-tools")).toBe(githubReader);
  });
});

describe("github reader through read()", () => {
  it("reads a repository: its facts from the API and its README with links made absolute", async () => {
    h.sim.route(API, "/repos/octocat/octo-tools", fixture("repo.json"));
    h.sim.route(API, "/repos/octocat/octo-tools/readme", fixture("readme.json"));
    const got = await get("https://github.com/octocat/octo-tools");
    expect(got).toMatchObject({
      status: "ok",
      source: "site",
      reader: { name: "github", via: "api.github.com" },
      title: "octocat/octo-tools",
    });
    expect(got.markdown).toContain("Small tools for octopuses");
    expect(got.markdown).toMatch(
      /Default branch: `main` · Language: TypeScript · 1,280 stars · 9 forks · MIT/,
    );
    expect(got.markdown).toContain("Topics: cli, octopus, tools");
    expect(got.markdown).toContain("## README.md");
    expect(got.markdown).toContain("Small tools for **octopuses**.");
    expect(got.markdown).toContain("[guide](https://github.com/octocat/octo-tools/blob/main/docs/guide.md)");
    expect(got.markdown).toContain("![logo](https://github.com/octocat/octo-tools/blob/main/docs/logo.png)");
    expect(got.markdown).toContain("[site](https://octo.example.org)");
    expect(got.markdown).toContain("```sh\nnpm install octo-tools\n```");
    expect(got.attempts.map((a) => [a.provider, a.status])).toEqual([["site:github", "ok"]]);
    expect(h.sim.requests.every((r) => r.host === API)).toBe(true);
    expect(h.sim.requests[0].headers.accept).toBe("application/vnd.github+json");
  });

  it("says so when a repository has no README", async () => {
    h.sim.route(API, "/repos/octocat/octo-tools", fixture("repo.json"));
    h.sim.route(API, "/repos/octocat/octo-tools/readme", json({ message: "Not Found" }, 404));
    const got = await get("https://github.com/octocat/octo-tools");
    expect(got.status).toBe("ok");
    expect(got.markdown).toContain("This repository has no README.");
  });

  it("reads a file as stored, fenced with its extension's language, asking only for its first part", async () => {
    const code = "export function count(octopus: Octopus): number {\n  return octopus.arms.length;\n}\n";
    h.sim.route(RAW, "/octocat/octo-tools/main/src/cli.ts", {
      headers: { "content-type": "text/plain; charset=utf-8" },
      body: code,
    });
    const got = await get("https://github.com/octocat/octo-tools/blob/main/src/cli.ts");
    expect(got).toMatchObject({
      status: "ok",
      source: "site",
      reader: { name: "github", via: "raw" },
      title: "cli.ts · octocat/octo-tools",
    });
    expect(got.markdown).toContain("```typescript\nexport function count(octopus: Octopus): number {");
    expect(got.markdown).toContain("octocat/octo-tools · `main/src/cli.ts` · 4 lines");
    expect(h.sim.requests.map((r) => [r.host, r.headers.range])).toEqual([[RAW, `bytes=0-${RAW_BYTES - 1}`]]);
  });

  it("shows the lines a link points at before the whole file", async () => {
    const code = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n");
    h.sim.route(RAW, "/octocat/octo-tools/main/src/cli.ts", {
      headers: { "content-type": "text/plain" },
      body: code,
    });
    const got = await get("https://github.com/octocat/octo-tools/blob/main/src/cli.ts#L10-L12");
    expect(got.markdown).toContain(
      "Lines 10–12 (linked):\n\n```typescript\nline 10\nline 11\nline 12\n```\n\nThe whole file:\n\n```typescript\nline 1\n",
    );
  });

  it("reads a raw.githubusercontent.com URL the same way, and a markdown file as markdown", async () => {
    h.sim.route(RAW, "/octocat/octo-tools/main/docs/guide.md", {
      headers: { "content-type": "text/plain; charset=utf-8" },
      body: "# Guide\n\nSee [the API](api.md).\n",
    });
    const got = await get("https://raw.githubusercontent.com/octocat/octo-tools/main/docs/guide.md");
    expect(got.reader).toEqual({ name: "github", via: "raw" });
    expect(got.markdown).not.toContain("```");
    expect(got.markdown).toContain("[the API](https://github.com/octocat/octo-tools/blob/main/docs/api.md)");
  });

  it("cuts a large file at a line, says how much was shown of how much, and names the whole file", async () => {
    const line = `${"x".repeat(99)}\n`;
    const whole = line.repeat(Math.ceil((RAW_BYTES * 2) / line.length));
    h.sim.route(RAW, "/octocat/octo-tools/main/data/big.csv", (req) => {
      const [, from, to] = /bytes=(\d+)-(\d+)/.exec(req.headers.range ?? "") ?? [];
      if (!from) return { body: whole };
      const part = whole.slice(Number(from), Number(to) + 1);
      return {
        status: 206,
        headers: {
          "content-type": "text/plain; charset=utf-8",
          "content-range": `bytes ${from}-${to}/${whole.length}`,
        },
        body: part,
      };
    });
    const got = await get("https://github.com/octocat/octo-tools/blob/main/data/big.csv", 2_000_000);
    expect(got.status).toBe("ok");
    expect(got.markdown).toContain("```csv\n");
    expect(got.markdown).toMatch(
      /\[cut: the first 512\.0 KB of 1\.0 MB are shown; the whole file: https:\/\/raw\.githubusercontent\.com\/octocat\/octo-tools\/main\/data\/big\.csv\]$/,
    );
    expect(got.markdown.length).toBeLessThan(RAW_BYTES + 1000);
    // Cut at a line: no partial line before the closing fence.
    expect(got.markdown).toMatch(/x{99}\n```\n\n\[cut/);
  });

  it("reads a PDF kept in a repository with the PDF reader, fetching it whole", async () => {
    const pdf = makePdf([["Octopus anatomy", "Eight arms, three hearts."]], "Anatomy");
    h.sim.route(
      RAW,
      "/octocat/octo-tools/main/docs/anatomy.pdf",
      (req): SimReply =>
        req.headers.range
          ? {
              status: 206,
              headers: {
                "content-type": "application/octet-stream",
                "content-range": `bytes 0-99/${pdf.length}`,
              },
              body: pdf.subarray(0, 100),
            }
          : { headers: { "content-type": "application/octet-stream" }, body: pdf },
    );
    const got = await get("https://github.com/octocat/octo-tools/blob/main/docs/anatomy.pdf");
    expect(got).toMatchObject({
      status: "ok",
      source: "site",
      reader: { name: "github", via: "raw (pdf)" },
      title: "Anatomy",
    });
    expect(got.markdown).toContain("Eight arms, three hearts.");
    expect(h.sim.requests).toHaveLength(2);
  });

  it("reads an empty file, which answers the Range with 416", async () => {
    h.sim.route(RAW, "/octocat/octo-tools/main/.keep", {
      status: 416,
      headers: { "content-type": "text/html", "content-range": "bytes */0" },
      body: "<html><body>Requested Range Not Satisfiable</body></html>",
    });
    const got = await get("https://github.com/octocat/octo-tools/blob/main/.keep");
    expect(got.status).toBe("ok");
    expect(got.markdown).toContain("octocat/octo-tools · `main/.keep` · 0 lines · 0 B");
    expect(got.markdown).not.toContain("Requested Range");
  });

  it("names a binary file without showing its bytes", async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    h.sim.route(RAW, "/octocat/octo-tools/main/docs/logo.png", {
      headers: { "content-type": "image/png" },
      body: png,
    });
    const got = await get("https://github.com/octocat/octo-tools/blob/main/docs/logo.png");
    expect(got.status).toBe("ok");
    expect(got.markdown).toContain("a binary file (image/png, 12 B), not shown as text");
  });

  it("lists a directory, directories first, each entry linked; a ref with a slash is found", async () => {
    h.sim.route(
      API,
      "/repos/octocat/octo-tools/contents/2.x/src",
      json({ message: "No commit found for the ref release" }, 404),
    );
    h.sim.route(API, "/repos/octocat/octo-tools/contents/src", (req) =>
      req.url.searchParams.get("ref") === "release/2.x"
        ? fixture("contents-src.json")
        : json({ message: "Not Found" }, 404),
    );
    const got = await get("https://github.com/octocat/octo-tools/tree/release/2.x/src");
    expect(got).toMatchObject({
      status: "ok",
      source: "site",
      reader: { name: "github", via: "api.github.com" },
    });
    expect(got.markdown).toContain("octocat/octo-tools @ `release/2.x`, `src/`: 1 directory, 3 files");
    const entries = got.markdown.split("\n").filter((l) => l.startsWith("- "));
    expect(entries).toEqual([
      "- [commands/](https://github.com/octocat/octo-tools/tree/release/2.x/src/commands)",
      "- [cli.ts](https://github.com/octocat/octo-tools/blob/release/2.x/src/cli.ts) (2,048 bytes)",
      "- [index.ts](https://github.com/octocat/octo-tools/blob/release/2.x/src/index.ts) (512 bytes)",
      "- [vendor](https://github.com/octocat/octo-tools/blob/release/2.x/src/vendor) (submodule)",
    ]);
  });

  it("lists a repository's root from a tree URL naming only the ref", async () => {
    h.sim.route(API, "/repos/octocat/octo-tools/contents", fixture("contents-src.json"));
    const got = await get("https://github.com/octocat/octo-tools/tree/main");
    expect(got.markdown).toContain("octocat/octo-tools @ `main`, the root: 1 directory, 3 files");
    expect(h.sim.requests[0].url.searchParams.get("ref")).toBe("main");
  });

  it("reads an issue: title, state, author, labels, body, then the comments in order", async () => {
    h.sim.route(API, "/repos/octocat/octo-tools/issues/1347", fixture("issue.json"));
    h.sim.route(API, "/repos/octocat/octo-tools/issues/1347/comments", fixture("issue-comments.json"));
    const got = await get("https://github.com/octocat/octo-tools/issues/1347");
    expect(got).toMatchObject({
      status: "ok",
      title: "Found a bug in the tentacle counter · octocat/octo-tools#1347",
      byline: "octocat",
      published: "2026-04-14T16:00:49Z",
    });
    const md = got.markdown;
    expect(md).toContain(
      "Issue #1347 in octocat/octo-tools · **closed** · by octocat · opened 2026-04-14 · closed 2026-04-15 · 2 comments",
    );
    expect(md).toContain("Labels: bug");
    expect(md).toContain("```js\ncount(octopus) // 7\n```");
    const first = md.indexOf("### hubot · member · 2026-04-14");
    const second = md.indexOf("### octocat · owner · 2026-04-15");
    expect(first).toBeGreaterThan(md.indexOf("## Comments"));
    expect(second).toBeGreaterThan(first);
    expect(md).toContain("Fixed in #1348, thanks!");
    expect(h.sim.requests.find((r) => r.path.endsWith("/comments"))?.url.searchParams.get("per_page")).toBe(
      "100",
    );
  });

  it("says how many comments were left out of a long thread", async () => {
    const many = Array.from({ length: 100 }, (_, i) => ({
      user: { login: `u${i}` },
      body: `comment ${i}`,
      created_at: "2026-04-14T18:00:00Z",
    }));
    h.sim.route(
      API,
      "/repos/octocat/octo-tools/issues/1347",
      json({ ...JSON.parse(siteFixture("github", "issue.json")), comments: 240 }),
    );
    h.sim.route(API, "/repos/octocat/octo-tools/issues/1347/comments", json(many));
    const got = await get("https://github.com/octocat/octo-tools/issues/1347", 100_000);
    expect(got.markdown).toContain("comment 49");
    expect(got.markdown).not.toContain("comment 50");
    expect(got.markdown).toContain(
      "[190 more comments not shown: https://github.com/octocat/octo-tools/issues/1347]",
    );
  });

  it("reads a pull request with its merge state, also from its /issues/ URL", async () => {
    h.sim.route(API, "/repos/octocat/octo-tools/issues/1348", fixture("pull-issue.json"));
    h.sim.route(API, "/repos/octocat/octo-tools/issues/1348/comments", fixture("pull-comments.json"));
    h.sim.route(API, "/repos/octocat/octo-tools/pulls/1348", fixture("pull.json"));
    h.sim.route(API, "/repos/octocat/octo-tools/pulls/1348/files", fixture("pull-files.json"));
    for (const url of [
      "https://github.com/octocat/octo-tools/pull/1348",
      "https://github.com/octocat/octo-tools/issues/1348",
    ]) {
      const got = await read(url, { render: "never" }, h.ctx());
      expect(got.status, url).toBe("ok");
      expect(got.markdown).toContain("Pull request #1348 in octocat/octo-tools · **merged** · by octocat");
      expect(got.markdown).toContain(
        "merged by hubot on 2026-04-15 · `octocat:fix-count` into `main` · 3 commits · 2 files changed (+12 −4)",
      );
      expect(got.markdown).toContain("### hubot · member · 2026-04-15\n\nLGTM");
      expect(got.markdown).toContain(
        "## Files changed\n\n- `src/count.ts` (modified, +10 −4)\n- `test/counter.test.ts` → `test/count.test.ts` (renamed, +2 −0)",
      );
    }
  });

  it("calls a draft pull request a draft", async () => {
    h.sim.route(
      API,
      "/repos/octocat/octo-tools/issues/1348",
      json({ ...JSON.parse(siteFixture("github", "pull-issue.json")), state: "open", closed_at: null }),
    );
    h.sim.route(API, "/repos/octocat/octo-tools/issues/1348/comments", json([]));
    h.sim.route(
      API,
      "/repos/octocat/octo-tools/pulls/1348",
      json({
        ...JSON.parse(siteFixture("github", "pull.json")),
        merged: false,
        merged_at: null,
        draft: true,
      }),
    );
    const got = await get("https://github.com/octocat/octo-tools/pull/1348");
    expect(got.markdown).toContain("· **draft** ·");
    // Its file list is not there (404 here): said, and the rest of the pull request read all the same.
    expect(got.markdown).toContain("[Files changed not read: api.github.com answered HTTP 404]");
  });

  it("reads a commit: its message, author, and each file's diff fenced as diff", async () => {
    h.sim.route(API, "/repos/octocat/octo-tools/commits/6dcb09b", fixture("commit.json"));
    const got = await get("https://github.com/octocat/octo-tools/commit/6dcb09b");
    expect(got).toMatchObject({
      status: "ok",
      title: "Count tentacles from zero · octocat/octo-tools@6dcb09b",
      byline: "octocat",
    });
    const md = got.markdown;
    expect(md).toContain("Commit `6dcb09b5b578` in octocat/octo-tools · by octocat · 2026-04-15 · +10 −4");
    expect(md).toContain("The loop started at 1, so an octopus had seven arms.");
    expect(md).toContain("### `src/count.ts` (modified, +10 −4)\n\n```diff\n@@ -1,3 +1,3 @@");
    expect(md).toContain("+  for (let i = 0; i < o.arms.length; i++) {}");
    expect(md).toContain(
      "### `docs/logo.png` (added, +0 −0)\n\n*No text diff (binary, or too large for the API).*",
    );
  });

  it("reads release notes: the list, and one release by its tag", async () => {
    h.sim.route(API, "/repos/octocat/octo-tools/releases", fixture("releases.json"));
    h.sim.route(API, "/repos/octocat/octo-tools/releases/tags/v1.0.0", fixture("release-v1.0.0.json"));
    const list = await get("https://github.com/octocat/octo-tools/releases");
    expect(list.markdown).toMatch(
      /^# Releases · octocat\/octo-tools\n\n## v2\.0\.0 release candidate\n\ntag `v2\.0\.0-rc\.1` · pre-release · published 2026-05-01 · by octocat\n\n## Breaking/,
    );
    expect(list.markdown.indexOf("## v1.0.0")).toBeGreaterThan(
      list.markdown.indexOf("Tentacles count from zero"),
    );
    const one = await get("https://github.com/octocat/octo-tools/releases/tag/v1.0.0");
    expect(one).toMatchObject({
      status: "ok",
      title: "v1.0.0 · octocat/octo-tools",
      published: "2026-01-10T12:00:00Z",
    });
    expect(one.markdown).toContain("First stable release.");
    expect(one.markdown).toContain("- octo-tools.tgz (1,024 bytes)");
  });

  it("reads a gist: each file, code fenced with its language, markdown as markdown", async () => {
    h.sim.route(API, "/gists/aa5a315d61ae9438b18d", fixture("gist.json"));
    const got = await get("https://gist.github.com/octocat/aa5a315d61ae9438b18d");
    expect(got).toMatchObject({ status: "ok", title: "Hello World Examples", byline: "octocat" });
    expect(got.markdown).toContain("Gist by octocat · 2 files · created 2026-04-14");
    expect(got.markdown).toContain("## hello_world.rb\n\n```ruby\nclass HelloWorld");
    expect(got.markdown).toContain("## NOTES.md\n\nRun it with `ruby hello_world.rb`.");
  });
});

describe("github reader: limits and drift", () => {
  it("a spent rate limit is rate_limited with the reset as retryAfter, and the page is read the generic way", async () => {
    const reset = Math.floor(Date.now() / 1000) + 600;
    h.sim.route(API, /^\/repos\/octocat\/octo-tools/, {
      ...fixture("rate-limited.json"),
      status: 403,
      headers: {
        "content-type": "application/json; charset=utf-8",
        "x-ratelimit-limit": "60",
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": String(reset),
      },
    });
    h.sim.route("github.com", "/octocat/octo-tools", html(article("octo-tools", PARAGRAPHS)));
    const got = await get("https://github.com/octocat/octo-tools");
    expect(got.status).toBe("ok");
    expect(got.source).toBe("extracted-html");
    const site = got.attempts[0];
    expect(site).toMatchObject({ provider: "site:github", status: "rate_limited" });
    expect(site.error).toMatch(/api\.github\.com rate limit reached \(HTTP 403\)/);
    expect(site.retryAfter).toBeGreaterThan(590);
    expect(site.retryAfter).toBeLessThanOrEqual(601);
  });

  it("an answer that spent the last request still serves, and the reader rests until the reset", async () => {
    const reset = Math.floor(Date.now() / 1000) + 900;
    const spent = (reply: SimReply): SimReply => ({
      ...reply,
      headers: { ...reply.headers, "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(reset) },
    });
    h.sim.route(API, "/repos/octocat/octo-tools", fixture("repo.json"));
    h.sim.route(API, "/repos/octocat/octo-tools/readme", spent(fixture("readme.json")));
    h.sim.route("github.com", "/octocat/hello-world", html(article("hello-world", PARAGRAPHS)));
    const ctx = h.ctx();
    const first = await read("https://github.com/octocat/octo-tools", { render: "never" }, ctx);
    expect(first).toMatchObject({ status: "ok", source: "site" });
    expect(first.markdown).toContain("## README.md");
    const askedFirst = h.sim.requests.filter((r) => r.host === API).length;
    const again = await read("https://github.com/octocat/hello-world", { render: "never" }, ctx);
    expect(again).toMatchObject({ status: "ok", source: "extracted-html" });
    expect(again.attempts[0]).toMatchObject({ provider: "site:github", status: "skipped" });
    expect(again.attempts[0].error).toMatch(/^resting until .* \(rate limit spent\)$/);
    expect(again.attempts[0].retryAfter).toBeGreaterThan(890);
    expect(h.sim.requests.filter((r) => r.host === API)).toHaveLength(askedFirst);
  });

  it("reads a rate limit from the headers alone: 429 and a secondary limit's retry-after count, a plain 403 does not", () => {
    const res = (status: number, headers: Record<string, string>) =>
      ({
        status,
        headers,
        retryAfter: headers["retry-after"] ? Number(headers["retry-after"]) : undefined,
      }) as never;
    const now = 1_800_000_000_000;
    expect(
      githubRateLimit(res(429, { "x-ratelimit-remaining": "0", "x-ratelimit-reset": "1800000090" }), now),
    ).toMatchObject({ status: "rate_limited", retryAfter: 90 });
    expect(
      githubRateLimit(res(403, { "retry-after": "30", "x-ratelimit-remaining": "12" }), now),
    ).toMatchObject({ status: "rate_limited", retryAfter: 30 });
    expect(githubRateLimit(res(403, { "x-ratelimit-remaining": "12" }), now)).toBeUndefined();
    expect(githubRateLimit(res(404, { "x-ratelimit-remaining": "0" }), now)).toBeUndefined();
  });

  it("a response that lost its shape is an error naming the reader and the field, and the generic ladder is tried", async () => {
    const { default_branch: _, ...drifted } = JSON.parse(siteFixture("github", "repo.json"));
    h.sim.route(API, "/repos/octocat/octo-tools", json(drifted));
    h.sim.route(API, "/repos/octocat/octo-tools/readme", fixture("readme.json"));
    h.sim.route("github.com", "/octocat/octo-tools", html(article("octo-tools", PARAGRAPHS)));
    const got = await get("https://github.com/octocat/octo-tools");
    expect(got.source).toBe("extracted-html");
    expect(got.attempts[0]).toMatchObject({ provider: "site:github", status: "error" });
    expect(got.attempts[0].error).toMatch(
      /^github reader: the response no longer has the expected shape \(api\.github\.com\/repos\/octocat\/octo-tools: default_branch: /,
    );
    expect(hosts()).toContain("github.com/octocat/octo-tools");
  });

  it("a drifted response with the page gone too is the page's failure, never a silent empty", async () => {
    h.sim.route(API, "/repos/octocat/octo-tools/issues/9", json({ id: 9, title: 42 }));
    h.sim.route(API, "/repos/octocat/octo-tools/issues/9/comments", json([]));
    const got = await get("https://github.com/octocat/octo-tools/issues/9");
    expect(got.status).toBe("error");
    expect(got.markdown).toBe("");
    expect(got.attempts[0].error).toMatch(/github reader: .*issues\/9: number: /);
  });
});

describe("github reader: GITHUB_TOKEN", () => {
  const repo = () => {
    h.sim.route(API, "/repos/octocat/octo-tools", fixture("repo.json"));
    h.sim.route(API, "/repos/octocat/octo-tools/readme", fixture("readme.json"));
  };

  it("is sent to api.github.com when set, and the read works as without it", async () => {
    repo();
    const token = "test-SECRET-github-token";
    const page = await read(
      "https://github.com/octocat/octo-tools",
      { maxChars: 20_000, render: "never" },
      h.ctx({ GITHUB_TOKEN: token }),
    );
    expect(page.status).toBe("ok");
    expect(page.reader?.name).toBe("github");
    const api = h.sim.requests.filter((r) => r.host === API);
    expect(api.length).toBeGreaterThan(0);
    for (const r of api) expect(r.headers.authorization).toBe(`Bearer ${token}`);
    expect(JSON.stringify(page)).not.toContain(token);
  });

  it("is not sent when unset, and never to another reader's hosts", async () => {
    repo();
    await get("https://github.com/octocat/octo-tools");
    expect(h.sim.requests.every((r) => r.headers.authorization === undefined)).toBe(true);
    h.sim.reset();
    h.sim.route(SE_HOST, "/2.3/questions/1", json({ items: [] }));
    await read(
      `https://stackoverflow.com/questions/1/x`,
      { render: "never" },
      h.ctx({ GITHUB_TOKEN: "test-SECRET-github-token" }),
    );
    expect(h.sim.requests.length).toBeGreaterThan(0);
    expect(h.sim.requests.every((r) => r.headers.authorization === undefined)).toBe(true);
  });
});

const SE_HOST = "api.stackexchange.com";

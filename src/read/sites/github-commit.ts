import type { Deadline } from "../../core/deadline.js";
import { oneLine } from "../../core/one-line.js";
import { Commit, githubJson } from "./github-api.js";
import type { SiteContext, SiteOutcome } from "./site-reader.js";
import { codeBlock, cutBody, dayOf, factLine } from "./site-text.js";

const MESSAGE_CHARS = 20_000;
/** A commit's diff: each file's patch cut to PATCH_CHARS, and at most DIFF_CHARS of patches in all. */
const PATCH_CHARS = 8_000;
const DIFF_CHARS = 60_000;

/** A commit: its message, author and date, then each file it changed with its patch, bounded. */
export async function readCommit(
  owner: string,
  repo: string,
  sha: string,
  ctx: SiteContext,
  deadline: Deadline,
): Promise<SiteOutcome> {
  const got = await githubJson(`/repos/${owner}/${repo}/commits/${sha}`, ctx, deadline, Commit);
  if (!got.ok) return got;
  const c = got.value;
  const [subject = "", ...rest] = c.commit.message.split("\n");
  const who = c.author?.login ?? c.commit.author?.name ?? undefined;
  const facts = factLine([
    `Commit \`${c.sha.slice(0, 12)}\` in ${owner}/${repo}`,
    who && `by ${who}`,
    dayOf(c.commit.author?.date ?? undefined),
    c.parents && c.parents.length > 1 && "a merge",
    c.stats && `+${c.stats.additions ?? 0} −${c.stats.deletions ?? 0}`,
  ]);
  const parts = [`# ${oneLine(subject, 300) || c.sha}`, facts];
  const body = rest.join("\n").trim();
  if (body) parts.push(cutBody(body, MESSAGE_CHARS));
  let budget = DIFF_CHARS;
  const files = c.files ?? [];
  if (files.length) parts.push(`## Files changed (${files.length})`);
  for (const f of files) {
    const from = f.previous_filename ? `\`${f.previous_filename}\` → ` : "";
    const head = `### ${from}\`${f.filename}\` (${f.status}, +${f.additions ?? 0} −${f.deletions ?? 0})`;
    if (!f.patch) {
      parts.push(`${head}\n\n*No text diff (binary, or too large for the API).*`);
      continue;
    }
    if (budget <= 0) {
      parts.push(
        `${head}\n\n*Diff not shown: the commit's diff is over ${DIFF_CHARS.toLocaleString("en-US")} characters.*`,
      );
      continue;
    }
    const patch = f.patch.length > PATCH_CHARS ? `${cutAtLine(f.patch, PATCH_CHARS)}\n…` : f.patch;
    budget -= patch.length;
    parts.push(`${head}\n\n${codeBlock(patch, "diff")}`);
  }
  return {
    ok: true,
    title: `${oneLine(subject, 300) || c.sha} · ${owner}/${repo}@${c.sha.slice(0, 7)}`,
    markdown: parts.join("\n\n"),
    via: "api.github.com",
    ...(who ? { byline: who } : {}),
    ...(c.commit.author?.date ? { published: c.commit.author.date } : {}),
  };
}

function cutAtLine(text: string, maxChars: number): string {
  const line = text.lastIndexOf("\n", maxChars);
  return text.slice(0, line > 0 ? line : maxChars);
}

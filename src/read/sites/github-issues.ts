import type { z } from "zod";
import type { Deadline } from "../../core/deadline.js";
import { oneLine } from "../../core/one-line.js";
import { Comments, githubJson, Issue, Pull, PullFiles } from "./github-api.js";
import type { SiteContext, SiteOutcome } from "./site-reader.js";
import { counted, cutBody, dayOf, factLine } from "./site-text.js";

const BODY_CHARS = 30_000;
const COMMENT_CHARS = 6_000;
/** Comments shown of an issue or pull request: the first ones, in order (the API's page holds 100). */
const MAX_COMMENTS = 50;
/** A pull request's changed files listed (one page of the API). */
const MAX_FILES = 100;

/**
 * An issue or pull request: title, state (a pull request's merged or draft), author, labels, body, the files a
 * pull request changes, then its comments in order, bounded.
 */
export async function readIssue(
  owner: string,
  repo: string,
  number: number,
  isPull: boolean,
  ctx: SiteContext,
  deadline: Deadline,
): Promise<SiteOutcome> {
  const path = `/repos/${owner}/${repo}`;
  const pullOf = () =>
    Promise.all([
      githubJson(`${path}/pulls/${number}`, ctx, deadline, Pull),
      githubJson(`${path}/pulls/${number}/files?per_page=${MAX_FILES}`, ctx, deadline, PullFiles),
    ]);
  const [issue, comments, early] = await Promise.all([
    githubJson(`${path}/issues/${number}`, ctx, deadline, Issue),
    githubJson(`${path}/issues/${number}/comments?per_page=100`, ctx, deadline, Comments),
    isPull ? pullOf() : undefined,
  ]);
  if (!issue.ok) return issue;
  if (!comments.ok) return comments;
  const i = issue.value;
  // An /issues/N URL of a pull request: GitHub shows it as the pull request, so it is read as one.
  const [pull, files] = early ?? (i.pull_request ? await pullOf() : []);
  if (pull && !pull.ok) return pull;
  // The file list adds to a pull request; only its drift, not its absence, fails the read.
  if (files && !files.ok && files.code === "reader_drift") return files;
  const p = pull?.value;
  const state = p?.merged ? "merged" : p?.draft && i.state === "open" ? "draft" : i.state;
  const facts = factLine([
    `${p ? "Pull request" : "Issue"} #${i.number} in ${owner}/${repo}`,
    `**${state}**${i.state_reason && i.state_reason !== "completed" && !p ? ` (${i.state_reason.replace(/_/g, " ")})` : ""}`,
    i.user && `by ${i.user.login}`,
    i.created_at && `opened ${dayOf(i.created_at)}`,
    i.closed_at && !p?.merged && `closed ${dayOf(i.closed_at)}`,
    counted(i.comments, "comment"),
    i.locked && "locked",
  ]);
  const head = [`# ${oneLine(i.title, 300)}`, facts];
  if (i.labels.length) head.push(`Labels: ${i.labels.map((l) => l.name).join(", ")}`);
  if (p)
    head.push(
      factLine([
        p.merged &&
          `merged${p.merged_by ? ` by ${p.merged_by.login}` : ""}${p.merged_at ? ` on ${dayOf(p.merged_at)}` : ""}`,
        p.head && p.base && `\`${p.head.label ?? p.head.ref}\` into \`${p.base.ref}\``,
        p.commits !== undefined && counted(p.commits, "commit"),
        p.changed_files !== undefined &&
          `${counted(p.changed_files, "file")} changed (+${p.additions ?? 0} −${p.deletions ?? 0})`,
      ]),
    );
  const body = i.body?.trim() ? cutBody(i.body.trim(), BODY_CHARS) : "*No description provided.*";
  const shown = comments.value.slice(0, MAX_COMMENTS);
  const parts = [head.join("\n\n"), body];
  if (files?.ok && files.value.length) parts.push(filesChanged(files.value, p?.changed_files));
  else if (files && !files.ok) parts.push(`[Files changed not read: ${files.message}]`);
  if (shown.length) {
    parts.push("## Comments");
    for (const c of shown) {
      const who = factLine([
        c.user?.login ?? "ghost",
        c.author_association && c.author_association !== "NONE" && c.author_association.toLowerCase(),
        dayOf(c.created_at ?? undefined),
      ]);
      parts.push(`### ${who}\n\n${c.body?.trim() ? cutBody(c.body.trim(), COMMENT_CHARS) : "*(empty)*"}`);
    }
  }
  const more = i.comments - shown.length;
  if (more > 0)
    parts.push(
      `[${counted(more, "more comment")} not shown: https://github.com/${owner}/${repo}/${p ? "pull" : "issues"}/${number}]`,
    );
  return {
    ok: true,
    title: `${oneLine(i.title, 300)} · ${owner}/${repo}#${i.number}`,
    markdown: parts.join("\n\n"),
    via: "api.github.com",
    ...(i.user ? { byline: i.user.login } : {}),
    ...(i.created_at ? { published: i.created_at } : {}),
  };
}

function filesChanged(files: z.output<ReturnType<typeof PullFiles>>, total: number | undefined): string {
  const lines = files.map((f) => {
    const from = f.previous_filename ? `\`${f.previous_filename}\` → ` : "";
    return `- ${from}\`${f.filename}\` (${f.status}, +${f.additions ?? 0} −${f.deletions ?? 0})`;
  });
  const more = (total ?? files.length) - files.length;
  if (more > 0) lines.push(`- … ${counted(more, "more file")}`);
  return `## Files changed\n\n${lines.join("\n")}`;
}

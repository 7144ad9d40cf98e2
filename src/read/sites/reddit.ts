import type { z } from "zod";
import type { Deadline } from "../../core/deadline.js";
import { lazySchema } from "../../core/lazy-zod.js";
import { oneLine } from "../../core/one-line.js";
import { fetchSite, fetchSiteJson } from "./site-json.js";
import { readerDrift, type SiteContext, type SiteOutcome, type SiteReader } from "./site-reader.js";
import { counted, cutBody, dayOf, factLine, isoOfSeconds, quoted } from "./site-text.js";

/**
 * A Reddit thread from its `.json` (the post and its comments as a tree), never the page: www.reddit.com serves
 * an app shell whose comments load by script. Comments are the top ones by score, nested, bounded in depth and
 * in count, each with its author and score.
 */
export const redditReader: SiteReader = {
  name: "reddit",
  hosts: [
    "reddit.com",
    "www.reddit.com",
    "old.reddit.com",
    "new.reddit.com",
    "np.reddit.com",
    "m.reddit.com",
    "redd.it",
  ],
  takes: (url) => threadOf(url) !== undefined || shareLinkOf(url),
  read: readThread,
};

const REDDIT_MS = 10_000;
/** Reply levels shown below a top-level comment (the top level is depth 0). */
export const MAX_DEPTH = 4;
/** Comments shown in all, in the thread's order, depth first. */
export const MAX_COMMENTS = 80;
const POST_CHARS = 20_000;
const COMMENT_CHARS = 3_000;
/**
 * Reddit asks API clients for a descriptive User-Agent of their own rather than a browser's; `.json` is its
 * unauthenticated API.
 */
const USER_AGENT = "websift/0.1 (site reader; reads public threads on behalf of a user)";

interface ThreadRef {
  id: string;
  /** A comment's permalink: the thread from that comment down. */
  comment?: string;
  sort?: string;
}

const SORTS = new Set(["confidence", "top", "new", "controversial", "old", "qa"]);

export function threadOf(url: URL): ThreadRef | undefined {
  const parts = url.pathname.split("/").filter(Boolean);
  const sort = url.searchParams.get("sort") ?? undefined;
  const withSort = (ref: ThreadRef): ThreadRef => (sort && SORTS.has(sort) ? { ...ref, sort } : ref);
  if (url.hostname.toLowerCase() === "redd.it")
    return parts.length === 1 && /^[a-z0-9]{4,12}$/i.test(parts[0])
      ? { id: parts[0].toLowerCase() }
      : undefined;
  // /r/SUB/comments/ID[/slug[/COMMENT]], /comments/ID[/slug[/COMMENT]], /user/NAME/comments/ID/…
  const at = parts.indexOf("comments");
  if (at !== 0 && at !== 2) return undefined;
  if (at === 2 && parts[0] !== "r" && parts[0] !== "user" && parts[0] !== "u") return undefined;
  const [id, , comment] = parts.slice(at + 1);
  if (!id || !/^[a-z0-9]{4,12}$/i.test(id)) return undefined;
  const ref: ThreadRef = { id: id.toLowerCase() };
  if (comment && /^[a-z0-9]{4,12}$/i.test(comment)) ref.comment = comment.toLowerCase();
  return withSort(ref);
}

/** `/r/SUB/s/CODE`: a share link, which redirects to the thread. */
function shareLinkOf(url: URL): boolean {
  return /^\/r\/[^/]+\/s\/[A-Za-z0-9]+\/?$/.test(url.pathname) && url.hostname.toLowerCase() !== "redd.it";
}

async function readThread(url: URL, ctx: SiteContext, outer: Deadline): Promise<SiteOutcome> {
  const deadline = outer.child(REDDIT_MS);
  let ref = threadOf(url);
  if (!ref) {
    const shared = await resolveShareLink(url, ctx, deadline);
    if (!shared.ok) return shared;
    ref = shared.ref;
  }
  const path = ref.comment ? `/comments/${ref.id}/_/${ref.comment}` : `/comments/${ref.id}`;
  const query = new URLSearchParams({
    raw_json: "1",
    sort: ref.sort ?? "top",
    limit: String(MAX_COMMENTS * 2),
    depth: String(MAX_DEPTH + 1),
  });
  const endpoint = `https://www.reddit.com${path}.json?${query}`;
  const got = await fetchSiteJson("reddit", endpoint, ctx, deadline, Thread, {
    headers: { "user-agent": USER_AGENT },
  });
  if (!got.ok) return got;
  const [postListing, commentListing] = got.value;
  const post = postListing.data.children.find((c) => c.kind === "t3")?.data;
  if (!post) return readerDrift("reddit", "the thread's first listing holds no post (t3)");
  const p = postOf(post);
  if (!p) return readerDrift("reddit", "the post has no title");

  const facts = factLine([
    p.subreddit,
    p.score !== undefined && counted(p.score, "point"),
    p.upvoteRatio !== undefined && `${Math.round(p.upvoteRatio * 100)}% upvoted`,
    p.author && `by u/${p.author}`,
    dayOf(p.created),
    p.comments !== undefined && counted(p.comments, "comment"),
    p.flair && `flair: ${p.flair}`,
    p.locked && "locked",
    p.over18 && "NSFW",
  ]);
  const parts = [`# ${p.title}`, facts];
  if (p.link) parts.push(`Link: ${p.link}`);
  if (p.text) parts.push(cutBody(p.text, POST_CHARS));
  const tree = renderComments(commentListing.data.children);
  if (ref.comment) parts.push("*The thread from one comment down (a comment's permalink).*");
  parts.push(
    tree.lines.length
      ? `## Top comments${ref.sort && ref.sort !== "top" ? ` (sorted by ${ref.sort})` : ""}`
      : "*No comments.*",
  );
  parts.push(...tree.lines);
  if (tree.left > 0) parts.push(`[${counted(tree.left, "more comment")} not shown]`);
  const permalink = p.permalink ? `https://www.reddit.com${p.permalink}` : undefined;
  return {
    ok: true,
    title: p.title,
    markdown: parts.join("\n\n"),
    via: "thread .json",
    ...(permalink ? { finalUrl: permalink } : {}),
    ...(p.link ? { links: [p.link] } : {}),
    ...(p.author ? { byline: p.author } : {}),
    ...(p.created ? { published: p.created } : {}),
  };
}

async function resolveShareLink(
  url: URL,
  ctx: SiteContext,
  deadline: Deadline,
): Promise<{ ok: true; ref: ThreadRef } | Extract<SiteOutcome, { ok: false }>> {
  const res = await ctx.net.request(url.href, {
    deadline,
    followRedirects: false,
    headers: { "user-agent": USER_AGENT },
  });
  if (!res.ok) return { ok: false, status: res.status, code: res.code, message: res.message };
  const location = res.headers.location;
  const target = location ? safeUrl(location, url.href) : undefined;
  const ref =
    target && redditReader.hosts.includes(target.hostname.toLowerCase()) ? threadOf(target) : undefined;
  if (ref) return { ok: true, ref };
  if (res.status >= 300 && res.status < 400)
    return readerDrift("reddit", "a share link that does not lead to a thread");
  const failed = await fetchSite(url.href, ctx, deadline);
  return failed.ok ? readerDrift("reddit", "a share link that does not redirect") : failed;
}

function safeUrl(href: string, base: string): URL | undefined {
  try {
    return new URL(href, base);
  } catch {
    return undefined;
  }
}

type Child = z.output<ReturnType<typeof Thing>>;

/** Depth first in the thread's order, at most MAX_COMMENTS shown and MAX_DEPTH levels of replies. */
function renderComments(top: Child[]): { lines: string[]; left: number } {
  const lines: string[] = [];
  let left = 0;
  let shown = 0;
  const walk = (children: Child[], depth: number) => {
    for (const child of children) {
      if (child.kind === "more") {
        const n = Number(child.data.count ?? 0);
        if (n > 0) left += n;
        continue;
      }
      if (child.kind !== "t1") continue;
      const c = child.data;
      const replies = repliesOf(c.replies);
      const body = typeof c.body === "string" ? c.body.trim() : "";
      const gone = body === "[deleted]" || body === "[removed]";
      if (shown >= MAX_COMMENTS || depth > MAX_DEPTH) {
        left += 1 + countAll(replies);
        continue;
      }
      // A deleted comment stands only to keep its replies in place.
      if (gone && !replies.length) continue;
      shown++;
      const head = factLine([
        `**${typeof c.author === "string" && c.author !== "[deleted]" ? `u/${c.author}` : "[deleted]"}**`,
        typeof c.score === "number" && c.score_hidden !== true && counted(c.score, "point"),
        dayOf(isoOfSeconds(typeof c.created_utc === "number" ? c.created_utc : undefined)),
        c.is_submitter === true && "OP",
        c.stickied === true && "pinned",
        typeof c.distinguished === "string" && c.distinguished,
      ]);
      lines.push(quoted(`${head}\n\n${body ? cutBody(body, COMMENT_CHARS) : "*(empty)*"}`, depth));
      walk(replies, depth + 1);
    }
  };
  walk(top, 0);
  return { lines, left };
}

function repliesOf(replies: unknown): Child[] {
  const parsed = Listing().safeParse(replies);
  return parsed.success ? parsed.data.data.children : [];
}

function countAll(children: Child[]): number {
  let n = 0;
  for (const child of children) {
    if (child.kind === "more") n += Number(child.data.count ?? 0);
    else if (child.kind === "t1") n += 1 + countAll(repliesOf(child.data.replies));
  }
  return n;
}

function postOf(data: Record<string, unknown>) {
  const title = typeof data.title === "string" ? oneLine(data.title, 300) : "";
  if (!title) return undefined;
  const str = (k: string) =>
    typeof data[k] === "string" && (data[k] as string).trim() ? (data[k] as string).trim() : undefined;
  const num = (k: string) => (typeof data[k] === "number" ? (data[k] as number) : undefined);
  const isSelf = data.is_self === true;
  const url = str("url");
  const author = str("author");
  return {
    title,
    text: str("selftext"),
    author: author && author !== "[deleted]" ? author : undefined,
    subreddit: str("subreddit_name_prefixed") ?? (str("subreddit") ? `r/${str("subreddit")}` : undefined),
    score: num("score"),
    upvoteRatio: num("upvote_ratio"),
    comments: num("num_comments"),
    created: isoOfSeconds(num("created_utc")),
    flair: str("link_flair_text"),
    permalink: str("permalink"),
    link: !isSelf && url && /^https?:\/\//.test(url) ? url : undefined,
    locked: data.locked === true,
    over18: data.over_18 === true,
  };
}

// A thing's `data` is read field by field where it is used: Reddit's objects carry a hundred fields, and a
// comment's `replies` is a Listing or "" (none).
const Thing = lazySchema((z) =>
  z.object({ kind: z.string(), data: z.record(z.string(), z.unknown()) }).transform((t) => ({
    kind: t.kind,
    data: t.data as {
      [key: string]: unknown;
      count?: number;
      replies?: unknown;
    },
  })),
);
const Listing = lazySchema((z) =>
  z.object({ kind: z.literal("Listing"), data: z.object({ children: z.array(Thing()) }) }),
);
/** A thread's `.json`: the post's listing, then the comments' listing. */
const Thread = lazySchema((z) => z.tuple([Listing(), Listing()]));

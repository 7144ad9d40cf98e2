import type { z } from "zod";
import type { Deadline } from "../../core/deadline.js";
import { lazySchema } from "../../core/lazy-zod.js";
import { oneLine } from "../../core/one-line.js";
import { maybe, maybeText } from "../../provider-http/json-fields.js";
import { fetchSiteJson, type SiteFailure } from "./site-json.js";
import { type SiteContext, type SiteOutcome, type SiteReader, siteNotFound } from "./site-reader.js";
import { counted, cutBody, dayOf, factLine, isoOfSeconds, quoted } from "./site-text.js";

/**
 * A Hacker News item (story, Ask/Show HN, job, poll or a comment) and its comment tree, bounded.
 *
 * The tree comes from Algolia's items API (hn.algolia.com/api/v1/items/ID): one request for the whole thread,
 * where the official Firebase API needs one request per comment (hundreds for a busy story). Algolia orders
 * replies by time, not as HN ranks them, so the story's own Firebase item is asked beside it (one small request,
 * in parallel) for `kids`, the top-level comments in HN's order, and its current score. When Algolia cannot
 * answer, the tree is walked on Firebase itself, a bounded number of comments with bounded concurrency.
 */
export const hackerNewsReader: SiteReader = {
  name: "hackernews",
  hosts: ["news.ycombinator.com"],
  takes: (url) => itemIdOf(url) !== undefined,
  read: readItem,
};

const ALGOLIA = "https://hn.algolia.com/api/v1/items";
const FIREBASE = "https://hacker-news.firebaseio.com/v0/item";
const HN_MS = 10_000;
/** Reply levels shown below a top-level comment (the top level is depth 0). */
export const MAX_DEPTH = 4;
export const MAX_COMMENTS = 80;
/** Firebase requests in flight at once when the tree is walked there. */
export const FIREBASE_CONCURRENCY = 6;
const TEXT_CHARS = 20_000;
const COMMENT_CHARS = 3_000;

export function itemIdOf(url: URL): number | undefined {
  if (url.pathname !== "/item") return undefined;
  const id = Number(url.searchParams.get("id"));
  return Number.isInteger(id) && id > 0 ? id : undefined;
}

/** One item of the thread, whichever API gave it; `text` is HN's HTML. */
interface Node {
  id: number;
  type?: string;
  author?: string;
  title?: string;
  url?: string;
  text?: string;
  points?: number;
  time?: number;
  storyId?: number;
  descendants?: number;
  children: Node[];
  /** Replies HN has that were not fetched (Firebase walk: past the bounds). */
  unfetched?: number;
}

async function readItem(url: URL, ctx: SiteContext, outer: Deadline): Promise<SiteOutcome> {
  const id = itemIdOf(url);
  if (id === undefined)
    return { ok: false, status: "error", code: "not_taken", message: "hackernews reader: no item id" };
  const deadline = outer.child(HN_MS);
  const [tree, ranked] = await Promise.all([
    fetchSiteJson("hackernews", `${ALGOLIA}/${id}`, ctx, deadline, AlgoliaItem),
    fetchSiteJson("hackernews", `${FIREBASE}/${id}.json`, ctx, deadline, FirebaseItem),
  ]);
  let root: Node;
  let via: string;
  if (tree.ok) {
    root = fromAlgolia(tree.value);
    via = "hn.algolia.com";
    if (ranked.ok && ranked.value) {
      root = { ...root, children: inOrder(root.children, ranked.value.kids) };
      if (ranked.value.score !== undefined) root.points = ranked.value.score;
      if (ranked.value.descendants !== undefined) root.descendants = ranked.value.descendants;
      via = "hn.algolia.com + hacker-news.firebaseio.com";
    }
  } else if (ranked.ok) {
    if (!ranked.value) return notFound(id);
    ctx.log(`read: hackernews reader: ${tree.message}; walking the thread on Firebase`);
    root = await walkFirebase(ranked.value, ctx, deadline);
    via = "hacker-news.firebaseio.com";
  } else {
    return tree;
  }
  return render(root, url, via);
}

/** The top-level comments in HN's order (its `kids`), those it does not list after them in their own order. */
function inOrder(children: Node[], kids: number[] | undefined): Node[] {
  if (!kids?.length) return children;
  const rank = new Map(kids.map((k, i) => [k, i]));
  return children
    .map((c, i) => ({ c, i }))
    .sort((a, b) => (rank.get(a.c.id) ?? kids.length + a.i) - (rank.get(b.c.id) ?? kids.length + b.i))
    .map(({ c }) => c);
}

function fromAlgolia(item: z.output<ReturnType<typeof AlgoliaItem>>): Node {
  const children: Node[] = [];
  for (const child of item.children) {
    const parsed = AlgoliaItem().safeParse(child);
    if (parsed.success) children.push(fromAlgolia(parsed.data));
  }
  return {
    id: item.id,
    ...optional({
      type: item.type,
      author: item.author,
      title: item.title,
      url: item.url,
      text: item.text,
      points: item.points,
      time: item.created_at_i,
      storyId: item.story_id,
    }),
    children,
  };
}

/** The tree on Firebase: each level's items fetched FIREBASE_CONCURRENCY at a time, MAX_COMMENTS in all. */
async function walkFirebase(
  item: NonNullable<z.output<ReturnType<typeof FirebaseItem>>>,
  ctx: SiteContext,
  deadline: Deadline,
): Promise<Node> {
  let budget = MAX_COMMENTS;
  const node = (i: NonNullable<z.output<ReturnType<typeof FirebaseItem>>>): Node => ({
    id: i.id,
    ...optional({
      type: i.type,
      author: i.by,
      title: i.title,
      url: i.url,
      text: i.deleted || i.dead ? undefined : i.text,
      points: i.score,
      time: i.time,
      descendants: i.descendants,
      storyId: i.type === "story" ? i.id : undefined,
    }),
    children: [],
  });
  const fill = async (parent: Node, kids: number[], depth: number): Promise<void> => {
    const take = depth > MAX_DEPTH ? [] : kids.slice(0, Math.max(0, budget));
    budget -= take.length;
    const fetched = await mapLimited(take, FIREBASE_CONCURRENCY, (kid) =>
      fetchSiteJson("hackernews", `${FIREBASE}/${kid}.json`, ctx, deadline, FirebaseItem),
    );
    parent.unfetched = kids.length - take.length;
    const children: { node: Node; kids: number[] }[] = [];
    for (const got of fetched) {
      if (!got.ok || !got.value) {
        parent.unfetched++;
        continue;
      }
      children.push({ node: node(got.value), kids: got.value.kids ?? [] });
    }
    parent.children = children.map((c) => c.node);
    for (const c of children) if (c.kids.length) await fill(c.node, c.kids, depth + 1);
  };
  const root = node(item);
  await fill(root, item.kids ?? [], 0);
  return root;
}

async function mapLimited<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}

async function render(root: Node, url: URL, via: string): Promise<SiteOutcome> {
  const { htmlFragmentToMarkdown } = await import("../extract/fragment.js");
  const links: string[] = [];
  const md = async (html: string | undefined) => {
    if (!html) return "";
    const out = await htmlFragmentToMarkdown(html, url.href);
    links.push(...out.links);
    return out.markdown;
  };
  const isComment = root.type === "comment";
  const title = root.title
    ? oneLine(root.title, 300)
    : isComment
      ? `Comment by ${root.author ?? "[deleted]"}`
      : `Item ${root.id}`;
  const facts = factLine([
    root.points !== undefined && counted(root.points, "point"),
    root.author && `by ${root.author}`,
    dayOf(isoOfSeconds(root.time)),
    !isComment && root.descendants !== undefined && counted(root.descendants, "comment"),
    root.type && root.type !== "story" && root.type,
  ]);
  const parts = [`# ${title}`];
  if (root.url) parts.push(`Link: ${root.url}`);
  parts.push(facts);
  if (isComment && root.storyId)
    parts.push(`On the story https://news.ycombinator.com/item?id=${root.storyId}`);
  const text = await md(root.text);
  if (text) parts.push(cutBody(text, TEXT_CHARS));

  let shown = 0;
  let left = 0;
  const lines: string[] = [];
  const walk = async (children: Node[], depth: number) => {
    for (const c of children) {
      if (shown >= MAX_COMMENTS || depth > MAX_DEPTH) {
        left += countAll([c]);
        continue;
      }
      // A deleted or flagged comment stands only to keep its replies in place.
      if (!c.text && !c.children.length) continue;
      shown++;
      const head = factLine([`**${c.author ?? "[deleted]"}**`, dayOf(isoOfSeconds(c.time))]);
      const body = c.text ? cutBody(await md(c.text), COMMENT_CHARS) : "*[deleted]*";
      lines.push(quoted(`${head}\n\n${body}`, depth));
      left += c.unfetched ?? 0;
      await walk(c.children, depth + 1);
    }
  };
  await walk(root.children, 0);
  left += root.unfetched ?? 0;
  parts.push(lines.length ? (isComment ? "## Replies" : "## Comments") : "*No comments.*", ...lines);
  if (left > 0) parts.push(`[${counted(left, "more comment")} not shown]`);
  const published = isoOfSeconds(root.time);
  return {
    ok: true,
    title,
    markdown: parts.join("\n\n"),
    via,
    finalUrl: `https://news.ycombinator.com/item?id=${root.id}`,
    links: [...new Set([...(root.url ? [root.url] : []), ...links])],
    ...(root.author ? { byline: root.author } : {}),
    ...(published ? { published } : {}),
  };
}

function countAll(nodes: Node[]): number {
  let n = 0;
  for (const c of nodes)
    n += (c.text || c.children.length ? 1 : 0) + (c.unfetched ?? 0) + countAll(c.children);
  return n;
}

function notFound(id: number): SiteFailure {
  return siteNotFound(`hackernews reader: item ${id} not found`);
}

/** The fields that have a value (zod's optional fields come back as undefined, or null from the APIs). */
function optional<T extends Record<string, unknown>>(
  fields: T,
): Partial<{ [K in keyof T]: NonNullable<T[K]> }> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) if (v !== undefined && v !== null) out[k] = v;
  return out as Partial<{ [K in keyof T]: NonNullable<T[K]> }>;
}

const num = lazySchema((z) => maybe(z.number()));
// Algolia sends null for a comment's title, url and points, and for a deleted comment's author and text.
const AlgoliaItem = lazySchema((z) =>
  z.object({
    id: z.number(),
    type: maybeText(),
    author: maybeText(),
    title: maybeText(),
    url: maybeText(),
    text: maybeText(),
    points: num(),
    created_at_i: num(),
    story_id: num(),
    children: z.array(z.unknown()),
  }),
);

/** An item of the official API; `null` is its answer for an id that does not exist. */
const FirebaseItem = lazySchema((z) =>
  z
    .object({
      id: z.number(),
      type: maybeText(),
      by: maybeText(),
      title: maybeText(),
      url: maybeText(),
      text: maybeText(),
      score: num(),
      time: num(),
      descendants: num(),
      kids: maybe(z.array(z.number())),
      deleted: maybe(z.boolean()),
      dead: maybe(z.boolean()),
    })
    .nullable(),
);

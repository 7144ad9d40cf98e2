import type { Deadline } from "../../core/deadline.js";
import { errorLine, oneLine } from "../../core/one-line.js";
import type { Failure } from "../../core/status.js";
import { decodeText, knownEncoding } from "../../net/decode.js";
import { INLINE_BELOW_CHARS, runOnPool } from "../page-pool.js";
import type { Feed, FeedItem } from "./feed-parse.js";
import type { FormatReader, FormatText } from "./format-reader.js";

/** Items shown; the rest are counted in a closing note. */
export const MAX_FEED_ITEMS = 50;
/** An item's summary, cut at a word: enough to tell what it is about, not the article. */
export const SUMMARY_CHARS = 300;
// A summary's HTML is cut before it is converted: a feed may carry each whole article as its "description".
const SUMMARY_HTML_CHARS = 16 * 1024;

export type FeedOutcome = FormatText | ({ ok: false } & Failure);

/** RSS, Atom and JSON Feed in the read ladder: the feed's title, then its items in feed order. */
export const feedReader: FormatReader = {
  name: "feed",
  source: "feed",
  read: (bytes, file, deadline) => feedToMarkdown(bytes, file.url, deadline, file.charset),
};

/** A feed's bytes → markdown, inline for a small feed and on the page pool for a large one. */
export async function feedToMarkdown(
  bytes: Uint8Array,
  url: string,
  deadline: Deadline,
  charset?: string,
): Promise<FeedOutcome> {
  if (bytes.length < INLINE_BELOW_CHARS) return feedToMarkdownHere(bytes, url, deadline, charset);
  const copy = new Uint8Array(bytes);
  const task = { bytes: copy, url, ...(charset ? { charset } : {}), remainingMs: deadline.remaining() };
  const ran = await runOnPool<FeedOutcome>("feed", task, deadline, "reading the feed", [copy.buffer]);
  return ran.ok ? ran.value : { ...ran, ok: false };
}

/** feedToMarkdown on this thread (the page pool's worker runs it for a large feed). */
export async function feedToMarkdownHere(
  bytes: Uint8Array,
  url: string,
  deadline: Deadline,
  charset?: string,
): Promise<FeedOutcome> {
  // Loaded with the first feed: the XML tree and the fragment converter are the extractor's modules.
  const [{ parseFeed }, { htmlFragmentToMarkdown }] = await Promise.all([
    import("./feed-parse.js"),
    import("../extract/fragment.js"),
  ]);
  let parsed: ReturnType<typeof parseFeed>;
  try {
    parsed = parseFeed(feedText(bytes, charset), url, MAX_FEED_ITEMS);
  } catch (err) {
    const reason = errorLine(err, 160);
    return { ok: false, status: "error", code: "feed", message: `could not read the feed: ${reason}` };
  }
  if (!parsed.ok)
    return { ok: false, status: "error", code: "feed", message: `could not read the feed: ${parsed.reason}` };
  const { feed } = parsed;
  const summaries: (string | undefined)[] = [];
  for (const item of feed.items) {
    if (deadline.expired()) break;
    summaries.push(await summaryOf(item, url, htmlFragmentToMarkdown));
  }
  if (summaries.length === 0 && feed.items.length > 0 && deadline.expired())
    return { ok: false, status: "timeout", code: "timeout", message: "timeout while reading the feed" };
  const shown = feed.items.slice(0, summaries.length);
  return {
    ok: true,
    title: feed.title ?? new URL(url).host,
    markdown: renderFeed(feed, shown, summaries, shown.length < feed.items.length),
    links: shown.flatMap((item) => [item.link, item.enclosure?.url].filter((l): l is string => !!l)),
  };
}

type FragmentToMarkdown = (html: string, baseUrl: string) => Promise<{ markdown: string }>;

async function summaryOf(item: FeedItem, url: string, toMarkdown: FragmentToMarkdown) {
  const summary = item.summary;
  if (!summary) return undefined;
  let text: string;
  try {
    text =
      "text" in summary
        ? summary.text
        : (await toMarkdown(summary.html.slice(0, SUMMARY_HTML_CHARS), item.link ?? url)).markdown;
  } catch {
    // One item's unreadable markup costs that item its summary, not the feed its items.
    return undefined;
  }
  // One paragraph of prose: the summary's own headings and quote marks would read as the feed's structure.
  return oneLine(text.replace(/^\s*(#{1,6}|>)\s+/gm, ""), SUMMARY_CHARS) || undefined;
}

/** The feed as markdown: its title and description, one section per item, and what was left out. */
function renderFeed(
  feed: Feed,
  items: FeedItem[],
  summaries: (string | undefined)[],
  timedOut: boolean,
): string {
  const parts: string[] = [];
  if (feed.title) parts.push(`# ${feed.title}`);
  if (feed.description) parts.push(oneLine(feed.description, 600));
  const count = feed.totalItems === 1 ? "1 item" : `${feed.totalItems} items`;
  const kind = feed.kind === "JSON Feed" ? feed.kind : `${feed.kind} feed`;
  parts.push(`${kind} · ${count}${feed.link ? ` · ${feed.link}` : ""}`);
  items.forEach((item, i) => {
    const heading = `## ${item.title ? oneLine(item.title, 300) : "(untitled item)"}`;
    const facts = [item.link, item.date, item.author && `by ${oneLine(item.author, 120)}`].filter(Boolean);
    const lines = [heading, facts.join(" · ")];
    if (item.enclosure)
      lines.push(`Enclosure${item.enclosure.type ? ` (${item.enclosure.type})` : ""}: ${item.enclosure.url}`);
    parts.push(lines.filter(Boolean).join("\n"));
    if (summaries[i]) parts.push(summaries[i]!);
  });
  const left = feed.totalItems - items.length;
  const why = timedOut ? "the read's time ran out" : `${left} more were cut`;
  if (left > 0) parts.push(`[Feed: the first ${items.length} of ${feed.totalItems} items are shown; ${why}]`);
  else if (feed.totalItems === 0) parts.push("[Feed: no items]");
  return parts.join("\n\n");
}

/**
 * A feed's bytes as text, in RFC 7303's order for XML: a BOM, then the charset the server named, then the
 * XML declaration's encoding (which a browser's sniffing does not read), then valid UTF-8, then windows-1252.
 * JSON is UTF-8 whatever the header says (RFC 8259).
 */
function feedText(bytes: Uint8Array, charset?: string): string {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 200));
  const json = /^\s*[{[]/.test(head.replace(/^\u00ef\u00bb\u00bf/, ""));
  const declared = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1];
  // A header label no decoder knows ("utf8mb4", "none") says nothing: the declaration decides then.
  const named = json ? undefined : ((charset && knownEncoding(charset) ? charset : undefined) ?? declared);
  return decodeText(bytes, named ? `text/xml; charset=${named}` : "text/xml").text;
}

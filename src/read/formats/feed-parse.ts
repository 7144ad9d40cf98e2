import type { Element } from "domhandler";
import { decodeHTML } from "entities";
import { lazySchema } from "../../core/lazy-zod.js";
import { maybe, maybeListOf, maybeText } from "../../provider-http/json-fields.js";
import { localName } from "./xml-elements.js";
import {
  attribute,
  childNamed,
  childrenNamed,
  childText,
  innerMarkup,
  parseXml,
  rootElement,
  textOf,
} from "./xml-tree.js";

/**
 * RSS 2.0 (and 0.9x), RSS 1.0 (RDF), Atom 1.0 and JSON Feed 1.x read into one shape. htmlparser2 in XML mode,
 * already the extractor's parser, reads all three XML dialects: feed parsers on npm (feedsmith,
 * @rowanmanning/feed-parser) bring fast-xml-parser, a second XML parser whose DOCTYPE entities are expanded
 * unless configured off, for the few elements a reader of a feed needs.
 */
export type FeedKind = `RSS ${string}` | "Atom" | "JSON Feed";

/** A field that may hold markup: `html` goes through the fragment converter, `text` is shown as it is. */
export type FeedText = { html: string } | { text: string };

export interface FeedItem {
  title?: string;
  /** Absolute http(s) URL. */
  link?: string;
  /** ISO 8601 when the feed's date parses, else the feed's own text. */
  date?: string;
  author?: string;
  summary?: FeedText;
  /** A podcast episode's audio, a video, a file the item carries. */
  enclosure?: { url: string; type?: string };
}

export interface Feed {
  kind: FeedKind;
  title?: string;
  description?: string;
  link?: string;
  /** The first `maxItems` items, in feed order. */
  items: FeedItem[];
  /** Every item the feed holds. */
  totalItems: number;
}

export type FeedParse = { ok: true; feed: Feed } | { ok: false; reason: string };

const ATOM_NS = "http://www.w3.org/2005/Atom";

/** XML or JSON text of a feed served from `url`, keeping its first `maxItems` items. */
export function parseFeed(text: string, url: string, maxItems: number): FeedParse {
  if (/^\s*[{[]/.test(text)) return parseJsonFeed(text, url, maxItems);
  const root = rootElement(parseXml(text));
  if (!root) return { ok: false, reason: "no root element" };
  if (root.name === "rss") {
    const channel = childNamed(root, "channel");
    if (!channel) return { ok: false, reason: "<rss> without a <channel>" };
    // RSS 0.91 and 0.92 are read like 2.0, their subset, and named by their own version.
    const version = /^\d+(\.\d+)*$/.exec(attribute(root, "version")?.trim() ?? "")?.[0] ?? "2.0";
    const items = childrenNamed(channel, "item");
    return { ok: true, feed: rssFeed(`RSS ${version}`, channel, items, url, maxItems) };
  }
  if (localName(root.name) === "RDF") {
    const channel = childNamed(root, "*:channel");
    const items = childrenNamed(root, "*:item");
    if (!channel && items.length === 0) return { ok: false, reason: "<rdf:RDF> without a channel or items" };
    return { ok: true, feed: rssFeed("RSS 1.0", channel, items, url, maxItems) };
  }
  if (localName(root.name) === "feed" && Object.values(root.attribs).includes(ATOM_NS))
    return { ok: true, feed: atomFeed(root, url, maxItems) };
  return { ok: false, reason: `root element <${root.name}> is not a feed's` };
}

function rssFeed(
  kind: FeedKind,
  channel: Element | undefined,
  items: Element[],
  url: string,
  maxItems: number,
): Feed {
  return {
    kind,
    title: plain(channel && childText(channel, "title")),
    description: channel && rssDescription(channel),
    link: absolute(channel && childText(channel, "link"), url),
    items: items.slice(0, maxItems).map((item) => rssItem(item, url)),
    totalItems: items.length,
  };
}

function rssItem(item: Element, url: string): FeedItem {
  // A guid is the item's permalink unless it says otherwise (RSS 2.0: isPermaLink defaults to true).
  const guid = childNamed(item, "guid");
  const permalink = guid && attribute(guid, "isPermaLink") !== "false" ? textOf(guid).trim() : undefined;
  const description = childText(item, "description");
  const content = childText(item, "content:encoded");
  const html = description ?? content;
  return withoutEmpty({
    title: plain(childText(item, "title")),
    link: absolute(childText(item, "link"), url) ?? absolute(permalink, url),
    date: isoDate(childText(item, "pubDate") ?? childText(item, "dc:date")),
    author: plain(childText(item, "dc:creator") ?? childText(item, "author")),
    summary: html ? { html } : undefined,
    enclosure: enclosureOf(childNamed(item, "enclosure"), "url", url),
  });
}

/** A channel's description is text by the book and HTML in practice; it is read as HTML. */
function rssDescription(channel: Element): string | undefined {
  const raw = childText(channel, "description");
  return plain(raw && htmlAsText(raw));
}

function atomFeed(feed: Element, url: string, maxItems: number): Feed {
  const entries = childrenNamed(feed, "*:entry");
  return {
    kind: "Atom",
    title: plain(textConstructText(childNamed(feed, "*:title"))),
    description: plain(textConstructText(childNamed(feed, "*:subtitle"))),
    link: atomLink(feed, url),
    items: entries.slice(0, maxItems).map((entry) => atomEntry(entry, url)),
    totalItems: entries.length,
  };
}

function atomEntry(entry: Element, url: string): FeedItem {
  const author = childNamed(entry, "*:author");
  return withoutEmpty({
    title: plain(textConstructText(childNamed(entry, "*:title"))),
    link: atomLink(entry, url),
    date: isoDate(childText(entry, "*:published") ?? childText(entry, "*:updated")),
    author: plain(author && childText(author, "*:name")),
    summary: textConstruct(childNamed(entry, "*:summary")) ?? textConstruct(childNamed(entry, "*:content")),
    enclosure: enclosureOf(
      childrenNamed(entry, "*:link").find((l) => attribute(l, "rel") === "enclosure"),
      "href",
      url,
    ),
  });
}

function enclosureOf(el: Element | undefined, attr: string, base: string): FeedItem["enclosure"] {
  const href = el && absolute(attribute(el, attr), base);
  if (!href) return undefined;
  const type = el && plain(attribute(el, "type"));
  return type ? { url: href, type } : { url: href };
}

/** The alternate link: `rel="alternate"` or no rel at all (Atom's default), the first one. */
function atomLink(el: Element, url: string): string | undefined {
  const links = childrenNamed(el, "*:link");
  const alternate = links.find((l) => (attribute(l, "rel") ?? "alternate") === "alternate");
  return absolute(alternate && attribute(alternate, "href"), url);
}

/** An Atom text construct (RFC 4287 §3.1): `type` says whether it is text, escaped HTML or inline XHTML. */
function textConstruct(el: Element | undefined): FeedText | undefined {
  if (!el || attribute(el, "src")) return undefined;
  const type = attribute(el, "type") ?? "text";
  if (type === "xhtml") {
    const markup = innerMarkup(el).trim();
    return markup ? { html: markup } : undefined;
  }
  const text = textOf(el).trim();
  if (!text) return undefined;
  return type === "html" || type === "text/html" ? { html: text } : { text };
}

function textConstructText(el: Element | undefined): string | undefined {
  const value = textConstruct(el);
  if (!value) return undefined;
  return "text" in value ? value.text : htmlAsText(value.html);
}

/** A line of HTML (a title, a subtitle) as its text: tags out, then its own entities decoded. */
function htmlAsText(html: string): string {
  return decodeHTML(html.replace(/<[^>]*>/g, " "));
}

const JsonFeedBody = lazySchema((z) =>
  z.object({
    version: z.string().startsWith("https://jsonfeed.org/version/"),
    title: maybeText(),
    description: maybeText(),
    home_page_url: maybeText(),
    items: z.array(z.unknown()),
  }),
);

const JsonFeedItem = lazySchema((z) => {
  const author = z.object({ name: maybeText() });
  return z.object({
    id: maybe(z.union([z.string(), z.number()])),
    url: maybeText(),
    external_url: maybeText(),
    title: maybeText(),
    summary: maybeText(),
    content_text: maybeText(),
    content_html: maybeText(),
    date_published: maybeText(),
    date_modified: maybeText(),
    author: maybe(author),
    authors: maybeListOf(author),
    attachments: maybeListOf(z.object({ url: z.string(), mime_type: maybeText() })),
  });
});

function parseJsonFeed(text: string, url: string, maxItems: number): FeedParse {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, reason: "not JSON" };
  }
  const parsed = JsonFeedBody().safeParse(body);
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path.join(".") || "version";
    return { ok: false, reason: `not a JSON Feed (${field})` };
  }
  const feed = parsed.data;
  const items = feed.items.slice(0, maxItems).map((entry): FeedItem => {
    const item = JsonFeedItem().safeParse(entry);
    if (!item.success) return {};
    const i = item.data;
    const summary: FeedText | undefined = i.summary
      ? { text: i.summary }
      : i.content_text
        ? { text: i.content_text }
        : i.content_html
          ? { html: i.content_html }
          : undefined;
    return withoutEmpty({
      title: plain(i.title),
      link: absolute(i.url, url) ?? absolute(i.external_url, url),
      date: isoDate(i.date_published ?? i.date_modified),
      author: plain(i.authors[0]?.name ?? i.author?.name),
      summary,
      enclosure: attachmentOf(i.attachments[0], url),
    });
  });
  return {
    ok: true,
    feed: {
      kind: "JSON Feed",
      title: plain(feed.title),
      description: plain(feed.description),
      link: absolute(feed.home_page_url, url),
      items,
      totalItems: feed.items.length,
    },
  };
}

function attachmentOf(
  attachment: { url: string; mime_type?: string } | undefined,
  base: string,
): FeedItem["enclosure"] {
  const href = attachment && absolute(attachment.url, base);
  if (!href) return undefined;
  const type = plain(attachment.mime_type);
  return type ? { url: href, type } : { url: href };
}

/** A feed's date as ISO 8601: RSS writes RFC 822 ("Tue, 10 Jun 2003 04:00:00 GMT"), Atom and JSON RFC 3339. */
export function isoDate(raw: string | undefined): string | undefined {
  const text = raw?.trim();
  if (!text) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? text : new Date(ms).toISOString();
}

/** An http(s) URL resolved against the feed's own; anything else (javascript:, data:) is no link. */
function absolute(raw: string | undefined, base: string): string | undefined {
  const text = raw?.trim();
  if (!text) return undefined;
  try {
    const target = new URL(text, base);
    return target.protocol === "http:" || target.protocol === "https:" ? target.href : undefined;
  } catch {
    return undefined;
  }
}

function plain(text: string | undefined): string | undefined {
  const flat = text?.replace(/\s+/g, " ").trim();
  return flat || undefined;
}

function withoutEmpty(item: FeedItem): FeedItem {
  const out: FeedItem = {};
  for (const [key, value] of Object.entries(item))
    if (value !== undefined) Object.assign(out, { [key]: value });
  return out;
}

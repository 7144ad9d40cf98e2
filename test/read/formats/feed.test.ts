import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { Deadline } from "../../../src/core/deadline.js";
import { classifyContent } from "../../../src/read/content-kind.js";
import { feedToMarkdown, MAX_FEED_ITEMS, SUMMARY_CHARS } from "../../../src/read/formats/feed.js";
import { isoDate, parseFeed } from "../../../src/read/formats/feed-parse.js";
import { closePagePool, pagePoolState } from "../../../src/read/page-pool.js";

const fixture = (name: string) =>
  readFileSync(new URL(`../../fixtures/formats/feed/${name}`, import.meta.url));
const URL_OF_FEED = "https://feeds.example.org/news/feed";
const read = (bytes: Uint8Array, deadline = Deadline.after(10_000)) =>
  feedToMarkdown(bytes, URL_OF_FEED, deadline);

async function markdownOf(bytes: Uint8Array): Promise<string> {
  const out = await read(bytes);
  if (!out.ok) throw new Error(out.message);
  return out.markdown;
}

function rssWith(items: string[]): Buffer {
  return Buffer.from(
    `<?xml version="1.0"?><rss version="2.0"><channel><title>Many</title><link>https://many.example.com/</link>${items.join("")}</channel></rss>`,
  );
}

describe("feeds: each dialect to the same markdown", () => {
  it("RSS 2.0: title, description, then items in order with link, ISO date, author and an HTML summary as prose", async () => {
    const out = await read(fixture("rss2-channel.xml"));
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.title).toBe("Lowmouth Harbour News");
    expect(out.markdown.split("\n\n").slice(0, 5)).toEqual([
      "# Lowmouth Harbour News",
      "Tides, boats & the lifeboat station — weekly.",
      "RSS 2.0 feed · 3 items · https://harbour.example.org/",
      "## Spring tides this weekend\nhttps://harbour.example.org/2026/12/spring-tides · 2026-12-01T09:39:21.000Z · by Harbour Master",
      "The tide tables show a range of 6.1 m on Saturday, the largest this year.",
    ]);
    // A guid is the permalink when no <link> is given; a guid that says it is not one is never a link.
    expect(out.markdown).toContain(
      "## Lifeboat launched twice\nhttps://harbour.example.org/2026/11/lifeboat · 2026-11-30T17:05:00.000Z",
    );
    expect(out.markdown).toContain("on Monday night & again on Tuesday morning.");
    expect(out.markdown).not.toContain("alert(1)");
    // A relative link is resolved against the feed's URL; content:encoded stands in for a missing description.
    expect(out.markdown).toContain(
      "## Fish market hours change\nhttps://feeds.example.org/2026/11/market-hours · 2026-11-29T12:00:00.000Z\n\nNew hours From January",
    );
    expect(out.markdown).not.toContain("market-hours-2026");
    expect(out.links).toEqual([
      "https://harbour.example.org/2026/12/spring-tides",
      "https://harbour.example.org/2026/11/lifeboat",
      "https://feeds.example.org/2026/11/market-hours",
    ]);
    expect(out.markdown).not.toMatch(/<\/?(rss|item|channel|p|description)\b/);
  });

  it("RSS 1.0 (RDF): the channel, and the items that stand beside it", async () => {
    const md = await markdownOf(fixture("rss1-rdf.xml"));
    expect(md).toBe(
      [
        "# Upriver Quarry",
        "Granite and the people who cut it.",
        "RSS 1.0 feed · 2 items · https://quarry.example.org/",
        "## Stone for the breakwater\nhttps://quarry.example.org/breakwater · 2026-11-20T10:00:00.000Z",
        "Three summers of cutting for the new breakwater.",
        "## Huts on the shore\nhttps://quarry.example.org/huts · 2026-11-18T00:00:00.000Z",
      ].join("\n\n"),
    );
  });

  it("Atom: text constructs of each type, the alternate link, published before updated", async () => {
    const md = await markdownOf(fixture("atom.xml"));
    expect(md).toBe(
      [
        "# Tide Tables Explained",
        "Times & heights of high and low water",
        "Atom feed · 2 items · https://tides.example.net/",
        "## Neap tides and the quarter moons\nhttps://tides.example.net/neap · 2026-11-29T12:29:29.000Z · by Mark Tidewell\nEnclosure (audio/mpeg): https://tides.example.net/neap.mp3",
        "Neap tides follow the quarter moons, when the range is smallest.",
        "## Reading a tide table\nhttps://feeds.example.org/news/reading · 2026-11-28T09:00:00.000Z",
        "Each row is one day: two highs, two lows.",
      ].join("\n\n"),
    );
  });

  it("JSON Feed: items with HTML or text content, authors of 1.1, an untitled item said so", async () => {
    const md = await markdownOf(fixture("jsonfeed.json"));
    expect(md).toBe(
      [
        "# The Breakwater Log",
        "Notes from the end of the pier.",
        "JSON Feed · 2 items · https://log.example.com/",
        "## The second light\nhttps://log.example.com/second-light · 2026-12-01T03:00:00.000Z · by Ada Pier",
        "A green light now marks the end of the breakwater.",
        "## (untitled item)\nhttps://log.example.com/first · 2026-11-01T09:00:00.000Z",
        "First entry: the granite arrived by barge.",
      ].join("\n\n"),
    );
  });
});

describe("feeds: bounded and safe", () => {
  it("never expands the entities a DOCTYPE declares (billion laughs)", async () => {
    const bytes = fixture("billion-laughs.xml");
    const out = await read(bytes);
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.markdown).not.toContain("lollol");
    expect(out.markdown.length).toBeLessThan(bytes.length);
    expect(out.markdown).toContain("RSS 2.0 feed · 1 item · https://lol.example.com/");
  });

  it("never resolves an external entity (XXE)", async () => {
    const xxe = Buffer.from(
      `<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><rss version="2.0"><channel><title>x &xxe;</title><item><title>&xxe;</title></item></channel></rss>`,
    );
    const md = await markdownOf(xxe);
    expect(md).toContain("# x &xxe;");
    expect(md).not.toContain("root:");
  });

  it("shows the first items and says how many were cut", async () => {
    const items = Array.from(
      { length: 120 },
      (_, i) => `<item><title>Item ${i + 1}</title><link>https://many.example.com/${i + 1}</link></item>`,
    );
    const md = await markdownOf(rssWith(items));
    expect(md.match(/^## /gm)).toHaveLength(MAX_FEED_ITEMS);
    expect(md).toContain(`## Item ${MAX_FEED_ITEMS}\n`);
    expect(md).not.toContain(`## Item ${MAX_FEED_ITEMS + 1}\n`);
    expect(md.endsWith(`[Feed: the first ${MAX_FEED_ITEMS} of 120 items are shown; 70 more were cut]`)).toBe(
      true,
    );
  });

  it("names RSS 0.9x by its version, and says when the read's time cut the items short", async () => {
    const old = Buffer.from(
      `<rss version="0.91"><channel><title>Old</title><item><title>One</title></item><item><title>Two</title></item></channel></rss>`,
    );
    expect(await markdownOf(old)).toContain("RSS 0.91 feed · 2 items");
    // A deadline that passes once the first item is done (the inline path asks it only whether it has expired).
    let asked = 0;
    const afterOneItem = { expired: () => asked++ > 0 } as unknown as Deadline;
    const out = await read(old, afterOneItem);
    expect(out.ok && out.markdown).toMatch(
      /## One\n\n\[Feed: the first 1 of 2 items are shown; the read's time ran out\]$/,
    );
  });

  it("cuts a long summary at a word, with a mark, and keeps only http(s) links", async () => {
    const words = Array.from({ length: 200 }, (_, i) => `word${i}`).join(" ");
    const md = await markdownOf(
      rssWith([
        `<item><title>Long</title><link>javascript:alert(1)</link><description>&lt;p&gt;${words}&lt;/p&gt;</description></item>`,
      ]),
    );
    const summary = md.split("\n\n").at(-1)!;
    expect(summary.length).toBeLessThanOrEqual(SUMMARY_CHARS);
    expect(summary).toMatch(/ word\d+…$/);
    expect(md).not.toContain("javascript:");
    expect(md).toContain("## Long\n\n");
  });

  it("names a podcast episode's enclosure", async () => {
    const md = await markdownOf(
      rssWith([
        `<item><title>Episode 1</title><enclosure url="/audio/ep1.mp3" length="24986239" type="audio/mpeg"/></item>`,
      ]),
    );
    expect(md).toContain("## Episode 1\nEnclosure (audio/mpeg): https://feeds.example.org/audio/ep1.mp3");
  });

  it("refuses a body that is not a feed as an error naming why, never as raw XML", async () => {
    const out = await read(Buffer.from(`<?xml version="1.0"?><html><body>no feed</body></html>`));
    expect(out).toMatchObject({ ok: false, status: "error", code: "feed" });
    expect(!out.ok && out.message).toMatch(/could not read the feed: root element <html> is not a feed's/);
    expect(await read(Buffer.from(`{"version":"1.0","items":[]}`))).toMatchObject({
      ok: false,
      code: "feed",
    });
  });

  it("reads a feed of hundreds of KB on the page pool, within the deadline", async () => {
    const items = Array.from(
      { length: 3000 },
      (_, i) => `<item><title>Pool ${i}</title><description>${"text ".repeat(20)}</description></item>`,
    );
    const bytes = rssWith(items);
    const before = pagePoolState().completed;
    const md = await markdownOf(bytes);
    expect(bytes.length).toBeGreaterThan(64 * 1024);
    expect(pagePoolState().completed).toBe(before + 1);
    expect(md).toContain("3000 items");
    expect(await read(bytes, Deadline.after(0))).toMatchObject({ ok: false, status: "timeout" });
  });
  afterAll(() => closePagePool());
});

describe("feed dates and sniffing", () => {
  it("turns RSS's RFC 822 and Atom's RFC 3339 dates into ISO, and keeps a date it cannot read as written", () => {
    expect(isoDate("Tue, 10 Jun 2003 04:00:00 GMT")).toBe("2003-06-10T04:00:00.000Z");
    expect(isoDate("Tue, 10 Jun 2003 04:00:00 +0200")).toBe("2003-06-10T02:00:00.000Z");
    expect(isoDate("2003-12-13T18:30:02-05:00")).toBe("2003-12-13T23:30:02.000Z");
    expect(isoDate("sometime in spring")).toBe("sometime in spring");
    expect(isoDate("  ")).toBeUndefined();
  });

  it("knows a feed by its root whatever the label, and never takes a page or a lookalike for one", () => {
    const feed = { kind: "format", format: "feed" };
    const b = (s: string) => Buffer.from(s);
    expect(classifyContent("application/rss+xml", fixture("rss2-channel.xml"))).toEqual(feed);
    expect(classifyContent("text/xml", fixture("atom.xml"))).toEqual(feed);
    expect(classifyContent("application/xml", fixture("rss1-rdf.xml"))).toEqual(feed);
    expect(classifyContent("", fixture("billion-laughs.xml"))).toEqual(feed);
    expect(classifyContent("application/feed+json", fixture("jsonfeed.json"))).toEqual(feed);
    expect(classifyContent("application/json", fixture("jsonfeed.json"))).toEqual(feed);
    expect(
      classifyContent("text/plain", b("<!-- generator --><?xml-stylesheet href='s.xsl'?><rss/>")),
    ).toEqual(feed);
    // Atom's <feed> only in Atom's namespace; <rdf:RDF> only with RSS 1.0's.
    expect(classifyContent("text/xml", b(`<feed xmlns="urn:other"><entry/></feed>`))).toEqual({
      kind: "text",
    });
    expect(classifyContent("application/rdf+xml", b(`<rdf:RDF xmlns:rdf="x"><a/></rdf:RDF>`))).toEqual({
      kind: "text",
    });
    expect(classifyContent("text/html", fixture("rss2-channel.xml"))).toEqual(feed);
    expect(
      classifyContent("text/html", b("<!doctype html><html><head><title>rss</title></head></html>")),
    ).toEqual({
      kind: "html",
    });
    expect(classifyContent("application/rss+xml", b("<html><body>gone</body></html>"))).toEqual({
      kind: "text",
    });
    expect(classifyContent("application/json", b(`{"version":"2","items":[]}`))).toEqual({ kind: "json" });
  });

  it("parses the first items only, counting them all", () => {
    const parsed = parseFeed(
      rssWith(["<item><title>a</title></item>", "<item/>", "<item/>"]).toString(),
      URL_OF_FEED,
      1,
    );
    expect(parsed).toMatchObject({ ok: true, feed: { totalItems: 3, items: [{ title: "a" }] } });
  });
});

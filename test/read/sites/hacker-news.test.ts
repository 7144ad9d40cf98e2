import { describe, expect, it } from "vitest";
import { read } from "../../../src/read/read.js";
import { FIREBASE_CONCURRENCY, hackerNewsReader, MAX_COMMENTS } from "../../../src/read/sites/hacker-news.js";
import { siteReaderFor } from "../../../src/read/sites/registry.js";
import { article, html, PARAGRAPHS } from "../ladder/harness.js";
import { json, siteFixture } from "./site-fixtures.js";
import { useReadHarness } from "./site-harness.js";

const h = useReadHarness();

const ALGOLIA = "hn.algolia.com";
const FIREBASE = "hacker-news.firebaseio.com";
const STORY = "https://news.ycombinator.com/item?id=41000001";
const fixture = (name: string) => json(siteFixture("hackernews", name));
const get = (url: string) => read(url, { maxChars: 50_000, render: "never" }, h.ctx());

/** Comment authors in the order the result shows them, with their nesting. */
const commentOrder = (markdown: string) =>
  [...markdown.matchAll(/^((?:> )*)\*\*([^*]+)\*\*/gm)].map((m) => `${m[1].replace(/ /g, "")}${m[2]}`);

function serveFirebase(ids: number[]) {
  for (const id of ids) h.sim.route(FIREBASE, `/v0/item/${id}.json`, fixture(`firebase-${id}.json`));
}

describe("hackernews reader: which URLs it takes", () => {
  it("takes item pages only", () => {
    expect(siteReaderFor("https://news.ycombinator.com/item?id=8863")).toBe(hackerNewsReader);
    for (const url of [
      "https://news.ycombinator.com/",
      "https://news.ycombinator.com/news?p=2",
      "https://news.ycombinator.com/user?id=pg",
      "https://news.ycombinator.com/item?id=abc",
      "https://news.ycombinator.com/item",
    ])
      expect(siteReaderFor(url), url).toBeUndefined();
  });
});

describe("hackernews reader through read()", () => {
  it("reads the story and its comment tree from Algolia in one request, top-level comments in HN's ranked order", async () => {
    h.sim.route(ALGOLIA, "/api/v1/items/41000001", fixture("algolia-item.json"));
    h.sim.route(FIREBASE, "/v0/item/41000001.json", fixture("firebase-story.json"));
    const got = await get(STORY);
    expect(got).toMatchObject({
      status: "ok",
      source: "site",
      reader: { name: "hackernews", via: "hn.algolia.com + hacker-news.firebaseio.com" },
      title: "Show HN: A tide table in 200 lines of Rust",
      byline: "pg",
      finalUrl: STORY,
    });
    const md = got.markdown;
    expect(md).toMatch(
      /^# Show HN: A tide table in 200 lines of Rust\n\nLink: https:\/\/tides\.example\.org\/\n\n251 points · by pg · 2026-01-01 · 6 comments\n\n## Comments/,
    );
    // HN's `kids` order (dave before alice), a deleted comment kept for its reply, a childless flagged one left out.
    expect(commentOrder(md)).toEqual(["dave", "alice", ">bob", ">>carol", "[deleted]", ">erin"]);
    expect(md).toContain("```\n  code kept\n```");
    expect(md).toContain("> > Nested reply > with an entity.");
    expect(got.links).toContain("https://example.org/paper.pdf");
    expect(h.sim.requests.map((r) => r.host).sort()).toEqual([FIREBASE, ALGOLIA].sort());
  });

  it("walks the tree on Firebase when Algolia cannot answer, and says so in the log", async () => {
    h.sim.route(ALGOLIA, "/api/v1/items/41000001", { status: 503, body: "unavailable" });
    h.sim.route(FIREBASE, "/v0/item/41000001.json", fixture("firebase-story.json"));
    serveFirebase([41000020, 41000010, 41000011, 41000012, 41000030, 41000031]);
    const got = await get(STORY);
    expect(got.reader).toEqual({ name: "hackernews", via: "hacker-news.firebaseio.com" });
    expect(commentOrder(got.markdown)).toEqual(["dave", "alice", ">bob", ">>carol", "[deleted]", ">erin"]);
    expect(
      h.logs.some((l) =>
        /hackernews reader: hn\.algolia\.com answered HTTP 503; walking the thread on Firebase/.test(l),
      ),
    ).toBe(true);
  });

  it("walks Firebase with bounded concurrency and a bounded number of comments, counting the rest", async () => {
    const kids = Array.from({ length: MAX_COMMENTS + 20 }, (_, i) => 42000000 + i);
    h.sim.route(ALGOLIA, "/api/v1/items/41000001", { status: 503, body: "unavailable" });
    h.sim.route(
      FIREBASE,
      "/v0/item/41000001.json",
      json({ ...JSON.parse(siteFixture("hackernews", "firebase-story.json")), kids }),
    );
    let inFlight = 0;
    let most = 0;
    h.sim.route(FIREBASE, /^\/v0\/item\/42\d+\.json$/, async (req) => {
      inFlight++;
      most = Math.max(most, inFlight);
      // Held until the next turn of the loop, so requests of one lane overlap those of the others.
      await new Promise((r) => setImmediate(r));
      inFlight--;
      const id = Number(/(\d+)\.json/.exec(req.path)?.[1]);
      return json({
        id,
        type: "comment",
        by: `u${id}`,
        time: 1767225600,
        parent: 41000001,
        text: `comment ${id}`,
      });
    });
    const got = await get(STORY);
    expect(got.status).toBe("ok");
    const asked = h.sim.requests.filter((r) => /^\/v0\/item\/42/.test(r.path));
    expect(asked).toHaveLength(MAX_COMMENTS);
    expect(most).toBeLessThanOrEqual(FIREBASE_CONCURRENCY);
    expect(got.markdown).toContain(`comment ${kids[MAX_COMMENTS - 1]}`);
    expect(got.markdown).toContain("[20 more comments not shown]");
  });

  it("reads a comment's item as the comment, its replies and the story it is on", async () => {
    const comment = JSON.parse(siteFixture("hackernews", "algolia-item.json")).children[0];
    h.sim.route(ALGOLIA, "/api/v1/items/41000010", json(comment));
    h.sim.route(FIREBASE, "/v0/item/41000010.json", fixture("firebase-41000010.json"));
    const got = await get("https://news.ycombinator.com/item?id=41000010");
    expect(got.title).toBe("Comment by alice");
    expect(got.markdown).toContain("On the story https://news.ycombinator.com/item?id=41000001");
    expect(got.markdown).toContain("## Replies");
    expect(commentOrder(got.markdown)).toEqual(["bob", ">carol"]);
  });

  it("an item neither API has is not_found", async () => {
    h.sim.route(ALGOLIA, "/api/v1/items/99", json({ status: 404, error: "Not Found" }, 404));
    h.sim.route(FIREBASE, "/v0/item/99.json", json("null"));
    const got = await get("https://news.ycombinator.com/item?id=99");
    expect(got.attempts[0]).toMatchObject({
      provider: "site:hackernews",
      status: "error",
      error: "hackernews reader: item 99 not found",
    });
  });

  it("answers without the expected shape: an error naming the reader, and the generic ladder reads the page", async () => {
    h.sim.route(ALGOLIA, "/api/v1/items/41000001", json({ hits: [] }));
    h.sim.route(FIREBASE, "/v0/item/41000001.json", json({ item: 41000001 }));
    h.sim.route("news.ycombinator.com", "/item", html(article("Show HN: A tide table", PARAGRAPHS)));
    const got = await get(STORY);
    expect(got.source).toBe("extracted-html");
    expect(got.attempts[0]).toMatchObject({ provider: "site:hackernews", status: "error" });
    expect(got.attempts[0].error).toMatch(
      /^hackernews reader: the response no longer has the expected shape \(hn\.algolia\.com\/api\/v1\/items\/41000001: id: /,
    );
  });
});

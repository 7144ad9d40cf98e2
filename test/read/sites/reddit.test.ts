import { describe, expect, it } from "vitest";
import { read } from "../../../src/read/read.js";
import { MAX_COMMENTS, redditReader, threadOf } from "../../../src/read/sites/reddit.js";
import { siteReaderFor } from "../../../src/read/sites/registry.js";
import { json, siteFixture } from "./site-fixtures.js";
import { useReadHarness } from "./site-harness.js";

const h = useReadHarness();

const WWW = "www.reddit.com";
const THREAD = "https://www.reddit.com/r/rust/comments/1abcde/why_does_my_borrow_checker_hate_me/";
const get = (url: string) => read(url, { maxChars: 50_000, render: "never" }, h.ctx());
const serveThread = (body = siteFixture("reddit", "thread.json")) =>
  h.sim.route(WWW, "/comments/1abcde.json", json(body));

describe("reddit reader: which URLs it takes", () => {
  it("takes threads, comment permalinks, short and share links on every reddit host; not listings", () => {
    expect(threadOf(new URL(THREAD))).toEqual({ id: "1abcde" });
    expect(threadOf(new URL("https://old.reddit.com/r/rust/comments/1abcde/x/kx9y2z/?sort=new"))).toEqual({
      id: "1abcde",
      comment: "kx9y2z",
      sort: "new",
    });
    expect(threadOf(new URL("https://redd.it/1abcde"))).toEqual({ id: "1abcde" });
    expect(threadOf(new URL("https://reddit.com/comments/1abcde"))).toEqual({ id: "1abcde" });
    expect(siteReaderFor("https://www.reddit.com/r/rust/s/AbC123xyz")).toBe(redditReader);
    for (const url of [
      "https://www.reddit.com/r/rust/",
      "https://www.reddit.com/r/rust/top/",
      "https://www.reddit.com/user/someone",
    ])
      expect(siteReaderFor(url), url).toBeUndefined();
  });
});

describe("reddit reader through read()", () => {
  it("reads the post and its top comments from the thread's .json, nested and bounded, never the app shell", async () => {
    serveThread();
    h.sim.route(WWW, "/r/rust/comments/1abcde/why_does_my_borrow_checker_hate_me/", {
      headers: { "content-type": "text/html" },
      body: "<!doctype html><html><body><shreddit-app></shreddit-app><script src=/app.js></script></body></html>",
    });
    const got = await get(THREAD);
    expect(got).toMatchObject({
      status: "ok",
      source: "site",
      reader: { name: "reddit", via: "thread .json" },
      title: "Why does my borrow checker hate me? (E0502 & Vec::push)",
      byline: "puzzled_dev",
      published: "2026-01-01T00:00:00.000Z",
    });
    const md = got.markdown;
    expect(md).toMatch(
      /^# Why does my borrow checker hate me\? \(E0502 & Vec::push\)\n\nr\/rust · 342 points · 96% upvoted · by u\/puzzled_dev · 2026-01-01 · 67 comments · flair: 🙋 seeking help & advice\n\nI get E0502/,
    );
    expect(md).toContain("```rust\nlet first = &v[0];\nv.push(4);");
    expect(md).toContain("## Top comments");
    expect(md).toContain("**u/AutoModerator** · 1 point · 2026-01-01 · pinned · moderator");
    expect(md).toContain("**u/rustacean** · 120 points · 2026-01-01\n\nYou hold `first`");
    expect(md).toContain("> **u/ferris_fan** · 40 points");
    expect(md).toContain("> > **u/deep2**");
    expect(md).toContain("> > > > **u/deep4**");
    expect(md).not.toContain("deep5");
    expect(md).toContain("**[deleted]** · 5 points");
    expect(md).toContain("> **u/answerer** · 3 points");
    expect(md).not.toContain("[removed]");
    expect(md).toContain("**u/puzzled_dev** · 30 points · 2026-01-01 · OP");
    // Deeper than shown (2), the "more" stub under a comment (3) and at the top level (57).
    expect(md).toMatch(/\[62 more comments not shown\]$/);
    // Comments keep the thread's order: the pinned one, then by the listing.
    expect(md.indexOf("u/rustacean")).toBeLessThan(md.indexOf("[deleted]"));
    expect(md.indexOf("[deleted]")).toBeLessThan(md.indexOf("Thanks, that fixed it!"));
    expect(h.sim.requests).toHaveLength(1);
    const asked = h.sim.requests[0];
    expect(asked.url.searchParams.get("raw_json")).toBe("1");
    expect(asked.url.searchParams.get("sort")).toBe("top");
    expect(Number(asked.url.searchParams.get("depth"))).toBeGreaterThan(0);
    expect(asked.headers["user-agent"]).toMatch(/^websift\//);
  });

  it("stops at the comment limit and counts the rest", async () => {
    const thread = JSON.parse(siteFixture("reddit", "thread.json"));
    const one = thread[1].data.children[1];
    thread[1].data.children = Array.from({ length: MAX_COMMENTS + 15 }, (_, i) => ({
      kind: "t1",
      data: { ...one.data, id: `k${i}`, body: `comment number ${i}`, replies: "" },
    }));
    serveThread(JSON.stringify(thread));
    const got = await get(THREAD);
    expect(got.markdown).toContain(`comment number ${MAX_COMMENTS - 1}`);
    expect(got.markdown).not.toContain(`comment number ${MAX_COMMENTS}\n`);
    expect(got.markdown).toMatch(/\[15 more comments not shown\]$/);
  });

  it("reads a link post with its link, a short link and a comment's permalink", async () => {
    h.sim.route(WWW, "/comments/2fghij.json", json(siteFixture("reddit", "link-post.json")));
    const got = await get("https://redd.it/2fghij");
    expect(got.status).toBe("ok");
    expect(got.markdown).toContain("Link: https://blog.rust-lang.example.org/2027/edition.html");
    expect(got.markdown).toContain("*No comments.*");
    expect(got.finalUrl).toBe("https://www.reddit.com/r/rust/comments/2fghij/rust_2027_edition_announced/");

    h.sim.route(WWW, "/comments/1abcde/_/kx9y2z.json", json(siteFixture("reddit", "thread.json")));
    const sub = await get("https://old.reddit.com/r/rust/comments/1abcde/why/kx9y2z/");
    expect(sub.markdown).toContain("*The thread from one comment down (a comment's permalink).*");
  });

  it("follows a share link to its thread", async () => {
    h.sim.route(WWW, "/r/rust/s/AbC123xyz", {
      status: 301,
      headers: { location: `${THREAD}?share_id=x&utm_medium=android_app` },
      body: "",
    });
    serveThread();
    const got = await get("https://www.reddit.com/r/rust/s/AbC123xyz");
    expect(got.status).toBe("ok");
    expect(got.title).toBe("Why does my borrow checker hate me? (E0502 & Vec::push)");
  });

  it("a blocked .json is the reader's failure on record, and the generic ladder reads the page", async () => {
    h.sim.route(WWW, "/comments/1abcde.json", {
      status: 429,
      headers: { "retry-after": "7" },
      body: "Too Many Requests",
    });
    h.sim.route(WWW, "/r/rust/comments/1abcde/why_does_my_borrow_checker_hate_me/", {
      status: 403,
      body: "blocked",
    });
    const got = await get(THREAD);
    expect(got.attempts[0]).toMatchObject({ provider: "site:reddit", status: "rate_limited", retryAfter: 7 });
    expect(got.status).not.toBe("ok");
  });

  it("a .json without the thread's shape is an error naming the reader, then the generic ladder", async () => {
    h.sim.route(WWW, "/comments/1abcde.json", json({ kind: "Listing", data: { children: [] } }));
    const got = await get(THREAD);
    expect(got.attempts[0]).toMatchObject({ provider: "site:reddit", status: "error" });
    expect(got.attempts[0].error).toMatch(
      /^reddit reader: the response no longer has the expected shape \(www\.reddit\.com\/comments\/1abcde\.json: /,
    );
    expect(got.attempts.length).toBeGreaterThan(1);
  });
});

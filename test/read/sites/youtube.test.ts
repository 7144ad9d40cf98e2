import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { read } from "../../../src/read/read.js";
import { siteReaderFor } from "../../../src/read/sites/registry.js";
import { clock, youtubeIdOf } from "../../../src/read/sites/youtube.js";
import { assignedObject } from "../../../src/read/sites/youtube-parse.js";
import { article, html, PARAGRAPHS } from "../ladder/harness.js";
import { useReadHarness } from "./site-harness.js";

const h = useReadHarness();

const ID = "Lw2bRkWq9sE";
const YT = "www.youtube.com";
const fixture = (name: string) =>
  readFileSync(new URL(`../../fixtures/sites/youtube/${name}`, import.meta.url), "utf8");
const htmlReply = (body: string) => ({ headers: { "content-type": "text/html; charset=utf-8" }, body });
const json = (body: string) => ({ headers: { "content-type": "application/json; charset=utf-8" }, body });
const never = { render: "never" as const, links: false };

function serveVideo(page = fixture("watch-page.html"), timedtext = json(fixture("timedtext.json3.json"))) {
  h.sim.route(YT, "/watch", htmlReply(page));
  h.sim.route(YT, "/api/timedtext", timedtext);
}

describe("YouTube: which URLs it takes", () => {
  it("takes watch, youtu.be, Shorts, live and embed URLs of an 11-character id, and nothing else", () => {
    const id = (u: string) => youtubeIdOf(new URL(u));
    expect(id(`https://www.youtube.com/watch?v=${ID}&t=42s`)).toBe(ID);
    expect(id(`https://m.youtube.com/watch?v=${ID}`)).toBe(ID);
    expect(id(`https://youtu.be/${ID}?si=share`)).toBe(ID);
    expect(id(`https://www.youtube.com/shorts/${ID}`)).toBe(ID);
    expect(id(`https://www.youtube.com/live/${ID}`)).toBe(ID);
    expect(id(`https://www.youtube.com/embed/${ID}`)).toBe(ID);
    for (const u of [
      "https://www.youtube.com/watch?v=short",
      "https://www.youtube.com/@lowmouthheritage",
      "https://www.youtube.com/playlist?list=PL123",
      `https://youtu.be/${ID}/extra`,
    ])
      expect(id(u)).toBeUndefined();
    expect(siteReaderFor(`https://youtu.be/${ID}`)?.name).toBe("youtube");
    expect(siteReaderFor(`https://www.youtube.com/results?search_query=x`)).toBeUndefined();
    expect(siteReaderFor(`https://youtube.example.com/watch?v=${ID}`)).toBeUndefined();
  });

  it("cuts the player data out of the page by its braces, strings with braces included", () => {
    expect(
      assignedObject(
        `x; var ytInitialPlayerResponse = {"a":"} {\\"","b":{"c":1}};var y = {}`,
        "ytInitialPlayerResponse",
      ),
    ).toBe(`{"a":"} {\\"","b":{"c":1}}`);
    expect(assignedObject(`var ytInitialPlayerResponse = {"a":`, "ytInitialPlayerResponse")).toBeUndefined();
    expect(assignedObject(`window["ytInitialPlayerResponse"] = {"a":1};`, "ytInitialPlayerResponse")).toBe(
      `{"a":1}`,
    );
    expect(clock(83_000)).toBe("1:23");
    expect(clock(3_723_000)).toBe("1:02:03");
  });
});

describe("YouTube: the watch page and its transcript", () => {
  it("gives title, channel, date, duration, description and the uploader's own transcript, timestamped", async () => {
    serveVideo();
    const page = await read(`https://youtu.be/${ID}`, never, h.ctx());
    expect(page).toMatchObject({
      status: "ok",
      source: "site",
      reader: { name: "youtube", via: "watch page + timedtext" },
      title: "How the Lowmouth breakwater was built",
      finalUrl: `https://www.youtube.com/watch?v=${ID}`,
      byline: "Lowmouth Heritage",
      published: "2026-03-14T04:00:12-07:00",
    });
    expect(page.markdown).toBe(
      [
        "# How the Lowmouth breakwater was built",
        [
          "**Channel:** Lowmouth Heritage (https://www.youtube.com/channel/UCq9hX3bR2kTmWz0aYpLs7Qg)",
          "**Published:** 2026-03-14T04:00:12-07:00",
          "**Duration:** 12:34",
          "**Views:** 48,213",
          "**Category:** Education",
        ].join("\n"),
        '## Description\n\nThree summers, one quarry and a lot of granite.\n\nChapters:\n0:00 Intro\n2:10 The quarry "upriver" {and} the barges\n\nMore: https://harbour.example.org/history',
        "## Transcript: English (United Kingdom)",
        "[0:00] the harbour at Lowmouth was rebuilt in 1922",
        "[0:31] granite came from upriver",
        "[1:02] [Music]",
      ].join("\n\n"),
    );
    const [watch, captions] = h.sim.requests;
    expect(watch.url.pathname + watch.url.search).toBe(`/watch?v=${ID}&hl=en`);
    // The uploader's track before the speech-recognised one, asked for as json3, its signed query kept.
    expect(captions.url.searchParams.get("lang")).toBe("en-GB");
    expect(captions.url.searchParams.get("fmt")).toBe("json3");
    expect(captions.url.searchParams.get("signature")).toBe("ABC123.DEF456");
  });

  it("reads srv1 XML when the track answers in it, entities decoded once more as YouTube escapes them twice", async () => {
    serveVideo(fixture("watch-page.html"), {
      headers: { "content-type": "text/xml" },
      body: fixture("timedtext-srv1.xml"),
    });
    const page = await read(`https://www.youtube.com/shorts/${ID}`, never, h.ctx());
    expect(page.markdown).toContain(
      "## Transcript: English (United Kingdom)\n\n[0:00] the harbour at Lowmouth was rebuilt in 1922 & it's still there\n\n[0:31] granite came from upriver",
    );
  });

  it("says no transcript is offered when the video has no captions, and why when a track gives nothing", async () => {
    serveVideo(fixture("watch-no-captions.html"));
    const bare = await read(`https://www.youtube.com/watch?v=${ID}`, never, h.ctx());
    expect(bare).toMatchObject({ status: "ok", reader: { name: "youtube", via: "watch page" } });
    expect(bare.markdown).toMatch(/\n\n## Transcript\n\nNo transcript offered: the video has no captions\.$/);
    expect(h.sim.requests.map((r) => r.path)).toEqual(["/watch"]);

    h.sim.reset();
    serveVideo(fixture("watch-page.html"), json(""));
    const empty = await read(`https://www.youtube.com/watch?v=${ID}&feature=share`, never, h.ctx());
    expect(empty.markdown).toMatch(
      /## Transcript: English \(United Kingdom\)\n\nYouTube sent the transcript empty\.$/,
    );
  });

  it("gives a past live stream its duration, and a live one its state", async () => {
    const past = fixture("watch-no-captions.html").replace('"isLiveContent":false', '"isLiveContent":true');
    serveVideo(past);
    expect((await read(`https://www.youtube.com/live/${ID}`, never, h.ctx())).markdown).toContain(
      "**Duration:** 12:34 (a past live stream)\n",
    );
    h.sim.reset();
    serveVideo(past.replace('"lengthSeconds":"754"', '"lengthSeconds":"0"'));
    expect((await read(`https://www.youtube.com/live/${ID}?x=1`, never, h.ctx())).markdown).toContain(
      "\n**Live stream**\n",
    );
  });

  it("follows a caption track only on YouTube's own hosts", async () => {
    const elsewhere = fixture("watch-page.html").replaceAll(
      "https://www.youtube.com/api/timedtext",
      "https://captions.example.com/api/timedtext",
    );
    serveVideo(elsewhere);
    const page = await read(`https://www.youtube.com/watch?v=${ID}`, never, h.ctx());
    expect(page.markdown).toMatch(/The caption track is not on youtube\.com\.$/);
    expect(h.sim.requests.map((r) => r.host)).toEqual([YT]);
  });
});

describe("YouTube: when the watch page cannot be read", () => {
  it("names title and channel from oEmbed, and says what is missing", async () => {
    h.sim.route(YT, "/watch", { status: 429, body: "Too many requests" });
    h.sim.route(YT, "/oembed", json(fixture("oembed.json")));
    const page = await read(`https://www.youtube.com/watch?v=${ID}`, never, h.ctx());
    expect(page).toMatchObject({
      status: "ok",
      reader: { name: "youtube", via: "oEmbed" },
      title: "How the Lowmouth breakwater was built",
      byline: "Lowmouth Heritage",
    });
    expect(page.markdown).toContain(
      "**Channel:** Lowmouth Heritage (https://www.youtube.com/@lowmouthheritage)",
    );
    expect(page.markdown).toMatch(
      /could not be read \(www\.youtube\.com answered HTTP 429.*no description or transcript\.$/,
    );
    const oembed = h.sim.requests.find((r) => r.path === "/oembed");
    expect(oembed?.url.searchParams.get("url")).toBe(`https://www.youtube.com/watch?v=${ID}`);
  });

  it("names YouTube's consent wall as what stood in the way", async () => {
    h.sim.route(YT, "/watch", {
      status: 302,
      headers: { location: "https://consent.youtube.com/m?continue=x" },
    });
    h.sim.route("consent.youtube.com", "/m", html("<form><button>Accept all</button></form>"));
    h.sim.route(YT, "/oembed", json(fixture("oembed.json")));
    const page = await read(`https://www.youtube.com/watch?v=${ID}`, never, h.ctx());
    expect(page).toMatchObject({ status: "ok", reader: { name: "youtube", via: "oEmbed" } });
    expect(page.markdown).toContain("could not be read (YouTube answered with its cookie consent page)");
  });

  it("a watch page without its player data and no oEmbed: an error naming the reader, then the generic ladder", async () => {
    h.sim.route(YT, "/watch", html(article("A video page", PARAGRAPHS)));
    h.sim.route(YT, "/oembed", { status: 404, body: "Not Found" });
    const page = await read(`https://www.youtube.com/watch?v=${ID}`, never, h.ctx());
    expect(page).toMatchObject({ status: "ok", source: "extracted-html" });
    const [site, ...rest] = page.attempts;
    expect(site).toMatchObject({ provider: "site:youtube", status: "error" });
    expect(site.error).toBe(
      "youtube reader: the response no longer has the expected shape (no ytInitialPlayerResponse in the watch page)",
    );
    expect(rest.map((a) => a.provider)).toEqual(["fetch", "extract"]);
  });

  it("an unavailable video says so, and is not passed off as a page of the player", async () => {
    h.sim.route(YT, "/watch", htmlReply(fixture("watch-unavailable.html")));
    h.sim.route(YT, "/oembed", { status: 400, body: "Bad Request" });
    const page = await read(`https://www.youtube.com/watch?v=${ID}`, never, h.ctx());
    expect(page.attempts[0]).toMatchObject({
      provider: "site:youtube",
      status: "empty",
      error: "YouTube: video unavailable: Video unavailable",
    });
    expect(page.source).not.toBe("site");
  });
});

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { GOOGLE_CONSENT_REASON, parseGoogle } from "../../../src/search/serp/google.js";

const SEARCH_URL = "https://www.google.com/search?q=x&hl=en";
const google = (file: string) =>
  readFileSync(new URL(`../../fixtures/providers/google/${file}`, import.meta.url), "utf8");

const hitsOf = (file: string) => {
  const parsed = parseGoogle(google(file), SEARCH_URL);
  if (parsed.kind !== "results") throw new Error(`expected results, got ${JSON.stringify(parsed)}`);
  return parsed.hits;
};

describe("parseGoogle on the recorded result pages", () => {
  it("reads the late-2025 layout (no div.g) and skips the AI Overview, videos and People also ask", () => {
    const hits = hitsOf("google-serp-tekken8-controversy-ai-overview-paa-2025-12.html");
    expect(hits).toHaveLength(9);
    expect(hits[0]).toEqual({
      title: "After backlash and a Steam review bomb, Tekken 8 dev ...",
      url: "https://www.reddit.com/r/gaming/comments/1g6ljep/after_backlash_and_a_steam_review_bomb_tekken_8/",
      snippet: expect.stringMatching(/^After backlash and a Steam review bomb/),
    });
    const dated = hits.find((h) => h.url.startsWith("https://gamerant.com/"));
    expect(dated?.date).toBe("2024-10-08");
    expect(dated?.snippet).toMatch(/^Tekken 8's latest controversy/);
    expect(hits.every((h) => !/read more$/i.test(h.snippet))).toBe(true);
    expect(hits.every((h) => !new URL(h.url).hostname.includes("google."))).toBe(true);
  });

  it("takes the featured snippet's text and drops its #:~:text= fragment", () => {
    const hits = hitsOf("google-serp-jedi-fallen-order-featured-snippet-2025-12.html");
    expect(hits).toHaveLength(10);
    expect(hits[0]).toEqual({
      title: "Star Wars Jedi: Fallen Order - Wikipedia",
      url: "https://en.wikipedia.org/wiki/Star_Wars_Jedi:_Fallen_Order",
      snippet: expect.stringMatching(/^Critical response\. Star Wars Jedi: Fallen Order received/),
    });
    expect(hits.every((h) => !h.url.includes(":~:"))).toBe(true);
    expect(new Set(hits.map((h) => h.url)).size).toBe(hits.length);
  });

  it("reads the early-2025 div.g layout", () => {
    const hits = hitsOf("google-serp-test-div-g-layout-2025-03.html");
    expect(hits).toHaveLength(10);
    expect(hits[0]).toMatchObject({ title: "Speedtest by Ookla - The Global Broadband Speed Test" });
    expect(hits[0].url).toBe("https://www.speedtest.net/");
  });

  it("reads a single result between video and image modules", () => {
    const hits = hitsOf("google-serp-single-result-site-query-de-2026-05.html");
    expect(hits).toEqual([expect.objectContaining({ url: "https://www.uta-net.com/movie/388889/" })]);
  });

  it("calls the no-results page empty, although it carries the enablejs link like every page", () => {
    expect(parseGoogle(google("google-serp-no-results-de-2026-05.html"), SEARCH_URL)).toEqual({
      kind: "empty",
    });
  });
});

describe("parseGoogle on block pages", () => {
  it.each([
    [
      "google-sorry-recaptcha-headless-chromium-2026-07.html",
      "https://www.google.com/sorry/index?continue=x",
    ],
    ["google-sorry-recaptcha-http-prettified-2026-02.html", SEARCH_URL],
    ["google-sorry-legacy-automated-queries-2026-07.html", SEARCH_URL],
    ["google-enablejs-wall-http-en-2025-03.html", SEARCH_URL],
    ["google-enablejs-wall-http-ar-2026-07.html", SEARCH_URL],
  ])("%s is a challenge", (file, url) => {
    expect(parseGoogle(google(file), url)).toMatchObject({ kind: "blocked", code: "challenge" });
  });

  it("names the consent page apart, by its host or by its form", () => {
    const html = google("google-consent-before-you-continue-gl-DE-2026-03.html");
    const byHost = parseGoogle(html, "https://consent.google.com/ml?continue=x");
    const byForm = parseGoogle(html, SEARCH_URL);
    for (const parsed of [byHost, byForm])
      expect(parsed).toEqual({ kind: "blocked", code: "challenge", reason: GOOGLE_CONSENT_REASON });
  });

  it("sees a /sorry/ URL as blocked whatever the body", () => {
    expect(
      parseGoogle("<html><body>hello</body></html>", "https://www.google.com/sorry/index"),
    ).toMatchObject({ kind: "blocked", code: "challenge" });
  });

  it.each([
    "google-403-forbidden-gbv1-2026-07.html",
    "google-update-your-browser-legacy-ua-ar-2026-07.html",
    "google-enablejs-retry-page-ar-2026-07.html",
  ])("%s is an unknown page, never empty", (file) => {
    expect(parseGoogle(google(file), SEARCH_URL)).toMatchObject({ kind: "unrecognised" });
  });
});

describe("parseGoogle links", () => {
  const page = (rso: string) => `<html><body><div id="search"><div id="rso">${rso}</div></div></body></html>`;

  it("decodes basic-page /url?q= links once and drops Google's own and relative /search links", () => {
    const parsed = parseGoogle(
      page(`
        <div class="Gx5Zad"><a href="/url?q=https://example.org/a%3Fb%3D1&amp;sa=U&amp;ved=x"><h3>A</h3></a></div>
        <div class="Gx5Zad"><a href="/url?sa=t&amp;url=https://example.net/p&amp;ved=y"><h3>B</h3></a></div>
        <div class="MjjYud"><a href="/search?q=other"><h3>Related search</h3></a></div>
        <div class="MjjYud"><a href="https://maps.google.com/x"><h3>Maps</h3></a></div>
        <div class="MjjYud"><a href="https://www.youtube.com/watch?v=1"><h3>Video</h3></a></div>`),
      SEARCH_URL,
    );
    expect(parsed.kind === "results" && parsed.hits.map((h) => h.url)).toEqual([
      "https://example.org/a?b=1",
      "https://example.net/p",
      "https://www.youtube.com/watch?v=1",
    ]);
  });

  it("reads results under an in-page consent dialog", () => {
    const parsed = parseGoogle(
      page(`<div class="MjjYud"><a href="https://real.example/"><h3>Real</h3></a></div>`).replace(
        "<body>",
        '<body><form action="https://consent.google.com/save" method="POST"><input type="submit" value="Reject all"></form>',
      ),
      SEARCH_URL,
    );
    expect(parsed.kind).toBe("results");
  });

  it("skips ads and People also ask", () => {
    const parsed = parseGoogle(
      page(`
        <div id="tads"><div data-hveid="1"><a href="https://ad.example/"><h3>Ad</h3></a></div></div>
        <div class="related-question-pair" data-q="q"><a href="https://paa.example/"><h3>Q?</h3></a></div>
        <div class="MjjYud"><div data-hveid="2"><a href="https://real.example/"><h3>Real</h3></a>
          <div class="VwiC3b">Real snippet <a class="vzmbzf" href="https://real.example/#x">Read more</a></div></div></div>`),
      SEARCH_URL,
    );
    expect(parsed).toEqual({
      kind: "results",
      hits: [{ title: "Real", url: "https://real.example/", snippet: "Real snippet" }],
    });
  });
});

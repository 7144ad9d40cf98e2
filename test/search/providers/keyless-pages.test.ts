import { describe, expect, it } from "vitest";
import { parseBraveWeb } from "../../../src/search/providers/brave-web.js";
import { parseMojeek } from "../../../src/search/providers/mojeek.js";
import { parseStartpage } from "../../../src/search/providers/startpage.js";
import type { SerpParse } from "../../../src/search/serp/outcome.js";
import { fixture } from "./fixtures.js";

const hitsOf = (parsed: SerpParse) => {
  if (parsed.kind !== "results") throw new Error(`expected results, got ${JSON.stringify(parsed)}`);
  return parsed.hits;
};

describe("parseMojeek", () => {
  it("reads ul.results-standard, clustered results included, a missing snippet as empty", () => {
    const hits = hitsOf(parseMojeek(fixture("mojeek/mojeek-serp-javascript-tutorial-2026-04.html")));
    expect(hits).toHaveLength(10);
    expect(hits[0]).toEqual({
      title: "The Modern JavaScript Tutorial",
      url: "https://javascript.info/",
      snippet:
        "The Modern JavaScript Tutorial ... Main course contains 2 parts which cover JavaScript as a programming language and working with a browser.",
    });
    expect(hits[1]).toEqual({ title: "w3schools.com/js", url: "https://www.w3schools.com/js/", snippet: "" });
  });

  it("reads the host: operator page", () => {
    const hits = hitsOf(parseMojeek(fixture("mojeek/mojeek-serp-host-operator-2025-05.html")));
    expect(hits).toHaveLength(10);
    expect(hits[0].url).toBe("https://learn.microsoft.com/en-us/azure/dns/dns-delegate-domain-azure-dns");
    expect(hits[0].title).toBe("Tutorial: Host your domain in Azure DNS | Microsoft Learn");
  });

  it("sees the ALTCHA page as a challenge, and a page without results as unknown, never empty", () => {
    expect(parseMojeek(fixture("mojeek/mojeek-captcha-altcha-2026-08.html"))).toEqual({
      kind: "blocked",
      reason: "ALTCHA captcha page",
    });
    expect(parseMojeek("<html><title>Mojeek</title><body>maintenance</body></html>")).toMatchObject({
      kind: "unrecognised",
    });
  });
});

describe("parseStartpage", () => {
  it.each([
    "startpage-serp-http-javascript-tutorial-2026-04.html",
    "startpage-serp-browser-javascript-tutorial-2026-04.html",
  ])("reads the ten results of %s and skips Anonymous View links", (file) => {
    const hits = hitsOf(parseStartpage(fixture(`startpage/${file}`)));
    expect(hits).toHaveLength(10);
    expect(hits[0]).toEqual({
      title: "JavaScript Tutorial - W3Schools",
      url: "https://www.w3schools.com/js/",
      snippet: expect.stringMatching(/^Well organized and easy to understand Web building tutorials/),
    });
    expect(hits.some((h) => h.url.includes("startpage.com"))).toBe(false);
  });

  it("sees the Anubis page and a /sp/captcha redirect as challenges", () => {
    expect(parseStartpage(fixture("startpage/startpage-challenge-anubis-verifying-2026-08.html"))).toEqual({
      kind: "blocked",
      reason: "Anubis proof-of-work challenge",
    });
    expect(parseStartpage("<html></html>", "https://www.startpage.com/sp/captcha?x=1")).toMatchObject({
      kind: "blocked",
      reason: "redirected to /sp/captcha",
    });
  });
});

describe("parseBraveWeb", () => {
  it("reads the 20 web snippets, skips clusters and moves the age prefix out of the snippet", () => {
    const hits = hitsOf(
      parseBraveWeb(fixture("brave/brave-web-ui-serp-ceo-of-google-ai-answer-2026-06.html")),
    );
    expect(hits).toHaveLength(20);
    expect(hits[0].title).toBe("Sundar Pichai - Wikipedia");
    expect(hits[0].url).toBe("https://en.wikipedia.org/wiki/Sundar_Pichai");
    expect(hits[0].snippet).toMatch(/^Pichai Sundararajan \(born June 10, 1972\)/);
    expect(hits.some((h) => /ago -/.test(h.snippet))).toBe(false);
  });

  it("reads the re-formatted page and keeps absolute dates", () => {
    const hits = hitsOf(parseBraveWeb(fixture("brave/brave-web-ui-serp-javascript-tutorial-2026-04.html")));
    expect(hits).toHaveLength(20);
    expect(hits[0]).toEqual({
      title: "JavaScript Tutorial",
      url: "https://www.w3schools.com/js/",
      snippet:
        "JavaScript is easy to learn. This tutorial covers everything from basic JavaScript up to the latest 2026 version.",
    });
    expect(hits.some((h) => h.date === "2024-12-13")).toBe(true);
  });

  it("sees the proof-of-work page as a challenge", () => {
    const pow =
      "<html><head><title>PoW Captcha - Brave Search</title></head><body><div id=pow></div></body></html>";
    expect(parseBraveWeb(pow)).toEqual({ kind: "blocked", reason: "proof-of-work captcha page" });
  });
});

import { describe, expect, it } from "vitest";
import { retryAfterSeconds } from "../../../src/provider-http/http-errors.js";
import { localeOf } from "../../../src/search/serp/locale.js";
import { contentWords, looksRelevant } from "../../../src/search/serp/relevance.js";
import { cleanText, isoDay } from "../../../src/search/serp/text.js";
import { duckDuckGoTarget, unwrapBing } from "../../../src/search/serp/unwrap.js";

describe("duckDuckGoTarget", () => {
  it("decodes uddg exactly once, protocol-relative and &amp;-free", () => {
    const href = "//duckduckgo.com/l/?uddg=https%3A%2F%2Fex.com%2Fa%2520b%3Fq%3D1&rut=abc";
    expect(duckDuckGoTarget(href)).toBe("https://ex.com/a%20b?q=1");
  });
  it("keeps direct links and refuses non-http targets", () => {
    expect(duckDuckGoTarget("https://ex.com/x")).toBe("https://ex.com/x");
    expect(duckDuckGoTarget(" https://EX.com:443/x y ")).toBe("https://ex.com/x%20y");
    expect(duckDuckGoTarget("//duckduckgo.com/l/?uddg=javascript%3Aalert(1)")).toBeUndefined();
    expect(duckDuckGoTarget("/settings")).toBe("https://duckduckgo.com/settings");
    expect(duckDuckGoTarget(undefined)).toBeUndefined();
  });
  it("drops y.js ad clicks, direct or inside uddg", () => {
    expect(duckDuckGoTarget("https://duckduckgo.com/y.js?ad_domain=x")).toBeUndefined();
    expect(
      duckDuckGoTarget("//duckduckgo.com/l/?uddg=https%3A%2F%2Fduckduckgo.com%2Fy.js%3Fad%3D1"),
    ).toBeUndefined();
    expect(duckDuckGoTarget("https://ads.duckduckgo.com/y.js?x")).toBeUndefined();
    expect(duckDuckGoTarget("https://ex.com/y.js")).toBe("https://ex.com/y.js");
  });
});

describe("unwrapBing", () => {
  const wrap = (target: string) =>
    `https://www.bing.com/ck/a?!&&p=abc&ptn=3&u=a1${Buffer.from(target).toString("base64url")}&ntb=1`;
  it("decodes u=a1<base64url>", () => {
    expect(unwrapBing(wrap("https://ex.com/page?x=1"))).toBe("https://ex.com/page?x=1");
  });
  it("drops relative Bing targets and malformed u, keeps direct links", () => {
    expect(unwrapBing(wrap("/images/search?q=x"))).toBeUndefined();
    expect(unwrapBing("https://www.bing.com/ck/a?u=zz")).toBeUndefined();
    expect(unwrapBing("https://ex.com/")).toBe("https://ex.com/");
  });
});

describe("text", () => {
  it("collapses whitespace and decodes entities the HTML parser left (double escapes)", () => {
    expect(cleanText("  a\n\t b&nbsp;c &quot;q&quot; &#x27;s&#39; &amp;  ")).toBe(`a b c "q" 's' &`);
  });
  it("reads ISO and English dates, not relative ages", () => {
    expect(isoDay("2026-02-13T00:00:00.0000000")).toBe("2026-02-13");
    expect(isoDay("December 13, 2024 -")).toBe("2024-12-13");
    expect(isoDay("2 weeks ago -")).toBeUndefined();
  });
});

describe("relevance", () => {
  it("drops stopwords and short tokens", () => {
    expect(contentWords("What is the CEO of Google?")).toEqual(["ceo", "google"]);
  });
  it("accepts pages sharing a content word (inflections included), rejects pages sharing none", () => {
    const hit = (title: string) => ({ title, url: "https://ex.com/", snippet: "" });
    expect(looksRelevant("javascript tutorials", [hit("A JavaScript tutorial")])).toBe(true);
    expect(looksRelevant("javascript tutorial", [hit("Weather in Paris")])).toBe(false);
    expect(looksRelevant("the of and", [hit("anything")])).toBe(true);
    expect(looksRelevant("東京 天気", [hit("unrelated")])).toBe(true);
    expect(looksRelevant("서울 날씨", [hit("서울의 날씨는")])).toBe(true);
    expect(looksRelevant("Москва погода", [hit("Погода в Москве")])).toBe(true);
  });
  it("forgives the typos an engine corrects, not different words", () => {
    const hit = (title: string) => ({ title, url: "https://ex.com/", snippet: "" });
    expect(looksRelevant("javscript tutoral", [hit("JavaScript Tutorial")])).toBe(true);
    expect(looksRelevant("cats", [hit("bats and rats")])).toBe(false);
  });
  it("asks long queries for two distinct shared words", () => {
    const hits = [
      { title: "popular meaning", url: "https://zhidao.baidu.com/q/1", snippet: "popular usage" },
    ];
    expect(looksRelevant("popular times pizza Arlington", hits)).toBe(false);
    expect(looksRelevant("popular times pizza", hits)).toBe(true);
  });
  it("counts words found in different hits and fields, and the same word only once", () => {
    const hit = (title: string, snippet = "", url = "https://ex.com/") => ({ title, url, snippet });
    const query = "arlington pizza delivery hours";
    expect(
      looksRelevant(query, [hit("Weather"), hit("Best pizza"), hit("Maps", "", "https://arlington.gov/")]),
    ).toBe(true);
    expect(looksRelevant(query, [hit("Pizza"), hit("pizzas", "pizza pizza")])).toBe(false);
    expect(looksRelevant(query, [hit("Weather"), hit("News", "Delivery times")])).toBe(false);
    expect(looksRelevant(query, [hit("Weather"), hit("News", "Delivery times"), hit("Opening hours")])).toBe(
      true,
    );
  });
});

describe("localeOf", () => {
  it("turns DDG regions into BCP 47 locales", () => {
    expect(localeOf({ query: "x", limit: 5, region: "uk-en" })).toBe("en-GB");
    expect(localeOf({ query: "x", limit: 5, region: "de-de" })).toBe("de-DE");
    expect(localeOf({ query: "x", limit: 5, region: "wt-wt" })).toBeUndefined();
    expect(localeOf({ query: "x", limit: 5, language: "fr" })).toBe("fr");
  });
});

describe("retryAfterSeconds", () => {
  it("reads seconds and HTTP dates", () => {
    expect(retryAfterSeconds({ "retry-after": "120" })).toBe(120);
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterSeconds({ "retry-after": "Thu, 01 Jan 2026 00:01:00 GMT" }, now)).toBe(60);
  });
});

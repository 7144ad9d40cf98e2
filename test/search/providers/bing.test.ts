import { describe, expect, it } from "vitest";
import { parseBing } from "../../../src/search/providers/bing.js";
import { serpOutcome } from "../../../src/search/serp/outcome.js";
import { fixture } from "./fixtures.js";

const hitsOf = (file: string) => {
  const parsed = parseBing(fixture(`bing/${file}`));
  if (parsed.kind !== "results") throw new Error(`expected results, got ${JSON.stringify(parsed)}`);
  return parsed.hits;
};

describe("parseBing", () => {
  it("unwraps every ck/a link (u=a1<base64url>) of the 2026 page", () => {
    const hits = hitsOf("bing-serp-http-ck-wrapped-javascript-tutorial-2026-04.html");
    expect(hits).toHaveLength(10);
    expect(hits[0]).toEqual({
      title: "JavaScript Tutorial - W3Schools",
      url: "https://www.w3schools.com/Js/",
      snippet: expect.stringMatching(/^Learn JavaScript The Programming Language of the Web/),
    });
    expect(hits.every((h) => !h.url.includes("bing.com/ck/a"))).toBe(true);
  });

  it("reads the classic h2 > a layout with direct links", () => {
    const hits = hitsOf("bing-serp-h2-layout-site-query-2025-05.html");
    expect(hits).toHaveLength(10);
    expect(hits[0].title).toBe("Microsoft Support");
    expect(hits[0].url).toBe("https://support.microsoft.com/en-us");
    expect(hits[0].snippet).toMatch(/^See how solopreneur Jazz Oden/);
  });

  it("reads the b_algoheader > a > h2 variant and moves the news_dt date out of the snippet", () => {
    const hits = hitsOf("bing-serp-algoheader-layout-site-query-2025-05.html");
    expect(hits).toHaveLength(8);
    expect(hits[1].url).toBe("https://account.microsoft.com/account");
    const dated = hits.find((h) => h.date);
    expect(dated?.date).toBe("2025-01-30");
    expect(dated?.snippet).toMatch(/^Notes: Please note/);
  });

  it("sees the Turnstile page (title and search box intact) as a challenge", () => {
    expect(parseBing(fixture("bing/bing-challenge-turnstile-http-2026-03.html"))).toEqual({
      kind: "blocked",
      reason: expect.stringContaining("Turnstile"),
    });
  });

  it("reports the irrelevant-results page as a soft block, not as results", () => {
    const query = "popular times Domino's Pizza 2800 S Joyce St Arlington VA";
    const hits = hitsOf("bing-serp-irrelevant-results-de-2026-03.html");
    expect(hits).toHaveLength(10);
    expect(hits[0].date).toBe("2019-08-16");
    const outcome = serpOutcome("bing", { kind: "results", hits }, { query, limit: 5 });
    expect(outcome).toMatchObject({ status: "blocked", code: "soft_block" });
  });

  it("calls a page without #b_results an unknown page, and li.b_no the only empty", () => {
    expect(parseBing("<html><title>x - Search</title><body></body></html>")).toMatchObject({
      kind: "unrecognised",
    });
    expect(parseBing('<ol id="b_results"><li class="b_no"><h1>There are no results</h1></li></ol>')).toEqual({
      kind: "empty",
    });
  });
});

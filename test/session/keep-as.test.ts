import { describe, expect, it } from "vitest";
import type { AnswerResult } from "../../src/ground/answer.js";
import type { ReadResult } from "../../src/read/read.js";
import type { SearchResponse } from "../../src/search/chain.js";
import { failedLookup, pastDeadline } from "../../src/session/failed-lookup.js";
import { keepAsAnswer, keepAsRead, keepAsSearch } from "../../src/session/keep-as.js";
import { lookupKey } from "../../src/session/lookup-key.js";

const readOk = (title: string, finalUrl: string) =>
  ({ ...failedLookup("read", finalUrl, pastDeadline(20)), status: "ok", title, finalUrl }) as ReadResult;

describe("keepAs lines", () => {
  it("read: title and final URL; invisible characters gone, quotes kept unambiguous", () => {
    expect(keepAsRead("https://a.example/x", readOk('The "best" \u200Bguide', "https://a.example/y"))).toBe(
      `(you read "The 'best' guide" https://a.example/y)`,
    );
    expect(keepAsRead("https://a.example/x", readOk("", "https://a.example/x"))).toBe(
      "(you read https://a.example/x)",
    );
    expect(
      keepAsRead(
        "https://a.example/x",
        failedLookup("read", "https://a.example/x", pastDeadline(20)) as ReadResult,
      ),
    ).toBe("(you tried to read https://a.example/x: timeout)");
  });

  it("search: the query and its top three titles, or what went wrong", () => {
    const response = {
      status: "ok",
      query: "q",
      results: ["A", "B", "C", "D"].map((t) => ({ title: t, url: `https://${t}.example/`, snippet: "" })),
      attempted: [],
      scope: "general",
    } as unknown as SearchResponse;
    expect(keepAsSearch("best  pizza\nnaples", response)).toBe('(you searched "best pizza naples": A; B; C)');
    expect(keepAsSearch("q", { ...response, results: [] })).toBe('(you searched "q": nothing found)');
    expect(keepAsSearch("q", { ...response, status: "rate_limited" })).toBe(
      '(you searched "q": rate_limited)',
    );
  });

  it("answer: the question looked up", () => {
    const answered = { status: "ok", envelope: "", sources: [], attempts: [] } as AnswerResult;
    expect(keepAsAnswer("who won?", answered)).toBe('(you looked up "who won?")');
    expect(keepAsAnswer("who won?", { ...answered, status: "offline" })).toBe(
      '(you looked up "who won?": offline)',
    );
  });
});

describe("lookup identity", () => {
  it("ignores case and spacing of a query, a URL's fragment, and per-turn options", () => {
    expect(lookupKey("search", " Tide  TABLES ", { limit: 5, signal: new AbortController().signal })).toBe(
      lookupKey("search", "tide tables", { limit: 5 }),
    );
    expect(lookupKey("read", "https://a.example/p#x", {})).toBe(lookupKey("read", "https://a.example/p", {}));
  });

  it("keeps apart what gives different results", () => {
    expect(lookupKey("search", "q", { limit: 5 })).not.toBe(lookupKey("search", "q", { limit: 10 }));
    expect(lookupKey("search", "q", {})).not.toBe(lookupKey("answer", "q", {}));
    expect(lookupKey("read", "https://a.example/P", {})).not.toBe(
      lookupKey("read", "https://a.example/p", {}),
    );
  });
});

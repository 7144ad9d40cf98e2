import { describe, expect, it } from "vitest";
import { parseExaContents } from "../../../src/read/providers/exa-contents.js";
import { parseTavilyExtract } from "../../../src/read/providers/tavily-extract.js";
import type { ProviderOutcome } from "../../../src/search/provider.js";
import { parseBraveResponse } from "../../../src/search/providers/brave.js";
import { parseExaResponse } from "../../../src/search/providers/exa.js";
import { parsePerplexityResponse } from "../../../src/search/providers/perplexity.js";
import { parseSearxngResponse } from "../../../src/search/providers/searxng.js";
import { parseTavilyResponse } from "../../../src/search/providers/tavily.js";

const URL_A = "https://a.example/page";

/** Entries an API may send among its results: nulls, numbers, lists, wrong types in every field read. */
const oddEntries = [null, 7, "text", [URL_A], { url: 42, title: "no url" }];
const wrongTypes = { url: URL_A, title: 5, content: {}, description: [], snippet: null, published_date: 3 };

const searchParsers: Record<
  string,
  { parse(body: unknown): ProviderOutcome; wrap(list: unknown[]): unknown }
> = {
  tavily: { parse: (b) => parseTavilyResponse(b), wrap: (results) => ({ results }) },
  exa: { parse: (b) => parseExaResponse(b), wrap: (results) => ({ results }) },
  searxng: { parse: (b) => parseSearxngResponse(b), wrap: (results) => ({ results }) },
  brave: { parse: (b) => parseBraveResponse(b), wrap: (results) => ({ type: "search", web: { results } }) },
  perplexity: {
    parse: (b) => parsePerplexityResponse(b),
    wrap: (search_results) => ({ choices: [{ message: { content: "An answer." } }], search_results }),
  },
};

describe("API bodies are read by schemas of the fields used", () => {
  for (const [name, { parse, wrap }] of Object.entries(searchParsers)) {
    it(`${name}: keeps the entries that fit, with a wrong-typed field read as absent`, () => {
      const out = parse(wrap([...oddEntries, wrongTypes]));
      expect(out.status).toBe("ok");
      if (out.status !== "ok") return;
      expect(out.hits.map((h) => h.url)).toEqual([URL_A]);
      expect(typeof out.hits[0].title).toBe("string");
      expect(out.hits[0].title.length).toBeGreaterThan(0);
      expect(out.hits[0].snippet).toBe("");
      expect(out.hits[0]).not.toHaveProperty("date");
    });

    it(`${name}: refuses a body without its list as a bad response, whatever stands in its place`, () => {
      for (const body of [
        null,
        3,
        "results",
        [],
        { results: "none" },
        { choices: {} },
        { web: { results: {} } },
      ]) {
        const out = parse(body);
        expect(out.status, JSON.stringify(body)).toBe("error");
        expect(out.status === "error" && out.code).toBe("bad_response");
      }
    });
  }

  it("readers: an odd entry never stands in for the page's result", () => {
    const tavily = parseTavilyExtract({ results: [null, { url: URL_A, raw_content: 9 }] }, URL_A);
    expect(tavily).toMatchObject({ ok: false, status: "empty", code: "no_content" });
    const exa = parseExaContents(
      { results: [{ url: URL_A, text: "# Page\n\nText." }], statuses: [null] },
      URL_A,
    );
    expect(exa).toMatchObject({ ok: true, markdown: "# Page\n\nText." });
    for (const body of [null, { results: 1 }, []]) {
      expect(parseTavilyExtract(body, URL_A)).toMatchObject({ ok: false, code: "bad_response" });
      expect(parseExaContents(body, URL_A)).toMatchObject({ ok: false, code: "bad_response" });
    }
  });
});

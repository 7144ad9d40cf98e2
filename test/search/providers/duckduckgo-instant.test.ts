import { describe, expect, it } from "vitest";
import { Deadline } from "../../../src/core/deadline.js";
import { duckduckgoInstant, parseInstantAnswer } from "../../../src/search/providers/duckduckgo-instant.js";
import { useSimProviders } from "./context.js";
import { fixture } from "./fixtures.js";

const ARTICLE = "duckduckgo/ddg-instant-answer-article-typescript.json";
const DISAMBIGUATION = "duckduckgo/ddg-instant-answer-disambiguation-EUR-2026-10.json";

describe("parseInstantAnswer", () => {
  it("turns an article into an abstract answer with its source and one citable hit", () => {
    const parsed = parseInstantAnswer(JSON.parse(fixture(ARTICLE)));
    expect(parsed.answer).toEqual({
      kind: "abstract",
      text: expect.stringMatching(/^Typescript may refer to: • typescript, a manuscript/),
      source: "Wikipedia",
      url: "https://en.wikipedia.org/wiki/Typescript",
      modelGenerated: false,
    });
    expect(parsed.hits).toEqual([
      { title: "Typescript", url: "https://en.wikipedia.org/wiki/Typescript", snippet: parsed.answer?.text },
    ]);
  });

  it("gives no answer for a disambiguation and never cites duckduckgo.com topics", () => {
    expect(parseInstantAnswer(JSON.parse(fixture(DISAMBIGUATION)))).toEqual({ hits: [] });
  });

  it("prefers a direct Answer, reads Definition, and keeps official sites from Results[]", () => {
    const parsed = parseInstantAnswer({
      Heading: "Node.js",
      Answer: "42",
      AnswerType: "calc",
      Definition: "A JavaScript runtime.",
      DefinitionSource: "Example Dictionary",
      DefinitionURL: "https://dict.example.org/node",
      Results: [
        { FirstURL: "https://nodejs.org/", Text: "Official site" },
        { FirstURL: "https://duckduckgo.com/Node", Text: "topic" },
      ],
    });
    expect(parsed.answer).toEqual({ kind: "answer", text: "42", source: "calc", modelGenerated: false });
    expect(parsed.hits.map((h) => h.url)).toEqual(["https://dict.example.org/node", "https://nodejs.org/"]);
    expect(parseInstantAnswer({ Definition: "d", DefinitionURL: "" }).answer?.kind).toBe("definition");
  });

  it("survives payloads that are not objects", () => {
    for (const payload of [null, [], "x", 3, { Results: "nope", AbstractText: 5 }])
      expect(parseInstantAnswer(payload)).toEqual({ hits: [] });
  });
});

describe("duckduckgo-instant provider (simulated web)", () => {
  const web = useSimProviders();
  const search = () =>
    duckduckgoInstant.search({ query: "typescript", limit: 5 }, web.ctx, Deadline.after(5000));

  it("parses application/x-javascript, even with status 202", async () => {
    web.sim.route("api.duckduckgo.com", "/", {
      status: 202,
      headers: { "content-type": "application/x-javascript" },
      body: fixture(ARTICLE),
    });
    const outcome = await search();
    expect(outcome).toMatchObject({ status: "ok", answer: { kind: "abstract", source: "Wikipedia" } });
    const params = web.sim.requests[0].url.searchParams;
    expect([params.get("q"), params.get("format"), params.get("no_html")]).toEqual([
      "typescript",
      "json",
      "1",
    ]);
  });

  it("answers empty for an empty body and for an object of empty strings", async () => {
    web.sim.route("api.duckduckgo.com", "/", {
      headers: { "content-type": "application/x-javascript" },
      body: "",
    });
    expect(await search()).toMatchObject({ status: "empty" });
    web.sim.route("api.duckduckgo.com", "/", {
      body: JSON.stringify({ AbstractText: "", Answer: "", Type: "" }),
    });
    expect(await search()).toMatchObject({ status: "empty" });
  });

  it("reports 429 as rate limited with Retry-After, and garbage as an error", async () => {
    web.sim.route("api.duckduckgo.com", "/", { status: 429, headers: { "retry-after": "30" }, body: "" });
    expect(await search()).toMatchObject({ status: "rate_limited", retryAfter: 30 });
    web.sim.route("api.duckduckgo.com", "/", { body: "<html>oops</html>" });
    expect(await search()).toMatchObject({ status: "error", code: "bad_response" });
    for (const body of ["[]", '"x"', "null"]) {
      web.sim.route("api.duckduckgo.com", "/", { body });
      expect(await search()).toMatchObject({ status: "error", code: "bad_response" });
    }
    for (const status of [500, 503]) {
      web.sim.route("api.duckduckgo.com", "/", { status, body: "" });
      expect(await search()).toMatchObject({ status: "error", code: `http_${status}` });
    }
  });
});

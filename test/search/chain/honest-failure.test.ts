import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Attempt } from "../../../src/core/status.js";
import { namedError, summarizeFailures } from "../../../src/search/failure-summary.js";
import { createWebsift, type Websift } from "../../../src/websift.js";
import { type SimReply, type SimWeb, startSimWeb } from "../../simweb/index.js";

/** Every host a keyless search or answer asks, with the path it asks for. */
const KEYLESS_ROUTES: [string, string | RegExp][] = [
  ["html.duckduckgo.com", "/html/"],
  ["lite.duckduckgo.com", "/lite/"],
  ["api.duckduckgo.com", "/"],
  ["www.bing.com", "/search"],
  ["www.mojeek.com", "/search"],
  ["www.startpage.com", "/sp/search"],
  ["search.brave.com", "/search"],
  ["en.wikipedia.org", /.*/],
];

let web: SimWeb;
let websift: Websift;
beforeAll(async () => {
  web = await startSimWeb();
});
afterAll(async () => {
  await web.close();
});
beforeEach(() => {
  websift = createWebsift({ ...web.netConfig, env: {}, settings: { ddgRetryDelayMs: 5 } });
});
afterEach(async () => {
  await websift.close();
  web.reset();
});

const everyHostAnswers = (reply: SimReply) => {
  for (const [host, path] of KEYLESS_ROUTES) web.route(host, path, reply);
};

describe("an HTTP error is never 'no results'", () => {
  it.each([
    [500, "error"],
    [503, "error"],
    [403, "blocked"],
  ])(
    "every engine and Wikipedia answering %i: search and answer both say %s, naming the failures",
    async (code, status) => {
      everyHostAnswers({ status: code, headers: { "content-type": "text/html" }, body: "<html>down</html>" });
      const search = await websift.search("glacier retreat rates", { cache: false });
      expect(search.status).toBe(status);
      expect(search.attempted.find((a) => a.provider === "wikipedia")?.status).toBe(status);
      expect(search.attempted.every((a) => a.status !== "empty")).toBe(true);
      expect(search.error).not.toMatch(/no results/);
      // The summary names the other failures too, not one of them alone.
      for (const name of ["bing", "mojeek", "startpage"]) expect(search.error).toContain(name);
      expect(search.error).toContain(`HTTP ${code}`);
      const answer = await websift.answer("glacier retreat rates");
      expect(answer.status).toBe(status);
    },
  );

  it("a true no-results answer next to failures is empty, and the failures are still named", async () => {
    everyHostAnswers({ status: 500, body: "down" });
    web.route("html.duckduckgo.com", "/html/", {
      body: '<html><body><div class="result results_links result--no-result"><div class="no-results">No results.</div></div></body></html>',
    });
    const search = await websift.search("qqqzzz nothing matches", { cache: false });
    expect(search.status).toBe("empty");
    expect(search.error).toMatch(/^no results for "qqqzzz nothing matches"; also /);
    expect(search.error).toContain("bing answered HTTP 500");
    const answer = await websift.answer("qqqzzz nothing matches");
    expect(answer.status).toBe("empty");
  });
});

describe("failure summary", () => {
  const attempt = (provider: string, status: Attempt["status"], error?: string): Attempt => ({
    provider,
    status,
    ms: 1,
    ...(error ? { error } : {}),
  });

  it("adds the provider's name only where the message lacks it, never twice", () => {
    expect(namedError(attempt("duckduckgo", "error", "duckduckgo: the name x does not resolve"))).toBe(
      "duckduckgo: the name x does not resolve",
    );
    expect(namedError(attempt("bing", "error", "bing answered HTTP 500"))).toBe("bing answered HTTP 500");
    expect(namedError(attempt("duckduckgo", "error", "duckduckgo-instant: odd"))).toBe(
      "duckduckgo: duckduckgo-instant: odd",
    );
    expect(namedError(attempt("mojeek", "timeout"))).toBe("mojeek: timeout");
    expect(namedError(attempt("brave", "error", "failed unexpectedly"))).toBe("brave: failed unexpectedly");
  });

  it("ranks blocked over empty over error, and lists the rest after the main failure", () => {
    const summary = summarizeFailures("q", [
      { attempt: attempt("a", "error", "a answered HTTP 500") },
      { attempt: attempt("b", "empty") },
      { attempt: attempt("c", "blocked", "c: challenge page") },
    ]);
    expect(summary).toMatchObject({
      status: "blocked",
      error: "c: challenge page; also a answered HTTP 500",
    });
    expect(summarizeFailures("q", [{ attempt: attempt("a", "skipped", "cooling") }]).status).toBe(
      "rate_limited",
    );
    expect(summarizeFailures("q", []).status).toBe("error");
  });
});

describe("layout drift is named", () => {
  const drifted = {
    body: '<html><body><main class="serp-2027"><a href="https://a.example/">A</a></main></body></html>',
  };

  it("an engine whose page matches no known layout is an error, and the chain goes on to the others", async () => {
    for (const [host, path] of KEYLESS_ROUTES.slice(0, 2)) web.route(host, path, drifted);
    web.route("www.bing.com", "/search", {
      body: web.fixture("bing/bing-serp-http-ck-wrapped-javascript-tutorial-2026-04.html"),
    });
    const res = await websift.search("javascript tutorial", { cache: false });
    expect(res.status).toBe("ok");
    expect(res.provider).toContain("bing");
    const ddg = res.attempted.find((a) => a.provider === "duckduckgo");
    expect(ddg).toMatchObject({ status: "error", error: expect.stringMatching(/unrecognised page layout/) });
  });

  it("every engine drifted: an error naming the unrecognised layouts, never 'no results'", async () => {
    everyHostAnswers(drifted);
    const res = await websift.search("javascript tutorial", { cache: false, exclude: ["wikipedia"] });
    expect(res.status).toBe("error");
    expect(res.error).toMatch(/^duckduckgo: unrecognised page layout/);
    expect(res.error).toContain("bing: unrecognised page layout");
    expect(res.attempted.every((a) => a.status === "error")).toBe(true);
  });
});

describe("skipped providers are named by what they last did", () => {
  it("a provider resting after an unrecognised layout is an error when asked again, not a rate limit", async () => {
    web.route("www.bing.com", "/search", { body: "<html><body>new look</body></html>" });
    const first = await websift.search("javascript tutorial", { provider: "bing", cache: false });
    expect(first).toMatchObject({ status: "error", code: "unknown_page" });
    const requests = web.requests.length;
    const again = await websift.search("javascript tutorial", { provider: "bing", cache: false });
    expect(web.requests.length).toBe(requests);
    expect(again.attempted[0]).toMatchObject({ status: "skipped" });
    expect(again).toMatchObject({ status: "error", code: "cooling" });
    expect(again.error).toMatch(/^bing: cooling until \d{4}-.*\(unrecognised page layout\)$/);
    expect(again.retryAfter).toBeGreaterThan(0);
  });

  it("a provider resting after a 429 stays rate limited", async () => {
    web.route("www.bing.com", "/search", { status: 429, headers: { "retry-after": "60" }, body: "" });
    await websift.search("javascript tutorial", { provider: "bing", cache: false });
    const again = await websift.search("javascript tutorial", { provider: "bing", cache: false });
    expect(again).toMatchObject({ status: "rate_limited", code: "cooling" });
  });
});

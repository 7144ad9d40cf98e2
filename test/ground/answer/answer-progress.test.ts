import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type AnswerDeps, answer } from "../../../src/ground/answer.js";
import type { ReadPage } from "../../../src/ground/cascade.js";
import { createWebsift, type Websift } from "../../../src/websift.js";
import { type SimWeb, startSimWeb } from "../../simweb/index.js";
import { article, ddgResultsPage } from "./ddg-page.js";

let web: SimWeb;
const open: Websift[] = [];
beforeAll(async () => {
  web = await startSimWeb();
});
afterAll(async () => {
  await web.close();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((w) => w.close()));
  web.reset();
});
const websiftWith = (env: Record<string, string> = {}) => {
  const w = createWebsift({ ...web.netConfig, env, settings: { ddgRetryDelayMs: 5 }, timeoutMs: 15_000 });
  open.push(w);
  return w;
};

const HTML = { "content-type": "text/html; charset=utf-8" };
const QUERY = "zugspitze glacier height";
const RELEVANT = ["The Zugspitze glacier height is 2,962 metres at the summit of the Zugspitze."];

describe("answer: progress lines", () => {
  it("says each provider attempt and each page read once, in order, and answers last", async () => {
    const urls = ["https://www.example.com/one", "https://www.example.com/two"];
    web.route("html.duckduckgo.com", "/html/", {
      headers: HTML,
      body: ddgResultsPage(
        urls.map((url) => ({ title: "Zugspitze glacier", url, snippet: "Zugspitze glacier" })),
      ),
    });
    // The top page is a broken one, so the second is read and the cascade reports both.
    web.route("www.example.com", "/one", { status: 500, body: "oops" });
    web.route("www.example.com", "/two", { headers: HTML, body: article("Zugspitze facts", RELEVANT) });
    const lines: string[] = [];
    const res = await websiftWith().answer(QUERY, { onProgress: (l) => lines.push(l) });
    expect(res.status).toBe("ok");
    expect(lines[0]).toBe(`🌐 Searching the web for '${QUERY}'…`);
    expect(lines.at(-1)).toBe("✅ Answered via duckduckgo.");
    const steps = lines.slice(1, -1);
    // One line per attempt the answer carries: the instant answer, each search provider, each page read.
    expect(steps).toHaveLength(res.attempts.length);
    expect(steps).toContain(`duckduckgo: ok (2)`);
    expect(steps.some((l) => l.startsWith("duckduckgo-instant: "))).toBe(true);
    expect(steps).toContain("📄 Read https://www.example.com/two: ok");
    expect(steps.find((l) => l.startsWith("📄 Read https://www.example.com/one: "))).toMatch(/: error/);
  });

  it("a real-time route that answers says so, and never that it searched the web", async () => {
    web.route("generativelanguage.googleapis.com", "/v1beta/models/gemini-2.5-flash:generateContent", {
      headers: { "content-type": "application/json" },
      body: web.fixture("gemini/gemini-2.5-pro-generatecontent-google-search-sf-weather.json"),
    });
    web.route("vertexaisearch.cloud.google.com", /^\/grounding-api-redirect\//, {
      status: 302,
      headers: { location: "https://www.weather.gov/mtr/" },
    });
    const lines: string[] = [];
    const out = await websiftWith({ GEMINI_API_KEY: "test-SECRET-gemini-progress-01" }).answer(
      "What is the weather in San Francisco today?",
      { route: "gemini-api", onProgress: (l) => lines.push(l) },
    );
    expect(out.provider).toBe("gemini");
    expect(lines).toEqual(["✅ Answered via gemini."]);
  });

  it("a route that fails names its attempt, then searches the web", async () => {
    web.route("generativelanguage.googleapis.com", "/v1beta/models/gemini-2.5-flash:generateContent", {
      status: 429,
      headers: { "content-type": "application/json" },
      body: web.fixture("gemini/gemini-error-429-resource-exhausted-retryinfo.json"),
    });
    const lines: string[] = [];
    await websiftWith({ GEMINI_API_KEY: "test-SECRET-gemini-progress-02" }).answer(QUERY, {
      route: "gemini-api",
      onProgress: (l) => lines.push(l),
    });
    expect(lines[0]).toBe("gemini: rate_limited");
    expect(lines[1]).toBe(`🌐 Searching the web for '${QUERY}'…`);
  });

  it("sends nothing once the answer is out, though stopped reads settle later", async () => {
    const late: (() => void)[] = [];
    let reported: ((a: { provider: string; status: "ok" }) => void) | undefined;
    const deps: AnswerDeps = {
      enabled: () => true,
      instant: async () => ({ attempt: { provider: "duckduckgo-instant", status: "empty", ms: 1 } }),
      search: async (query, options) => {
        reported = options.onAttempt as typeof reported;
        options.onAttempt?.({ provider: "duckduckgo", status: "ok", ms: 1, count: 2 });
        return {
          query,
          status: "ok",
          provider: "duckduckgo",
          scope: "general",
          results: [1, 2].map((rank) => ({
            title: "Zugspitze glacier",
            url: `https://www.example.com/${rank}`,
            snippet: "",
            rank,
            providers: ["duckduckgo"],
          })),
          attempted: [{ provider: "duckduckgo", status: "ok", ms: 1, count: 2 }],
        };
      },
      // The top page is read at once; the second settles only when the test says, after the answer.
      read: () => (url) =>
        url.endsWith("/1")
          ? Promise.resolve<ReadPage>({ status: "ok", title: "Zugspitze", markdown: RELEVANT[0] })
          : new Promise<ReadPage>((resolve) => late.push(() => resolve({ status: "ok", markdown: "x" }))),
    };
    const lines: string[] = [];
    const res = await answer(QUERY, { onProgress: (l) => lines.push(l) }, deps);
    expect(res.status).toBe("ok");
    const atResult = [...lines];
    expect(atResult.at(-1)).toBe("✅ Answered via duckduckgo.");
    for (const settle of late) settle();
    reported?.({ provider: "late-provider", status: "ok" });
    await Promise.resolve();
    await new Promise<void>((r) => setImmediate(r));
    expect(lines).toEqual(atResult);
  });
});

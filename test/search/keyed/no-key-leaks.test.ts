import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Deadline } from "../../../src/core/deadline.js";
import { contentsWithExa } from "../../../src/read/providers/exa-contents.js";
import { extractWithTavily } from "../../../src/read/providers/tavily-extract.js";
import type { ProviderQuery } from "../../../src/search/provider.js";
import { brave } from "../../../src/search/providers/brave.js";
import { exa } from "../../../src/search/providers/exa.js";
import { gemini } from "../../../src/search/providers/gemini.js";
import { perplexity } from "../../../src/search/providers/perplexity.js";
import { tavily } from "../../../src/search/providers/tavily.js";
import { type Harness, json, startHarness } from "./harness.js";

const KEY = "test-SECRET-leak-canary-7f3a";
const ENV = {
  BRAVE_API_KEY: KEY,
  TAVILY_API_KEY: KEY,
  EXA_API_KEY: KEY,
  PERPLEXITY_API_KEY: KEY,
  GEMINI_API_KEY: KEY,
};
const HOSTS = [
  "api.search.brave.com",
  "api.tavily.com",
  "api.exa.ai",
  "api.perplexity.ai",
  "generativelanguage.googleapis.com",
  "vertexaisearch.cloud.google.com",
];
const query: ProviderQuery = { query: "anything", limit: 5 };

/** A server that quotes the key back in every field any provider reads, in errors and in results alike. */
function echoingBody(): unknown {
  const url = `https://x.example/${KEY}`;
  return {
    error: {
      code: KEY,
      message: `API key ${KEY} is invalid`,
      detail: KEY,
      status: KEY,
      details: [{ reason: KEY }],
    },
    errors: [{ code: KEY, detail: `token ${KEY}` }],
    detail: { error: `key ${KEY}` },
    tag: KEY,
    web: { results: [{ title: KEY, url, description: KEY }] },
    results: [{ title: KEY, url, content: KEY, text: KEY, raw_content: KEY, id: url }],
    failed_results: [{ url, error: KEY }],
    statuses: [{ id: url, status: "error", error: { tag: KEY } }],
    choices: [{ message: { content: `answer ${KEY} [1]` } }],
    citations: [url],
    candidates: [
      {
        content: { parts: [{ text: KEY }] },
        groundingMetadata: {
          groundingChunks: [
            {
              web: {
                uri: `https://vertexaisearch.cloud.google.com/grounding-api-redirect/${KEY}`,
                title: KEY,
              },
            },
          ],
          groundingSupports: [{ segment: { text: KEY }, groundingChunkIndices: [0] }],
        },
      },
    ],
  };
}

describe("no key in any outcome or log line", () => {
  let h: Harness;
  let status = 200;
  beforeAll(async () => {
    h = await startHarness();
    for (const host of HOSTS)
      h.sim.route(host, /.*/, () =>
        host.startsWith("vertexaisearch")
          ? { status: 404, body: `no ${KEY}` }
          : json(echoingBody(), status, { "retry-after": "3", "x-ratelimit-reset": "1, 100" }),
      );
  });
  afterAll(() => h.close());

  it.each([200, 400, 401, 402, 403, 404, 422, 429, 432, 433, 500, 503])("with HTTP %i", async (code) => {
    status = code;
    const ctx = h.ctx(ENV);
    const url = `https://x.example/${KEY}`;
    const outcomes = await Promise.all([
      ...[brave, tavily, exa, perplexity, gemini].map((p) => p.search(query, ctx, Deadline.after(5000))),
      extractWithTavily(url, ctx, Deadline.after(5000)),
      contentsWithExa(url, ctx, Deadline.after(5000)),
    ]);
    const succeeded = outcomes.filter((o) => ("ok" in o ? o.ok : o.status === "ok"));
    if (code !== 200) expect(succeeded).toHaveLength(0);
    const seen = JSON.stringify(outcomes) + h.logs.join("\n");
    expect(seen).not.toContain(KEY);
    expect(seen).toContain("[redacted]");
  });

  it("with transport failures (addresses the guard refuses)", async () => {
    // A fresh client: the shared one has these names' vetted addresses cached.
    const fresh = await startHarness();
    try {
      for (const host of HOSTS) fresh.sim.resolveAs(host, ["10.0.0.9"]);
      const ctx = fresh.ctx(ENV);
      const outcomes = await Promise.all(
        [brave, tavily, exa, perplexity, gemini].map((p) => p.search(query, ctx, Deadline.after(2000))),
      );
      expect(outcomes.map((o) => o.status)).toEqual(["denied", "denied", "denied", "denied", "denied"]);
      expect(JSON.stringify(outcomes) + fresh.logs.join("\n")).not.toContain(KEY);
    } finally {
      await fresh.close();
    }
  });
});

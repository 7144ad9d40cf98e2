import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { countTokens } from "gpt-tokenizer";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Websift } from "../../src/websift.js";
import {
  expectFenced,
  expectFencedSources,
  expectSafeObject,
  HOSTILE_QUERY,
  HOSTILE_URL,
  SECRET,
  serveHostileWeb,
} from "../ground/hostile-web.js";
import { ddgChallenge, type SimWeb, startSimWeb } from "../simweb/index.js";
import { connectInProcess, serveWeb, type ToolResult, textOf, websiftFor } from "./harness.js";

let web: SimWeb;
let websift: Websift;
let client: Client;

beforeAll(async () => {
  web = await startSimWeb();
  websift = websiftFor(web);
  client = await connectInProcess({ websift });
});
afterAll(async () => {
  await client.close();
  await websift.close();
  await web.close();
});
afterEach(() => web.reset());

const call = async (name: string, args: Record<string, unknown>, options = {}) =>
  (await client.callTool({ name, arguments: args }, undefined, options)) as ToolResult;

describe("MCP tools over the SDK client", () => {
  it("lists exactly web_search, web_fetch, web_answer and web_result, read-only, with their parameters and outputs", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["web_search", "web_fetch", "web_answer", "web_result"]);
    const props = (name: string) =>
      Object.keys((tools.find((t) => t.name === name)?.inputSchema.properties ?? {}) as object);
    expect(props("web_search")).toEqual([
      "query",
      "limit",
      "provider",
      "scope",
      "allowed_hosts",
      "region",
      "time_range",
    ]);
    expect(props("web_fetch")).toEqual(["url", "max_chars", "looking_for", "offset", "mode"]);
    expect(props("web_answer")).toEqual(["query", "language"]);
    expect(props("web_result")).toEqual(["id"]);
    for (const t of tools) {
      expect(t.annotations?.readOnlyHint).toBe(true);
      expect(t.outputSchema?.required).toEqual(["status", "text"]);
    }
  });

  it("costs a model under 1,500 tokens for every schema and description together", async () => {
    const { tools } = await client.listTools();
    expect(countTokens(JSON.stringify(tools))).toBeLessThan(1500);
  });

  it("web_search returns numbered results for the model and the search shape for programs", async () => {
    serveWeb(web);
    const r = await call("web_search", { query: "weather jakarta", limit: 3, provider: "duckduckgo" });
    expect(r.isError).toBeFalsy();
    expect(textOf(r)).toMatch(/^Web search results for 'weather jakarta' \(via duckduckgo, 3 results\)/);
    expect(textOf(r)).toMatch(/\n<<<WEB_CONTENT nonce=\w+ source=web%20search>>>\n1\. /);
    expect(r.structuredContent).toEqual({ status: "ok", text: textOf(r), provider: "duckduckgo", count: 3 });
  });

  it("web_search reports a block as an error result with one line, never as no results", async () => {
    web.route("html.duckduckgo.com", "/html/", ddgChallenge(web));
    web.route("lite.duckduckgo.com", "/lite/", ddgChallenge(web));
    const r = await call("web_search", { query: "weather jakarta", provider: "duckduckgo", region: "us-en" });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^web_search failed \(blocked\): /);
    expect(textOf(r)).not.toContain("\n");
    expect(r.structuredContent).toMatchObject({ status: "blocked", text: textOf(r) });
  });

  it("web_search refuses bad input before any request, as a tool error", async () => {
    const r = await call("web_search", { query: "astro", allowed_hosts: ["docs.astro.build"] });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^web_search failed \(error\): .*scope/);
    expect(web.requests).toHaveLength(0);
    const schema = await call("web_search", { query: "x", limit: 50 });
    expect(schema.isError).toBe(true);
    expect(textOf(schema)).toMatch(/limit/);
  });

  it("web_fetch returns the page fenced, with the header before the fence and the close marker last", async () => {
    serveWeb(web);
    const r = await call("web_fetch", { url: "https://www.example.com/tides", max_chars: 2000 });
    expect(r.isError).toBeFalsy();
    const text = textOf(r);
    expect(text.split("\n")[0]).toBe("https://www.example.com/tides (source: extracted-html)");
    expect(text).toMatch(/<<<WEB_CONTENT nonce=[A-Za-z0-9_-]+ source=https:\/\/www\.example\.com\/tides>>>/);
    expect(text).toContain("Spring tides follow the new and full moon");
    const nonce = /nonce=([A-Za-z0-9_-]+)/.exec(text)?.[1];
    expect(text.endsWith(`<<<END_WEB_CONTENT nonce=${nonce}>>>`)).toBe(true);
    expect(text.match(/<<<END_WEB_CONTENT/g)).toHaveLength(1);
    expect(r.structuredContent).toMatchObject({
      status: "ok",
      text,
      source: "extracted-html",
      truncated: false,
    });
  });

  it("web_fetch says how to read on when the page was shortened", async () => {
    const long = Array.from(
      { length: 60 },
      (_, i) =>
        `<p>Paragraph ${i} about tides and harbours, long enough to count as prose for the extractor.</p>`,
    ).join("");
    web.route("www.example.com", "/long", {
      headers: { "content-type": "text/html" },
      body: `<html><head><title>Long</title></head><body><main><article>${long}</article></main></body></html>`,
    });
    const r = await call("web_fetch", { url: "https://www.example.com/long", max_chars: 500, mode: "cut" });
    const next = r.structuredContent?.nextOffset as number;
    expect(next).toBeGreaterThan(0);
    const [head] = textOf(r).split("<<<WEB_CONTENT");
    expect(head).toContain(`offset=${next}`);
  });

  it("web_fetch refuses a private address as a tool error naming why", async () => {
    const r = await call("web_fetch", { url: "http://127.0.0.1:9/admin" });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^web_fetch failed \(denied\): http:\/\/127\.0\.0\.1:9\/admin: /);
    expect(web.requests).toHaveLength(0);
  });

  it("web_answer returns the envelope and the answer shape", async () => {
    serveWeb(web);
    const r = await call("web_answer", { query: "typescript" });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({
      status: "ok",
      text: textOf(r),
      provider: "duckduckgo-instant",
    });
    expect(Object.keys(r.structuredContent ?? {}).sort()).toEqual(
      ["lookedUpAt", "provider", "sources", "status", "text"].sort(),
    );
    expectFencedSources(r.structuredContent?.sources, textOf(r));
    expect(textOf(r)).toMatch(/TypeScript/);
  });

  it("web_answer refuses a query that leaks a local path without sending anything", async () => {
    const r = await call("web_answer", { query: "what is in /home/alice/.ssh/id_rsa" });
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toMatchObject({ status: "denied", text: textOf(r) });
    expect(web.requests).toHaveLength(0);
  });

  it("sends progress lines when the client asks for them", async () => {
    serveWeb(web);
    const seen: string[] = [];
    await call(
      "web_search",
      { query: "weather jakarta", provider: "duckduckgo" },
      { onprogress: (p: { message?: string }) => seen.push(p.message ?? "") },
    );
    expect(seen[0]).toBe("Searching the web for 'weather jakarta'");
    expect(seen.some((line) => /^duckduckgo: ok \(\d+\)$/.test(line))).toBe(true);
  });

  it("sends the answer pipeline's own progress lines for web_answer", async () => {
    serveWeb(web);
    const seen: string[] = [];
    await call(
      "web_answer",
      { query: "tide tables harbour" },
      { onprogress: (p: { message?: string }) => seen.push(p.message ?? "") },
    );
    expect(seen[0]).toBe("🌐 Searching the web for 'tide tables harbour'…");
  });
});

describe("what a model reads from a hostile web, on both MCP channels", () => {
  // Codex CLI hands its model the JSON of structuredContent, Claude Code does so for every success, others the
  // text: each must be fenced, redacted and say what happened.
  const bothChannels = (r: ToolResult, options: Parameters<typeof expectSafeObject>[1] = {}) => {
    if (options.fenced !== false) expectFenced(textOf(r), { injected: options.injected });
    else expect(textOf(r)).not.toContain(SECRET);
    expectSafeObject(r.structuredContent, options);
    expect(r.structuredContent?.text).toBe(textOf(r));
  };

  it("web_search: titles, URLs and snippets inside one fence, the secret gone, the header ours", async () => {
    serveHostileWeb(web);
    const r = await call("web_search", { query: HOSTILE_QUERY, provider: "duckduckgo" });
    bothChannels(r, { status: "ok" });
    expect(textOf(r)).toMatch(/^Web search results for '.+' \(via duckduckgo, 2 results\)\. Titles, URLs/);
    expect(textOf(r)).toContain(HOSTILE_URL);
    expect(r.structuredContent?.count).toBe(2);
  });

  it("web_fetch: the title and the page inside the fence, the header ours, the secret gone", async () => {
    serveHostileWeb(web);
    const r = await call("web_fetch", { url: HOSTILE_URL });
    bothChannels(r, { status: "ok" });
    expect(textOf(r).split("\n")[0]).toBe(`${HOSTILE_URL} (source: extracted-html)`);
    expect(textOf(r)).toContain("[REDACTED:github-token]");
  });

  it("web_fetch of a shortened page: the read-on instruction on both channels", async () => {
    serveHostileWeb(web);
    const r = await call("web_fetch", { url: HOSTILE_URL, max_chars: 200, mode: "cut" });
    bothChannels(r, { status: "ok", injected: false });
    const next = r.structuredContent?.nextOffset as number;
    expect(next).toBeGreaterThan(0);
    expect(textOf(r).split("\n")[0]).toContain(`to read on call web_fetch with offset=${next}`);
  });

  it("web_answer: the envelope fenced, the secret gone", async () => {
    serveHostileWeb(web);
    const r = await call("web_answer", { query: HOSTILE_QUERY });
    bothChannels(r, { status: /^(ok|partial)$/ });
  });

  it("failures: the honest line on both channels, the secret in the URL redacted", async () => {
    web.route("www.example.com", "/gone", { status: 404, body: "no" });
    const r = await call("web_fetch", { url: `https://www.example.com/gone?token=${SECRET}` });
    expect(r.isError).toBe(true);
    bothChannels(r, { fenced: false });
    expect(textOf(r)).toMatch(
      /^web_fetch failed \(\w+\): https:\/\/www\.example\.com\/gone\?token=\[REDACTED/,
    );
    const unknown = await call("web_result", { id: "nope" });
    expect(unknown.isError).toBe(true);
    bothChannels(unknown, { fenced: false, status: "error" });
  });
});

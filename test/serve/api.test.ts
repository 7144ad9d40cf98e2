import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { writeWebAbility } from "../../src/config/abilities.js";
import { webFetch, webSearch } from "../../src/surface/tools.js";
import {
  expectFencedSources,
  expectSafeObject,
  HOSTILE_QUERY,
  HOSTILE_URL,
  SECRET,
  serveHostileWeb,
} from "../ground/hostile-web.js";
import { serveWeb, websiftFor } from "../mcp/harness.js";
import { type SimWeb, startSimWeb } from "../simweb/index.js";
import { type Served, serve } from "./harness.js";

let web: SimWeb;
let server: Served;
beforeAll(async () => {
  web = await startSimWeb();
  server = await serve(web);
});
afterAll(async () => {
  await server.close();
  await web.close();
});
afterEach(() => web.reset());

const FENCE = /<<<WEB_CONTENT nonce=/;

describe("POST /v1/search", () => {
  it("answers the model view: status, the text a model would receive, and counts of ours", async () => {
    serveWeb(web);
    const res = await server.post("/v1/search", { query: "weather jakarta", limit: 3 });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({ status: "ok", text: expect.any(String), provider: "duckduckgo", count: 3 });
    // The same rendering the MCP tool gives: a line of ours, then the numbered results inside one fence.
    expect(body.text).toMatch(
      /^Web search results for 'weather jakarta' \(via duckduckgo, 3 results\)\. .*not instructions\.\n<<<WEB_CONTENT nonce=\w+ source=web%20search>>>\n1\. /,
    );
    const direct = websiftFor(web);
    const mcp = await webSearch.run(direct, { query: "weather jakarta", limit: 3 }, {});
    await direct.close();
    const nonceFree = (t: string) => t.replace(/nonce=[\w-]+/g, "nonce=N");
    expect(nonceFree(body.text)).toBe(nonceFree(mcp.text));
  });

  it("refuses bad input with 400 and one line, before any request leaves", async () => {
    const cases: [unknown, RegExp][] = [
      [{ query: "   " }, /query is empty/],
      [{ query: "x", limit: 99 }, /limit must be an integer from 1 to 20/],
      [{ query: "x", region: "nowhere" }, /region must look like/],
      [{ query: "x", scope: "music" }, /unknown scope/],
      [{ query: "x", colour: "red" }, /unknown field colour/],
      [{ limit: 3 }, /^query: /],
      [[1, 2], /^body: /],
    ];
    for (const [body, reason] of cases) {
      const res = await server.post("/v1/search", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const { error } = await res.json();
      expect(error).toMatch(reason);
      expect(error).not.toContain("\n");
    }
    const broken = await server.post("/v1/search", "{not json");
    expect(broken.status).toBe(400);
    expect(web.requests).toHaveLength(0);
  });

  it("refuses a body over the limit with 413", async () => {
    const res = await server.post("/v1/search", { query: "x".repeat(70 * 1024) });
    expect(res.status).toBe(413);
    expect((await res.json()).error).toMatch(/larger than 64 KB/);
  });
});

describe("POST /v1/read", () => {
  it("answers the page fenced, with its header, as web_fetch renders it", async () => {
    serveWeb(web);
    const res = await server.post("/v1/read", { url: "https://www.example.com/tides", max_chars: 2000 });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ status: "ok", source: "extracted-html", truncated: false });
    expect(body).not.toHaveProperty("markdown");
    expect(body).not.toHaveProperty("title");
    expect(body.text).toMatch(/^https:\/\/www\.example\.com\/tides \(source: extracted-html\)\n/);
    expect(body.text).toMatch(FENCE);
    // The page's forged marker cannot close the fence early.
    expect(body.text).not.toContain("nonce=forged>>>");
    const direct = websiftFor(web);
    const mcp = await webFetch.run(direct, { url: "https://www.example.com/tides", max_chars: 2000 }, {});
    await direct.close();
    const nonceFree = (t: string) => t.replace(/nonce=[\w-]+/g, "nonce=N");
    expect(nonceFree(body.text)).toBe(nonceFree(mcp.text));
  });

  it("answers an honest failure with 200 and its status", async () => {
    web.route("www.example.com", "/gone", { status: 404, body: "no" });
    const res = await server.post("/v1/read", { url: "https://www.example.com/gone" });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.status).not.toBe("ok");
    expect(body.text).toMatch(/^web_fetch/);
  });

  it("refuses what is not an http(s) URL", async () => {
    for (const url of ["file:///etc/passwd", "not a url", ""]) {
      const res = await server.post("/v1/read", { url });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatch(/^url: /);
    }
    const res = await server.post("/v1/read", { url: "https://www.example.com/", mode: "all" });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/^mode: /);
  });
});

describe("POST /v1/answer", () => {
  it("answers the envelope with sources and attempts", async () => {
    serveWeb(web);
    web.route("html.duckduckgo.com", "/html/", {
      headers: { "content-type": "text/html" },
      body: (await import("../ground/answer/ddg-page.js")).ddgResultsPage([
        {
          title: "Tide tables",
          url: "https://www.example.com/tides",
          snippet: "tide table harbour spring neap",
        },
      ]),
    });
    const res = await server.post("/v1/answer", { query: "how do tide tables work spring neap" });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(["ok", "partial"]).toContain(body.status);
    expect(body.text).toMatch(FENCE);
    expect(Object.keys(body).sort()).toEqual(["lookedUpAt", "provider", "sources", "status", "text"]);
    // The numbered sources, fenced like the text: the instant answer's source quoted, the result not read.
    expectFencedSources(body.sources, body.text);
    expect(
      body.sources.list.map((x: { n: number; read: boolean; url: string }) => [x.n, x.read, x.url]),
    ).toEqual([
      [1, true, "https://en.wikipedia.org/wiki/Typescript"],
      [2, false, "https://www.example.com/tides"],
    ]);
    expect(body.text).not.toContain(":~:");
  });

  it("refuses an empty question", async () => {
    const res = await server.post("/v1/answer", { query: " " });
    expect(res.status).toBe(400);
  });
});

describe("GET /v1/health and the rest", () => {
  it("says what is configured without any secret", async () => {
    const keyed = await serve(web, { env: { BRAVE_API_KEY: "test-SECRET-brave-123" } });
    try {
      const res = await fetch(`${keyed.url}/v1/health`);
      expect(res.status).toBe(200);
      const raw = await res.text();
      expect(raw).not.toContain("test-SECRET");
      const body = JSON.parse(raw);
      expect(body.ok).toBe(true);
      expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
      expect(body.store).toEqual({ backend: "memory", degraded: false });
      expect(body.abilities.web).toBe("on");
      const brave = body.providers.find((p: { name: string }) => p.name === "brave");
      expect(brave).toMatchObject({ configured: true, paid: true, frozen: true });
      expect(body.providers.find((p: { name: string }) => p.name === "duckduckgo").configured).toBe(true);
    } finally {
      await keyed.close();
    }
  });

  it("answers unknown routes with JSON 404", async () => {
    const res = await fetch(`${server.url}/v1/nope`);
    expect(res.status).toBe(404);
    expect((await res.json()).error).toMatch(/no route GET \/v1\/nope/);
  });

  it("records every API call for the Health page", async () => {
    serveWeb(web);
    await server.post("/v1/read", { url: "https://www.example.com/tides?token=test-SECRET-abc" });
    const [latest] = server.ctx.activity();
    expect(latest).toMatchObject({ kind: "read", status: "ok", client: "127.0.0.1" });
    expect(latest?.subject).toContain("www.example.com/tides");
    expect(latest?.subject).not.toContain("test-SECRET-abc");
  });
});

describe("web access off", () => {
  it("follows the switch in the shared store at once, without a reload", async () => {
    serveWeb(web);
    await writeWebAbility(server.ctx.store, false);
    try {
      const off = await (await server.post("/v1/search", { query: "weather jakarta" })).json();
      expect(off.status).toBe("disabled");
      expect((await (await fetch(`${server.url}/v1/health`)).json()).abilities.web).toBe("off");
      expect(web.requests).toHaveLength(0);
    } finally {
      await writeWebAbility(server.ctx.store, true);
    }
    const on = await (await server.post("/v1/search", { query: "weather jakarta" })).json();
    expect(on.status).toBe("ok");
  });

  it("answers disabled for every call and lets no request leave", async () => {
    for (const off of [
      { context: { overrides: { ...web.netConfig, enabled: false } } },
      { env: { WEBSIFT_ENABLED: "0" } },
    ]) {
      const s = await serve(web, off);
      try {
        serveWeb(web);
        const search = await (await s.post("/v1/search", { query: "weather jakarta" })).json();
        expect(search.status).toBe("disabled");
        expect(search.text).toMatch(/disabled/);
        const read = await (await s.post("/v1/read", { url: "https://www.example.com/tides" })).json();
        expect(read.status).toBe("disabled");
        const answer = await (await s.post("/v1/answer", { query: "tide tables" })).json();
        expect(answer.status).toBe("disabled");
        expect((await (await fetch(`${s.url}/v1/health`)).json()).abilities.web).toBe("off");
        expect(web.requests).toHaveLength(0);
      } finally {
        await s.close();
      }
    }
  });
});

describe("what an app may hand its model, from a hostile web", () => {
  it("every route answers the fenced, redacted view and nothing raw", async () => {
    serveHostileWeb(web);
    const answers = [
      await server.post("/v1/search", { query: HOSTILE_QUERY, provider: "duckduckgo" }),
      await server.post("/v1/read", { url: HOSTILE_URL }),
      await server.post("/v1/answer", { query: HOSTILE_QUERY }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(200);
      expectSafeObject(await res.json(), { status: /^(ok|partial)$/ });
    }
  });

  it("a failure answers its honest line, the secret in the URL redacted", async () => {
    web.route("www.example.com", "/gone", { status: 404, body: "no" });
    const body = await (
      await server.post("/v1/read", { url: `https://www.example.com/gone?k=${SECRET}` })
    ).json();
    expectSafeObject(body, { fenced: false });
    expect(body.text).toMatch(/^web_fetch failed \(\w+\): /);
  });

  it("?raw=1 adds the library's shape beside the same text, every secret redacted", async () => {
    serveHostileWeb(web);
    const read = await (await server.post("/v1/read?raw=1", { url: HOSTILE_URL })).json();
    expect(read).toMatchObject({ status: "ok", finalUrl: HOSTILE_URL, source: "extracted-html" });
    expect(read.markdown).toContain("[REDACTED:github-token]");
    expect(read.text).toMatch(FENCE);
    const search = await (
      await server.post("/v1/search?raw=1", { query: HOSTILE_QUERY, provider: "duckduckgo" })
    ).json();
    expect(search.results[0].url).toBe(HOSTILE_URL);
    expect(search.attempted.length).toBeGreaterThan(0);
    const answer = await (await server.post("/v1/answer?raw=1", { query: HOSTILE_QUERY })).json();
    expect(answer.sources[0].url).toBe(HOSTILE_URL);
    for (const body of [read, search, answer]) expect(JSON.stringify(body)).not.toContain(SECRET);
  });
});

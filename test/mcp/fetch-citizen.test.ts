import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Websift } from "../../src/websift.js";
import { type SimReply, type SimWeb, startSimWeb } from "../simweb/index.js";
import { ARTICLE_HTML, connectInProcess, type ToolResult, textOf, websiftFor } from "./harness.js";

// robots.txt and revalidation live in the read path, so MCP's web_fetch has them as the library has.

let web: SimWeb;
let websift: Websift;
let client: Client;
beforeAll(async () => {
  web = await startSimWeb();
  websift = websiftFor(web, { WEBSIFT_ROBOTS: "respect" });
  client = await connectInProcess({ websift });
});
afterAll(async () => {
  await client.close();
  await websift.close();
  await web.close();
});
afterEach(() => web.reset());

const fetchPage = async (url: string) =>
  (await client.callTool({ name: "web_fetch", arguments: { url } })) as ToolResult;

describe("web_fetch as a good citizen", () => {
  it("WEBSIFT_ROBOTS=respect: a disallowed page is a denied call naming the rule, and is not fetched", async () => {
    web.route("www.example.com", "/robots.txt", { body: "User-agent: *\nDisallow: /tides\n" });
    web.route("www.example.com", "/tides", { headers: { "content-type": "text/html" }, body: ARTICLE_HTML });
    const r = await fetchPage("https://www.example.com/tides");
    expect(r.structuredContent).toMatchObject({ status: "denied" });
    expect(textOf(r)).toBe(
      "web_fetch failed (denied): https://www.example.com/tides: robots.txt of www.example.com disallows /tides for websift (line 2: Disallow: /tides)",
    );
    expect(web.requests.filter((q) => q.path === "/tides")).toHaveLength(0);
  });

  it("a repeat fetch past the page's freshness is revalidated: the 304 serves the kept text, fenced", async () => {
    web.route(
      "www.example.com",
      "/harbour",
      (req): SimReply =>
        req.headers["if-none-match"] === '"t1"'
          ? { status: 304, headers: { etag: '"t1"', "cache-control": "max-age=0" } }
          : {
              headers: { "content-type": "text/html", etag: '"t1"', "cache-control": "max-age=0" },
              body: ARTICLE_HTML,
            },
    );
    const first = await fetchPage("https://www.example.com/harbour");
    const again = await fetchPage("https://www.example.com/harbour");
    expect(web.requests.filter((q) => q.path === "/harbour").map((q) => q.headers["if-none-match"])).toEqual([
      undefined,
      '"t1"',
    ]);
    expect(again.structuredContent).toMatchObject({ status: "ok", cached: true });
    expect(textOf(again).split("\n")[0]).toBe(
      "https://www.example.com/harbour (source: extracted-html, cached)",
    );
    expect(textOf(again)).toContain("Spring tides follow the new and full moon");
    expect(textOf(again)).toMatch(/<<<END_WEB_CONTENT nonce=[A-Za-z0-9_-]+>>>$/);
    expect(textOf(again)).toMatch(
      /\n<<<WEB_CONTENT nonce=\S+ source=https:\/\/www\.example\.com\/harbour>>>\n/,
    );
    expect(textOf(first)).toContain("Spring tides follow the new and full moon");
  });
});

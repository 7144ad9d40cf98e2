import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../cli/run-cli.js";
import { connectInProcess, type ToolResult, textOf, websiftFor } from "../mcp/harness.js";
import { type Served, serve } from "../serve/harness.js";
import { type SimProxy, type SimWeb, startProxy, startSimWeb } from "../simweb/index.js";

// Every surface reads through the extract chain: Tavily extract, then Exa contents, then the direct ladder,
// under one rule (key set, and paid use unfrozen or the provider pinned), and says which rung gave the text.
const PAGE = "https://www.example.com/tides";
const TAVILY_KEY = "test-SECRET-tavily-surfaces-1";
const PAID = { TAVILY_API_KEY: TAVILY_KEY, WEBSIFT_ENABLE_PAID: "1" };
const EXTRACTED = "Tavily's own reading of the tide tables: high water at 06:12.";

let web: SimWeb;
beforeAll(async () => {
  web = await startSimWeb();
});
afterAll(() => web.close());
afterEach(() => web.reset());

function servePage(): void {
  web.route("www.example.com", "/tides", {
    headers: { "content-type": "text/html; charset=utf-8" },
    body: `<!doctype html><title>Tide tables</title><main><article><h1>Tide tables</h1>
<p>The direct ladder's reading of the tide tables: a tide table lists the times of high and low water.</p>
<p>Spring tides follow the new and full moon; neap tides follow the quarter moons.</p></article></main>`,
  });
  // The documented response shape (tavily/tavily-extract.FROM-DOCS.json), for the URL asked for.
  web.route("api.tavily.com", "/extract", (req) => {
    const { urls } = JSON.parse(req.body) as { urls: string[] | string };
    const url = Array.isArray(urls) ? urls[0] : urls;
    return {
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        results: [{ url, raw_content: `# Tide tables\n\n${EXTRACTED}` }],
        failed_results: [],
        response_time: 0.4,
      }),
    };
  });
}
const tavilyAsked = () => web.requests.filter((r) => r.host === "api.tavily.com").length;

describe("the library", () => {
  it("reads through Tavily extract when its key is set and paid use is unfrozen", async () => {
    servePage();
    const websift = websiftFor(web, PAID);
    const page = await websift.read(PAGE, { render: "never" });
    await websift.close();
    expect(page.status).toBe("ok");
    expect(page.source).toBe("tavily-extract");
    expect(page.markdown).toContain(EXTRACTED);
  });

  it("stays on the direct ladder while paid use is frozen, unless the call pins the provider", async () => {
    servePage();
    const websift = websiftFor(web, { TAVILY_API_KEY: TAVILY_KEY });
    const frozen = await websift.read(PAGE, { render: "never" });
    expect(frozen.source).toBe("extracted-html");
    expect(tavilyAsked()).toBe(0);
    const pinned = await websift.read(PAGE, { render: "never", pin: ["tavily"] });
    await websift.close();
    expect(pinned.source).toBe("tavily-extract");
  });

  it("refuses a private URL before any provider is asked", async () => {
    servePage();
    const websift = websiftFor(web, PAID);
    web.resolveAs("intranet.example.com", ["10.0.0.7"]);
    for (const url of [
      "http://127.0.0.1:9/secret",
      "http://localhost/admin",
      "https://intranet.example.com/",
    ]) {
      const page = await websift.read(url, { render: "never" });
      expect(page.status, url).toBe("denied");
    }
    await websift.close();
    expect(tavilyAsked()).toBe(0);
  });
});

describe("MCP web_fetch", () => {
  it("names the extract rung in the text the model reads", async () => {
    servePage();
    const websift = websiftFor(web, PAID);
    const client = await connectInProcess({ websift });
    const r = (await client.callTool({ name: "web_fetch", arguments: { url: PAGE } })) as ToolResult;
    await client.close();
    await websift.close();
    expect(textOf(r)).toContain("source: tavily-extract");
    expect(textOf(r)).toContain(EXTRACTED);
    expect(tavilyAsked()).toBe(1);
  });
});

describe("HTTP /v1/read", () => {
  let server: Served | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("reads through the extract chain with the instance's keys", async () => {
    servePage();
    server = await serve(web, { env: PAID });
    const res = await server.post("/v1/read", { url: PAGE });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; text: string };
    expect(body.status).toBe("ok");
    expect(body.text).toContain("source: tavily-extract");
    expect(body.text).toContain(EXTRACTED);
  });
});

describe("websift fetch", () => {
  let proxy: SimProxy;
  beforeAll(async () => {
    proxy = await startProxy(web);
  });
  afterAll(() => proxy.close());

  const run = (args: string[], env: Record<string, string>) => runCli(proxy, args, env);

  it("prints the text of the extract rung and names it", async () => {
    servePage();
    const out = await run(["fetch", PAGE, "--render", "never", "--json"], PAID);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("tavily-extract");
    expect(out.stdout).toContain("high water at 06:12");
    expect(out.stdout).not.toContain(TAVILY_KEY);
    expect(out.stderr).not.toContain(TAVILY_KEY);
  });
});

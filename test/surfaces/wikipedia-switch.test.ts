import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { createWebsift } from "../../src/websift.js";
import { runCli } from "../cli/run-cli.js";
import { connectInProcess, type ToolResult, textOf } from "../mcp/harness.js";
import { type SimProxy, type SimWeb, startProxy, startSimWeb } from "../simweb/index.js";

// The Wikipedia fallback switch: off, Wikipedia is never searched (auto, a pinned search, answer's fallback),
// while a Wikipedia page a caller asks to read is still read.
const ARTICLE = "https://en.wikipedia.org/wiki/Tide";

let web: SimWeb;
beforeAll(async () => {
  web = await startSimWeb();
});
afterAll(() => web.close());
afterEach(() => web.reset());

// Reading an article (its page, or the parse API's answer its site reader asks for) is not searching.
const wikipediaSearched = () =>
  web.requests.filter(
    (r) =>
      r.host.endsWith("wikipedia.org") &&
      !r.path.startsWith("/wiki/") &&
      r.url.searchParams.get("action") !== "parse",
  ).length;

/** No keyless engine is routed (each gets a 404), so the chain would end at Wikipedia; Wikipedia would answer. */
function serveEmptyWebAndWikipedia(): void {
  web.route("en.wikipedia.org", /^\/w\/(api|rest)/, {
    headers: { "content-type": "application/json" },
    body: JSON.stringify(["tide", ["Tide"], ["Rise and fall of sea levels"], [ARTICLE]]),
  });
  web.route("en.wikipedia.org", "/wiki/Tide", {
    headers: { "content-type": "text/html; charset=utf-8" },
    body: `<!doctype html><title>Tide - Wikipedia</title><main><h1>Tide</h1>
<p>Tides are the rise and fall of sea levels caused by the gravity of the Moon and the Sun acting on the Earth.</p>
<p>Most places see two high tides and two low tides each lunar day, about 24 hours and 50 minutes.</p></main>`,
  });
}

function websiftWith(config: { wikipediaFallback?: boolean; env?: Record<string, string> }) {
  return createWebsift({
    ...web.netConfig,
    env: config.env ?? {},
    wikipediaFallback: config.wikipediaFallback,
    settings: { ddgRetryDelayMs: 5 },
    timeoutMs: 8000,
  });
}

describe("the Wikipedia switch in the library", () => {
  it("off: auto never asks Wikipedia, a pinned search says disabled, answer does not fall back", async () => {
    serveEmptyWebAndWikipedia();
    for (const websift of [
      websiftWith({ wikipediaFallback: false }),
      websiftWith({ env: { WEBSIFT_WIKIPEDIA_FALLBACK: "0" } }),
    ]) {
      const auto = await websift.search("tide");
      expect(auto.attempted.map((a) => a.provider)).not.toContain("wikipedia");
      const pinned = await websift.search("tide", { provider: "wikipedia" });
      expect(pinned.status).toBe("disabled");
      expect(pinned.error).toMatch(/WEBSIFT_WIKIPEDIA_FALLBACK=0/);
      const lines: string[] = [];
      const answer = await websift.answer("tide", { onProgress: (l) => lines.push(l) });
      expect(answer.attempts.map((a) => a.provider)).not.toContain("wikipedia");
      expect(lines.join("\n")).not.toMatch(/Wikipedia/);
      // A page on Wikipedia that a caller asks for is still read.
      const page = await websift.read(ARTICLE, { render: "never" });
      expect(page.status).toBe("ok");
      expect(page.markdown).toContain("rise and fall of sea levels");
      await websift.close();
    }
    expect(wikipediaSearched()).toBe(0);
  });

  it("on (the default): the same world reaches Wikipedia", async () => {
    serveEmptyWebAndWikipedia();
    const websift = websiftWith({});
    const pinned = await websift.search("tide", { provider: "wikipedia" });
    await websift.close();
    expect(pinned.status).not.toBe("disabled");
    expect(wikipediaSearched()).toBeGreaterThan(0);
  });
});

describe("the Wikipedia switch in MCP", () => {
  it("a pinned web_search says the switch is off", async () => {
    serveEmptyWebAndWikipedia();
    const websift = websiftWith({ wikipediaFallback: false });
    const client = await connectInProcess({ websift });
    const r = (await client.callTool({
      name: "web_search",
      arguments: { query: "tide", provider: "wikipedia" },
    })) as ToolResult;
    await client.close();
    await websift.close();
    expect(textOf(r)).toMatch(/disabled/);
    expect(wikipediaSearched()).toBe(0);
  });
});

describe("the Wikipedia switch in the config file and the CLI", () => {
  let dir: string | undefined;
  let proxy: SimProxy;
  beforeAll(async () => {
    proxy = await startProxy(web);
  });
  afterAll(() => proxy.close());
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  const run = (args: string[], env: Record<string, string> = {}) =>
    runCli(proxy, args, env, { cwd: dir ?? tmpdir(), home: dir ?? tmpdir() });
  const config = (data: unknown) => {
    dir ??= mkdtempSync(join(tmpdir(), "websift-wiki-switch-"));
    writeFileSync(join(dir, "websift.config.json"), JSON.stringify(data));
    return dir;
  };

  it("reads wikipediaFallback from the file, and the environment wins over it", () => {
    const where = config({ wikipediaFallback: false });
    const fromFile = loadConfig({ cwd: where, home: where, env: {} });
    expect(fromFile.toWebsiftConfig().wikipediaFallback).toBe(false);
    expect(fromFile.values.search.wikipediaFallback).toBe(false);
    const fromEnv = loadConfig({ cwd: where, home: where, env: { WEBSIFT_WIKIPEDIA_FALLBACK: "1" } });
    expect(fromEnv.toWebsiftConfig().wikipediaFallback).toBe(true);
  });

  it("websift search --provider wikipedia answers disabled when the file turns it off", async () => {
    serveEmptyWebAndWikipedia();
    config({ wikipediaFallback: false });
    const out = await run(["search", "tide", "--provider", "wikipedia", "--json"]);
    expect(out.code).toBe(1);
    expect(JSON.parse(out.stdout).status).toBe("disabled");
    expect(wikipediaSearched()).toBe(0);
  });

  it('refuses {"providers": {"wikipedia": false}} by name, with the setting to use (exit 2)', async () => {
    config({ providers: { wikipedia: false } });
    const out = await run(["search", "tide"]);
    expect(out.code).toBe(2);
    expect(out.stdout).toBe("");
    expect(out.stderr).toContain("providers.wikipedia");
    expect(out.stderr).toContain("websift.config.json");
    expect(out.stderr).toContain('"wikipediaFallback": false');
    expect(web.requests).toHaveLength(0);
  });

  it("refuses an unknown provider setting and a misspelt switch value, naming each", async () => {
    config({ providers: { ddgRetryDelay: 5 } });
    const typo = await run(["search", "tide"]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("providers.ddgRetryDelay");
    expect(typo.stderr).toContain("ddgRetryDelayMs");
    config({});
    const badSwitch = await run(["search", "tide"], { WEBSIFT_WIKIPEDIA_FALLBACK: "false" });
    expect(badSwitch.code).toBe(2);
    expect(badSwitch.stderr).toContain("WEBSIFT_WIKIPEDIA_FALLBACK");
  });
});

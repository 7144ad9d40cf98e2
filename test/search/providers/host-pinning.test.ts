import { describe, expect, it } from "vitest";
import { Deadline } from "../../../src/core/deadline.js";
import type { Net, NetRequestOptions } from "../../../src/net/client.js";
import type { Provider, ProviderOutcome } from "../../../src/search/provider.js";
import { bing } from "../../../src/search/providers/bing.js";
import { braveWeb } from "../../../src/search/providers/brave-web.js";
import { duckduckgo } from "../../../src/search/providers/duckduckgo.js";
import { duckduckgoInstant } from "../../../src/search/providers/duckduckgo-instant.js";
import { mojeek } from "../../../src/search/providers/mojeek.js";
import { startpage } from "../../../src/search/providers/startpage.js";
import { wikipedia } from "../../../src/search/providers/wikipedia.js";
import { PROVIDERS } from "../../../src/search/registry.js";
import {
  engineUrl,
  OffEngineHost,
  onEngineHosts,
  requestOnEngineHosts,
} from "../../../src/search/serp/engine-hosts.js";
import { ddgChallenge, type SimReply, type SimWeb } from "../../simweb/index.js";
import { useSimProviders } from "./context.js";
import { fixture } from "./fixtures.js";

const web = useSimProviders();
const EVIL = "results.evil.example";
const html = (file: string): SimReply => ({
  headers: { "content-type": "text/html; charset=utf-8" },
  body: fixture(file),
});
const json = (body: unknown): SimReply => ({
  headers: { "content-type": "application/json" },
  body: typeof body === "string" ? body : JSON.stringify(body),
});

interface Pinned {
  name: string;
  provider: Provider;
  query: string;
  /** Routes the engine so that its request meets `reply` (the redirect), and anything it needs before. */
  meet(sim: SimWeb, reply: SimReply): void;
  /** What a results page of this engine looks like: served at the redirect's target, it must never be read. */
  results: () => SimReply;
}

const ENGINES: Pinned[] = [
  {
    name: "duckduckgo (html)",
    provider: duckduckgo,
    query: "openai news",
    meet: (sim, reply) => sim.route("html.duckduckgo.com", "/html/", reply),
    results: () => html("duckduckgo/ddg-html-results-openai-news-2026-02.html"),
  },
  {
    name: "duckduckgo (lite)",
    provider: duckduckgo,
    query: "weather san francisco",
    meet: (sim, reply) => {
      sim.route("html.duckduckgo.com", "/html/", ddgChallenge(sim, 202));
      sim.route("lite.duckduckgo.com", "/lite/", reply);
    },
    results: () => html("duckduckgo/ddg-lite-results-weather-sf-2026-01.html"),
  },
  {
    name: "duckduckgo-instant",
    provider: duckduckgoInstant,
    query: "typescript",
    meet: (sim, reply) => sim.route("api.duckduckgo.com", "/", reply),
    results: () => json(fixture("duckduckgo/ddg-instant-answer-article-typescript.json")),
  },
  {
    name: "bing",
    provider: bing,
    query: "javascript tutorial",
    meet: (sim, reply) => sim.route("www.bing.com", "/search", reply),
    results: () => html("bing/bing-serp-http-ck-wrapped-javascript-tutorial-2026-04.html"),
  },
  {
    name: "mojeek",
    provider: mojeek,
    query: "javascript tutorial",
    meet: (sim, reply) => sim.route("www.mojeek.com", "/search", reply),
    results: () => html("mojeek/mojeek-serp-javascript-tutorial-2026-04.html"),
  },
  {
    name: "startpage",
    provider: startpage,
    query: "javascript tutorial",
    meet: (sim, reply) => sim.route("www.startpage.com", "/sp/search", reply),
    results: () => html("startpage/startpage-serp-http-javascript-tutorial-2026-04.html"),
  },
  {
    name: "brave-web",
    provider: braveWeb,
    query: "javascript tutorial",
    meet: (sim, reply) => sim.route("search.brave.com", "/search", reply),
    results: () => html("brave/brave-web-ui-serp-javascript-tutorial-2026-04.html"),
  },
  {
    name: "wikipedia",
    provider: wikipedia,
    query: "physics",
    meet: (sim, reply) => sim.route("en.wikipedia.org", /.*/, reply),
    results: () => json(["physics", ["Physics"], [], []]),
  },
];

const run = (engine: Pinned): Promise<ProviderOutcome> =>
  engine.provider.search({ query: engine.query, limit: 5 }, web.ctx, Deadline.after(5000));

describe.each(ENGINES)("$name is pinned to its hosts", (engine) => {
  it("refuses a redirect off its hosts: an error naming it, the other host never asked, nothing parsed", async () => {
    web.sim.route(EVIL, /.*/, engine.results());
    engine.meet(web.sim, { status: 302, headers: { location: `https://${EVIL}/serp?q=x` } });
    const outcome = await run(engine);
    expect(outcome).toMatchObject({ status: "error", code: "off_host_redirect" });
    expect(outcome.status === "error" && outcome.message).toMatch(
      new RegExp(
        `^${engine.provider.name} was redirected off its hosts, to ${EVIL.replaceAll(".", "\\.")}; not followed$`,
      ),
    );
    expect(web.sim.requests.map((r) => r.host)).not.toContain(EVIL);
    expect(web.sim.lookups).not.toContain(EVIL);
  });

  it("refuses a redirect to its own host over plain http or on another port", async () => {
    const host = engine.provider.hosts?.find((h) => !h.startsWith("*.")) ?? "en.wikipedia.org";
    for (const location of [`http://${host}/x`, `https://${host}:8443/x`]) {
      engine.meet(web.sim, { status: 301, headers: { location } });
      expect(await run(engine)).toMatchObject({ status: "error", code: "off_host_redirect" });
    }
  });

  it("declares its hosts, and follows a redirect that stays on them", async () => {
    expect(engine.provider.hosts?.length).toBeGreaterThan(0);
    const first = web.sim.requests.length;
    engine.meet(web.sim, { status: 302, headers: { location: "/moved-on-the-same-host" } });
    await run(engine);
    const paths = web.sim.requests.slice(first).map((r) => r.path);
    expect(paths).toContain("/moved-on-the-same-host");
  });
});

describe("engine hosts", () => {
  it("every keyless engine that scrapes declares its hosts", () => {
    const scraped = PROVIDERS.filter((p) => p.kind === "keyless");
    expect(scraped.map((p) => p.name).sort()).toEqual(
      ["bing", "brave-web", "duckduckgo", "duckduckgo-instant", "mojeek", "startpage", "wikipedia"].sort(),
    );
    for (const p of scraped) expect(p.hosts?.length, p.name).toBeGreaterThan(0);
  });

  it("matches exact names, and `*.suffix` for one label only, https without port or credentials", () => {
    const hosts = ["www.bing.com", "*.wikipedia.org"];
    const yes = [
      "https://www.bing.com/search",
      "https://de.wikipedia.org/w/api.php",
      "https://zh-min-nan.wikipedia.org/",
    ];
    const no = [
      "http://www.bing.com/search",
      "https://www.bing.com:444/search",
      "https://u:p@www.bing.com/",
      "https://bing.com/",
      "https://www.bing.com.evil.example/",
      "https://evil.example/www.bing.com",
      "https://wikipedia.org/",
      "https://a.b.wikipedia.org/",
      "https://de.wikipedia.org.evil.example/",
      "https://-x.wikipedia.org/",
    ];
    for (const u of yes) expect(onEngineHosts(new URL(u), hosts), u).toBe(true);
    for (const u of no) expect(onEngineHosts(new URL(u), hosts), u).toBe(false);
  });

  it("the URL builder refuses a URL off the engine's hosts", () => {
    expect(engineUrl("bing", ["www.bing.com"], "https://www.bing.com/search").href).toBe(
      "https://www.bing.com/search",
    );
    expect(() => engineUrl("wikipedia", ["*.wikipedia.org"], "https://de.evil.example/w/api.php")).toThrow(
      OffEngineHost,
    );
  });

  it("a request off the engine's hosts is refused before it is sent", async () => {
    const outcome = await requestOnEngineHosts(
      "bing",
      ["www.bing.com"],
      `https://${EVIL}/search`,
      { deadline: Deadline.after(2000) },
      web.ctx,
    );
    expect(outcome).toMatchObject({ ok: false, failure: { status: "error", code: "off_host" } });
    expect(web.sim.requests).toHaveLength(0);
    expect(web.sim.lookups).toHaveLength(0);
  });

  it("a final URL off the hosts is refused even when the client did not stop the redirect", async () => {
    // A client that ignores redirectAllowed stands for a redirect path this check must not depend on.
    const lax: Net = {
      async request(url: string, options: NetRequestOptions) {
        expect(options.redirectAllowed?.(new URL(`https://${EVIL}/`))).toBe(false);
        return {
          ok: true,
          url,
          finalUrl: `https://${EVIL}/serp`,
          status: 200,
          headers: {},
          redirects: [`https://${EVIL}/serp`],
          bytes: Buffer.from("<html></html>"),
          contentType: "text/html",
          ms: 1,
          text: () => "<html></html>",
          json: () => undefined,
        };
      },
      close: async () => {},
    };
    const outcome = await requestOnEngineHosts(
      "mojeek",
      ["www.mojeek.com"],
      "https://www.mojeek.com/search?q=x",
      { deadline: Deadline.after(2000) },
      { net: lax },
    );
    expect(outcome).toMatchObject({
      ok: false,
      failure: {
        status: "error",
        code: "off_host_redirect",
        message: `mojeek answered from ${EVIL}, not one of its hosts`,
      },
    });
  });
});

import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Provider } from "../../src/search/provider.js";
import { PROVIDERS } from "../../src/search/registry.js";
import { recordFailure } from "../../src/search/suspension.js";
import { article } from "../ground/answer/ddg-page.js";
import { serveWeb } from "../mcp/harness.js";
import { type SimWeb, startSimWeb } from "../simweb/index.js";
import { dashboardServer } from "./dashboard-harness.js";
import type { Served } from "./harness.js";

const KEY = "test-SECRET-brave-0001abcd";
const BRAVE_FIXTURE = "brave/brave-web-search-swift6-concurrency-2025-02.json";

let web: SimWeb;
beforeAll(async () => {
  web = await startSimWeb();
});
afterAll(() => web.close());
afterEach(() => web.reset());

const call = async (s: Served, method: string, path: string, body?: unknown) => {
  const res = await fetch(`${s.url}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, json: text ? JSON.parse(text) : undefined };
};

describe("the page", () => {
  it("is served with its own style and script under a policy that lets it reach nothing else", async () => {
    const s = await dashboardServer(web);
    try {
      const page = await fetch(`${s.url}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toMatch(/^text\/html/);
      expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
      const html = await page.text();
      expect(html).toContain('role="switch"');
      // Nothing external: every src/href is a path on this server or a fragment.
      const refs = [...html.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1] as string);
      for (const ref of refs) expect(ref).toMatch(/^[/#]/);
      for (const ref of refs.filter((r) => r.startsWith("/")))
        expect((await fetch(`${s.url}${ref}`)).status, ref).toBe(200);
      const css = await fetch(`${s.url}/dashboard/style.css`);
      const js = await fetch(`${s.url}/dashboard/app.js`);
      expect(css.headers.get("content-type")).toMatch(/^text\/css/);
      expect(js.headers.get("content-type")).toMatch(/^text\/javascript/);
      expect(await js.text()).not.toMatch(/https?:\/\/[a-z]/);
    } finally {
      await s.close();
    }
  });

  it("loads without the token while every admin route asks for it", async () => {
    const s = await dashboardServer(web, { token: "test-SECRET-serve-token" });
    try {
      expect((await fetch(`${s.url}/`)).status).toBe(200);
      expect((await call(s, "GET", "/v1/admin/abilities")).status).toBe(401);
      expect((await call(s, "PUT", "/v1/admin/keys/brave", { value: KEY })).status).toBe(401);
      const ok = await fetch(`${s.url}/v1/admin/abilities`, {
        headers: { authorization: "Bearer test-SECRET-serve-token" },
      });
      expect(ok.status).toBe(200);
    } finally {
      await s.close();
    }
  });
});

describe("/v1/admin/abilities", () => {
  it("switches web access off for the API at once (no request reaches the web) and on again", async () => {
    const s = await dashboardServer(web);
    try {
      serveWeb(web);
      expect((await call(s, "GET", "/v1/admin/abilities")).json).toEqual({ web: { on: true } });
      for (const bad of [{ web: "off" }, {}, { web: false, extra: 1 }, "nope"])
        expect((await call(s, "PUT", "/v1/admin/abilities", bad)).status).toBe(400);

      const off = await call(s, "PUT", "/v1/admin/abilities", { web: false });
      expect(off.json.web.on).toBe(false);
      expect(off.json.web.changedAt).toMatch(/^\d{4}-/);
      const refused = await s.post("/v1/search?raw=1", { query: "weather jakarta" });
      expect((await refused.json()).status).toBe("disabled");
      const read = await s.post("/v1/read?raw=1", { url: "https://www.example.com/tides" });
      expect((await read.json()).status).toBe("disabled");
      expect(web.requests).toHaveLength(0);

      await call(s, "PUT", "/v1/admin/abilities", { web: true });
      const searched = await (await s.post("/v1/search?raw=1", { query: "weather jakarta" })).json();
      expect(searched.status).toBe("ok");
      expect(web.requests.length).toBeGreaterThan(0);
    } finally {
      await s.close();
    }
  });

  it("says when the environment holds web access off whatever the switch says", async () => {
    const s = await dashboardServer(web, { env: { WEBSIFT_ENABLED: "0" } });
    try {
      const { json } = await call(s, "GET", "/v1/admin/abilities");
      expect(json.web).toMatchObject({ on: true, heldOffBy: "WEBSIFT_ENABLED=0 in the environment" });
    } finally {
      await s.close();
    }
  });
});

describe("/v1/admin/settings", () => {
  it("merges into the config file, keeping what it does not edit, and the next call uses the new defaults", async () => {
    const s = await dashboardServer(web, {
      config: { $schema: "./schema.json", mcpPort: 9999, providers: { ddgCooldownMs: 60000 } },
    });
    try {
      serveWeb(web);
      const before = await (await s.post("/v1/search?raw=1", { query: "weather jakarta" })).json();
      expect(before.results.length).toBeGreaterThan(2);

      const saved = await call(s, "PUT", "/v1/admin/settings", {
        maxResults: 2,
        safeSearch: "strict",
        providerOrder: "wikipedia,duckduckgo",
        searxngUrl: null,
        budgets: { duckduckgo: 4000 },
      });
      expect(saved.status).toBe(200);
      const file = JSON.parse(readFileSync(s.ctx.configPath, "utf8"));
      expect(file).toEqual({
        $schema: "./schema.json",
        mcpPort: 9999,
        providers: { ddgCooldownMs: 60000 },
        maxResults: 2,
        safeSearch: "strict",
        providerOrder: "wikipedia,duckduckgo",
        budgets: { duckduckgo: 4000 },
      });
      const shown = Object.fromEntries(
        saved.json.settings.map((x: { key: string; value: unknown }) => [x.key, x.value]),
      );
      expect(shown).toMatchObject({ maxResults: 2, safeSearch: "strict", searxngUrl: null });
      expect(saved.json.budgets).toEqual({ duckduckgo: 4000 });

      // Wikipedia first now: with no Wikipedia route it finds nothing, then DuckDuckGo answers with 2 results.
      const after = await (await s.post("/v1/search?raw=1", { query: "weather jakarta tomorrow" })).json();
      expect(after.attempted.map((a: { provider: string }) => a.provider)).toEqual([
        "wikipedia",
        "duckduckgo",
      ]);
      expect(after.results).toHaveLength(2);
      const ddg = web.requests.filter((r) => r.host === "html.duckduckgo.com").at(-1);
      expect(ddg?.body).toContain("tomorrow");
      expect(ddg?.body).toContain("kp=1");

      await call(s, "PUT", "/v1/admin/settings", { maxResults: null, providerOrder: null, budgets: null });
      const cleared = JSON.parse(readFileSync(s.ctx.configPath, "utf8"));
      expect(cleared).not.toHaveProperty("maxResults");
      expect(cleared).not.toHaveProperty("budgets");
      expect(cleared.mcpPort).toBe(9999);
    } finally {
      await s.close();
    }
  });

  it("page size and long-page mode apply to the next read that does not say", async () => {
    const s = await dashboardServer(web);
    try {
      const paragraphs = Array.from(
        { length: 40 },
        (_, i) =>
          `Paragraph ${i + 1} of the tide tables explains the rhythm of the sea along the coast in detail.`,
      );
      web.route("www.example.com", "/long", {
        headers: { "content-type": "text/html; charset=utf-8" },
        body: article("Tide tables", paragraphs),
      });
      const read = async () =>
        (await s.post("/v1/read?raw=1", { url: "https://www.example.com/long" })).json();
      const whole = await read();
      expect(whole.truncated).toBe(false);
      expect(whole.markdown).toContain("Paragraph 40");

      await call(s, "PUT", "/v1/admin/settings", { maxChars: 1000, longPageMode: "head-tail" });
      const sized = await read();
      expect(sized.truncated).toBe(true);
      expect(sized.markdown.length).toBeLessThanOrEqual(1000);
      expect(sized.markdown).toContain("[TRUNCATED]");
      expect(sized.markdown).toContain("Paragraph 40");
      const asked = await (
        await s.post("/v1/read?raw=1", { url: "https://www.example.com/long", max_chars: 3000, mode: "cut" })
      ).json();
      expect(asked.markdown).not.toContain("[TRUNCATED]");
      expect(asked.markdown.length).toBeGreaterThan(1000);
    } finally {
      await s.close();
    }
  });

  it("a conversation's wait follows the saved waitSeconds on the next turn", async () => {
    const s = await dashboardServer(web);
    try {
      web.route("html.duckduckgo.com", "/html/", {
        headers: { "content-type": "text/html; charset=utf-8" },
        body: web.fixture("duckduckgo/ddg-html-results-with-ad-weather-jakarta-2026-02.html"),
        delayMs: 600,
      });
      const cid = await s.conversation();
      const ask = async (query: string) =>
        (await s.post("/v1/search?raw=1", { query, conversation_id: cid })).json();
      expect((await ask("weather jakarta")).status).toBe("ok");
      expect((await call(s, "PUT", "/v1/admin/settings", { waitSeconds: 0.05 })).status).toBe(200);
      expect((await ask("weather jakarta today")).status).toBe("pending");
    } finally {
      await s.close();
    }
  });

  it("refuses bad values with 400 and leaves the file untouched", async () => {
    const s = await dashboardServer(web, { config: { mcpPort: 9999 } });
    try {
      const cases: [unknown, RegExp][] = [
        [{ maxResults: 50 }, /maxResults/],
        [{ maxChars: "lots" }, /maxChars/],
        [{ safeSearch: "max" }, /safeSearch/],
        [{ longPageMode: "all" }, /longPageMode/],
        [{ waitSeconds: 600 }, /waitSeconds/],
        [{ searxngUrl: "ftp://x" }, /searxngUrl/],
        [{ providerOrder: "brave,altavista" }, /unknown provider altavista/],
        [{ budgets: { nowhere: 1000 } }, /unknown provider nowhere/],
        [{ braveApiKey: KEY }, /unknown setting braveApiKey/],
        [{ colour: "red" }, /unknown setting colour/],
      ];
      for (const [body, reason] of cases) {
        const res = await call(s, "PUT", "/v1/admin/settings", body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.json.error).toMatch(reason);
      }
      expect(JSON.parse(readFileSync(s.ctx.configPath, "utf8"))).toEqual({ mcpPort: 9999 });
    } finally {
      await s.close();
    }
  });

  it("says which values the environment sets (and so wins over the file)", async () => {
    const s = await dashboardServer(web, { env: { WEBSIFT_MAX_RESULTS: "7" } });
    try {
      const { json } = await call(s, "GET", "/v1/admin/settings");
      const max = json.settings.find((x: { key: string }) => x.key === "maxResults");
      expect(max).toMatchObject({
        value: 7,
        source: "env",
        setBy: "environment",
        env: "WEBSIFT_MAX_RESULTS",
      });
    } finally {
      await s.close();
    }
  });
});

describe("/v1/admin/keys", () => {
  it("writes a pasted key to .env (0600, other lines kept), never returns or logs it, and the next search uses it", async () => {
    const s = await dashboardServer(web);
    try {
      const envPath = s.ctx.envPath;
      writeFileSync(envPath, "# mine\nWEBSIFT_TIMEOUT=15\n", { mode: 0o644 });
      web.route("api.search.brave.com", "/res/v1/web/search", {
        headers: { "content-type": "application/json" },
        body: web.fixture(BRAVE_FIXTURE),
      });
      const pinnedBefore = await (
        await s.post("/v1/search?raw=1", { query: "swift 6", provider: "brave" })
      ).json();
      expect(pinnedBefore.code).toBe("not_configured");

      const put = await call(s, "PUT", "/v1/admin/keys/brave", { value: KEY });
      expect(put.status).toBe(200);
      expect(put.json.keys.find((k: { name: string }) => k.name === "brave")).toEqual({
        name: "brave",
        env: "BRAVE_API_KEY",
        set: true,
        where: ".env",
        overridden: false,
      });
      expect(statSync(envPath).mode & 0o777).toBe(0o600);
      expect(readFileSync(envPath, "utf8")).toBe(`# mine\nWEBSIFT_TIMEOUT=15\nBRAVE_API_KEY=${KEY}\n`);

      const pinned = await (await s.post("/v1/search?raw=1", { query: "swift 6", provider: "brave" })).json();
      expect(pinned.status).toBe("ok");
      const braveRequest = web.requests.find((r) => r.host === "api.search.brave.com");
      expect(braveRequest?.headers["x-subscription-token"]).toBe(KEY);

      const bodies = [
        put.text,
        (await call(s, "GET", "/v1/admin/settings")).text,
        (await call(s, "GET", "/v1/admin/health")).text,
        (await call(s, "GET", "/v1/admin/abilities")).text,
        (await call(s, "PUT", "/v1/admin/settings", { maxChars: 3000 })).text,
      ];
      for (const body of bodies) expect(body).not.toContain(KEY.slice(-8));
      expect(s.logs.join("\n")).not.toContain(KEY.slice(-8));
      expect(readFileSync(s.ctx.configPath, "utf8")).not.toContain(KEY.slice(-8));

      const removed = await call(s, "DELETE", "/v1/admin/keys/brave");
      expect(removed.json.keys.find((k: { name: string }) => k.name === "brave").set).toBe(false);
      expect(readFileSync(envPath, "utf8")).toBe("# mine\nWEBSIFT_TIMEOUT=15\n");
    } finally {
      await s.close();
    }
  });

  it("lists the keys the providers declare, a provider added to the registry included, and writes its variable", async () => {
    const acme: Provider = {
      name: "acme",
      kind: "keyed",
      paid: true,
      keyEnv: ["ACME_API_KEY"],
      native: {},
      timeoutMs: 1000,
      search: async () => ({ status: "empty" }),
    };
    const s = await dashboardServer(web, { providers: [...PROVIDERS, acme] });
    try {
      writeFileSync(s.ctx.envPath, "GOOGLE_API_KEY=test-SECRET-google-0001\n");
      await s.ctx.reload();
      const listed = (await call(s, "GET", "/v1/admin/settings")).json.keys;
      expect(listed.map((k: { name: string; env: string }) => `${k.name}=${k.env}`)).toEqual([
        "brave=BRAVE_API_KEY",
        "tavily=TAVILY_API_KEY",
        "exa=EXA_API_KEY",
        "perplexity=PERPLEXITY_API_KEY",
        "gemini=GEMINI_API_KEY",
        "acme=ACME_API_KEY",
      ]);
      // Gemini's key under its other declared name counts as set, and removing it removes that name too.
      expect(listed.find((k: { name: string }) => k.name === "gemini")).toMatchObject({
        set: true,
        where: ".env",
      });
      const put = await call(s, "PUT", "/v1/admin/keys/acme", { value: "test-SECRET-acme-0001" });
      expect(put.json.keys.find((k: { name: string }) => k.name === "acme")).toMatchObject({ set: true });
      expect(readFileSync(s.ctx.envPath, "utf8")).toContain("ACME_API_KEY=test-SECRET-acme-0001\n");
      await call(s, "DELETE", "/v1/admin/keys/gemini");
      expect(readFileSync(s.ctx.envPath, "utf8")).toBe("ACME_API_KEY=test-SECRET-acme-0001\n");
      // A self-hosted engine's URL is a setting of the Web tab, not a key.
      expect((await call(s, "PUT", "/v1/admin/keys/searxng", { value: "test-SECRET-x-0001" })).status).toBe(
        400,
      );
    } finally {
      await s.close();
    }
  });

  it("refuses unknown names and values that are not keys", async () => {
    const s = await dashboardServer(web);
    try {
      expect((await call(s, "PUT", "/v1/admin/keys/openai", { value: KEY })).status).toBe(400);
      expect((await call(s, "DELETE", "/v1/admin/keys/HOME")).status).toBe(400);
      for (const name of ["constructor", "__proto__", "toString"])
        expect((await call(s, "PUT", `/v1/admin/keys/${name}`, { value: KEY })).status, name).toBe(400);
      expect(existsSync(s.ctx.envPath)).toBe(false);
      for (const value of ["short", "has space in it", 'quote"quote', "line\nBREAK=1", ""]) {
        const res = await call(s, "PUT", "/v1/admin/keys/tavily", { value });
        expect(res.status, value).toBe(400);
        expect(res.text).not.toContain(value || "\u0000");
      }
      expect((await call(s, "PUT", "/v1/admin/keys/tavily", { key: KEY })).status).toBe(400);
    } finally {
      await s.close();
    }
  });

  it("a bad line elsewhere in .env is reported and the running instance carries on", async () => {
    const s = await dashboardServer(web);
    try {
      serveWeb(web);
      writeFileSync(s.ctx.envPath, "WEBSIFT_MAX_RESULTS=lots\n");
      const res = await call(s, "PUT", "/v1/admin/keys/exa", { value: "test-SECRET-exa-0001" });
      expect(res.status).toBe(400);
      expect(res.json.error).toMatch(/^saved, but the configuration does not load: .*WEBSIFT_MAX_RESULTS/);
      expect(res.text).not.toContain("test-SECRET");
      expect((await (await s.post("/v1/search?raw=1", { query: "weather jakarta" })).json()).status).toBe(
        "ok",
      );
    } finally {
      await s.close();
    }
  });

  it("says when the real environment's key wins over the one pasted here", async () => {
    const s = await dashboardServer(web, { env: { TAVILY_API_KEY: "test-SECRET-tavily-from-env" } });
    try {
      const { json } = await call(s, "PUT", "/v1/admin/keys/tavily", { value: "test-SECRET-tavily-pasted" });
      expect(json.keys.find((k: { name: string }) => k.name === "tavily")).toMatchObject({
        set: true,
        where: "environment",
        overridden: true,
      });
      expect(JSON.stringify(json)).not.toContain("test-SECRET");
    } finally {
      await s.close();
    }
  });
});

describe("/v1/admin/health", () => {
  it("lists providers (configured, frozen, cooling), the store, failures by kind and recent lookups", async () => {
    const s = await dashboardServer(web, { env: { BRAVE_API_KEY: KEY } });
    try {
      serveWeb(web);
      await s.post("/v1/search?raw=1", { query: "weather jakarta" });
      await s.post("/v1/read?raw=1", { url: "https://www.example.com/missing" });
      await recordFailure(s.ctx.store, "bing", {
        status: "blocked",
        code: "challenge",
        message: "challenged",
      });
      const { json } = await call(s, "GET", "/v1/admin/health");
      expect(json.web.on).toBe(true);
      expect(json.store).toEqual({ backend: "memory", degraded: false });
      expect(json.providers.find((p: { name: string }) => p.name === "brave")).toMatchObject({
        configured: true,
        paid: true,
        frozen: true,
      });
      const bing = json.providers.find((p: { name: string }) => p.name === "bing");
      expect(bing.coolingReason).toBe("challenge or CAPTCHA");
      expect(Date.parse(bing.coolingUntil)).toBeGreaterThan(Date.now());
      expect(json.recent.map((r: { kind: string }) => r.kind)).toEqual(["read", "search"]);
      expect(json.recent[1]).toMatchObject({ subject: "weather jakarta", status: "ok" });
      expect(Object.values(json.failures)).toEqual([1]);
      expect(json.recent[0].status).not.toBe("ok");
    } finally {
      await s.close();
    }
  });
});

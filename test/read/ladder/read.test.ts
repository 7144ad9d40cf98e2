import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { READ_ACCEPT } from "../../../src/read/ladder.js";
import { read } from "../../../src/read/read.js";
import { createRenderer } from "../../../src/read/render.js";
import { HOSTILE_HOST, HOSTILE_PATHS, PRIVATE_HOST } from "../../simweb/index.js";
import { article, html, PARAGRAPHS, type ReadHarness, startReadHarness } from "./harness.js";
import { makePdf } from "./make-pdf.js";

let h: ReadHarness;
beforeAll(async () => {
  h = await startReadHarness();
});
afterAll(() => h.close());
beforeEach(() => h.sim.reset());

const SITE = "docs.example.com";
const never = { render: "never" as const };

describe("read: the ladder's rungs", () => {
  it("asks for markdown first and takes a markdown answer as it is", async () => {
    h.sim.route(SITE, "/guide", (req) =>
      req.headers.accept?.startsWith("text/markdown")
        ? {
            headers: { "content-type": "text/markdown; charset=utf-8" },
            body: "# Guide\n\nInstall it with npm.",
          }
        : html("<p>html version</p>"),
    );
    const page = await read(`https://${SITE}/guide`, never, h.ctx());
    expect(page).toMatchObject({
      status: "ok",
      source: "server-markdown",
      title: "Guide",
      markdown: "# Guide\n\nInstall it with npm.",
      contentType: "text/markdown",
      cached: false,
      truncated: false,
    });
    expect(h.sim.requests[0].headers.accept).toBe(READ_ACCEPT);
  });

  it("follows a markdown alternate named by the HTML", async () => {
    h.sim.route(
      SITE,
      "/api",
      html(
        article("API", PARAGRAPHS),
        '<title>API reference</title><link rel="alternate" type="text/markdown" href="/api.md">',
      ),
    );
    h.sim.route(SITE, "/api.md", {
      headers: { "content-type": "text/markdown" },
      body: "# API\n\nThe markdown version.",
    });
    const page = await read(`https://${SITE}/api`, never, h.ctx());
    expect(page).toMatchObject({ status: "ok", source: "alternate-markdown", title: "API reference" });
    expect(page.markdown).toBe("# API\n\nThe markdown version.");
    expect(page.attempts.map((a) => a.provider)).toEqual(["fetch", "alternate-markdown"]);
  });

  it("extracts the HTML when the alternate turns out to be an HTML page", async () => {
    h.sim.route(
      SITE,
      "/api",
      html(article("API", PARAGRAPHS), '<link rel="alternate" type="text/markdown" href="/api.md">'),
    );
    h.sim.route(SITE, "/api.md", html("<h1>Not found</h1>"));
    const page = await read(`https://${SITE}/api`, never, h.ctx());
    expect(page.source).toBe("extracted-html");
    expect(page.markdown).toContain(PARAGRAPHS[2]);
    expect(page.markdown).not.toContain("Not found");
  });

  it("extracts HTML to markdown, with the links listed after the prose", async () => {
    const body = article("Lowmouth harbour", [
      `${PARAGRAPHS[0]} See <a href="/history/storm">the storm of 1921</a>.`,
      ...PARAGRAPHS.slice(1),
    ]);
    h.sim.route(SITE, "/harbour", html(body, "<title>Lowmouth harbour</title>"));
    const page = await read(`https://${SITE}/harbour`, never, h.ctx());
    expect(page).toMatchObject({
      status: "ok",
      source: "extracted-html",
      contentType: "text/html",
      lang: "en",
    });
    expect(page.markdown).toContain("See the storm of 1921.");
    expect(page.markdown).not.toContain("(https://");
    expect(page.links).toContain(`https://${SITE}/history/storm`);
    expect(page.markdown).toMatch(new RegExp(`\\n\\nLinks:\\n1\\. https://${SITE}/history/storm$`));
    expect(page.markdown).not.toContain("© Example");
  });

  it("reads a PDF, by header or by its %PDF- signature", async () => {
    const pdf = makePdf(
      [["Annual tide tables", "High water at Lowmouth is two hours after Dover."]],
      "Tide tables 2026",
    );
    h.sim.route(SITE, "/tides.pdf", { headers: { "content-type": "application/pdf" }, body: pdf });
    h.sim.route(SITE, "/download", { headers: { "content-type": "application/octet-stream" }, body: pdf });
    for (const path of ["/tides.pdf", "/download"]) {
      const page = await read(`https://${SITE}${path}`, never, h.ctx());
      expect(page).toMatchObject({ status: "ok", source: "pdf", title: "Tide tables 2026" });
      expect(page.markdown).toBe("Annual tide tables\n\nHigh water at Lowmouth is two hours after Dover.");
    }
  });

  it("passes text through and pretty-prints JSON", async () => {
    h.sim.route(SITE, "/notes.txt", { headers: { "content-type": "text/plain" }, body: "plain notes\n" });
    const text = await read(`https://${SITE}/notes.txt`, never, h.ctx());
    expect(text).toMatchObject({ status: "ok", source: "text", markdown: "plain notes", title: "notes.txt" });
    const json = await read("https://www.example.com/json", never, h.ctx());
    expect(json).toMatchObject({ status: "ok", source: "text", markdown: '{\n  "hello": "world"\n}' });
  });

  it("refuses binaries with their content type named, even when served as text/html", async () => {
    h.sim.route(SITE, "/logo.png", {
      headers: { "content-type": "image/png" },
      body: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]),
    });
    const png = await read(`https://${SITE}/logo.png`, never, h.ctx());
    expect(png).toMatchObject({ status: "unsupported", markdown: "", error: { code: "binary" } });
    expect(png.error?.message).toContain("image/png");
    h.sim.route(SITE, "/song", {
      headers: { "content-type": "audio/mpeg" },
      body: Buffer.from("ID3\x04\x00rest"),
    });
    expect((await read(`https://${SITE}/song`, never, h.ctx())).error?.message).toContain("audio/mpeg");
    const disguised = await read(`https://${HOSTILE_HOST}${HOSTILE_PATHS.binaryAsHtml}`, never, h.ctx());
    expect(disguised).toMatchObject({ status: "unsupported", markdown: "", error: { code: "binary" } });
  });

  it("decodes legacy charsets from the header or the meta tag", async () => {
    const latin = Buffer.concat([
      Buffer.from("<html><head><title>Caf"),
      Buffer.from([0xe9]),
      Buffer.from(`</title></head><body><article><h1>Caf`),
      Buffer.from([0xe9]),
      Buffer.from(` cr`),
      Buffer.from([0xe8]),
      Buffer.from(`me</h1><p>${PARAGRAPHS.join("</p><p>")}</p></article></body></html>`),
    ]);
    h.sim.route(SITE, "/cafe", {
      headers: { "content-type": "text/html; charset=windows-1252" },
      body: latin,
    });
    const cafe = await read(`https://${SITE}/cafe`, never, h.ctx());
    expect(cafe.title).toBe("Café");
    expect(cafe.markdown).toContain("Café crème");
    const sjis = Buffer.concat([
      Buffer.from('<html><head><meta charset="shift_jis"><title>'),
      Buffer.from([0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea]),
      Buffer.from(`</title></head><body><article><p>`),
      Buffer.from([0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea]),
      Buffer.from(` ${PARAGRAPHS.join(" ")}</p></article></body></html>`),
    ]);
    h.sim.route(SITE, "/nihongo", { headers: { "content-type": "text/html" }, body: sjis });
    const jp = await read(`https://${SITE}/nihongo`, never, h.ctx());
    expect(jp.title).toBe("日本語");
    expect(jp.markdown).toContain("日本語 The harbour");
  });
});

describe("read: front pages and llms.txt", () => {
  const LLMS =
    "# Lowmouth Docs\n\n> Guides for the harbour API.\n\n- [Quickstart](https://docs.example.com/quickstart.md)";

  it("appends a site's llms.txt after the front page's own text", async () => {
    h.sim.route(SITE, "/", html(article("Lowmouth Docs", PARAGRAPHS)));
    h.sim.route(SITE, "/llms.txt", { headers: { "content-type": "text/plain" }, body: LLMS });
    const page = await read(`https://${SITE}/`, never, h.ctx());
    expect(page.status).toBe("ok");
    const ownText = page.markdown.indexOf(PARAGRAPHS[0]);
    const llms = page.markdown.indexOf(`## llms.txt (https://${SITE}/llms.txt)\n\n${LLMS}`);
    expect(ownText).toBeGreaterThanOrEqual(0);
    expect(llms).toBeGreaterThan(ownText);
    expect(page.attempts.map((a) => [a.provider, a.status])).toContainEqual(["llms.txt", "ok"]);
  });

  it("ignores an llms.txt that is really an HTML page", async () => {
    h.sim.route(SITE, "/", html(article("Lowmouth Docs", PARAGRAPHS)));
    h.sim.route(SITE, "/llms.txt", html("<h1>Page not found</h1>"));
    const page = await read(`https://${SITE}/`, never, h.ctx());
    expect(page.markdown).not.toContain("llms.txt");
    expect(page.markdown).not.toContain("Page not found");
  });

  it("does not ask for llms.txt on a deep page or a front page with a query", async () => {
    h.sim.route(SITE, "/guide", html(article("Guide", PARAGRAPHS)));
    h.sim.route(SITE, "/", html(article("Home", PARAGRAPHS)));
    await read(`https://${SITE}/guide`, never, h.ctx());
    await read(`https://${SITE}/?lang=de`, never, h.ctx());
    expect(h.sim.requests.map((r) => r.path)).toEqual(["/guide", "/"]);
  });
});

describe("read: JS shells", () => {
  const shell = (extra = "") =>
    html(
      `<div id="root"></div><noscript>You need to enable JavaScript to run this app.</noscript>${extra}<script src="/main.js"></script>`,
      "<title>Harbour app</title>",
    );

  it("reads the text embedded in __NEXT_DATA__", async () => {
    const data = {
      props: {
        pageProps: {
          story: { headline: "Harbour history", body: PARAGRAPHS.map((p) => `<p>${p}</p>`).join("") },
        },
      },
    };
    h.sim.route(
      SITE,
      "/story",
      shell(`<script id="__NEXT_DATA__" type="application/json">${JSON.stringify(data)}</script>`),
    );
    const page = await read(`https://${SITE}/story`, never, h.ctx());
    expect(page).toMatchObject({ status: "ok", source: "embedded-data", title: "Harbour app" });
    expect(page.markdown).toContain(`${PARAGRAPHS[0]}\n\n${PARAGRAPHS[1]}`);
    expect(page.markdown).not.toContain("enable JavaScript");
  });

  it("labels a shell it cannot read 'needs JavaScript', never passing it off as the page", async () => {
    h.sim.route(SITE, "/app", shell());
    const page = await read(`https://${SITE}/app`, never, h.ctx());
    expect(page).toMatchObject({ status: "unsupported", markdown: "", error: { code: "needs_javascript" } });
    expect(page.error?.message).toMatch(/^needs JavaScript: docs\.example\.com serves a script shell/);
    expect(page.error?.message).toContain("rendering is off");
    expect(page.source).toBeUndefined();
  });
});

describe("read: without a working browser", () => {
  it("render: always falls back to the static text and tells the operator why", async () => {
    h.sim.route(SITE, "/harbour", html(article("Harbour", PARAGRAPHS)));
    const renderer = createRenderer({ executablePath: "/nonexistent/chromium" });
    const page = await read(`https://${SITE}/harbour`, { render: "always" }, { ...h.ctx(), renderer });
    expect(page).toMatchObject({ status: "ok", source: "extracted-html" });
    expect(page.attempts.map((a) => `${a.provider}:${a.status}`)).toEqual([
      "fetch:ok",
      "render:unsupported",
      "extract:ok",
    ]);
    expect(h.logs.some((l) => l.startsWith("read: Chromium could not start"))).toBe(true);
    await renderer.close();
  });
});

describe("read: failures are values", () => {
  it("maps HTTP statuses", async () => {
    h.sim.route(SITE, "/gone", { status: 404, body: "<h1>Not here</h1>" });
    h.sim.route(SITE, "/members", { status: 403, body: "<h1>Forbidden</h1>" });
    h.sim.route(SITE, "/login", { status: 401, body: "no" });
    h.sim.route(SITE, "/cf", {
      status: 403,
      headers: { "cf-mitigated": "challenge" },
      body: "<title>Just a moment...</title>",
    });
    h.sim.route(SITE, "/down", { status: 503, body: "maintenance" });
    const at = (path: string) => read(`https://${SITE}${path}`, never, h.ctx());
    expect(await at("/gone")).toMatchObject({
      status: "error",
      markdown: "",
      error: { code: "http_status", message: "docs.example.com answered HTTP 404" },
    });
    expect(await at("/members")).toMatchObject({ status: "denied", error: { code: "http_status" } });
    expect(await at("/login")).toMatchObject({ status: "denied" });
    expect(await at("/cf")).toMatchObject({ status: "blocked", error: { code: "challenge" } });
    expect(await at("/down")).toMatchObject({
      status: "error",
      error: { message: "docs.example.com answered HTTP 503" },
    });
    const limited = await read(`https://${HOSTILE_HOST}${HOSTILE_PATHS.tooManyRequests}`, never, h.ctx());
    expect(limited).toMatchObject({ status: "rate_limited", error: { retryAfter: 120 } });
  });

  it("refuses private targets and other schemes before any request", async () => {
    const priv = await read(`http://${PRIVATE_HOST}/admin`, never, h.ctx());
    expect(priv).toMatchObject({ status: "denied", error: { code: "blocked_url" } });
    const file = await read("file:///etc/passwd", never, h.ctx());
    expect(file.status).toBe("denied");
    const loop = await read("http://127.0.0.1:8080/", never, h.ctx());
    expect(loop.status).toBe("denied");
    expect(h.sim.requests).toEqual([]);
    expect(h.sim.dials).toEqual([]);
  });

  it("times out as a value", async () => {
    h.sim.route(SITE, "/slow", { ...html(article("Slow", PARAGRAPHS)), delayMs: 2000 });
    const page = await read(`https://${SITE}/slow`, { render: "never", timeoutMs: 300 }, h.ctx());
    expect(page).toMatchObject({ status: "timeout", markdown: "" });
  });
});

describe("read: sizing and the page cache", () => {
  const long = Array.from({ length: 40 }, (_, i) => `Paragraph ${i + 1}. ${PARAGRAPHS[i % 4]}`);

  it("sizes the text to maxChars, links included, and reads on with offset", async () => {
    h.sim.route(
      SITE,
      "/long",
      html(article("Long", [`${long[0]} <a href="/next">next</a>`, ...long.slice(1)])),
    );
    const ctx = h.ctx();
    const first = await read(`https://${SITE}/long`, { render: "never", maxChars: 2000 }, ctx);
    expect(first.status).toBe("ok");
    expect(first.truncated).toBe(true);
    expect(first.markdown.length).toBeLessThanOrEqual(2000);
    expect(first.markdown).toMatch(/\[TRUNCATED: \d+ of \d+ characters\]/);
    expect(first.markdown).toContain(`Links:\n1. https://${SITE}/next`);
    expect(first.nextOffset).toBeGreaterThan(0);
    expect(first.remaining).toBeGreaterThan(0);
    const next = await read(
      `https://${SITE}/long`,
      { render: "never", maxChars: 2000, offset: first.nextOffset },
      ctx,
    );
    expect(next.cached).toBe(true);
    expect(next.markdown).not.toContain("Links:");
    expect(next.markdown).toContain("[CONTINUED: from character");
    expect(h.sim.requests.filter((r) => r.path === "/long")).toHaveLength(1);
  });

  it("serves a repeated read from the cache, flagged cached; other render modes are fetched anew", async () => {
    h.sim.route(SITE, "/harbour", html(article("Harbour", PARAGRAPHS)));
    const ctx = h.ctx();
    const fresh = await read(`https://${SITE}/harbour`, never, ctx);
    const again = await read(`https://${SITE}/harbour`, never, ctx);
    expect(fresh.cached).toBe(false);
    expect(again).toMatchObject({
      cached: true,
      status: "ok",
      markdown: fresh.markdown,
      source: "extracted-html",
    });
    expect(again.attempts).toEqual([{ provider: "cache", status: "ok", ms: expect.any(Number) }]);
    expect(h.sim.requests).toHaveLength(1);
    const atSection = await read(`https://${SITE}/harbour#today`, never, ctx);
    expect(atSection.cached).toBe(true);
    await read(`https://${SITE}/harbour`, { render: "auto" }, ctx);
    expect(h.sim.requests).toHaveLength(2);
  });

  it("does not cache failures", async () => {
    let n = 0;
    h.sim.route(SITE, "/flaky", () =>
      ++n === 1 ? { status: 500, body: "oops" } : html(article("Back", PARAGRAPHS)),
    );
    const ctx = h.ctx();
    expect((await read(`https://${SITE}/flaky`, never, ctx)).status).toBe("error");
    expect(await read(`https://${SITE}/flaky`, never, ctx)).toMatchObject({ status: "ok", cached: false });
  });
});

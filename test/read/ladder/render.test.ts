import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Deadline } from "../../../src/core/deadline.js";
import { createNet, type Net } from "../../../src/net/client.js";
import { CHROMIUM_PATH, chromiumAvailable } from "../../../src/read/guarded-browser.js";
import { createRenderer, type Renderer } from "../../../src/read/render.js";
import { PRIVATE_HOST, type SimWeb, startSimWeb } from "../../simweb/index.js";

// Real Chromium, real loopback servers. The browser must reach nothing except through net.
let sim: SimWeb;
let net: Net;
let renderer: Renderer;
let side: http.Server;
let sideHits: string[];
beforeAll(async () => {
  sim = await startSimWeb();
  net = createNet(sim.netConfig);
  renderer = createRenderer();
  sideHits = [];
  side = http.createServer((req, res) => {
    sideHits.push(`http ${req.url}`);
    res.end("reached");
  });
  side.on("upgrade", (req, socket) => {
    sideHits.push(`ws ${req.url}`);
    socket.destroy();
  });
  side.on("connection", () => sideHits.push("tcp"));
  await new Promise<void>((r) => side.listen(0, "127.0.0.1", () => r()));
});
afterAll(async () => {
  await renderer.close();
  await net.close();
  await sim.close();
  await new Promise((r) => side.close(r));
});
beforeEach(() => {
  sim.reset();
  sideHits.length = 0;
});

const SPA = "spa.example.com";

function routeSpa(port: number) {
  sim.route(SPA, "/app", {
    headers: { "content-type": "text/html" },
    body: `<!doctype html><html><head><title>Harbour</title><link rel="preconnect" href="http://127.0.0.1:${port}"></head>
<body><div id="root"></div><img src="/photo.png"><script src="/bundle.js"></script></body></html>`,
  });
  sim.route(SPA, "/bundle.js", {
    headers: { "content-type": "application/javascript" },
    body: `
      const mark = (k, v) => { document.body.dataset[k] = v; };
      fetch("http://${PRIVATE_HOST}/admin").then(() => mark("priv", "reached"), () => mark("priv", "refused"));
      fetch("http://127.0.0.1:${port}/direct").then(() => mark("direct", "reached"), () => mark("direct", "refused"));
      try { new WebSocket("ws://127.0.0.1:${port}/ws"); } catch {}
      setTimeout(() => fetch("/api/article").then((r) => r.json()).then((a) => {
        document.getElementById("root").innerHTML = "<article><h1>" + a.title + "</h1><p>" + a.body + "</p></article>";
      }), 30);`,
  });
  sim.route(SPA, "/api/article", {
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ title: "Harbour history", body: "The harbour was rebuilt in 1922." }),
    // Slower than the quiet period: the renderer must wait for a request still in flight.
    delayMs: 800,
  });
  sim.route(SPA, "/photo.png", { headers: { "content-type": "image/png" }, body: "png" });
}

// A browser on a busy two-core machine can take seconds to open a tab: generous budgets, no timing assertions.
describe("render (real Chromium)", { timeout: 60_000 }, () => {
  it("runs the page's scripts with every request fetched through net", async () => {
    const port = (side.address() as AddressInfo).port;
    routeSpa(port);
    const out = await renderer.render({ url: `http://${SPA}/app`, net, deadline: Deadline.after(40_000) });
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.html).toContain("<h1>Harbour history</h1><p>The harbour was rebuilt in 1922.</p>");
    expect(out.finalUrl).toBe(`http://${SPA}/app`);
    const paths = sim.requests.map((r) => `${r.host}${r.path}`);
    expect(paths).toEqual(expect.arrayContaining([`${SPA}/app`, `${SPA}/bundle.js`, `${SPA}/api/article`]));
    // Images are refused before any request; the private name is refused by net's guard before any dial.
    expect(paths).not.toContain(`${SPA}/photo.png`);
    expect(sim.requests.some((r) => r.host === PRIVATE_HOST)).toBe(false);
    expect(sim.dials.some((d) => d.address === "10.0.0.7")).toBe(false);
    expect(out.html).toContain('data-priv="refused"');
    expect(out.html).toContain('data-direct="refused"');
    // Nothing the page asked for (fetch, websocket, preconnect) reached a loopback server directly.
    expect(sideHits).toEqual([]);
  });

  it("serves the document it is given instead of fetching it again", async () => {
    routeSpa((side.address() as AddressInfo).port);
    const body = Buffer.from(
      '<!doctype html><html><body><div id="root"></div><script>document.getElementById("root").textContent = "Written by script";</script></body></html>',
    );
    const url = `http://${SPA}/given`;
    const out = await renderer.render({
      url,
      net,
      deadline: Deadline.after(40_000),
      document: { url, status: 200, headers: { "content-type": "text/html" }, body },
    });
    expect(out.ok && out.html).toContain("Written by script");
    expect(sim.requests.filter((r) => r.path === "/given")).toEqual([]);
  });

  it("never returns Chromium's error page when a script navigates to a refused address", async () => {
    sim.route(SPA, "/jump", {
      headers: { "content-type": "text/html" },
      body: `<!doctype html><body><div id="root"></div><script>location.href = "http://${PRIVATE_HOST}/admin";</script></body>`,
    });
    const out = await renderer.render({ url: `http://${SPA}/jump`, net, deadline: Deadline.after(40_000) });
    expect(out).toMatchObject({ ok: false, status: "error", code: "render" });
    expect(sim.requests.some((r) => r.host === PRIVATE_HOST)).toBe(false);
  });

  it("fails as a value when the deadline is too short", async () => {
    routeSpa((side.address() as AddressInfo).port);
    sim.route(SPA, "/slow", { body: "<p>late</p>", delayMs: 3000 });
    const out = await renderer.render({ url: `http://${SPA}/slow`, net, deadline: Deadline.after(500) });
    expect(out).toMatchObject({ ok: false, status: "timeout" });
  });
});

describe("render without a browser", () => {
  // DESIGN §6: a test that needs Chromium finds it; it does not skip silently. Debian: apt-get install chromium.
  it("finds Chromium where the renderer looks for it", () => {
    expect(chromiumAvailable(), `no executable at ${CHROMIUM_PATH}`).toBe(true);
  });

  it("reports Chromium missing as unsupported", async () => {
    const missing = createRenderer({ executablePath: "/nonexistent/chromium" });
    const out = await missing.render({ url: "http://www.example.com/", net, deadline: Deadline.after(5000) });
    expect(out).toMatchObject({ ok: false, status: "unsupported", code: "render_unavailable" });
    await missing.close();
  });
});

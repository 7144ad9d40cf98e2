import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Deadline } from "../../../src/core/deadline.js";
import { createNet, type Net } from "../../../src/net/client.js";
import { createRenderer, type Renderer } from "../../../src/read/render.js";
import { type SimWeb, startSimWeb } from "../../simweb/index.js";

// Real Chromium against the simulated web: the page's own redirect is taken hop by hop inside the interception.
let sim: SimWeb;
let net: Net;
let renderer: Renderer;
beforeAll(async () => {
  sim = await startSimWeb();
  net = createNet(sim.netConfig);
  renderer = createRenderer();
});
afterAll(async () => {
  await renderer.close();
  await net.close();
  await sim.close();
});

const HOST = "moved.example.com";

describe("render through a redirect (real Chromium)", { timeout: 60_000 }, () => {
  it("reports the address it ended at and keeps each Set-Cookie of the hop", async () => {
    sim.route(HOST, "/old", (_req, raw) => {
      // Two cookies, the first with a comma in its Expires date: net joins them with ", ".
      raw.res.setHeader("set-cookie", [
        "first=one; Expires=Wed, 21 Oct 2099 07:28:00 GMT; Path=/",
        "second=two; Path=/; SameSite=Lax",
      ]);
      raw.res.writeHead(302, { location: "/new" });
      raw.res.end();
    });
    sim.route(HOST, "/new", {
      headers: { "content-type": "text/html" },
      body: `<!doctype html><html><body><p id="jar"></p>
<script>document.getElementById("jar").textContent = "cookies: " + document.cookie;</script></body></html>`,
    });
    const out = await renderer.render({ url: `http://${HOST}/old`, net, deadline: Deadline.after(40_000) });
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.finalUrl).toBe(`http://${HOST}/new`);
    expect(out.html).toMatch(/cookies: (first=one; second=two|second=two; first=one)/);
    // Both hops went through net.
    expect(sim.requests.filter((r) => r.host === HOST).map((r) => r.path)).toEqual(["/old", "/new"]);
  });
});

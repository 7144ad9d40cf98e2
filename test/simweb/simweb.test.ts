import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Deadline } from "../../src/core/deadline.js";
import { createNet, type Net } from "../../src/net/client.js";
import { HOSTILE_HOST, HOSTILE_PATHS, PUBLIC_ADDRESS, type SimWeb, startSimWeb } from "./index.js";

let sim: SimWeb;
let net: Net;
beforeAll(async () => {
  sim = await startSimWeb();
  net = createNet(sim.netConfig);
});
afterAll(async () => {
  await net.close();
  await sim.close();
});
beforeEach(() => sim.reset());

const get = (url: string, ms = 5000) => net.request(url, { deadline: Deadline.after(ms) });

describe("simweb", () => {
  it("serves ordinary pages over http and https, routing by Host", async () => {
    for (const scheme of ["http", "https"]) {
      const r = await get(`${scheme}://www.example.com/`);
      expect(r.ok && r.status).toBe(200);
      expect(r.ok && r.text()).toContain("An ordinary page");
    }
    expect(sim.requests.map((r) => r.host)).toEqual(["www.example.com", "www.example.com"]);
    expect(sim.dials.every((d) => d.address === PUBLIC_ADDRESS)).toBe(true);
  });

  it("answers 404 for an unknown host or path", async () => {
    const r = await get("https://nowhere.example.org/nothing");
    expect(r.ok && r.status).toBe(404);
  });

  it("lets tests add routes (later ones win), replies, handlers and fixtures", async () => {
    sim.route("html.duckduckgo.com", "/html/", { body: "first" });
    sim.route("html.duckduckgo.com", "/html/", (req) => ({
      status: 202,
      body: sim.fixture("duckduckgo/ddg-html-anomaly-challenge-2026-04.html"),
      headers: { "x-q": req.url.searchParams.get("q") ?? "" },
    }));
    const r = await get("https://html.duckduckgo.com/html/?q=hello");
    expect(r.ok && r.status).toBe(202);
    expect(r.ok && r.headers["x-q"]).toBe("hello");
    expect(r.ok && r.text()).toContain("anomaly");
    sim.reset();
    const after = await get("https://html.duckduckgo.com/html/?q=hello");
    expect(after.ok && after.status).toBe(404);
  });

  it("records request bodies and injects latency", async () => {
    sim.route("api.tavily.com", "/search", (req) => ({ body: req.body }));
    const post = (ms: number) =>
      net.request("https://api.tavily.com/search", {
        deadline: Deadline.after(ms),
        method: "POST",
        body: '{"query":"x"}',
        headers: { "content-type": "application/json" },
      });
    const r = await post(5000);
    expect(r.ok && r.text()).toBe('{"query":"x"}');
    expect(sim.requests[0]).toMatchObject({ method: "POST", host: "api.tavily.com", path: "/search" });
    // A latency holds the reply: longer than the caller's deadline, the caller times out; asked per request.
    const asked: string[] = [];
    sim.setLatency((req) => {
      asked.push(req.path);
      return 60_000;
    });
    const held = await post(300);
    expect(held.ok ? held.status : held.code).toBe("timeout");
    expect(asked).toEqual(["/search"]);
  });

  it("resolves per host as told", async () => {
    sim.resolveAs("v6.example.com", ["2606:2800:220:1:248:1893:25c8:1946"]);
    const r = await get("http://v6.example.com/");
    expect(r.ok && r.status).toBe(404);
    expect(sim.dials[0].address).toBe("2606:2800:220:1:248:1893:25c8:1946");
  });

  it("serves the hostile host", async () => {
    const r = await get(`http://${HOSTILE_HOST}${HOSTILE_PATHS.tooManyRequests}`);
    expect(r.ok && r.status).toBe(429);
    expect(r.ok && r.headers["retry-after"]).toBe("120");
  });
});

describe("simweb's bombs", () => {
  it("inflate past 16 MiB from under 100 KB", async () => {
    const { gzipBomb, brotliBomb } = await import("./index.js");
    const zlib = await import("node:zlib");
    const cap = { maxOutputLength: 16 * 1024 * 1024 };
    expect(gzipBomb().length).toBeLessThan(100_000);
    expect(() => zlib.gunzipSync(gzipBomb(), cap)).toThrow(RangeError);
    expect(brotliBomb().length).toBeLessThan(200);
    expect(() => zlib.brotliDecompressSync(brotliBomb(), cap)).toThrow(RangeError);
  });
});

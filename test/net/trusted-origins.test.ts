import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Deadline } from "../../src/core/deadline.js";
import { createNet, type Net } from "../../src/net/client.js";
import { createWebsift } from "../../src/websift.js";
import { type SimWeb, startSimWeb } from "../simweb/index.js";

// A SearXNG instance or a local LLM server on the operator's own network: reachable only because the operator
// named its exact origin, and only that origin.
const INSTANCE = "searx.example.net";

let web: SimWeb;
let net: Net;
beforeAll(async () => {
  web = await startSimWeb();
  net = createNet({ ...web.netConfig, trustedOrigins: [`http://${INSTANCE}:8888`, "http://127.0.0.1:8080"] });
});
afterAll(async () => {
  await net.close();
  await web.close();
});
afterEach(() => web.reset());

// The code that talks to the configured endpoint asks for the exemption; nothing else gets it.
const get = (url: string) => net.request(url, { deadline: Deadline.after(5000), trusted: true });

describe("trusted origins", () => {
  it("an exact trusted origin may resolve to a private address", async () => {
    web.resolveAs(INSTANCE, ["10.0.0.5"]);
    web.route(INSTANCE, "/search", { body: "instance ok" });
    const res = await get(`http://${INSTANCE}:8888/search?q=x`);
    expect(res.ok && res.text()).toBe("instance ok");
    expect(web.dials.at(-1)).toMatchObject({ hostname: INSTANCE, address: "10.0.0.5" });
  });

  it("the same host on another port or scheme is judged by the policy as usual", async () => {
    web.resolveAs(INSTANCE, ["10.0.0.5"]);
    web.route(INSTANCE, "/search", { body: "instance ok" });
    expect((await get(`http://${INSTANCE}:8888/search`)).ok).toBe(true);
    for (const url of [
      `http://${INSTANCE}:9999/search`,
      `https://${INSTANCE}/search`,
      `http://${INSTANCE}/search`,
    ]) {
      const res = await get(url);
      expect(res.ok).toBe(false);
      expect(!res.ok && res.code).toBe("blocked_url");
    }
  });

  it("a trusted literal loopback origin works; other loopback ports stay refused", async () => {
    const other = await get("http://127.0.0.1:8081/");
    expect(!other.ok && other.code).toBe("blocked_url");
  });

  it("a redirect that leaves the trusted origin is vetted as usual", async () => {
    web.resolveAs(INSTANCE, ["10.0.0.5"]);
    web.route(INSTANCE, "/jump", { status: 302, headers: { location: "http://127.0.0.1/admin" } });
    const res = await get(`http://${INSTANCE}:8888/jump`);
    expect(res.ok).toBe(false);
    expect(!res.ok && res.code).toBe("blocked_url");
  });

  it("a request that does not ask for the exemption (a page read, a model's URL) is judged as usual", async () => {
    web.resolveAs(INSTANCE, ["10.0.0.5"]);
    web.route(INSTANCE, "/search", { body: "instance ok" });
    const res = await net.request(`http://${INSTANCE}:8888/search`, { deadline: Deadline.after(5000) });
    expect(!res.ok && res.code).toBe("blocked_url");
    expect(web.requests).toHaveLength(0);
  });

  it("credentials in a trusted URL are still refused", async () => {
    const res = await get(`http://user:pw@${INSTANCE}:8888/search`);
    expect(!res.ok && res.code).toBe("blocked_url");
  });

  it("SEARXNG_URL answers the search provider, but websift.read of that origin is refused", async () => {
    web.resolveAs(INSTANCE, ["10.0.0.5"]);
    web.route(INSTANCE, "/search", {
      headers: { "content-type": "application/json" },
      body: '{"results":[]}',
    });
    web.route(INSTANCE, "/admin", { body: "internal" });
    const websift = createWebsift({ ...web.netConfig, env: { SEARXNG_URL: `http://${INSTANCE}:8888` } });
    try {
      const page = await websift.read(`http://${INSTANCE}:8888/admin`);
      expect(page.status).toBe("denied");
      expect(web.requests.filter((r) => r.path === "/admin")).toHaveLength(0);
      await websift.search("anything", { provider: "searxng" });
      expect(web.requests.some((r) => r.host === INSTANCE && r.path === "/search")).toBe(true);
    } finally {
      await websift.close();
    }
  });
});

import { afterAll, beforeAll, expect, it } from "vitest";
import { createWebsift } from "../../../src/websift.js";
import { type SimWeb, startSimWeb } from "../../simweb/index.js";

let web: SimWeb;
beforeAll(async () => {
  web = await startSimWeb();
});
afterAll(async () => web.close());

it("a SearXNG instance on the operator's private network is reachable because SEARXNG_URL names it", async () => {
  web.resolveAs("searx.example.net", ["192.168.1.20"]);
  web.route("searx.example.net", "/search", {
    headers: { "content-type": "application/json" },
    body: web.fixture("searxng/searxng-results-stormlight-archive.json"),
  });
  const websift = createWebsift({ ...web.netConfig, env: { SEARXNG_URL: "http://searx.example.net:8888" } });
  const res = await websift.search("stormlight archive");
  expect(res.status).toBe("ok");
  expect(res.provider).toBe("searxng");
  expect(web.requests[0].url.searchParams.get("format")).toBe("json");
  // The same private name anywhere else is still refused.
  const page = await websift.read("http://searx.example.net/other");
  expect(page.status).toBe("denied");
  await websift.close();
});

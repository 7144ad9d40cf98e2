import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerView, searchView } from "../../../src/ground/model-view.js";
import { createWebsift, type WebsiftConfig } from "../../../src/websift.js";
import { type SimWeb, startSimWeb } from "../../simweb/index.js";

let web: SimWeb;
let closedPort: number;
beforeAll(async () => {
  web = await startSimWeb();
  // A port nothing listens on: every dial to it is refused by the kernel.
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});
afterAll(async () => {
  await web.close();
});

const resolverError = (code: string) => async (host: string) => {
  throw Object.assign(new Error(`getaddrinfo ${code} ${host}`), { code });
};

/** The worlds with no network: every name failing to resolve, or every host refusing the connection. */
const WORLDS: [string, Partial<WebsiftConfig>][] = [
  [
    "a resolver answering NXDOMAIN for every name (captive or broken network)",
    { resolve: resolverError("ENOTFOUND") },
  ],
  ["no route to any resolver", { resolve: resolverError("EAI_AGAIN") }],
  ["every host refusing the connection", { connectTo: () => ({ host: "127.0.0.1", port: closedPort }) }],
];

describe.each(WORLDS)("no network: %s", (_name, world) => {
  const websift = () =>
    createWebsift({ ...web.netConfig, ...world, env: {}, settings: { ddgRetryDelayMs: 5 } });

  it("search says offline, names the engines it could not reach, and carries no resolver message", async () => {
    const w = websift();
    const res = await w.search("river delta sediment", { cache: false });
    await w.close();
    expect(res.status).toBe("offline");
    expect(res.code).toBe("offline");
    expect(res.error).toMatch(
      /^no search engine could be reached \(duckduckgo, .*\): .*web search is unavailable right now; do not claim that a search was made$/,
    );
    expect(res.error).not.toMatch(/getaddrinfo|ENOTFOUND|EAI_AGAIN|ECONNREFUSED/);
    expect(res.attempted.filter((a) => a.status !== "skipped").length).toBeGreaterThanOrEqual(2);
    for (const a of res.attempted) expect(a.error ?? "").not.toMatch(/^(\S+): \1:/);
    // What MCP's web_search and the HTTP service's /v1/search hand the model.
    const shown = searchView(res);
    expect(shown.isError).toBe(true);
    expect(shown.text).toMatch(/^web_search failed \(offline\): no search engine could be reached/);
    expect(shown.text).toContain("do not claim that a search was made");
  });

  it("answer says offline and tells the model search is unavailable and not to claim it searched", async () => {
    const w = websift();
    const res = await w.answer("river delta sediment");
    await w.close();
    expect(res.status).toBe("offline");
    expect(res.envelope).toContain("web search is unavailable");
    expect(res.envelope).toContain("Do not claim that you searched");
    expect(res.envelope).not.toMatch(/getaddrinfo|ENOTFOUND|does not resolve|refused/);
    expect(answerView(res)).toMatchObject({ text: res.envelope, isError: true });
  });
});

describe("one unreachable host is not a machine offline", () => {
  it("a pinned engine whose name does not resolve is an error naming that name, prefixed once", async () => {
    const w = createWebsift({ ...web.netConfig, resolve: resolverError("ENOTFOUND"), env: {} });
    const res = await w.search("river delta sediment", { provider: "bing", cache: false });
    await w.close();
    expect(res.status).toBe("error");
    expect(res.error).toBe("bing: the name www.bing.com does not resolve");
  });

  it("engines that answer beside ones that cannot be reached: not offline", async () => {
    const w = createWebsift({
      ...web.netConfig,
      env: {},
      settings: { ddgRetryDelayMs: 5 },
      resolve: async (host) => {
        if (host === "www.bing.com") return ["93.184.215.14"];
        throw Object.assign(new Error("nx"), { code: "ENOTFOUND" });
      },
    });
    web.route("www.bing.com", "/search", { status: 500, body: "down" });
    const res = await w.search("river delta sediment", { cache: false });
    await w.close();
    web.reset();
    expect(res.status).toBe("error");
    expect(res.error).toContain("bing answered HTTP 500");
  });
});

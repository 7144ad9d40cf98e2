import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Deadline } from "../../src/core/deadline.js";
import { createNet, type Net } from "../../src/net/client.js";
import type { Resolve } from "../../src/net/url-policy.js";
import { HOSTILE_HOST, HOSTILE_PATHS as P, type SimProxy, startProxy } from "../simweb/index.js";
import { expectFailure, useSimWeb } from "./harness.js";

const ctx = useSimWeb();
let proxy: SimProxy;
beforeAll(async () => {
  proxy = await startProxy(ctx.sim);
});
afterAll(async () => {
  await proxy.close();
});

/** No local DNS at all: every lookup fails, as on a machine that only reaches the web through its proxy. */
const noDns: Resolve = async (hostname) => {
  throw Object.assign(new Error(`getaddrinfo EAI_AGAIN ${hostname}`), { code: "EAI_AGAIN" });
};

async function withNet(env: NodeJS.ProcessEnv, run: (net: Net) => Promise<void>, resolve?: Resolve) {
  const net = createNet({ ...ctx.sim.netConfig, ...(resolve ? { resolve } : {}), env });
  try {
    await run(net);
  } finally {
    await net.close();
  }
}
const get = (net: Net, url: string, ms = 5000) => net.request(url, { deadline: Deadline.after(ms) });

describe("rule 7: proxies", () => {
  it("HTTP_PROXY carries http requests; the proxy resolves, so no local DNS is needed", async () => {
    proxy.log.length = 0;
    await withNet(
      { HTTP_PROXY: proxy.url },
      async (net) => {
        const r = await get(net, "http://www.example.com/");
        expect(r.ok && r.text()).toContain("An ordinary page");
      },
      noDns,
    );
    expect(proxy.log).toEqual(["GET http://www.example.com/"]);
    expect(ctx.sim.dials).toEqual([]);
    expect(ctx.sim.requests[0].host).toBe("www.example.com");
  });

  it("HTTPS_PROXY tunnels https with CONNECT, verifying the site's certificate end to end", async () => {
    proxy.log.length = 0;
    await withNet(
      { HTTPS_PROXY: proxy.url },
      async (net) => {
        const r = await get(net, "https://www.example.com/");
        expect(r.ok && r.status).toBe(200);
      },
      noDns,
    );
    expect(proxy.log).toEqual(["CONNECT www.example.com:443"]);
    expect(ctx.sim.dials).toEqual([]);
  });

  it("lower-case variables work too, and HTTPS_PROXY does not carry http", async () => {
    proxy.log.length = 0;
    await withNet({ https_proxy: proxy.url }, async (net) => {
      expect((await get(net, "https://www.example.com/")).ok).toBe(true);
      expect((await get(net, "http://www.example.com/")).ok).toBe(true);
    });
    expect(proxy.log).toEqual(["CONNECT www.example.com:443"]);
    expect(ctx.sim.dials.map((d) => d.protocol)).toEqual(["http:"]);
  });

  it("NO_PROXY bypasses the proxy (then local DNS and the address policy apply again)", async () => {
    proxy.log.length = 0;
    await withNet(
      { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, NO_PROXY: "localhost,.example.com" },
      async (net) => {
        expect((await get(net, "https://www.example.com/")).ok).toBe(true);
        expectFailure(await get(net, "https://private.example.com/"), "blocked_url");
        expect((await get(net, "https://www.example.org/")).ok).toBe(true);
      },
    );
    expect(proxy.log).toEqual(["CONNECT www.example.org:443"]);
    expect(ctx.sim.dials.map((d) => d.hostname)).toEqual(["www.example.com"]);
  });

  it("still refuses private literals and internal names locally, before the proxy sees them", async () => {
    proxy.log.length = 0;
    await withNet(
      { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url },
      async (net) => {
        for (const url of [
          "http://127.0.0.1/",
          "http://169.254.169.254/latest/meta-data/",
          "https://[::1]/",
          "http://2130706433/",
          "http://metadata.google.internal/",
          "https://localhost/",
          "http://printer.local/",
          "file:///etc/passwd",
          "http://www.example.com:25/",
        ])
          expectFailure(await get(net, url), "blocked_url");
      },
      noDns,
    );
    expect(proxy.log).toEqual([]);
  });

  it("applies rule 3 locally: each redirect hop is re-checked before it goes to the proxy", async () => {
    proxy.log.length = 0;
    await withNet(
      { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url },
      async (net) => {
        expectFailure(await get(net, `https://${HOSTILE_HOST}${P.redirectToLoopback}`), "blocked_url");
        expectFailure(await get(net, `https://${HOSTILE_HOST}${P.redirectToFile}`), "blocked_url");
        expectFailure(await get(net, `http://${HOSTILE_HOST}${P.redirectChain(5)}`), "too_many_redirects");
        const r = await get(net, `http://${HOSTILE_HOST}${P.redirectChain(2)}`);
        expect(r.ok && r.redirects).toHaveLength(2);
      },
      noDns,
    );
    expect(proxy.log.filter((l) => l.includes("127.0.0.1"))).toEqual([]);
  });

  it("a deadline bounds a request through the proxy too", async () => {
    await withNet({ HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url }, async (net) => {
      expectFailure(await get(net, `http://${HOSTILE_HOST}${P.slowBody}`, 500), "timeout");
      expectFailure(await get(net, `https://${HOSTILE_HOST}${P.silentAfterRequest}`, 500), "timeout");
      expectFailure(await get(net, "https://blackhole.example.com/", 500), "timeout");
      expect((await get(net, "https://www.example.com/")).ok).toBe(true);
    });
  });

  it("names a proxy that is down", async () => {
    await withNet({ HTTPS_PROXY: "http://127.0.0.1:1" }, async (net) => {
      const r = await get(net, "https://www.example.com/");
      expect(r.ok).toBe(false);
      expect(r.ok || ["connect", "protocol"].includes(r.code)).toBe(true);
    });
  });
});

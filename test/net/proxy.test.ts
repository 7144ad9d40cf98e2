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

describe("rule 7: through a proxy, every request names the host it goes to", () => {
  const HOSTS = [
    "www.bing.com",
    "www.mojeek.com",
    "www.startpage.com",
    "html.duckduckgo.com",
    "en.wikipedia.org",
    "www.example.com",
  ];
  /** What each origin server saw, by the port of the connection it came in on. */
  let seen: { remotePort: number; host: string; path: string }[] = [];
  const serveAll = () => {
    seen = [];
    for (const host of HOSTS)
      ctx.sim.route(host, /^\/probe\/\d+$/, (req, raw) => {
        seen.push({ remotePort: raw.req.socket.remotePort ?? 0, host: req.headers.host, path: req.path });
        return { headers: { "content-type": "text/plain" }, body: `${host} ${req.path}` };
      });
  };
  // Interleaved (each host in turn, several rounds, with and without a locale), and concurrent.
  const plan = (scheme: string) =>
    Array.from({ length: 5 * HOSTS.length }, (_, i) => ({
      url: `${scheme}://${HOSTS[i % HOSTS.length]}/probe/${i}`,
      host: HOSTS[i % HOSTS.length],
      locale: i % 3 === 0 ? "de-DE" : undefined,
    }));

  it("https: inside each CONNECT tunnel, the Host header names the tunnel's host", async () => {
    serveAll();
    proxy.tunnels.clear();
    await withNet(
      { HTTPS_PROXY: proxy.url },
      async (net) => {
        const calls = plan("https");
        // One sequential pass (keep-alive tunnels get reused), then all of them at once.
        for (const c of calls.slice(0, HOSTS.length * 2)) {
          const r = await net.request(c.url, { deadline: Deadline.after(5000), locale: c.locale });
          expect(r.ok && r.text()).toBe(`${c.host} ${new URL(c.url).pathname}`);
        }
        const all = await Promise.all(
          calls.map((c) => net.request(c.url, { deadline: Deadline.after(10_000), locale: c.locale })),
        );
        all.forEach((r, i) => {
          expect(r.ok && r.text()).toBe(`${calls[i].host} ${new URL(calls[i].url).pathname}`);
        });
      },
      noDns,
    );
    expect(seen).toHaveLength(HOSTS.length * 7);
    for (const s of seen) expect(`${s.host}:443`, s.path).toBe(proxy.tunnels.get(s.remotePort));
  });

  it("http: each absolute-form request carries the Host its URL names", async () => {
    serveAll();
    proxy.forwarded.length = 0;
    await withNet(
      { HTTP_PROXY: proxy.url },
      async (net) => {
        const calls = plan("http");
        for (const c of calls.slice(0, HOSTS.length * 2))
          expect((await net.request(c.url, { deadline: Deadline.after(5000), locale: c.locale })).ok).toBe(
            true,
          );
        const all = await Promise.all(
          calls.map((c) => net.request(c.url, { deadline: Deadline.after(10_000), locale: c.locale })),
        );
        expect(all.every((r) => r.ok)).toBe(true);
      },
      noDns,
    );
    expect(proxy.forwarded).toHaveLength(HOSTS.length * 7);
    for (const f of proxy.forwarded) expect(f.hostHeader).toBe(f.target);
  });

  it("a caller's headers object is never written to", async () => {
    serveAll();
    const headers = Object.freeze({ "x-probe": "1" });
    await withNet({ HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url }, async (net) => {
      for (const c of [...plan("https").slice(0, 3), ...plan("http").slice(0, 3)]) {
        const r = await net.request(c.url, { deadline: Deadline.after(5000), headers });
        expect(r.ok, r.ok ? "" : r.message).toBe(true);
      }
    });
    expect(headers).toEqual({ "x-probe": "1" });
  });
});

describe("rule 7: this machine is never reached through the proxy", () => {
  it("an operator-trusted loopback origin goes direct even with HTTP(S)_PROXY set", async () => {
    proxy.log.length = 0;
    const origin = `http://127.0.0.1:${ctx.sim.ports.http}`;
    const net = createNet({
      ca: ctx.sim.netConfig.ca,
      env: { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url },
      trustedOrigins: [origin, `http://localhost:${ctx.sim.ports.http}`],
    });
    try {
      const r = await net.request(`${origin}/`, { deadline: Deadline.after(5000), trusted: true });
      expect(r.ok && r.status).toBe(404);
      const named = await net.request(`http://localhost:${ctx.sim.ports.http}/`, {
        deadline: Deadline.after(5000),
        trusted: true,
      });
      expect(named.ok && named.status).toBe(404);
      // Untrusted, loopback is refused before anything is sent, proxy or not.
      expectFailure(await net.request(`${origin}/`, { deadline: Deadline.after(5000) }), "blocked_url");
    } finally {
      await net.close();
    }
    expect(proxy.log).toEqual([]);
    expect(ctx.sim.requests.map((r) => r.host)).toEqual(["127.0.0.1", "localhost"]);
  });
});

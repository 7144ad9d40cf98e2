import http from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ClientLimits } from "../../src/serve/client-limits.js";
import { serveWeb } from "../mcp/harness.js";
import { until } from "../session/harness.js";
import { type SimWeb, startSimWeb } from "../simweb/index.js";
import { conversationAt, gate, type Served, serve } from "./harness.js";

const TOKEN = "test-SECRET-serve-token-1234";

let web: SimWeb;
let server: Served;
beforeAll(async () => {
  web = await startSimWeb();
  server = await serve(web, {
    app: {
      token: TOKEN,
      allowedOrigins: ["https://app.example.org"],
      // A page outside /v1, as the dashboard's: it carries no data and loads without the token.
      routes: [(app) => void app.get("/", async () => "page")],
    },
  });
});
afterAll(async () => {
  await server.close();
  await web.close();
});
afterEach(() => web.reset());

const auth = { authorization: `Bearer ${TOKEN}` };

/** node:http, because fetch will not send a Host header of our choosing. */
function rawGet(
  port: number,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path, headers }, (res) => {
      let body = "";
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
  });
}

describe("bearer token", () => {
  it("refuses /v1 calls without the right token with 401", async () => {
    for (const headers of <Record<string, string>[]>[
      {},
      { authorization: "Bearer wrong" },
      { authorization: `Basic ${TOKEN}` },
    ]) {
      const res = await fetch(`${server.url}/v1/health`, { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
      const text = await res.text();
      expect(text).not.toContain(TOKEN);
    }
    const search = await server.post("/v1/search", { query: "x" });
    expect(search.status).toBe(401);
    expect(web.requests).toHaveLength(0);
  });

  it("lets the right token through", async () => {
    const res = await fetch(`${server.url}/v1/health`, { headers: auth });
    expect(res.status).toBe(200);
    serveWeb(web);
    const search = await server.post("/v1/search", { query: "weather jakarta" }, auth);
    expect(search.status).toBe(200);
    expect((await search.json()).status).toBe("ok");
  });

  it("guards a route however its path is spelt", async () => {
    for (const path of ["/%761/health", "/v1/%68ealth", "/v1//health", "/./v1/health", "/v1/health/"]) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status, path).toBe(401);
    }
    const search = await server.post("/%761/search", { query: "x" });
    expect(search.status).toBe(401);
    // Unknown paths answer nothing without the token either.
    expect((await fetch(`${server.url}/nowhere`)).status).toBe(401);
  });

  it("guards the admin routes and the event streams too, not the page at /", async () => {
    expect((await fetch(`${server.url}/v1/admin/anything`)).status).toBe(401);
    expect((await fetch(`${server.url}/v1/conversations/c1/events`)).status).toBe(401);
    expect((await fetch(`${server.url}/`)).status).toBe(200);
  });
});

describe("DNS rebinding", () => {
  it("refuses a foreign Host with 403", async () => {
    const res = await rawGet(server.port, "/v1/health", { ...auth, host: `evil.example:${server.port}` });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).error).toMatch(/Host/);
    const ok = await rawGet(server.port, "/v1/health", { ...auth, host: `localhost:${server.port}` });
    expect(ok.status).toBe(200);
  });

  it("refuses a foreign Origin with 403 and allows its own and the configured ones", async () => {
    const foreign = await fetch(`${server.url}/v1/health`, {
      headers: { ...auth, origin: "https://evil.example" },
    });
    expect(foreign.status).toBe(403);
    expect((await foreign.json()).error).toMatch(/Origin/);
    // The dashboard page is served from the same origin and calls the API from there.
    const own = await fetch(`${server.url}/v1/health`, { headers: { ...auth, origin: server.url } });
    expect(own.status).toBe(200);
    const configured = await fetch(`${server.url}/v1/health`, {
      headers: { ...auth, origin: "https://app.example.org" },
    });
    expect(configured.status).toBe(200);
    expect(configured.headers.get("access-control-allow-origin")).toBe("https://app.example.org");
    expect(foreign.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("an allowed origin can read a conversation's event stream (its CORS header survives the stream)", async () => {
    const controller = new AbortController();
    const cid = await conversationAt(server.url, auth);
    const res = await fetch(`${server.url}/v1/conversations/${cid}/events`, {
      headers: { ...auth, origin: "https://app.example.org" },
      signal: controller.signal,
    });
    try {
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
      expect(res.headers.get("access-control-allow-origin")).toBe("https://app.example.org");
    } finally {
      controller.abort();
    }
  });

  it("answers a browser's preflight for allowed origins only, without asking for the token", async () => {
    const ask = (origin: string) =>
      fetch(`${server.url}/v1/search`, {
        method: "OPTIONS",
        headers: {
          origin,
          "access-control-request-method": "POST",
          "access-control-request-headers": "authorization, content-type",
        },
      });
    const allowed = await ask("https://app.example.org");
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://app.example.org");
    expect(allowed.headers.get("access-control-allow-headers")).toContain("authorization");
    const foreign = await ask("https://evil.example");
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("behind a load balancer", () => {
  it("answers to the balancer's Host when allowed, and caps each forwarded client apart", async () => {
    const behind = await serve(web, {
      app: { allowedHosts: ["search.example.org"], trustProxy: true, clientCap: { running: 1, waiting: 0 } },
    });
    try {
      const lb = await rawGet(behind.port, "/v1/health", { host: "search.example.org" });
      expect(lb.status).toBe(200);
      const door = gate();
      web.route("www.example.com", "/lb", async () => {
        await door.wait;
        return { headers: { "content-type": "text/plain" }, body: "behind" };
      });
      const from = (ip: string) =>
        behind.post("/v1/read", { url: `https://www.example.com/lb?${ip}` }, { "x-forwarded-for": ip });
      const first = from("203.0.113.1");
      await until(() => web.requests.some((r) => r.path === "/lb"));
      expect((await from("203.0.113.1")).status).toBe(429);
      const other = from("203.0.113.2");
      await until(() => web.requests.filter((r) => r.path === "/lb").length >= 2);
      door.open();
      expect((await first).status).toBe(200);
      expect((await other).status).toBe(200);
      expect(behind.ctx.activity().map((a) => a.client)).toEqual(
        expect.arrayContaining(["203.0.113.1", "203.0.113.2"]),
      );
    } finally {
      await behind.close();
    }
  });
});

describe("per-client concurrency cap", () => {
  function slowRoute() {
    const door = gate();
    let atWeb = 0;
    let most = 0;
    web.route("www.example.com", /^\/slow/, async () => {
      most = Math.max(most, ++atWeb);
      await door.wait;
      atWeb--;
      return { headers: { "content-type": "text/plain" }, body: "slow but there" };
    });
    return { door, most: () => most };
  }
  const reached = (path: string) => until(() => web.requests.some((r) => r.path === path));

  it("answers 429 with Retry-After once a client has its calls running and queued, and serves it again after", async () => {
    const capped = await serve(web, { app: { clientCap: { running: 1, waiting: 0 } } });
    try {
      const { door } = slowRoute();
      const first = capped.post("/v1/read", { url: "https://www.example.com/slow1" });
      await reached("/slow1");
      const refused = await capped.post("/v1/read", { url: "https://www.example.com/slow2" });
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe("1");
      expect((await refused.json()).error).toMatch(/too many calls in flight from this client/);
      // Health is never capped: a load balancer must see a busy instance as alive.
      expect((await fetch(`${capped.url}/v1/health`)).status).toBe(200);
      door.open();
      expect((await first).status).toBe(200);
      const again = await capped.post("/v1/read", { url: "https://www.example.com/slow2" });
      expect(again.status).toBe(200);
      expect(web.requests.some((r) => r.path === "/slow2")).toBe(true);
    } finally {
      await capped.close();
    }
  });

  it("queues calls beyond the running ones instead of refusing them", async () => {
    const capped = await serve(web, { app: { clientCap: { running: 1, waiting: 2 } } });
    try {
      const route = slowRoute();
      const first = capped.post("/v1/read", { url: "https://www.example.com/slow1" });
      await reached("/slow1");
      // Watched at the limiter itself, not by waiting a while: both later calls ask for a place, and neither
      // gets one while the first runs (an uncapped server would hand them theirs at once).
      const asked = vi.spyOn(ClientLimits.prototype, "acquire");
      const queued = [2, 3].map((n) => capped.post("/v1/read", { url: `https://www.example.com/slow${n}` }));
      let places: Promise<unknown>[];
      try {
        while (asked.mock.results.length < 2) await new Promise((r) => setImmediate(r));
        places = asked.mock.results.map((r) => r.value as Promise<unknown>);
      } finally {
        asked.mockRestore();
      }
      const given = places.map(() => false);
      places.forEach((place, i) => {
        void place.then(() => {
          given[i] = true;
        });
      });
      await new Promise((r) => setImmediate(r));
      expect(given).toEqual([false, false]);
      expect(web.requests.filter((r) => r.path.startsWith("/slow"))).toHaveLength(1);
      route.door.open();
      const statuses = await Promise.all([first, ...queued].map(async (r) => (await r).status));
      expect(statuses).toEqual([200, 200, 200]);
      // One running call per client: the queued ones reached the web one after the other.
      expect(route.most()).toBe(1);
    } finally {
      await capped.close();
    }
  });
});

describe("admin apart from use", () => {
  const ADMIN = "test-SECRET-admin-token-5678";
  const adminRoutes = (app: import("fastify").FastifyInstance) => {
    app.get("/v1/admin/switch", async () => ({ admin: true }));
  };
  /** A request as a peer elsewhere on the network would make it (light-my-request sets the socket's address). */
  const from = (s: Served, remoteAddress: string, headers: Record<string, string> = {}) =>
    s.app.inject({
      method: "GET",
      url: "/v1/admin/switch",
      remoteAddress,
      headers: { host: `127.0.0.1:${s.port}`, ...headers },
    });

  it("with an admin token, admin routes take it and nothing else, and it opens the API routes too", async () => {
    const s = await serve(web, { app: { token: TOKEN, adminToken: ADMIN, routes: [adminRoutes] } });
    try {
      for (const headers of [{}, auth, { authorization: "Bearer wrong" }]) {
        const res = await fetch(`${s.url}/v1/admin/switch`, { headers });
        expect(res.status).toBe(401);
        expect(await res.text()).not.toContain(ADMIN);
      }
      const admin = { authorization: `Bearer ${ADMIN}` };
      expect((await fetch(`${s.url}/v1/admin/switch`, { headers: admin })).status).toBe(200);
      expect((await from(s, "203.0.113.7", admin)).statusCode).toBe(200);
      expect((await fetch(`${s.url}/v1/health`, { headers: admin })).status).toBe(200);
      expect((await fetch(`${s.url}/v1/health`, { headers: auth })).status).toBe(200);
      expect((await fetch(`${s.url}/v1/health`)).status).toBe(401);
    } finally {
      await s.close();
    }
  });

  it("without an admin token, admin routes answer this machine only, whatever API token a peer holds", async () => {
    const s = await serve(web, { app: { token: TOKEN, routes: [adminRoutes] } });
    try {
      for (const peer of ["203.0.113.7", "192.168.1.20", "::ffff:10.0.0.3", "2001:db8::1"]) {
        const res = await from(s, peer, auth);
        expect(res.statusCode).toBe(403);
        expect(res.json().error).toMatch(/WEBSIFT_ADMIN_TOKEN/);
      }
      // A reverse proxy on this machine speaks for someone else: its forwarded requests are not local.
      for (const forwarded of <Record<string, string>[]>[
        { "x-forwarded-for": "203.0.113.7" },
        { forwarded: "for=203.0.113.7" },
      ])
        expect((await from(s, "127.0.0.1", { ...auth, ...forwarded })).statusCode).toBe(403);
      // The API stays open to a peer elsewhere that holds the API token.
      const api = await s.app.inject({
        method: "GET",
        url: "/v1/health",
        remoteAddress: "203.0.113.7",
        headers: { host: `127.0.0.1:${s.port}`, ...auth },
      });
      expect(api.statusCode).toBe(200);
      // This machine administers with the API token, as before admin had a token of its own.
      expect((await from(s, "127.0.0.1", auth)).statusCode).toBe(200);
      expect((await from(s, "::1", auth)).statusCode).toBe(200);
      expect((await from(s, "127.0.0.1")).statusCode).toBe(401);
    } finally {
      await s.close();
    }
  });

  it("refuses to start with the same token for use and admin", async () => {
    await expect(serve(web, { app: { token: TOKEN, adminToken: TOKEN } })).rejects.toThrow(
      /WEBSIFT_ADMIN_TOKEN must differ/,
    );
  });
});

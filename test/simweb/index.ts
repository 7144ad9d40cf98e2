/**
 * The simulated web: loopback servers that answer as the real provider hosts do, serve ordinary pages and play
 * hostile servers. Code under test reaches it only through `netConfig` (an injected resolver and connector),
 * so what runs is the production `net`, policy included. No traffic ever leaves 127.0.0.1.
 */
import { readFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import net, { type AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import type { ConnectTo, DialTarget } from "../../src/net/connector.js";
import type { Resolve } from "../../src/net/url-policy.js";
import { startBlackHole } from "./blackhole.js";
import { HOSTILE_HOST, hostileRoutes } from "./hostile.js";
import { pageRoutes } from "./pages.js";

export { startBlackHole } from "./blackhole.js";
export * from "./hostile.js";
export { type SimProxy, startProxy } from "./proxy.js";

export interface SimRequest {
  host: string;
  method: string;
  path: string;
  url: URL;
  headers: Record<string, string>;
  body: string;
}
export type SimReply = {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  delayMs?: number;
};
/** Returning void means the handler wrote to raw.res (or raw.res.socket) itself. */
export type SimHandler = (
  req: SimRequest,
  raw: { req: http.IncomingMessage; res: http.ServerResponse },
) => SimReply | Promise<SimReply> | void | Promise<void>;

export interface SimWeb {
  /** Pass straight to createNet() / createWebsift(). */
  netConfig: { resolve: Resolve; connectTo: ConnectTo; ca: string };
  /** `path` is matched against the pathname (a string matches exactly); later routes win. */
  route(host: string, path: string | RegExp, handler: SimHandler | SimReply): void;
  /** Reads test/fixtures/providers/<relPath> (provenance in its README). */
  fixture(relPath: string): Buffer;
  /** Default: every name resolves to PUBLIC_ADDRESS. Override per host, e.g. ["93.184.215.14", "10.0.0.7"]. */
  resolveAs(host: string, addresses: string[]): void;
  /** Injected latency before each reply (benchmarks). */
  setLatency(ms: number | ((req: SimRequest) => number)): void;
  /** Every request received, in order. */
  requests: SimRequest[];
  /** Every connection `net` dialled through connectTo, with the vetted address it was pinned to. */
  dials: DialTarget[];
  /** Every name looked up through netConfig.resolve, in order. */
  lookups: string[];
  /** Ports of the loopback servers (for tests that dial them directly, e.g. a bare-undici baseline). */
  ports: { http: number; https: number; silent: number; blackHole: number };
  /** Clears routes added by tests, requests, dials, lookups, latency and resolveAs overrides. */
  reset(): void;
  close(): Promise<void>;
}

/** What every name resolves to unless told otherwise: public-looking, and never dialled (connectTo goes to loopback). */
export const PUBLIC_ADDRESS = "93.184.215.14";
/** A name whose every address is private (10.0.0.7). */
export const PRIVATE_HOST = "private.example.com";
/** A name whose answer mixes a public and a private address: DNS rebinding bait. */
export const MIXED_HOST = "mixed.example.com";
/** Connecting never completes (a listener whose accept queue is full): timeout in phase connect. */
export const BLACKHOLE_HOST = "blackhole.example.com";
/** The connection is accepted, then nothing is ever read or written. */
export const SILENT_HOST = "silent.example.com";
/** An ordinary web site. */
export const WWW_HOST = "www.example.com";
export { HOSTILE_HOST };

const BUILTIN_RESOLVE: Record<string, string[]> = {
  [PRIVATE_HOST]: ["10.0.0.7"],
  [MIXED_HOST]: [PUBLIC_ADDRESS, "10.0.0.7"],
};

const TLS_DIR = fileURLToPath(new URL("../fixtures/tls/", import.meta.url));
const FIXTURES_DIR = fileURLToPath(new URL("../fixtures/providers/", import.meta.url));

export const TEST_CA = readFileSync(`${TLS_DIR}ca.pem`, "utf8");
export const TEST_CA_PATH = `${TLS_DIR}ca.pem`;

interface Route {
  host: string;
  path: string | RegExp;
  handler: SimHandler | SimReply;
}

export async function startSimWeb(): Promise<SimWeb> {
  const builtins: Route[] = [];
  let routes: Route[] = [];
  let overrides = new Map<string, string[]>();
  let latency: number | ((req: SimRequest) => number) = 0;
  const timers = new Set<NodeJS.Timeout>();

  const sim = {} as SimWeb;

  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size <= 10 * 1024 * 1024) chunks.push(c);
    });
    req.on("error", () => {});
    res.on("error", () => {});
    req.on("end", () => {
      void answer(req, res, Buffer.concat(chunks).toString("utf8"));
    });
  };

  async function answer(req: http.IncomingMessage, res: http.ServerResponse, body: string) {
    const host = (req.headers.host ?? "").replace(/:\d+$/, "").toLowerCase();
    const scheme = (req.socket as { encrypted?: boolean }).encrypted ? "https" : "http";
    const url = new URL(req.url ?? "/", `${scheme}://${req.headers.host ?? "unknown"}`);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(", ") : v;
    const simReq: SimRequest = { host, method: req.method ?? "GET", path: url.pathname, url, headers, body };
    sim.requests.push(simReq);
    const route = findRoute(host, url.pathname);
    try {
      const wait = typeof latency === "function" ? latency(simReq) : latency;
      if (wait > 0) await sleep(wait);
      if (!route) return send(res, { status: 404, body: `simweb: no route for ${host}${url.pathname}\n` });
      const reply =
        typeof route.handler === "function" ? await route.handler(simReq, { req, res }) : route.handler;
      if (reply) {
        if (reply.delayMs) await sleep(reply.delayMs);
        send(res, reply);
      }
    } catch (err) {
      if (!res.headersSent && !res.destroyed)
        send(res, { status: 500, body: `simweb handler failed: ${err}` });
      else res.destroy();
    }
  }

  function findRoute(host: string, pathname: string): Route | undefined {
    const all = [...builtins, ...routes];
    for (let i = all.length - 1; i >= 0; i--) {
      const r = all[i];
      if (r.host !== host) continue;
      if (typeof r.path === "string" ? r.path === pathname : r.path.test(pathname)) return r;
    }
    return undefined;
  }

  function sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
    });
  }

  const httpServer = http.createServer({ maxHeaderSize: 64 * 1024 }, onRequest);
  const httpsServer = https.createServer(
    {
      key: readFileSync(`${TLS_DIR}leaf-key.pem`),
      cert: readFileSync(`${TLS_DIR}leaf.pem`),
      maxHeaderSize: 64 * 1024,
    },
    onRequest,
  );
  // Silent: accepts, then never reads nor writes.
  const silentSockets = new Set<net.Socket>();
  const silentServer = net.createServer({ pauseOnConnect: true }, (socket) => {
    silentSockets.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => silentSockets.delete(socket));
  });
  const listen = (server: net.Server) =>
    new Promise<number>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
    });
  const [httpPort, httpsPort, silentPort] = await Promise.all([
    listen(httpServer),
    listen(httpsServer),
    listen(silentServer),
  ]);
  const blackHole = await startBlackHole();

  const resolve: Resolve = async (hostname) => {
    const name = hostname.toLowerCase();
    sim.lookups.push(name);
    return overrides.get(name) ?? BUILTIN_RESOLVE[name] ?? [PUBLIC_ADDRESS];
  };
  const connectTo: ConnectTo = (target) => {
    sim.dials.push({ ...target });
    const name = target.hostname.toLowerCase();
    if (name === BLACKHOLE_HOST) return { host: "127.0.0.1", port: blackHole.port };
    if (name === SILENT_HOST) return { host: "127.0.0.1", port: silentPort };
    return { host: "127.0.0.1", port: target.protocol === "https:" ? httpsPort : httpPort };
  };

  Object.assign(sim, {
    netConfig: { resolve, connectTo, ca: TEST_CA },
    requests: [] as SimRequest[],
    dials: [] as DialTarget[],
    lookups: [] as string[],
    ports: { http: httpPort, https: httpsPort, silent: silentPort, blackHole: blackHole.port },
    route(host: string, path: string | RegExp, handler: SimHandler | SimReply) {
      routes.push({ host: host.toLowerCase(), path, handler });
    },
    fixture(relPath: string) {
      return readFileSync(`${FIXTURES_DIR}${relPath}`);
    },
    resolveAs(host: string, addresses: string[]) {
      overrides.set(host.toLowerCase(), addresses);
    },
    setLatency(ms: number | ((req: SimRequest) => number)) {
      latency = ms;
    },
    reset() {
      routes = [];
      overrides = new Map();
      latency = 0;
      sim.requests.length = 0;
      sim.dials.length = 0;
      sim.lookups.length = 0;
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      for (const s of silentSockets) s.destroy();
      const closeServer = (server: http.Server | net.Server) =>
        new Promise<void>((resolve) => {
          if ("closeAllConnections" in server) server.closeAllConnections();
          server.close(() => resolve());
        });
      await Promise.all([closeServer(httpServer), closeServer(httpsServer), closeServer(silentServer)]);
      await blackHole.close();
    },
  } satisfies Omit<SimWeb, never>);

  for (const [host, path, handler] of [...pageRoutes(), ...hostileRoutes(sim)])
    builtins.push({ host, path, handler });
  return sim;
}

function send(res: http.ServerResponse, reply: SimReply): void {
  if (res.destroyed || res.headersSent) return;
  const body = reply.body ?? "";
  const headers: Record<string, string> = { ...(reply.headers ?? {}) };
  const lower = new Set(Object.keys(headers).map((k) => k.toLowerCase()));
  if (!lower.has("content-type"))
    headers["content-type"] =
      typeof body === "string" ? "text/html; charset=utf-8" : "application/octet-stream";
  res.writeHead(reply.status ?? 200, headers);
  res.end(body);
}

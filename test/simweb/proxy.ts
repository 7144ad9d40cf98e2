import http from "node:http";
import net, { type AddressInfo } from "node:net";
import type { SimWeb } from "./index.js";

export interface SimProxy {
  /** http://127.0.0.1:PORT, for HTTP_PROXY / HTTPS_PROXY. */
  url: string;
  /** What went through: "GET http://host/path" for plain requests, "CONNECT host:port" for tunnels. */
  log: string[];
  /** For each absolute-form request: the host its URL named and the Host header it carried. */
  forwarded: { target: string; hostHeader: string | undefined }[];
  /**
   * Each tunnel by the local port of the proxy's connection to the origin (the `remotePort` the origin sees),
   * with the "host:port" its CONNECT named: an origin tells which tunnel a request came through by it.
   */
  tunnels: Map<number, string>;
  close(): Promise<void>;
}

/**
 * A small real forward proxy on loopback: absolute-form requests for http, CONNECT tunnels for https. Like a
 * corporate egress proxy it resolves names itself: here every name leads to the simulated web's servers.
 */
export async function startProxy(sim: Pick<SimWeb, "ports">): Promise<SimProxy> {
  const log: string[] = [];
  const forwarded: SimProxy["forwarded"] = [];
  const tunnels = new Map<number, string>();
  const sockets = new Set<net.Socket>();
  const portFor = (hostname: string, port: number) => {
    if (hostname === "blackhole.example.com") return sim.ports.blackHole;
    if (hostname === "silent.example.com") return sim.ports.silent;
    return port === 443 ? sim.ports.https : sim.ports.http;
  };

  const server = http.createServer((req, res) => {
    log.push(`${req.method} ${req.url}`);
    let target: URL;
    try {
      target = new URL(req.url ?? "");
    } catch {
      res.writeHead(400).end("proxy: absolute-form request expected");
      return;
    }
    forwarded.push({ target: target.host, hostHeader: req.headers.host });
    const upstream = http.request(
      {
        host: "127.0.0.1",
        port: portFor(target.hostname, Number(target.port) || 80),
        method: req.method,
        path: target.pathname + target.search,
        headers: { ...req.headers, host: target.host },
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  server.on("connect", (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    log.push(`CONNECT ${req.url}`);
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    const [hostname, port] = (req.url ?? "").split(/:(?=\d+$)/);
    const upstream = net.connect(portFor(hostname, Number(port) || 443), "127.0.0.1", () => {
      if (upstream.localPort !== undefined) tunnels.set(upstream.localPort, req.url ?? "");
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on("close", () => sockets.delete(upstream));
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
  });
  server.on("connection", (s: net.Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    forwarded,
    tunnels,
    async close() {
      for (const s of sockets) s.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

import { readFileSync } from "node:fs";
import net, { type AddressInfo } from "node:net";
import tls from "node:tls";

/**
 * A loopback server that writes exactly the bytes a case gives it, for responses no HTTP server library would
 * send (interim heads, broken framing). It reads requests head by head (no request sent to it has a body) and
 * keeps each connection open until the script closes it, so a case can run on a keep-alive connection.
 */

/** Written as the last of a script's writes: the server closes the connection there. */
export const CLOSE = "\u0000close";

/** What the server writes for the Nth request on a connection (0-based), given its request line. */
export type Script = (index: number, requestLine: string) => (string | Buffer)[];

export interface RawServer {
  port: number;
  connections: number;
  /** Request lines in arrival order, e.g. "GET /a HTTP/1.1". */
  requests: string[];
  script: Script;
  close(): Promise<void>;
}

const TLS_DIR = new URL("../fixtures/tls/", import.meta.url);

function serve(socket: net.Socket, server: RawServer): void {
  let buffered = "";
  let index = 0;
  socket.on("error", () => {});
  socket.on("data", (data) => {
    buffered += data.toString("latin1");
    for (let end = buffered.indexOf("\r\n\r\n"); end !== -1; end = buffered.indexOf("\r\n\r\n")) {
      const line = buffered.slice(0, buffered.indexOf("\r\n"));
      buffered = buffered.slice(end + 4);
      server.requests.push(line);
      const writes = server.script(index++, line);
      // Each string its own write, a tick apart, so a case can split one head across TCP segments.
      let i = 0;
      const next = () => {
        if (i >= writes.length || socket.destroyed) return;
        const chunk = writes[i++];
        if (chunk === CLOSE) return void socket.end();
        socket.write(chunk);
        setImmediate(next);
      };
      next();
    }
  });
}

/** `secure`: TLS with the simulated web's leaf certificate (every *.example.com name, signed by TEST_CA). */
export async function startRawServer(secure = false): Promise<RawServer> {
  const state: RawServer = { port: 0, connections: 0, requests: [], script: () => [], close: async () => {} };
  const sockets = new Set<net.Socket>();
  const onSocket = (socket: net.Socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    serve(socket, state);
  };
  const server = secure
    ? tls.createServer(
        {
          key: readFileSync(new URL("leaf-key.pem", TLS_DIR)),
          cert: readFileSync(new URL("leaf.pem", TLS_DIR)),
        },
        onSocket,
      )
    : net.createServer(onSocket);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.port = (server.address() as AddressInfo).port;
  state.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return state;
}

/** A 200 with a Content-Length. */
export const ok = (body: string, extra = "") =>
  `HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;
/** A 200 framed as one chunk. */
export const chunked = (body: string) =>
  `HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ntransfer-encoding: chunked\r\n\r\n${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`;
export const CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n";

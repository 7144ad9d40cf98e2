import type http from "node:http";
import zlib from "node:zlib";
import type { SimHandler, SimReply, SimWeb } from "./index.js";

/** Every hostile behaviour below answers on this host, over http and https alike. */
export const HOSTILE_HOST = "hostile.example.com";

/** Paths on HOSTILE_HOST. Connection-level ones have hosts of their own (BLACKHOLE_HOST, SILENT_HOST). */
export const HOSTILE_PATHS = {
  /** Request read, never answered: timeout in phase headers. */
  silentAfterRequest: "/silent",
  /** Status line, then one header line every 200 ms, forever: timeout in phase headers. */
  slowlorisHeaders: "/slowloris",
  /** Headers at once, then one body byte every 100 ms: timeout in phase body. */
  slowBody: "/trickle",
  /** A chunked body that never ends: too_large (wire cap). */
  infiniteChunked: "/infinite",
  /** 64 KiB of gzip that inflates to 64 MiB: too_large (decoded cap). */
  gzipBomb: "/gzip-bomb",
  /** A few hundred bytes of brotli that inflate to 64 MiB: too_large (decoded cap). */
  brotliBomb: "/br-bomb",
  /** Content-Length 5000, 100 bytes sent, connection closed. */
  contentLengthOver: "/length-over",
  /** Content-Length 10, 100 bytes sent. */
  contentLengthUnder: "/length-under",
  /** Content-Length far over the wire cap, announced up front. */
  contentLengthHuge: "/length-huge",
  /** ~200 KiB of response headers. */
  hugeHeaders: "/huge-headers",
  /** /redirect/loop-a → /redirect/loop-b → /redirect/loop-a … */
  redirectLoop: "/redirect/loop-a",
  /** /redirect/chain/N redirects N times, then 200. */
  redirectChain: (n: number) => `/redirect/chain/${n}`,
  redirectToLoopback: "/redirect/to-loopback",
  redirectToFile: "/redirect/to-file",
  redirectToPrivate: "/redirect/to-private",
  redirectToMixed: "/redirect/to-mixed",
  /** Headers and 1000 of 100000 bytes, then a TCP reset. */
  resetMidBody: "/reset",
  /** PNG-ish random bytes served as text/html. */
  binaryAsHtml: "/binary",
  /** text/html; charset=x-no-such-charset. */
  invalidCharset: "/bad-charset",
  /** 429 with Retry-After: 120. */
  tooManyRequests: "/429",
  /** A chunked body of 1-byte chunks that never ends: too_large at the wire cap, holding about the cap. */
  oneByteChunks: "/one-byte-chunks",
  /** One legal `100 Continue` interim response, then the real 200: the 200 is the answer. */
  continueThenOk: "/100-continue",
  /** Several 1xx interim responses (100, 102, 103), then the real 200. */
  interimsThenOk: "/1xx-then-ok",
  /** Bytes that are not HTTP at all: protocol. */
  garbage: "/garbage",
  /** An HTTP/0.9-style answer (a body with no status line): protocol. */
  http09: "/http09",
  /** A status line whose version is not HTTP/1.x: protocol. */
  badVersion: "/bad-version",
  /** A chunked body whose chunk size is not hexadecimal: protocol. */
  bogusChunkSize: "/bogus-chunk-size",
  /** Content-Length: -5: protocol. */
  negativeContentLength: "/negative-length",
  /** Two different Content-Length headers: protocol. */
  conflictingContentLength: "/conflicting-length",
  /** /gzip-layers/N: a small page gzipped N times, `content-encoding: gzip, gzip, …` (N codings). */
  gzipLayers: (n: number) => `/gzip-layers/${n}`,
  /** DuckDuckGo's anomaly (bot) challenge page, served with 202 and with 200. */
  ddgChallenge202: "/ddg-challenge-202",
  ddgChallenge200: "/ddg-challenge-200",
} as const;

const BOMB_MEMBER_SIZE = 1024 * 1024;
let gzipBombBytes: Buffer | undefined;

/**
 * 64 MiB of zeros as gzip (~67 KiB): 64 gzip members of 1 MiB each, which decoders concatenate. Built this way
 * because gzipping 64 MiB in one go blocks the event loop for a second, longer than the deadlines under test.
 */
export function gzipBomb(): Buffer {
  gzipBombBytes ??= Buffer.concat(
    Array(64).fill(zlib.gzipSync(Buffer.alloc(BOMB_MEMBER_SIZE), { level: 9 })) as Buffer[],
  );
  return gzipBombBytes;
}

// 64 MiB of zeros, brotli quality 11: 106 bytes (compressed once, offline, with zlib.brotliCompressSync).
const BROTLI_BOMB_B64 =
  "y///P/gnAOKxQCD3/o///3/wTwDEYRGA7v0f////4J8AiMMCAN37P/7//8E/ARCHBQC693/8//+DfwIgDgsAdO//+P//B/8EQBwWAOje//H//w/+CYA4LADQvf/L//8//BMAcVgAoHv/Bw==";

/** 106 bytes of brotli that inflate to 64 MiB. */
export function brotliBomb(): Buffer {
  return Buffer.from(BROTLI_BOMB_B64, "base64");
}

/** DuckDuckGo's challenge page (fixture), with the status it is served with (202 observed; 200 too). */
export function ddgChallenge(sim: Pick<SimWeb, "fixture">, status: 200 | 202 = 202): SimReply {
  return {
    status,
    headers: { "content-type": "text/html; charset=UTF-8" },
    body: sim.fixture("duckduckgo/ddg-html-anomaly-challenge-2026-04.html"),
  };
}

/** A handler that runs `tick` every `everyMs` until the client goes away or `maxMs` passes, then closes. */
function drip(
  res: http.ServerResponse,
  everyMs: number,
  tick: (socket: import("node:net").Socket) => void,
  maxMs = 120_000,
): void {
  const socket = res.socket;
  if (!socket) return;
  const started = Date.now();
  const timer = setInterval(() => {
    if (socket.destroyed || Date.now() - started > maxMs) {
      clearInterval(timer);
      socket.destroy();
      return;
    }
    tick(socket);
  }, everyMs);
  socket.once("close", () => clearInterval(timer));
}

/** Writes raw bytes to the connection, bypassing Node's HTTP framing (for lies Node would refuse to tell). */
function rawReply(res: http.ServerResponse, head: string, body: Buffer | string, end = true): void {
  const socket = res.socket;
  if (!socket) return;
  socket.write(head);
  socket.write(body);
  if (end) socket.end();
}

export const hostile = {
  silentAfterRequest: ((_req, raw) => {
    // Never answers; the socket is destroyed when the client gives up (or the simweb closes).
    raw.res.socket?.on("error", () => {});
  }) as SimHandler,

  slowlorisHeaders: ((_req, raw) => {
    raw.res.socket?.write("HTTP/1.1 200 OK\r\n");
    let i = 0;
    drip(raw.res, 200, (s) => s.write(`X-Slow-${i++}: drip\r\n`));
  }) as SimHandler,

  slowBody: ((_req, raw) => {
    raw.res.writeHead(200, { "content-type": "text/html", "content-length": "100000" });
    raw.res.flushHeaders();
    drip(raw.res, 100, () => raw.res.write("a"));
  }) as SimHandler,

  infiniteChunked: ((_req, raw) => {
    const { res } = raw;
    res.writeHead(200, { "content-type": "text/html" });
    const chunk = Buffer.alloc(64 * 1024, "x");
    const started = Date.now();
    let sent = 0;
    const pump = () => {
      while (!res.destroyed && sent < 4 * 1024 ** 3 && Date.now() - started < 120_000) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once("drain", pump);
      }
      res.destroy();
    };
    pump();
  }) as SimHandler,

  oneByteChunks: ((_req, raw) => {
    const socket = raw.res.socket;
    if (!socket) return;
    socket.write("HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ntransfer-encoding: chunked\r\n\r\n");
    // 10,000 chunks of one byte per write; written raw, since Node's framing would take one write per chunk.
    const burst = Buffer.from("1\r\nx\r\n".repeat(10_000));
    const started = Date.now();
    let sent = 0;
    const pump = () => {
      while (!socket.destroyed && sent < 1024 ** 3 && Date.now() - started < 120_000) {
        sent += burst.length;
        if (!socket.write(burst)) return void socket.once("drain", pump);
      }
      socket.destroy();
    };
    socket.on("error", () => {});
    pump();
  }) as SimHandler,

  continueThenOk: ((_req, raw) =>
    rawReply(
      raw.res,
      "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 9\r\n\r\n",
      "continued",
    )) as SimHandler,

  interimsThenOk: ((_req, raw) =>
    rawReply(
      raw.res,
      "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\n\r\n" +
        "HTTP/1.1 103 Early Hints\r\nlink: </style.css>; rel=preload\r\n\r\n" +
        "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 5\r\n\r\n",
      "final",
    )) as SimHandler,

  garbage: ((_req, raw) =>
    rawReply(raw.res, "\x00\x17garbage\xff\xfe not a response\r\n\r\n", "")) as SimHandler,

  http09: ((_req, raw) =>
    rawReply(raw.res, "<html><body>an HTTP/0.9 answer</body></html>\r\n", "")) as SimHandler,

  badVersion: ((_req, raw) =>
    rawReply(raw.res, "ICY 200 OK\r\ncontent-type: audio/mpeg\r\n\r\n", "xx")) as SimHandler,

  bogusChunkSize: ((_req, raw) =>
    rawReply(
      raw.res,
      "HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ntransfer-encoding: chunked\r\n\r\n",
      "5\r\nhello\r\nzz\r\nwhat\r\n0\r\n\r\n",
    )) as SimHandler,

  negativeContentLength: ((_req, raw) =>
    rawReply(
      raw.res,
      "HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: -5\r\n\r\n",
      "hello",
    )) as SimHandler,

  conflictingContentLength: ((_req, raw) =>
    rawReply(
      raw.res,
      "HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: 5\r\ncontent-length: 7\r\n\r\n",
      "hello!!",
    )) as SimHandler,

  gzipLayers: ((req) => {
    const n = Number(req.path.split("/").pop());
    // The header names all n codings; the body is really gzipped up to 50 times (2,000 real layers cost the
    // server seconds of CPU before it answers, which a loaded machine turns into the client's timeout). A client
    // that decoded layer by layer instead of refusing the header would fail on the body, never pass.
    let body = Buffer.from("<html><body><p>the innermost layer</p></body></html>");
    for (let i = 0; i < Math.min(n, 50); i++) body = zlib.gzipSync(body, { level: 1 });
    return {
      headers: { "content-type": "text/html", "content-encoding": Array(n).fill("gzip").join(", ") },
      body,
    };
  }) as SimHandler,

  gzipBomb: (() => ({
    headers: { "content-type": "text/html", "content-encoding": "gzip" },
    body: gzipBomb(),
  })) as SimHandler,

  brotliBomb: (() => ({
    headers: { "content-type": "text/html", "content-encoding": "br" },
    body: brotliBomb(),
  })) as SimHandler,

  contentLengthOver: ((_req, raw) =>
    rawReply(
      raw.res,
      "HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: 5000\r\n\r\n",
      "x".repeat(100),
    )) as SimHandler,

  contentLengthUnder: ((_req, raw) =>
    rawReply(
      raw.res,
      "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 10\r\n\r\n",
      "0123456789".repeat(10),
    )) as SimHandler,

  contentLengthHuge: ((_req, raw) => {
    raw.res.writeHead(200, { "content-type": "text/html", "content-length": String(1024 ** 3) });
    raw.res.write("x".repeat(1000));
    setTimeout(() => raw.res.destroy(), 2000).unref();
  }) as SimHandler,

  hugeHeaders: ((_req, raw) => {
    let head = "HTTP/1.1 200 OK\r\ncontent-type: text/html\r\n";
    for (let i = 0; i < 200; i++) head += `x-filler-${i}: ${"h".repeat(1000)}\r\n`;
    rawReply(raw.res, `${head}content-length: 2\r\n\r\n`, "ok");
  }) as SimHandler,

  resetMidBody: ((_req, raw) => {
    raw.res.writeHead(200, { "content-type": "text/html", "content-length": "100000" });
    raw.res.write("y".repeat(1000));
    setTimeout(() => {
      const socket = raw.res.socket;
      // A TLS socket cannot send a TCP RST from Node; closing without close_notify is the TLS equivalent.
      if (socket && "encrypted" in socket) socket.destroy();
      else socket?.resetAndDestroy();
    }, 50).unref();
  }) as SimHandler,

  binaryAsHtml: (() => {
    const bytes = Buffer.alloc(4096);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
    let x = 12345;
    for (let i = 8; i < bytes.length; i++) {
      x = (x * 1103515245 + 12345) & 0x7fffffff;
      bytes[i] = x & 0xff;
    }
    return { headers: { "content-type": "text/html" }, body: bytes };
  }) as SimHandler,

  invalidCharset: {
    headers: { "content-type": "text/html; charset=x-no-such-charset" },
    body: Buffer.from("<html><body><p>café déjà vu</p></body></html>", "utf8"),
  } as SimReply,

  tooManyRequests: {
    status: 429,
    headers: { "retry-after": "120", "content-type": "text/plain" },
    body: "slow down",
  } as SimReply,
};

export function hostileRoutes(sim: SimWeb): [string, string | RegExp, SimHandler | SimReply][] {
  const H = HOSTILE_HOST;
  const P = HOSTILE_PATHS;
  const to = (location: string): SimReply => ({ status: 302, headers: { location } });
  return [
    [H, "/", { body: "<html><body>hostile.example.com is up</body></html>" }],
    [H, P.silentAfterRequest, hostile.silentAfterRequest],
    [H, P.slowlorisHeaders, hostile.slowlorisHeaders],
    [H, P.slowBody, hostile.slowBody],
    [H, P.infiniteChunked, hostile.infiniteChunked],
    [H, P.oneByteChunks, hostile.oneByteChunks],
    [H, P.continueThenOk, hostile.continueThenOk],
    [H, P.interimsThenOk, hostile.interimsThenOk],
    [H, P.garbage, hostile.garbage],
    [H, P.http09, hostile.http09],
    [H, P.badVersion, hostile.badVersion],
    [H, P.bogusChunkSize, hostile.bogusChunkSize],
    [H, P.negativeContentLength, hostile.negativeContentLength],
    [H, P.conflictingContentLength, hostile.conflictingContentLength],
    [H, /^\/gzip-layers\/\d+$/, hostile.gzipLayers],
    [H, P.gzipBomb, hostile.gzipBomb],
    [H, P.brotliBomb, hostile.brotliBomb],
    [H, P.contentLengthOver, hostile.contentLengthOver],
    [H, P.contentLengthUnder, hostile.contentLengthUnder],
    [H, P.contentLengthHuge, hostile.contentLengthHuge],
    [H, P.hugeHeaders, hostile.hugeHeaders],
    [H, "/redirect/loop-a", to("/redirect/loop-b")],
    [H, "/redirect/loop-b", to("/redirect/loop-a")],
    [
      H,
      /^\/redirect\/chain\/\d+$/,
      (req) => {
        const n = Number(req.path.split("/").pop());
        return n > 0 ? to(`/redirect/chain/${n - 1}`) : { body: "<html><body>end of chain</body></html>" };
      },
    ],
    [H, P.redirectToLoopback, to("http://127.0.0.1/")],
    [H, P.redirectToFile, to("file:///etc/passwd")],
    [H, P.redirectToPrivate, to("http://private.example.com/")],
    [H, P.redirectToMixed, to("http://mixed.example.com/")],
    [H, P.resetMidBody, hostile.resetMidBody],
    [H, P.binaryAsHtml, hostile.binaryAsHtml],
    [H, P.invalidCharset, hostile.invalidCharset],
    [H, P.tooManyRequests, hostile.tooManyRequests],
    [H, P.ddgChallenge202, () => ddgChallenge(sim, 202)],
    [H, P.ddgChallenge200, () => ddgChallenge(sim, 200)],
  ];
}

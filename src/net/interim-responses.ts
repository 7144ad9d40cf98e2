import { createRequire } from "node:module";
import type { Socket } from "node:net";
import type { buildConnector, Client, Dispatcher, Pool } from "undici";
import { loadUndici } from "./undici.js";

/*
 * undici's HTTP/1.1 parser reads 1xx interim responses (102, 103, any unassigned 1xx) and goes on to the real
 * response, except 100 Continue: that one destroys the socket as a "bad response", because undici never sends
 * `Expect: 100-continue` and so takes a 100 for a broken server. RFC 9110 (15.2) asks a client to parse an
 * interim response it did not expect, and servers do send an unsolicited 100 (some send one to every request),
 * so websift's reads of such servers failed as protocol errors. undici offers no option for it and its
 * maintainers leave 100 Continue unsupported.
 *
 * The fix sits in undici's own parser, not in front of it: a filter on the socket's bytes cannot know where a
 * response starts on a keep-alive connection (the previous body's length, chunking, a HEAD answer) without being
 * a second HTTP parser that must agree with the first byte for byte. So for every connection websift opens, the
 * parser undici attaches to the socket is told "another interim response" where it would see 100; it then does
 * what it does for any 1xx (no body, wait for the next head, timers and keep-alive untouched). Nothing else in
 * the process is affected: other users of undici, and Node's own fetch, keep their parsers as they are.
 *
 * This reaches into undici's internals (the parser's symbol and its head callback), checked against undici 7.x;
 * on another major, or if the symbol is gone, connections are left as undici makes them, and the interim
 * response tests in test/net fail rather than websift breaking.
 */

const require = createRequire(import.meta.url);

/** The status undici's parser is given instead of 100: an unassigned 1xx, so nothing reads a meaning into it. */
const INTERIM_STAND_IN = 199;

interface ResponseParser {
  onHeadersComplete(statusCode: number, upgrade: boolean, shouldKeepAlive: boolean): number;
}

const parserKey: symbol | undefined = findParserKey();

function findParserKey(): symbol | undefined {
  try {
    const { version } = require("undici/package.json") as { version: string };
    if (!version.startsWith("7.")) return undefined;
    const symbols = require("undici/lib/core/symbols.js") as { kParser?: unknown };
    return typeof symbols.kParser === "symbol" ? symbols.kParser : undefined;
  } catch {
    return undefined;
  }
}

/** Whether this undici's parser can be told to skip 100 Continue (the tests assert it for the pinned version). */
export const skipsContinue = parserKey !== undefined;

function skipContinue(parser: ResponseParser): ResponseParser {
  const headersComplete = parser.onHeadersComplete;
  if (typeof headersComplete !== "function") return parser;
  parser.onHeadersComplete = function (this: ResponseParser, statusCode, upgrade, shouldKeepAlive) {
    return headersComplete.call(
      this,
      statusCode === 100 ? INTERIM_STAND_IN : statusCode,
      upgrade,
      shouldKeepAlive,
    );
  };
  return parser;
}

/** Catches the parser undici attaches to `socket` right after the connection is up, and adjusts it. */
function watchParser(socket: Socket): void {
  const key = parserKey;
  if (key === undefined) return;
  Object.defineProperty(socket, key, {
    configurable: true,
    get: () => undefined,
    set(parser: ResponseParser | null) {
      // Set once per connection; from then on a plain property again, so the hot path pays nothing.
      Object.defineProperty(socket, key, {
        configurable: true,
        enumerable: true,
        writable: true,
        value: parser ? skipContinue(parser) : parser,
      });
    },
  });
}

function skippingConnector(connect: buildConnector.connector): buildConnector.connector {
  return (options, callback) =>
    connect(options, (err, socket) => {
      if (socket) watchParser(socket);
      (callback as (err: Error | null, socket: Socket | null) => void)(err, socket);
    });
}

/**
 * An undici Agent `factory` (Agent and ProxyAgent alike) whose connections skip an unsolicited 100 Continue as
 * they skip any other interim response. Otherwise it builds what undici's default factory builds.
 */
export function interimTolerantFactory(origin: string | URL, opts: object): Dispatcher {
  // Every agent websift builds hands its pools a connector function (its own, or ProxyAgent's tunnel).
  const options = opts as Pool.Options & { connections?: number | null; connect: buildConnector.connector };
  const connect = skippingConnector(options.connect);
  const { Client, Pool } = loadUndici();
  return options.connections === 1
    ? new Client(origin, { ...(options as Client.Options), connect })
    : new Pool(origin, { ...options, connect });
}

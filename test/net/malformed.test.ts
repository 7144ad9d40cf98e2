import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNet, type Net } from "../../src/net/client.js";
import { HOSTILE_HOST, HOSTILE_PATHS as P } from "../simweb/index.js";
import { expectFailure, get, useSimWeb, within } from "./harness.js";
import { CLOSE, ok, type RawServer, startRawServer } from "./raw-server.js";

const ctx = useSimWeb();

/** The call, then proof that the client still serves an ordinary request. */
async function call(url: string) {
  const r = await within(get(ctx.net, url, 5000), 15_000);
  const next = await within(get(ctx.net, "https://www.example.com/"), 15_000);
  expect(next.ok && next.status).toBe(200);
  return r;
}

describe.each(["http", "https"])("responses that break HTTP, over %s", (scheme) => {
  const url = (path: string) => `${scheme}://${HOSTILE_HOST}${path}`;

  it("a single 100 Continue before the response: the response is the answer", async () => {
    const r = await call(url(P.continueThenOk));
    expect(r.ok && r.status).toBe(200);
    expect(r.ok && r.text()).toBe("continued");
  });

  it("several interim responses (100, 102, 103) before the response", async () => {
    const r = await call(url(P.interimsThenOk));
    expect(r.ok && r.status).toBe(200);
    expect(r.ok && r.text()).toBe("final");
    expect(r.ok && r.headers.link).toBeUndefined();
  });

  it.each([
    ["bytes that are not HTTP", P.garbage, "headers"],
    ["an HTTP/0.9 answer (no status line)", P.http09, "headers"],
    ["a status line of another protocol", P.badVersion, "headers"],
    ["a chunk size that is not hexadecimal", P.bogusChunkSize, "body"],
    ["a negative Content-Length", P.negativeContentLength, "headers"],
    ["two different Content-Lengths", P.conflictingContentLength, "headers"],
    ["a Content-Length larger than the body", P.contentLengthOver, "body"],
  ])("%s: protocol, named as a malformed response", async (_name, path, phase) => {
    const r = expectFailure(await call(url(path)), "protocol");
    expect(r.status).toBe("error");
    expect(r.phase).toBe(phase);
    expect(r.message).toContain(HOSTILE_HOST);
  });
});

describe("stacked content codings", () => {
  it.each([1, 2, 3])("%i gzip layers are undone", async (n) => {
    const r = await call(`https://${HOSTILE_HOST}${P.gzipLayers(n)}`);
    expect(r.ok && r.text()).toContain("the innermost layer");
  });

  it.each([4, 2000])("%i layers are refused before the body is read", async (n) => {
    const r = expectFailure(await call(`https://${HOSTILE_HOST}${P.gzipLayers(n)}`), "too_large");
    expect(r.status).toBe("unsupported");
    expect(r.cap).toEqual({ name: "coding_layers", limit: 3 });
    expect(r.message).toContain(`${n} content codings`);
  });
});

describe("a battery of broken framings, written byte for byte", () => {
  const head = "HTTP/1.1 200 OK\r\ncontent-type: text/html\r\n";
  // [what is broken, the bytes, the phase it is caught in]; every one is protocol, none a crash or a hang.
  const broken: [string, string, string][] = [
    ["a status code under 100", "HTTP/1.1 99 Low\r\ncontent-length: 2\r\n\r\nhi", "headers"],
    ["a status code of four digits", "HTTP/1.1 1000 High\r\ncontent-length: 2\r\n\r\nhi", "headers"],
    ["an HTTP/2 status line over HTTP/1.1", "HTTP/2 200\r\ncontent-length: 2\r\n\r\nhi", "headers"],
    ["bare LF line ends", "HTTP/1.1 200 OK\ncontent-length: 2\n\nhi", "headers"],
    ["a space in a header name", `${head}bad header: x\r\ncontent-length: 2\r\n\r\nhi`, "headers"],
    ["a space before a header's colon", `${head}content-length : 2\r\n\r\nhi`, "headers"],
    ["a NUL in a header value", `${head}x-a: a\u0000b\r\ncontent-length: 2\r\n\r\nhi`, "headers"],
    ["an obsolete folded header line", `${head}x-a: a\r\n b\r\ncontent-length: 2\r\n\r\nhi`, "headers"],
    [
      "both Transfer-Encoding and Content-Length",
      `${head}transfer-encoding: chunked\r\ncontent-length: 5\r\n\r\n2\r\nhi\r\n0\r\n\r\n`,
      "headers",
    ],
    ["a signed Content-Length", `${head}content-length: +2\r\n\r\nhi`, "headers"],
    ["a hexadecimal Content-Length", `${head}content-length: 0x2\r\n\r\nhi`, "headers"],
    ["a Content-Length list", `${head}content-length: 2, 2\r\n\r\nhi`, "headers"],
    ["a negative chunk size", `${head}transfer-encoding: chunked\r\n\r\n-2\r\nhi\r\n0\r\n\r\n`, "body"],
    [
      "a chunk size over 64 bits",
      `${head}transfer-encoding: chunked\r\n\r\nffffffffffffffffff\r\nhi\r\n0\r\n\r\n`,
      "body",
    ],
    [
      "a gzip coding over bytes that are not gzip",
      `${head}content-encoding: gzip\r\ncontent-length: 2\r\n\r\nhi`,
      "body",
    ],
    [
      "a content coding nobody knows",
      `${head}content-encoding: x-unknown\r\ncontent-length: 2\r\n\r\nhi`,
      "body",
    ],
  ];
  // Answers that end early, the server closing the connection.
  const cut: [string, string, string][] = [
    ["no bytes at all", "", "headers"],
    ["a body shorter than its Content-Length", `${head}content-length: 10\r\n\r\nhi`, "body"],
    ["a chunked body without its last chunk", `${head}transfer-encoding: chunked\r\n\r\n2\r\nhi\r\n`, "body"],
  ];
  const answers = new Map<string, (string | typeof CLOSE)[]>();
  for (const [i, [, bytes]] of broken.entries()) answers.set(`/broken/${i}`, [bytes]);
  for (const [i, [, bytes]] of cut.entries()) answers.set(`/cut/${i}`, [bytes, CLOSE]);

  let raw: RawServer;
  let client: Net;
  beforeAll(async () => {
    raw = await startRawServer();
    raw.script = (_index, line) => answers.get(line.split(" ")[1]) ?? [ok("still serving")];
    client = createNet({
      env: {},
      resolve: async () => ["93.184.215.14"],
      connectTo: () => ({ host: "127.0.0.1", port: raw.port }),
    });
  });
  afterAll(async () => {
    await client.close();
    await raw.close();
  });

  it.each([
    ...broken.map(([name, , phase], i) => [name, `/broken/${i}`, phase]),
    ...cut.map(([name, , phase], i) => [name, `/cut/${i}`, phase]),
  ])("%s: protocol, and the client goes on serving", async (_name, path, phase) => {
    const r = expectFailure(
      await within(get(client, `http://broken.example.com${path}`), 15_000),
      "protocol",
    );
    expect(r.status).toBe("error");
    expect(r.phase).toBe(phase);
    expect(r.message).toContain("broken.example.com");
    const next = await within(get(client, "http://broken.example.com/ordinary"), 15_000);
    expect(next.ok && next.text()).toBe("still serving");
  });

  it.each([
    ["in one header", "content-encoding: gzip, gzip, gzip, gzip\r\n"],
    ["repeated as headers", "content-encoding: gzip\r\n".repeat(4)],
    ["with empty list items between", "content-encoding: gzip,,, gzip ,gzip,gzip\r\n"],
  ])("four stacked codings %s: too_large at the coding_layers cap", async (_name, codings) => {
    answers.set("/codings", [`${head}${codings}content-length: 2\r\n\r\nhi`]);
    const r = expectFailure(await get(client, "http://broken.example.com/codings"), "too_large");
    expect(r.cap).toEqual({ name: "coding_layers", limit: 3 });
  });
});

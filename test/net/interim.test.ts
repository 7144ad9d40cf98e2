import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Deadline } from "../../src/core/deadline.js";
import { createNet, type Net, type NetResult } from "../../src/net/client.js";
import { skipsContinue } from "../../src/net/interim-responses.js";
import { HOSTILE_HOST, HOSTILE_PATHS as P, type SimProxy, startProxy, TEST_CA } from "../simweb/index.js";
import { expectFailure, useSimWeb } from "./harness.js";
import { CLOSE, CONTINUE, chunked, ok, type RawServer, startRawServer } from "./raw-server.js";

// Interim (1xx) responses on real sockets: a raw server writes exactly the bytes of each case, on one keep-alive
// connection, so what is tested is where a response starts after an earlier one, not only a first answer.

const ORIGIN_HOST = "interim.example.com";
const PUBLIC = "93.184.215.14";

/**
 * undici frees a connection for the next request one event-loop turn after a response ends (it queues that with
 * setImmediate); a request made sooner opens a second connection. Waiting one turn puts the next request on the
 * same connection, which is the point of these cases.
 */
const connectionFree = () => new Promise<void>((resolve) => setImmediate(resolve));

function text(r: NetResult): string {
  expect(r.ok, r.ok ? "" : r.message).toBe(true);
  return r.ok ? r.text() : "";
}

it("the pinned undici's parser can be told to skip 100 Continue", () => {
  // Without this the fix is off and every case below would fail: a bump of undici must be checked here first.
  expect(skipsContinue).toBe(true);
});

describe.each([
  ["http", false],
  ["https", true],
])("interim responses on a keep-alive connection, over %s", (scheme, secure) => {
  let raw: RawServer;
  let client: Net;
  /** A client of its own per case, so each case starts on a new connection. */
  async function fresh() {
    await client?.close();
    client = createNet({
      env: {},
      resolve: async () => [PUBLIC],
      connectTo: () => ({ host: "127.0.0.1", port: raw.port }),
      ...(secure ? { ca: TEST_CA } : {}),
    });
  }
  beforeAll(async () => {
    raw = await startRawServer(secure);
  });
  afterAll(async () => {
    await client.close();
    await raw.close();
  });
  beforeEach(async () => {
    await fresh();
    raw.connections = 0;
    raw.requests.length = 0;
  });

  const url = (path: string) => `${scheme}://${ORIGIN_HOST}${path}`;
  const get = (path: string) => client.request(url(path), { deadline: Deadline.after(5000) });

  /** Three requests on one connection: an ordinary first answer, then `second`, then an ordinary third. */
  async function sequence(first: string[], second: string[]) {
    raw.script = (i) => (i === 0 ? first : i === 1 ? second : [ok("third")]);
    const a = await get("/first");
    await connectionFree();
    const b = await get("/second");
    await connectionFree();
    const c = await get("/third");
    return { a, b, c };
  }

  it.each([
    ["100 Continue", [CONTINUE, ok("after a continue")]],
    [
      "100 Continue with headers of its own",
      ["HTTP/1.1 100 Continue\r\nx-interim: yes\r\n\r\n", ok("after a continue")],
    ],
    [
      "100 Continue split across segments",
      ["HTTP/1.1 10", "0 Contin", "ue\r\n\r", "\n", ok("after a continue")],
    ],
    ["102 Processing", ["HTTP/1.1 102 Processing\r\n\r\n", ok("after a continue")]],
    [
      "103 Early Hints",
      ["HTTP/1.1 103 Early Hints\r\nlink: </a.css>; rel=preload\r\n\r\n", ok("after a continue")],
    ],
    [
      "100, 102, 103 and 100 again",
      [
        CONTINUE,
        "HTTP/1.1 102 Processing\r\n\r\n",
        "HTTP/1.1 103 Early Hints\r\nlink: </a.css>; rel=preload\r\n\r\n",
        CONTINUE,
        ok("after a continue"),
      ],
    ],
    ["100 then a chunked answer", [CONTINUE, chunked("after a continue")]],
    ["100 and the answer in one segment", [CONTINUE + ok("after a continue")]],
  ])(
    "%s after an earlier response: the final response is the answer, on the same connection",
    async (_name, second) => {
      const { a, b, c } = await sequence([ok("first")], second);
      expect(text(a)).toBe("first");
      expect(text(b)).toBe("after a continue");
      expect(b.ok && b.status).toBe(200);
      // The interim head's fields are not the answer's.
      expect(b.ok && b.headers["x-interim"]).toBeUndefined();
      expect(b.ok && b.headers.link).toBeUndefined();
      expect(text(c)).toBe("third");
      expect(raw.requests).toEqual(["GET /first HTTP/1.1", "GET /second HTTP/1.1", "GET /third HTTP/1.1"]);
      expect(raw.connections).toBe(1);
    },
  );

  it.each([
    ["a chunked body", [chunked("first, chunked")], "first, chunked"],
    ["a 304, which has no body by its status", ['HTTP/1.1 304 Not Modified\r\netag: "v1"\r\n\r\n'], ""],
    ["a 204 No Content", ["HTTP/1.1 204 No Content\r\n\r\n"], ""],
    ["an interim response itself", [CONTINUE, ok("first")], "first"],
  ] as const)(
    "a 100 Continue after %s: the framing before it decides where it starts",
    async (_name, first, body) => {
      const { a, b, c } = await sequence([...first], [CONTINUE, ok("after a continue")]);
      expect(text(a)).toBe(body);
      expect(text(b)).toBe("after a continue");
      expect(text(c)).toBe("third");
      expect(raw.connections).toBe(1);
    },
  );

  it("a body that looks like a 100 Continue head is body, not an interim response", async () => {
    const lookalike = `${CONTINUE}HTTP/1.1 200 OK\r\n\r\n`;
    const { a, b } = await sequence([ok(lookalike)], [ok("second")]);
    expect(text(a)).toBe(lookalike);
    expect(text(b)).toBe("second");
    expect(raw.connections).toBe(1);
  });

  it("a 100 Continue with no final response before the server closes: protocol, not a hang", async () => {
    raw.script = () => [CONTINUE, CLOSE];
    const r = expectFailure(await get("/never"), "protocol");
    expect(r.message).toContain(ORIGIN_HOST);
  });
});

describe("interim responses through a proxy", () => {
  const ctx = useSimWeb();
  let proxy: SimProxy;
  let raw: RawServer;
  beforeAll(async () => {
    proxy = await startProxy(ctx.sim);
    raw = await startRawServer(false);
  });
  afterAll(async () => {
    await proxy.close();
    await raw.close();
  });

  it("HTTPS_PROXY: a 100 Continue inside the tunnel is skipped", async () => {
    const client = createNet({ ...ctx.sim.netConfig, env: { HTTPS_PROXY: proxy.url } });
    try {
      for (const path of [P.continueThenOk, P.interimsThenOk, P.continueThenOk]) {
        const r = await client.request(`https://${HOSTILE_HOST}${path}`, { deadline: Deadline.after(5000) });
        expect(text(r)).toMatch(/^(continued|final)$/);
      }
    } finally {
      await client.close();
    }
    expect(proxy.log[0]).toBe(`CONNECT ${HOSTILE_HOST}:443`);
  });

  it("HTTP_PROXY: a 100 Continue the proxy passes on before the answer is skipped", async () => {
    // The raw server is the proxy here: a proxy forwards a 1xx it receives, so the client sees it as is.
    raw.script = (i) => [CONTINUE, ok(`answer ${i}`)];
    raw.requests.length = 0;
    const client = createNet({ env: { HTTP_PROXY: `http://127.0.0.1:${raw.port}` } });
    try {
      expect(text(await client.request(`http://${ORIGIN_HOST}/a`, { deadline: Deadline.after(5000) }))).toBe(
        "answer 0",
      );
      await connectionFree();
      expect(text(await client.request(`http://${ORIGIN_HOST}/b`, { deadline: Deadline.after(5000) }))).toBe(
        "answer 1",
      );
    } finally {
      await client.close();
    }
    expect(raw.requests).toEqual([
      `GET http://${ORIGIN_HOST}/a HTTP/1.1`,
      `GET http://${ORIGIN_HOST}/b HTTP/1.1`,
    ]);
  });
});

describe("interim responses from an operator-trusted origin", () => {
  let raw: RawServer;
  beforeAll(async () => {
    raw = await startRawServer(false);
  });
  afterAll(async () => {
    await raw.close();
  });

  it("a trusted endpoint on a private address that sends 100 Continue is read", async () => {
    raw.script = () => [CONTINUE, ok('{"ok":true}')];
    const origin = `http://127.0.0.1:${raw.port}`;
    const client = createNet({ env: {}, trustedOrigins: [origin] });
    try {
      const r = await client.request(`${origin}/v1/models`, {
        deadline: Deadline.after(5000),
        trusted: true,
      });
      expect(r.ok && r.json()).toEqual({ ok: true });
    } finally {
      await client.close();
    }
  });
});

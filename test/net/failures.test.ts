import net from "node:net";
import { describe, expect, it } from "vitest";
import { Deadline } from "../../src/core/deadline.js";
import { createNet, type Net } from "../../src/net/client.js";
import { classifyError, NET_CODES } from "../../src/net/failure.js";
import { HOSTILE_HOST, HOSTILE_PATHS as P } from "../simweb/index.js";
import { expectFailure, untilRequested, useSimWeb, within } from "./harness.js";

const ctx = useSimWeb();

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function failingResolver(code: string) {
  return async (hostname: string) => {
    throw Object.assign(new Error(`getaddrinfo ${code} ${hostname}\n    at GetAddrInfoReqWrap.onlookup`), {
      code,
    });
  };
}

const call = (client: Net, url: string, options: Partial<Parameters<Net["request"]>[1]> = {}) =>
  within(client.request(url, { deadline: Deadline.after(2000), ...options }), 15_000);

describe("rule 8: named failures, one per code", () => {
  const produced = new Set<string>();
  const expectCode = (r: Awaited<ReturnType<Net["request"]>>, code: string) => {
    const f = expectFailure(r, code);
    produced.add(code);
    expect(f.status).toBeTruthy();
    expect(f.url).toBeTypeOf("string");
    return f;
  };

  it("blocked_url", async () => {
    const f = expectCode(await call(ctx.net, "http://169.254.169.254/latest/meta-data/"), "blocked_url");
    expect(f.status).toBe("denied");
  });

  it("dns", async () => {
    const c = createNet({ ...ctx.sim.netConfig, env: {}, resolve: failingResolver("ENOTFOUND") });
    const f = expectCode(await call(c, "https://nx.example.com/"), "dns");
    expect(f.phase).toBe("dns");
    await c.close();
  });

  it("offline", async () => {
    for (const code of ["EAI_AGAIN", "ENETUNREACH"]) {
      const c = createNet({ ...ctx.sim.netConfig, env: {}, resolve: failingResolver(code) });
      const f = expectCode(await call(c, "https://www.example.com/"), "offline");
      expect(f.status).toBe("offline");
      await c.close();
    }
  });

  it("connect", async () => {
    const port = await closedPort();
    const c = createNet({
      ...ctx.sim.netConfig,
      env: {},
      connectTo: (t) =>
        t.hostname === "refused.example.com" ? { host: "127.0.0.1", port } : ctx.sim.netConfig.connectTo(t),
    });
    const f = expectCode(await call(c, "https://refused.example.com/"), "connect");
    expect(f.message).toMatch(/refused/);
    await c.close();
  });

  it("tls", async () => {
    expectCode(await call(ctx.net, "https://www.not-in-the-certificate.io/"), "tls");
  });

  it("timeout, with its phase", async () => {
    const f = expectCode(
      await call(ctx.net, `https://${HOSTILE_HOST}${P.silentAfterRequest}`, {
        deadline: Deadline.after(1500),
      }),
      "timeout",
    );
    expect(f.phase).toBe("headers");
    expect(f.status).toBe("timeout");
  });

  it("too_large", async () => {
    expectCode(await call(ctx.net, `https://${HOSTILE_HOST}${P.contentLengthHuge}`), "too_large");
  });

  it("too_many_redirects", async () => {
    expectCode(await call(ctx.net, `https://${HOSTILE_HOST}${P.redirectChain(9)}`), "too_many_redirects");
  });

  it("redirect_refused (when the caller limits where a redirect may go)", async () => {
    const f = expectCode(
      await call(ctx.net, `https://${HOSTILE_HOST}${P.redirectChain(2)}`, { redirectAllowed: () => false }),
      "redirect_refused",
    );
    expect(f.status).toBe("error");
  });

  it("http_status (when the caller asks for it), rate_limited for a 429", async () => {
    const f = expectCode(
      await call(ctx.net, `https://${HOSTILE_HOST}${P.tooManyRequests}`, { failOnHttpError: true }),
      "http_status",
    );
    expect(f).toMatchObject({ httpStatus: 429, retryAfter: 120, status: "rate_limited" });
    ctx.sim.route("www.example.com", "/gone", { status: 410, body: "gone" });
    const g = expectFailure(
      await call(ctx.net, "https://www.example.com/gone", { failOnHttpError: true }),
      "http_status",
    );
    expect(g).toMatchObject({ httpStatus: 410, status: "error" });
    const ok = await call(ctx.net, "https://www.example.com/gone");
    expect(ok.ok && ok.status).toBe(410);
  });

  it("protocol", async () => {
    expectCode(await call(ctx.net, `http://${HOSTILE_HOST}${P.resetMidBody}`), "protocol");
  });

  it("cancelled", async () => {
    const d = Deadline.after(5000);
    const asked = call(ctx.net, `https://${HOSTILE_HOST}${P.silentAfterRequest}`, { deadline: d });
    // Cancelled while the server holds the request, as a closed MCP call or HTTP client would.
    await untilRequested(ctx.sim, P.silentAfterRequest);
    d.abort();
    expectCode(await asked, "cancelled");
  });

  it("covers every code in the vocabulary", () => {
    expect([...produced].sort()).toEqual([...NET_CODES].sort());
  });
});

describe("rule 8: no exception escapes, no stack reaches the caller", () => {
  it.each([
    [
      "a header value with a newline",
      "https://www.example.com/",
      { headers: { "x-a": "b\r\nx-injected: 1" } },
    ],
    ["an invalid header name", "https://www.example.com/", { headers: { "bad header": "x" } }],
    ["a non-string URL", 42 as unknown as string, {}],
    ["an unknown method", "https://www.example.com/", { method: "BREW" as never }],
    [
      "a body of the wrong type",
      "https://www.example.com/echo",
      { method: "POST" as const, body: 12 as never },
    ],
    ["no options at all", "https://www.example.com/", undefined],
    ["no deadline", "https://www.example.com/", { deadline: undefined as never }],
  ])("%s", async (_what, url, options) => {
    const withDeadline = options === undefined ? undefined : { deadline: Deadline.after(2000), ...options };
    const r = await within(ctx.net.request(url, withDeadline as never), 15_000);
    if (!r.ok) {
      expect(r.message).toMatch(/^[^\n]+$/);
      expect(r.message).not.toMatch(/\bat .*\.(ts|js):\d+/);
    }
    expect((await call(ctx.net, "https://www.example.com/")).ok).toBe(true);
  });

  it("keeps messages one line even when the cause has many", () => {
    const f = classifyError(
      new Error("first line\n    at foo (/x/y.js:1:2)\n    at bar"),
      "https://a.example.com/x?key=SECRET",
      "connect",
    );
    expect(f.message).toMatch(/^[^\n]+$/);
    expect(f.message).not.toContain("SECRET");
  });

  it("never puts a query string (a key, a user's words) in a blocked_url message", async () => {
    const f = expectFailure(
      await call(ctx.net, "http://127.0.0.1/search?api_key=SECRET&q=private+words"),
      "blocked_url",
    );
    expect(f.message).not.toContain("SECRET");
  });
});

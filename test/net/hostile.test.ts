import { describe, expect, it } from "vitest";
import { Deadline } from "../../src/core/deadline.js";
import { BLACKHOLE_HOST, HOSTILE_HOST, HOSTILE_PATHS as P, SILENT_HOST } from "../simweb/index.js";
import { expectFailure, get, untilRequested, useSimWeb, within } from "./harness.js";

const ctx = useSimWeb();
const DEADLINE = 2500;
const OUTER = 10_000;

async function hostileCall(url: string, options: Parameters<typeof get>[3] = {}, ms = DEADLINE) {
  const r = await within(get(ctx.net, url, ms, options), ms + OUTER);
  // The process stays healthy and the next ordinary request succeeds.
  const next = await within(get(ctx.net, "https://www.example.com/"), 15_000);
  expect(next.ok && next.status).toBe(200);
  const plain = await within(get(ctx.net, `http://${HOSTILE_HOST}/`), 15_000);
  expect(plain.ok && plain.status).toBe(200);
  return r;
}

describe.each(["http", "https"])("hostile servers over %s", (scheme) => {
  const url = (path: string, host = HOSTILE_HOST) => `${scheme}://${host}${path}`;

  it("black-hole connect: timeout in phase connect", async () => {
    const r = expectFailure(await hostileCall(url("/", BLACKHOLE_HOST)), "timeout");
    expect(r.phase).toBe("connect");
  });

  it("silent after accept: timeout", async () => {
    const r = expectFailure(await hostileCall(url("/", SILENT_HOST)), "timeout");
    // Over TLS the handshake never ends, so we are still connecting; over http we wait for headers.
    expect(r.phase).toBe(scheme === "https" ? "connect" : "headers");
  });

  it("silent after the request: timeout in phase headers", async () => {
    const r = expectFailure(await hostileCall(url(P.silentAfterRequest)), "timeout");
    expect(r.phase).toBe("headers");
  });

  it("slowloris headers: timeout in phase headers", async () => {
    const r = expectFailure(await hostileCall(url(P.slowlorisHeaders)), "timeout");
    expect(r.phase).toBe("headers");
  });

  it("slow body trickle: timeout in phase body", async () => {
    const r = expectFailure(await hostileCall(url(P.slowBody)), "timeout");
    expect(r.phase).toBe("body");
  });

  it("infinite chunked body: too_large at the wire cap", async () => {
    const r = expectFailure(await hostileCall(url(P.infiniteChunked), { maxBytes: 256 * 1024 }), "too_large");
    expect(r.phase).toBe("body");
  });

  it("infinite chunked body with the default cap", async () => {
    expectFailure(await within(get(ctx.net, url(P.infiniteChunked), 10_000), 15_000), "too_large");
  }, 60_000);

  it("gzip bomb: too_large after decompression", async () => {
    // A roomy deadline: inflating to the 10 MB cap goes through zlib's thread pool, slow on a loaded machine.
    expectFailure(await hostileCall(url(P.gzipBomb), {}, 10_000), "too_large");
  }, 60_000);

  it("brotli bomb: too_large after decompression", async () => {
    expectFailure(await hostileCall(url(P.brotliBomb), {}, 10_000), "too_large");
  }, 60_000);

  it("Content-Length larger than the body: protocol", async () => {
    expectFailure(await hostileCall(url(P.contentLengthOver)), "protocol");
  });

  it("Content-Length smaller than the body: the declared bytes only", async () => {
    const r = await hostileCall(url(P.contentLengthUnder));
    expect(r.ok && r.text()).toBe("0123456789");
  });

  it("Content-Length over the cap: too_large before reading", async () => {
    expectFailure(await hostileCall(url(P.contentLengthHuge)), "too_large");
  });

  it("huge headers: too_large", async () => {
    expectFailure(await hostileCall(url(P.hugeHeaders)), "too_large");
  });

  it("redirect loop: too_many_redirects", async () => {
    expectFailure(await hostileCall(url(P.redirectLoop)), "too_many_redirects");
  });

  it("redirect chain longer than the cap: too_many_redirects", async () => {
    expectFailure(await hostileCall(url(P.redirectChain(10))), "too_many_redirects");
  });

  it("redirect to 127.0.0.1: blocked_url", async () => {
    expectFailure(await hostileCall(url(P.redirectToLoopback)), "blocked_url");
  });

  it("redirect to file://: blocked_url", async () => {
    expectFailure(await hostileCall(url(P.redirectToFile)), "blocked_url");
  });

  it("redirect to a name resolving to a private address: blocked_url", async () => {
    expectFailure(await hostileCall(url(P.redirectToPrivate)), "blocked_url");
  });

  it("redirect to a name with mixed public and private answers: blocked_url", async () => {
    expectFailure(await hostileCall(url(P.redirectToMixed)), "blocked_url");
  });

  it("DNS answers mixing public and private: blocked_url, nothing dialled", async () => {
    expectFailure(await hostileCall(url("/", "mixed.example.com")), "blocked_url");
    expect(ctx.sim.dials.some((d) => d.hostname === "mixed.example.com")).toBe(false);
  });

  it("reset mid-body: protocol", async () => {
    expectFailure(await hostileCall(url(P.resetMidBody)), "protocol");
  });

  it("binary served as text/html: the bytes, decodable without a throw", async () => {
    const r = await hostileCall(url(P.binaryAsHtml));
    expect(r.ok && r.bytes.length).toBe(4096);
    expect(r.ok && typeof r.text()).toBe("string");
  });

  it("invalid charset label: decoded anyway", async () => {
    const r = await hostileCall(url(P.invalidCharset));
    expect(r.ok && r.text()).toContain("café déjà vu");
  });

  it("429 with Retry-After: the status and the wait are visible", async () => {
    const r = await hostileCall(url(P.tooManyRequests));
    expect(r.ok && r.status).toBe(429);
    expect(r.ok && r.retryAfter).toBe(120);
  });

  it("429 as a failure when asked: http_status with retryAfter", async () => {
    const r = expectFailure(
      await hostileCall(url(P.tooManyRequests), { failOnHttpError: true }),
      "http_status",
    );
    expect(r.httpStatus).toBe(429);
    expect(r.retryAfter).toBe(120);
  });

  it.each([
    [P.ddgChallenge202, 202],
    [P.ddgChallenge200, 200],
  ])("DuckDuckGo's challenge page %s: served as is with its status", async (path, status) => {
    const r = await hostileCall(url(path));
    expect(r.ok && r.status).toBe(status);
    expect(r.ok && r.text()).toContain("anomaly");
  });
});

describe("a deadline bounds everything", () => {
  it("a zero deadline ends at once: no name looked up, no connection dialled", async () => {
    const r = await ctx.net.request("https://www.example.com/", { deadline: Deadline.after(0) });
    expectFailure(r, "timeout");
    expect([ctx.sim.lookups, ctx.sim.dials, ctx.sim.requests]).toEqual([[], [], []]);
  });
  it("a cancelled call is named cancelled", async () => {
    const d = Deadline.after(5000);
    const p = ctx.net.request(`http://${HOSTILE_HOST}${P.silentAfterRequest}`, { deadline: d });
    await untilRequested(ctx.sim, P.silentAfterRequest);
    d.abort();
    expectFailure(await within(p, 15_000), "cancelled");
  });
});

import { describe, expect, it } from "vitest";
import { HOSTILE_HOST, HOSTILE_PATHS as P } from "../simweb/index.js";
import { expectFailure, get, useSimWeb, within } from "./harness.js";

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

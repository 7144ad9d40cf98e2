import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { Deadline } from "../../src/core/deadline.js";
import { createNet } from "../../src/net/client.js";
import { HOSTILE_HOST, HOSTILE_PATHS as P } from "../simweb/index.js";
import { expectFailure, get, useSimWeb, within } from "./harness.js";

const ctx = useSimWeb();
const page = (n: number) => Buffer.alloc(n, "a");

describe("rule 4: one deadline over connect, headers and body", () => {
  it.each([
    ["connect", "http://blackhole.example.com/"],
    ["headers", `http://${HOSTILE_HOST}${P.slowlorisHeaders}`],
    ["body", `https://${HOSTILE_HOST}${P.slowBody}`],
  ])("names the phase it struck in: %s", async (phase, url) => {
    const deadline = Deadline.after(2000);
    const r = expectFailure(await within(ctx.net.request(url, { deadline }), 15_000), "timeout");
    expect(r.phase).toBe(phase);
    expect(r.message).toMatch(/timeout/);
    // The caller's deadline ended it, not an early give-up of net's own: its time had come.
    expect(deadline.cancelled()).toBe(false);
    expect(deadline.expired()).toBe(true);
  });

  it("a trickle cannot hold the call: the same deadline covers every byte", async () => {
    // 1 byte / 100 ms for 100000 bytes would take hours; the deadline ends it.
    expectFailure(await within(get(ctx.net, `http://${HOSTILE_HOST}${P.slowBody}`, 600), 15_000), "timeout");
  });

  it("a deadline also spans redirect hops", async () => {
    ctx.sim.setLatency(250);
    const r = expectFailure(
      await within(get(ctx.net, `https://${HOSTILE_HOST}${P.redirectChain(3)}`, 600), 15_000),
      "timeout",
    );
    expect(["headers", "connect", "dns"]).toContain(r.phase);
  });
});

describe("rule 4: bytes off the wire are capped", () => {
  it("3 MB by default", async () => {
    ctx.sim.route("big.example.com", "/at-cap", { body: page(3 * 1024 * 1024) });
    ctx.sim.route("big.example.com", "/over-cap", { body: page(3 * 1024 * 1024 + 1) });
    const ok = await get(ctx.net, "https://big.example.com/at-cap");
    expect(ok.ok && ok.bytes.length).toBe(3 * 1024 * 1024);
    expectFailure(await get(ctx.net, "https://big.example.com/over-cap"), "too_large");
  });

  it("per call and per client, also when the length is not announced", async () => {
    ctx.sim.route("big.example.com", "/chunked", (_req, raw) => {
      raw.res.writeHead(200, { "content-type": "text/plain" });
      for (let i = 0; i < 10; i++) raw.res.write(page(1000));
      raw.res.end();
    });
    expectFailure(
      await get(ctx.net, "https://big.example.com/chunked", 5000, { maxBytes: 9999 }),
      "too_large",
    );
    const r = await get(ctx.net, "https://big.example.com/chunked", 5000, { maxBytes: 10_000 });
    expect(r.ok && r.bytes.length).toBe(10_000);
    const small = createNet({ ...ctx.sim.netConfig, env: {}, maxBytes: 5000 });
    expectFailure(await get(small, "https://big.example.com/chunked"), "too_large");
    await small.close();
  });

  it("refuses an announced Content-Length over the cap before reading it", async () => {
    const r = expectFailure(await get(ctx.net, `http://${HOSTILE_HOST}${P.contentLengthHuge}`), "too_large");
    expect(r.message).toMatch(/announced/);
  });

  it("a HEAD announcing a large entity has no body to refuse", async () => {
    // Its Content-Length describes the entity a GET would get; no byte of it comes on the wire.
    ctx.sim.route("big.example.com", "/movie.mp4", (_req, raw) => {
      raw.res.writeHead(200, { "content-type": "video/mp4", "content-length": String(50 * 1024 * 1024) });
      raw.res.end();
    });
    const head = await get(ctx.net, "https://big.example.com/movie.mp4", 5000, { method: "HEAD" });
    expect(head.ok && head.status).toBe(200);
    expect(head.ok && head.headers["content-type"]).toBe("video/mp4");
  });
});

describe("rule 4: bytes after decompression are capped", () => {
  const html = Buffer.from(`<html><body>${"<p>hello</p>".repeat(1000)}</body></html>`);

  it.each([
    ["gzip", zlib.gzipSync(html)],
    ["deflate", zlib.deflateSync(html)],
    ["br", zlib.brotliCompressSync(html)],
    ["x-gzip", zlib.gzipSync(html)],
  ])("decodes %s", async (encoding, body) => {
    ctx.sim.route("enc.example.com", `/${encoding}`, { headers: { "content-encoding": encoding }, body });
    const r = await get(ctx.net, `https://enc.example.com/${encoding}`);
    expect(r.ok && r.bytes.equals(html)).toBe(true);
  });

  it("decodes stacked codings in reverse order", async () => {
    ctx.sim.route("enc.example.com", "/stacked", {
      headers: { "content-encoding": "deflate, gzip" },
      body: zlib.gzipSync(zlib.deflateSync(html)),
    });
    const r = await get(ctx.net, "https://enc.example.com/stacked");
    expect(r.ok && r.text()).toBe(html.toString());
  });

  it.each([
    ["gzip", P.gzipBomb],
    ["br", P.brotliBomb],
  ])("a %s bomb ends with too_large, not out of memory", async (_name, path) => {
    const before = process.memoryUsage().rss;
    const r = expectFailure(await get(ctx.net, `https://${HOSTILE_HOST}${path}`, 10_000), "too_large");
    expect(r.message).toMatch(/decompresses/);
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
  });

  it("the decoded cap is configurable per call", async () => {
    ctx.sim.route("enc.example.com", "/page", {
      headers: { "content-encoding": "gzip" },
      body: zlib.gzipSync(html),
    });
    expectFailure(
      await get(ctx.net, "https://enc.example.com/page", 5000, { maxDecodedBytes: html.length - 1 }),
      "too_large",
    );
    expect(
      (await get(ctx.net, "https://enc.example.com/page", 5000, { maxDecodedBytes: html.length })).ok,
    ).toBe(true);
  });

  it("reads deflate sent raw (no zlib wrapper), as browsers do, and caps a raw deflate bomb", async () => {
    ctx.sim.route("enc.example.com", "/raw-deflate", {
      headers: { "content-encoding": "deflate" },
      body: zlib.deflateRawSync(html),
    });
    const r = await get(ctx.net, "https://enc.example.com/raw-deflate");
    expect(r.ok && r.text()).toBe(html.toString());
    ctx.sim.route("enc.example.com", "/raw-deflate-bomb", {
      headers: { "content-encoding": "deflate" },
      body: zlib.deflateRawSync(Buffer.alloc(16 * 1024 * 1024)),
    });
    const bomb = expectFailure(
      await get(ctx.net, "https://enc.example.com/raw-deflate-bomb", 10_000, {
        maxDecodedBytes: 1024 * 1024,
      }),
      "too_large",
    );
    expect(bomb.message).toMatch(/decompresses/);
  });

  it("a decoded cap of Infinity means no decoded cap, not a failure", async () => {
    ctx.sim.route("enc.example.com", "/page", {
      headers: { "content-encoding": "br" },
      body: zlib.brotliCompressSync(html),
    });
    const r = await get(ctx.net, "https://enc.example.com/page", 5000, {
      maxDecodedBytes: Number.POSITIVE_INFINITY,
    });
    expect(r.ok && r.text()).toBe(html.toString());
  });

  it("names an unknown or corrupt coding", async () => {
    ctx.sim.route("enc.example.com", "/zstd-ish", { headers: { "content-encoding": "snappy" }, body: "xx" });
    expectFailure(await get(ctx.net, "https://enc.example.com/zstd-ish"), "protocol");
    ctx.sim.route("enc.example.com", "/corrupt", {
      headers: { "content-encoding": "gzip" },
      body: "not gzip at all",
    });
    expectFailure(await get(ctx.net, "https://enc.example.com/corrupt"), "protocol");
  });
});

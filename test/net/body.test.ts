import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { Deadline } from "../../src/core/deadline.js";
import { codingsOf, decodeBody } from "../../src/net/body.js";
import { NetError } from "../../src/net/failure.js";

const text = Buffer.from("<p>hello</p>".repeat(100));

describe("content codings", () => {
  it("are undone in the reverse of the order listed; identity is no coding", () => {
    expect(codingsOf("deflate, GZIP")).toEqual(["gzip", "deflate"]);
    expect(codingsOf("identity")).toEqual([]);
    expect(codingsOf(undefined)).toEqual([]);
  });

  it("decode stacked codings", async () => {
    const wire = zlib.gzipSync(zlib.deflateSync(text));
    const bytes = await decodeBody(wire, codingsOf("deflate, gzip"), 1e6, "h", Deadline.after(5000));
    expect(bytes.equals(text)).toBe(true);
  });

  it("stop at the decoded cap with too_large", async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(1024 * 1024));
    const err = await decodeBody(bomb, ["gzip"], 64 * 1024, "h", Deadline.after(5000)).catch((e) => e);
    expect(err).toBeInstanceOf(NetError);
    expect(err.code).toBe("too_large");
    expect(err.message).toMatch(/decompresses past 65536/);
  });

  it("take any decoded cap: none (Infinity) decodes, a cap of 0 refuses a non-empty body", async () => {
    // zlib accepts maxOutputLength only from 1 to the largest Buffer: out of that range every coded body failed.
    const wire = zlib.gzipSync(text);
    for (const cap of [Number.POSITIVE_INFINITY, 2 ** 53])
      expect((await decodeBody(wire, ["gzip"], cap, "h", Deadline.after(5000))).equals(text)).toBe(true);
    const err = await decodeBody(wire, ["gzip"], 0, "h", Deadline.after(5000)).catch((e) => e);
    expect(err).toBeInstanceOf(NetError);
    expect(err.code).toBe("too_large");
  });

  it("name an unknown coding as a protocol failure", async () => {
    const err = await decodeBody(text, ["snappy"], 1e6, "h", Deadline.after(5000)).catch((e) => e);
    expect(err).toBeInstanceOf(NetError);
    expect(err.code).toBe("protocol");
  });

  it("end with the deadline, not with zlib", async () => {
    const deadline = Deadline.after(5000);
    const reason = new Error("stop");
    deadline.abort(reason);
    const err = await decodeBody(zlib.gzipSync(text), ["gzip"], 1e6, "h", deadline).catch((e) => e);
    expect(err).toBe(reason);
  });
});

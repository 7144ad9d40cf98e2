import { describe, expect, it } from "vitest";
import { BLOCK_BYTES, BodyBuffer, bodyMemory, ENTRY_OVERHEAD_BYTES } from "../../src/net/body-buffer.js";
import { HOSTILE_HOST, HOSTILE_PATHS as P } from "../simweb/index.js";
import { expectFailure, get, useSimWeb, within } from "./harness.js";

const ctx = useSimWeb();
const MiB = 1024 * 1024;

/** A chunked body written raw, in the chunk sizes given (Node's own framing would add a write per chunk). */
function chunkedBody(sizes: number[]): Buffer {
  const parts: Buffer[] = [];
  let byte = 0;
  for (const n of sizes) {
    const data = Buffer.alloc(n);
    for (let i = 0; i < n; i++) data[i] = 97 + (byte++ % 26);
    parts.push(Buffer.from(`${n.toString(16)}\r\n`), data, Buffer.from("\r\n"));
  }
  parts.push(Buffer.from("0\r\n\r\n"));
  return Buffer.concat(parts);
}
const payloadOf = (sizes: number[]) => {
  const total = sizes.reduce((a, b) => a + b, 0);
  return Buffer.from(Array.from({ length: total }, (_, i) => 97 + (i % 26)));
};

function serveChunked(path: string, sizes: number[]) {
  const raw = chunkedBody(sizes);
  ctx.sim.route("chunks.example.com", path, (_req, { res }) => {
    const socket = res.socket;
    if (!socket) return;
    socket.write("HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ntransfer-encoding: chunked\r\n\r\n");
    socket.end(raw);
  });
}

describe("body caps count what is held", () => {
  it.each(["http", "https"])(
    "an endless stream of 1-byte chunks (%s) trips the wire cap holding about the cap",
    async (scheme) => {
      const held = bodyMemory.held;
      bodyMemory.resetPeak();
      const r = expectFailure(
        await within(get(ctx.net, `${scheme}://${HOSTILE_HOST}${P.oneByteChunks}`, 60_000), 90_000),
        "too_large",
      );
      expect(r.cap).toEqual({ name: "wire_bytes", limit: 3 * MiB });
      expect(r.phase).toBe("body");
      // 3 MiB of payload came as 3 million chunks: kept one Buffer each, they counted ~300 MB here (1.4 GB of heap).
      expect(bodyMemory.peak - held).toBeGreaterThan(3 * MiB - BLOCK_BYTES);
      expect(bodyMemory.peak - held).toBeLessThan(3 * MiB + 2 * BLOCK_BYTES);
      expect(bodyMemory.held).toBe(held);
      // The process lives on: the next ordinary request is answered.
      const next = await get(ctx.net, "https://www.example.com/");
      expect(next.ok && next.status).toBe(200);
    },
    120_000,
  );

  it("a smaller cap holds about that cap", async () => {
    const held = bodyMemory.held;
    bodyMemory.resetPeak();
    const r = expectFailure(
      await get(ctx.net, `http://${HOSTILE_HOST}${P.oneByteChunks}`, 30_000, { maxBytes: 200_000 }),
      "too_large",
    );
    expect(r.cap).toEqual({ name: "wire_bytes", limit: 200_000 });
    expect(bodyMemory.peak - held).toBeLessThan(200_000 + 2 * BLOCK_BYTES);
    expect(bodyMemory.held).toBe(held);
  });

  it("a body of tiny chunks that ends under the cap comes back whole and in order", async () => {
    const sizes = [
      ...Array(50_000).fill(1),
      70_000,
      3,
      5000,
      ...Array(1000).fill(7),
      BLOCK_BYTES,
      1,
      BLOCK_BYTES - 1,
      2,
    ];
    serveChunked("/mixed", sizes);
    const held = bodyMemory.held;
    bodyMemory.resetPeak();
    const r = await get(ctx.net, "https://chunks.example.com/mixed", 30_000);
    expect(r.ok, r.ok ? "" : r.message).toBe(true);
    expect(r.ok && r.bytes.equals(payloadOf(sizes))).toBe(true);
    const payload = payloadOf(sizes).length;
    expect(bodyMemory.peak - held).toBeLessThan(payload + 2 * BLOCK_BYTES);
    expect(bodyMemory.held).toBe(held);
  });

  it("the announced-length cap and the decoded cap are named too", async () => {
    const announced = expectFailure(
      await get(ctx.net, `http://${HOSTILE_HOST}${P.contentLengthHuge}`),
      "too_large",
    );
    expect(announced.cap).toEqual({ name: "announced_bytes", limit: 3 * MiB });
    const bomb = expectFailure(
      await get(ctx.net, `https://${HOSTILE_HOST}${P.gzipBomb}`, 20_000),
      "too_large",
    );
    expect(bomb.cap).toEqual({ name: "decoded_bytes", limit: 10 * MiB });
    const headers = expectFailure(await get(ctx.net, `http://${HOSTILE_HOST}${P.hugeHeaders}`), "too_large");
    expect(headers.cap?.name).toBe("header_bytes");
  }, 60_000);
});

describe("BodyBuffer", () => {
  it("keeps a body of one chunk as it came, without a copy", () => {
    const b = new BodyBuffer();
    const chunk = Buffer.from("hello");
    b.push(chunk);
    expect(b.take()).toBe(chunk);
  });

  it.each([
    ["ones", Array(100_000).fill(1)],
    ["growing", Array.from({ length: 300 }, (_, i) => i * 37)],
    ["large then small", [200_000, 1, 1, 65_535, 65_537, 2]],
    ["empty chunks", [0, 5, 0, 0, 9]],
  ])("%s: the bytes in order, one entry per block at most", (_name, sizes) => {
    const b = new BodyBuffer();
    const held = bodyMemory.held;
    bodyMemory.resetPeak();
    const expected = payloadOf(sizes);
    let at = 0;
    for (const n of sizes) {
      b.push(expected.subarray(at, at + n));
      at += n;
    }
    const entries = Math.ceil(expected.length / BLOCK_BYTES) + 8;
    expect(bodyMemory.peak - held).toBeLessThan(
      expected.length + 2 * BLOCK_BYTES + entries * ENTRY_OVERHEAD_BYTES,
    );
    expect(b.take().equals(expected)).toBe(true);
    expect(bodyMemory.held).toBe(held);
  });
});

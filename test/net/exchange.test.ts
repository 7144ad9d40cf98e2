import { describe, expect, it } from "vitest";
import { Deadline } from "../../src/core/deadline.js";
import { expectFailure, get, useSimWeb, within } from "./harness.js";

const ctx = useSimWeb();

// How one hop's response is taken off the wire (src/net/exchange.ts): heads, bodies the caller does not keep,
// and codings undone once the wire bytes are in.
describe("one exchange on the wire", () => {
  it("an informational 103 head is passed over for the real one", async () => {
    ctx.sim.route("ex.example.com", "/hints", (_req, raw) => {
      raw.res.writeEarlyHints({ link: "</style.css>; rel=preload; as=style" });
      raw.res.writeHead(200, { "content-type": "text/plain" });
      raw.res.end("after the hints");
    });
    const r = await get(ctx.net, "https://ex.example.com/hints");
    expect(r.ok && r.status).toBe(200);
    expect(r.ok && r.text()).toBe("after the hints");
  });

  it("response headers: names lower-cased, a repeated header joined into one string", async () => {
    ctx.sim.route("ex.example.com", "/cookies", (_req, raw) => {
      raw.res.setHeader("Set-Cookie", ["a=1", "b=2"]);
      raw.res.setHeader("X-Mixed-Case", "yes");
      raw.res.end("ok");
    });
    const r = await get(ctx.net, "https://ex.example.com/cookies");
    expect(r.ok && r.headers["set-cookie"]).toBe("a=1, b=2");
    expect(r.ok && r.headers["x-mixed-case"]).toBe("yes");
  });

  it("a redirect whose body never ends is still followed, on time", async () => {
    ctx.sim.route("ex.example.com", "/endless-redirect", (_req, raw) => {
      raw.res.writeHead(302, { location: "/landed", "content-type": "text/html" });
      const timer = setInterval(() => raw.res.write("x".repeat(1024)), 5);
      raw.res.on("close", () => clearInterval(timer));
    });
    ctx.sim.route("ex.example.com", "/landed", { body: "landed" });
    const r = await within(get(ctx.net, "https://ex.example.com/endless-redirect", 3000), 10_000);
    expect(r.ok && r.text()).toBe("landed");
    expect(r.ok && r.redirects).toEqual(["https://ex.example.com/landed"]);
  });

  it("a redirect whose body keeps coming is let go once the call has moved on", async () => {
    let written = 0;
    let onClosed = () => {};
    const closed = new Promise<void>((resolve) => {
      onClosed = resolve;
    });
    ctx.sim.route("ex.example.com", "/streaming-redirect", (_req, raw) => {
      raw.res.writeHead(302, { location: "/landed", "content-type": "text/html" });
      const timer = setInterval(() => {
        raw.res.write("x".repeat(4096));
        written += 4096;
      }, 20);
      raw.res.on("close", () => {
        clearInterval(timer);
        onClosed();
      });
    });
    ctx.sim.route("ex.example.com", "/landed", { body: "landed" });
    const deadline = Deadline.after(20_000);
    const r = await ctx.net.request("https://ex.example.com/streaming-redirect", { deadline });
    expect(r.ok && r.text()).toBe("landed");
    // Not held to the 3 MB wire cap or the 20 s deadline: the connection is dropped (long before the body
    // could reach the cap) and the deadline let go.
    await closed;
    expect(written).toBeLessThan(1024 * 1024);
    expect((deadline as unknown as { listeners?: Set<unknown> }).listeners?.size ?? 0).toBe(0);
  });

  it("a redirect's body over the wire cap does not stop the redirect", async () => {
    ctx.sim.route("ex.example.com", "/fat-redirect", (_req, raw) => {
      raw.res.writeHead(301, { location: "/landed" });
      raw.res.end(Buffer.alloc(64 * 1024, "r"));
    });
    ctx.sim.route("ex.example.com", "/landed", { body: "landed" });
    const r = await get(ctx.net, "https://ex.example.com/fat-redirect", 5000, { maxBytes: 1024 });
    expect(r.ok && r.text()).toBe("landed");
  });

  it("an empty body with a content coding is an empty body", async () => {
    ctx.sim.route("ex.example.com", "/empty-gzip", (_req, raw) => {
      raw.res.writeHead(200, { "content-encoding": "gzip", "content-length": "0" });
      raw.res.end();
    });
    const r = await get(ctx.net, "https://ex.example.com/empty-gzip");
    expect(r.ok && r.bytes.length).toBe(0);
  });

  it("a body in many chunks arrives whole and in order", async () => {
    ctx.sim.route("ex.example.com", "/chunks", (_req, raw) => {
      raw.res.writeHead(200, { "content-type": "text/plain" });
      let i = 0;
      const timer = setInterval(() => {
        raw.res.write(`${i},`);
        if (++i === 50) {
          clearInterval(timer);
          raw.res.end();
        }
      }, 1);
    });
    const r = await get(ctx.net, "https://ex.example.com/chunks");
    expect(r.ok && r.text()).toBe(Array.from({ length: 50 }, (_, i) => `${i},`).join(""));
  });

  it("the wire cap holds for a body announced within it but sent beyond it, chunk by chunk", async () => {
    ctx.sim.route("ex.example.com", "/creeping", (_req, raw) => {
      raw.res.writeHead(200, { "content-type": "text/plain" });
      for (let i = 0; i < 8; i++) raw.res.write(Buffer.alloc(512, "c"));
      raw.res.end();
    });
    const r = expectFailure(
      await get(ctx.net, "https://ex.example.com/creeping", 5000, { maxBytes: 2048 }),
      "too_large",
    );
    expect(r.phase).toBe("body");
  });
});

import { describe, expect, it } from "vitest";
import { Deadline } from "../../src/core/deadline.js";
import { createNet } from "../../src/net/client.js";
import { HOSTILE_HOST, HOSTILE_PATHS as P } from "../simweb/index.js";
import { expectFailure, get, useSimWeb } from "./harness.js";

const ctx = useSimWeb();
const chain = (n: number) => `https://${HOSTILE_HOST}${P.redirectChain(n)}`;

describe("rule 3: redirects, followed by hand", () => {
  it("follows up to 3 by default and reports each hop", async () => {
    const r = await get(ctx.net, chain(3));
    expect(r.ok && r.status).toBe(200);
    expect(r.ok && r.redirects).toEqual([chain(2), chain(1), chain(0)]);
    expect(r.ok && r.finalUrl).toBe(chain(0));
    expect(r.ok && r.url).toBe(chain(3));
  });

  it("refuses the 4th by default", async () => {
    expectFailure(await get(ctx.net, chain(4)), "too_many_redirects");
    expect(ctx.sim.requests).toHaveLength(4);
  });

  it("takes the cap from the config and from the call", async () => {
    const five = createNet({ ...ctx.sim.netConfig, env: {}, maxRedirects: 5 });
    expect((await get(five, chain(5))).ok).toBe(true);
    expectFailure(await get(five, chain(6)), "too_many_redirects");
    await five.close();
    expect((await get(ctx.net, chain(6), 5000, { maxRedirects: 6 })).ok).toBe(true);
    expectFailure(await get(ctx.net, chain(1), 5000, { maxRedirects: 0 }), "too_many_redirects");
  });

  it("returns the 3xx itself when told not to follow", async () => {
    const r = await get(ctx.net, chain(2), 5000, { followRedirects: false });
    expect(r.ok && r.status).toBe(302);
    expect(r.ok && r.headers.location).toBe(P.redirectChain(1));
  });

  it("ends a loop with a named error", async () => {
    const r = expectFailure(
      await get(ctx.net, `http://${HOSTILE_HOST}${P.redirectLoop}`),
      "too_many_redirects",
    );
    expect(r.message).toMatch(/loop/);
  });

  it("asks the caller's redirectAllowed for every target and refuses what it refuses, without following", async () => {
    ctx.sim.route("a.example.com", "/start", { status: 302, headers: { location: "/next" } });
    ctx.sim.route("a.example.com", "/next", {
      status: 301,
      headers: { location: "https://b.example.net/x?k=v" },
    });
    ctx.sim.route("b.example.net", "/x", { body: "elsewhere" });
    const asked: string[] = [];
    const onA = (url: URL) => {
      asked.push(url.href);
      return url.hostname === "a.example.com";
    };
    const r = expectFailure(
      await get(ctx.net, "https://a.example.com/start", 5000, { redirectAllowed: onA }),
      "redirect_refused",
    );
    expect(r.message).toBe(
      "redirect from a.example.com to b.example.net refused: not a host this request may reach",
    );
    expect(asked).toEqual(["https://a.example.com/next", "https://b.example.net/x?k=v"]);
    expect(ctx.sim.requests.map((q) => q.host)).toEqual(["a.example.com", "a.example.com"]);
    const thrown = await get(ctx.net, "https://a.example.com/start", 5000, {
      redirectAllowed: () => {
        throw new Error("predicate bug");
      },
    });
    expectFailure(thrown, "redirect_refused");
    const allowed = await get(ctx.net, "https://a.example.com/start", 5000, { redirectAllowed: () => true });
    expect(allowed.ok && allowed.finalUrl).toBe("https://b.example.net/x?k=v");
  });

  it("re-checks every hop with rules 1 and 2", async () => {
    for (const [path, why] of [
      [P.redirectToLoopback, /127\.0\.0\.1|loopback/],
      [P.redirectToFile, /file/],
      [P.redirectToPrivate, /private\.example\.com/],
      [P.redirectToMixed, /mixed\.example\.com/],
    ] as const) {
      const r = expectFailure(await get(ctx.net, `https://${HOSTILE_HOST}${path}`), "blocked_url");
      expect(r.message).toMatch(why);
    }
    expect(ctx.sim.lookups).toContain("private.example.com");
    expect(ctx.sim.dials.map((d) => d.hostname)).not.toContain("private.example.com");
  });

  it("refuses a redirect to an internal name, a credentialed URL or a bad port", async () => {
    for (const location of [
      "http://metadata.google.internal/computeMetadata/v1/",
      "http://user:pw@www.example.com/",
      "http://www.example.com:25/",
      "http://[::1]/",
      "http://0x7f.1/",
    ]) {
      ctx.sim.route("r.example.com", "/", { status: 301, headers: { location } });
      expectFailure(await get(ctx.net, "https://r.example.com/"), "blocked_url");
    }
  });

  it("follows relative and cross-host redirects, dropping credentials at the origin's edge", async () => {
    ctx.sim.route("a.example.com", "/start", { status: 302, headers: { location: "/next" } });
    ctx.sim.route("a.example.com", "/next", {
      status: 307,
      headers: { location: "https://www.example.com/echo" },
    });
    const r = await get(ctx.net, "https://a.example.com/start", 5000, {
      headers: { Authorization: "Bearer secret", "X-Api-Key": "k", "X-Other": "kept" },
    });
    expect(r.ok && r.status).toBe(200);
    const seen = r.ok ? (r.json() as { headers: Record<string, string> }).headers : {};
    expect(seen.authorization).toBeUndefined();
    expect(seen["x-api-key"]).toBeUndefined();
    expect(seen["x-other"]).toBe("kept");
    expect(ctx.sim.requests[1].headers.authorization).toBe("Bearer secret");
  });

  it("turns a POST into a GET on 303 and keeps it on 307", async () => {
    ctx.sim.route("p.example.com", "/303", {
      status: 303,
      headers: { location: "https://www.example.com/echo" },
    });
    ctx.sim.route("p.example.com", "/307", {
      status: 307,
      headers: { location: "https://www.example.com/echo" },
    });
    const post = (path: string) =>
      ctx.net.request(`https://p.example.com${path}`, {
        deadline: Deadline.after(5000),
        method: "POST",
        body: "a=1",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
    const r303 = await post("/303");
    expect(r303.ok && (r303.json() as { method: string }).method).toBe("GET");
    const r307 = await post("/307");
    expect(r307.ok && r307.json()).toMatchObject({ method: "POST", body: "a=1" });
  });

  it("names a Location that is not a URL", async () => {
    ctx.sim.route("bad.example.com", "/", { status: 302, headers: { location: "http://[::zz]/" } });
    expectFailure(await get(ctx.net, "https://bad.example.com/"), "protocol");
  });
});

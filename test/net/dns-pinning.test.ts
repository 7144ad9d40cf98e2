import { describe, expect, it } from "vitest";
import { Deadline } from "../../src/core/deadline.js";
import { createNet } from "../../src/net/client.js";
import type { Resolve } from "../../src/net/url-policy.js";
import { PUBLIC_ADDRESS } from "../simweb/index.js";
import { expectFailure, useSimWeb } from "./harness.js";

const ctx = useSimWeb();

/** A resolver that answers `answers[0]` first, then `answers[1]`, …: the shape of a DNS rebinding attack. */
function rebinding(answers: string[][]) {
  const calls: string[] = [];
  const resolve: Resolve = async (hostname) => {
    calls.push(hostname);
    return answers[Math.min(calls.length - 1, answers.length - 1)];
  };
  return { resolve, calls };
}

describe("rule 2: DNS at connect time", () => {
  it("resolves once per request and dials the vetted address, never a second resolution", async () => {
    const dns = rebinding([["93.184.216.77"], ["127.0.0.1"]]);
    const net = createNet({ ...ctx.sim.netConfig, resolve: dns.resolve, env: {}, dnsCacheMs: 0 });
    try {
      const r = await net.request("https://rebind.example.com/", { deadline: Deadline.after(5000) });
      expect(r.ok && r.status).toBe(404);
      expect(dns.calls).toEqual(["rebind.example.com"]);
      expect(ctx.sim.dials).toEqual([
        { hostname: "rebind.example.com", address: "93.184.216.77", port: 443, protocol: "https:" },
      ]);
      // The second answer is private: the next request is refused whole, and nothing new is dialled.
      const again = await net.request("https://rebind.example.com/", { deadline: Deadline.after(5000) });
      expectFailure(again, "blocked_url");
      expect(dns.calls).toHaveLength(2);
      expect(ctx.sim.dials).toHaveLength(1);
    } finally {
      await net.close();
    }
  });

  it("a new connection after a rebinding answer still goes to an address that passed the policy", async () => {
    const dns = rebinding([["93.184.216.78"], ["93.184.216.79", "10.0.0.1"]]);
    const net = createNet({ ...ctx.sim.netConfig, resolve: dns.resolve, env: {}, dnsCacheMs: 0 });
    try {
      expect((await net.request("http://rebind2.example.com/", { deadline: Deadline.after(5000) })).ok).toBe(
        true,
      );
      expectFailure(
        await net.request("http://rebind2.example.com/", { deadline: Deadline.after(5000) }),
        "blocked_url",
      );
      expect(ctx.sim.dials.map((d) => d.address)).toEqual(["93.184.216.78"]);
    } finally {
      await net.close();
    }
  });

  it("refuses a mixed answer whole, whichever comes first", async () => {
    for (const answer of [
      [PUBLIC_ADDRESS, "10.0.0.7"],
      ["127.0.0.1", PUBLIC_ADDRESS],
      [PUBLIC_ADDRESS, "::1"],
      ["2606:2800:220:1:248:1893:25c8:1946", "fd00::1"],
    ]) {
      ctx.sim.resolveAs("mixed-test.example.com", answer);
      const net = createNet({ ...ctx.sim.netConfig, env: {} });
      const r = await net.request("https://mixed-test.example.com/", { deadline: Deadline.after(3000) });
      expectFailure(r, "blocked_url");
      await net.close();
    }
    expect(ctx.sim.dials).toEqual([]);
  });

  it("reuses a vetted answer within dnsCacheMs, and asks again after", async () => {
    const dns = rebinding([["93.184.216.80"], ["93.184.216.81"]]);
    const net = createNet({ ...ctx.sim.netConfig, resolve: dns.resolve, env: {}, dnsCacheMs: 60_000 });
    try {
      for (let i = 0; i < 3; i++)
        expect((await net.request("http://cached.example.com/", { deadline: Deadline.after(5000) })).ok).toBe(
          true,
        );
      expect(dns.calls).toHaveLength(1);
    } finally {
      await net.close();
    }
  });

  it("names a name that does not resolve, and a resolver that hangs past the deadline", async () => {
    const nx = createNet({
      ...ctx.sim.netConfig,
      env: {},
      resolve: async () => {
        throw Object.assign(new Error("getaddrinfo ENOTFOUND nx.example.com"), { code: "ENOTFOUND" });
      },
    });
    expectFailure(await nx.request("https://nx.example.com/", { deadline: Deadline.after(2000) }), "dns");
    await nx.close();
    const hang = createNet({ ...ctx.sim.netConfig, env: {}, resolve: () => new Promise(() => {}) });
    const r = expectFailure(
      await hang.request("https://hang.example.com/", { deadline: Deadline.after(300) }),
      "timeout",
    );
    expect(r.phase).toBe("dns");
    await hang.close();
  });

  it("refuses to dial a name nobody vetted (the connector fails closed)", async () => {
    const { pinnedConnector, VettedAddresses } = await import("../../src/net/connector.js");
    const connect = pinnedConnector(new VettedAddresses(), { connectTo: ctx.sim.netConfig.connectTo });
    const err = await new Promise<Error | null>((resolve) =>
      connect(
        {
          hostname: "unvetted.example.com",
          host: "unvetted.example.com",
          protocol: "https:",
          port: "443",
        } as never,
        ((e: Error | null) => resolve(e)) as never,
      ),
    );
    expect(err?.message).toMatch(/no vetted address/);
    expect(ctx.sim.dials).toEqual([]);
  });
});

describe("dialling the vetted addresses", () => {
  it("tries IPv4 first, and the next vetted address when one is unusable", async () => {
    const { createServer } = await import("node:net");
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const closed = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const dials: string[] = [];
    const net = createNet({
      ...ctx.sim.netConfig,
      env: {},
      resolve: async () => ["2606:4700::1111", "93.184.216.90", "93.184.216.91"],
      connectTo: (t) => {
        dials.push(t.address);
        // The first IPv4 address refuses; the second one is the simulated web.
        return t.address === "93.184.216.90"
          ? { host: "127.0.0.1", port: closed }
          : ctx.sim.netConfig.connectTo(t);
      },
    });
    try {
      const r = await net.request("http://dual.example.com/", { deadline: Deadline.after(5000) });
      expect(r.ok && r.status).toBe(404);
      expect(dials).toEqual(["93.184.216.90", "93.184.216.91"]);
    } finally {
      await net.close();
    }
  });
});

import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Deadline } from "../../src/core/deadline.js";
import { createNet } from "../../src/net/client.js";
import { type SimProxy, startProxy, TEST_CA_PATH } from "../simweb/index.js";
import { expectFailure, useSimWeb } from "./harness.js";

const ctx = useSimWeb();
const child = fileURLToPath(new URL("./extra-ca-child.ts", import.meta.url));
let proxy: SimProxy;
beforeAll(async () => {
  proxy = await startProxy(ctx.sim);
});
afterAll(() => proxy.close());

async function runChild(env: NodeJS.ProcessEnv, ...args: string[]) {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", child, String(ctx.sim.ports.https), ...args],
    { env: { PATH: process.env.PATH, ...env }, timeout: 20_000 },
  );
  return JSON.parse(stdout) as { ok: boolean; status?: number; code?: string };
}

describe("rule 7: NODE_EXTRA_CA_CERTS (a TLS-intercepting proxy must be usable)", () => {
  it("a child process started with it trusts the test CA", async () => {
    expect(await runChild({ NODE_EXTRA_CA_CERTS: TEST_CA_PATH })).toEqual({ ok: true, status: 200 });
  });

  it("through a proxy too", async () => {
    expect(await runChild({ NODE_EXTRA_CA_CERTS: TEST_CA_PATH }, proxy.url)).toEqual({
      ok: true,
      status: 200,
    });
  });

  it("without it, the same request fails with tls", async () => {
    expect(await runChild({})).toEqual({ ok: false, code: "tls" });
  });
});

describe("the ca option", () => {
  it("adds to the public roots instead of replacing them", async () => {
    const { trustedCAs } = await import("../../src/net/trust.js");
    const tls = await import("node:tls");
    const list = trustedCAs(ctx.sim.netConfig.ca, undefined) ?? [];
    expect(list.length).toBe(tls.rootCertificates.length + 1);
    expect(trustedCAs(undefined, undefined)).toBeUndefined();
  });

  it("without it, the simulated web's certificate is refused with tls", async () => {
    const net = createNet({
      resolve: ctx.sim.netConfig.resolve,
      connectTo: ctx.sim.netConfig.connectTo,
      env: {},
    });
    expectFailure(await net.request("https://www.example.com/", { deadline: Deadline.after(3000) }), "tls");
    await net.close();
  });

  it("a certificate for another name is refused with tls", async () => {
    expectFailure(
      await ctx.net.request("https://www.not-in-the-certificate.io/", { deadline: Deadline.after(3000) }),
      "tls",
    );
  });
});

import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import { Deadline } from "../../src/core/deadline.js";
import { createNet, type Net, type NetConfig, type NetResult } from "../../src/net/client.js";
import { type SimWeb, startSimWeb } from "../simweb/index.js";

/** One simulated web and one client per test file; routes, logs and overrides are reset before each test. */
export function useSimWeb(extra: NetConfig = {}) {
  const ctx = {} as { sim: SimWeb; net: Net };
  beforeAll(async () => {
    ctx.sim = await startSimWeb();
    ctx.net = createNet({ ...ctx.sim.netConfig, env: {}, ...extra });
  });
  afterAll(async () => {
    await ctx.net?.close();
    await ctx.sim?.close();
  });
  beforeEach(() => ctx.sim.reset());
  return ctx;
}

export function get(net: Net, url: string, ms = 5000, options: Partial<Parameters<Net["request"]>[1]> = {}) {
  return net.request(url, { deadline: Deadline.after(ms), ...options });
}

/** A failure as the caller sees it: a value, one line, no stack. */
export function expectFailure(r: NetResult, code: string) {
  expect(r.ok, r.ok ? `expected ${code}, got HTTP ${r.status}` : r.message).toBe(false);
  if (r.ok) return r as never;
  expect(r.code, r.message).toBe(code);
  expect(r.message).toMatch(/^[^\n]+$/);
  expect(r.message).not.toMatch(/\n\s+at /);
  expect(r.message.length).toBeLessThan(300);
  return r;
}

/** Lets the event loop run until the simulated web has received a request for `path`. */
export async function untilRequested(sim: SimWeb, path: string): Promise<void> {
  while (!sim.requests.some((r) => r.path === path)) await new Promise((resolve) => setImmediate(resolve));
}

/** Resolves with the promise, or rejects when `ms` pass first: "the call ended at all". */
export function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`did not end within ${ms} ms`)), ms);
    }),
  ]);
}

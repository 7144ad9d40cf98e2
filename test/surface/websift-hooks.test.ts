import { describe, expect, expectTypeOf, it } from "vitest";
import {
  hookWebsift,
  LIBRARY_METHODS,
  type WebsiftHooks,
  type WebsiftMethod,
} from "../../src/surface/websift-hooks.js";
import type { Websift } from "../../src/websift.js";

/** A library whose every method records its call and answers with what it was called with. */
function recordingWebsift() {
  const calls: { method: string; args: unknown[]; self: unknown }[] = [];
  const net = { close: async () => {} };
  const websift = {
    net,
    store: { kind: "memory" },
    providers: [],
    failing: false,
  } as unknown as Websift & { failing: boolean };
  for (const method of LIBRARY_METHODS) {
    Object.defineProperty(websift, method, {
      value: async function (this: unknown, ...args: unknown[]) {
        calls.push({ method, args, self: this });
        if ((websift as { failing: boolean }).failing) throw new Error(`${method} broke`);
        return { status: "ok", method, args };
      },
    });
  }
  return { websift, calls };
}

describe("hookWebsift", () => {
  it("wraps every method of the library, each call going through the hooks once", async () => {
    const { websift, calls } = recordingWebsift();
    const seen: string[] = [];
    const hooked = hookWebsift(websift, {
      every: { start: (m) => seen.push(`start ${m}`), settled: (m) => seen.push(`settled ${m}`) },
    });
    for (const method of LIBRARY_METHODS) {
      const call = hooked[method] as (...args: unknown[]) => Promise<unknown>;
      expect(await call("subject", { n: 1 })).toEqual({ status: "ok", method, args: ["subject", { n: 1 }] });
    }
    expect(calls.map((c) => c.method)).toEqual([...LIBRARY_METHODS]);
    expect(seen).toEqual(LIBRARY_METHODS.flatMap((m) => [`start ${m}`, `settled ${m}`]));
    // The library's own method runs on the library, as a method call.
    expect(calls.every((c) => c.self === websift)).toBe(true);
  });

  it("lists the library's methods, and only them", () => {
    const members = ["search", "read", "fetchBest", "answer", "research", "close"] as const;
    expect([...LIBRARY_METHODS].sort()).toEqual([...members].sort());
    expectTypeOf<WebsiftMethod>().toEqualTypeOf<(typeof members)[number]>();
    // A hook for a value member (not a method) is refused by the types.
    // @ts-expect-error net is not a method
    const wrong: WebsiftHooks = { net: {} };
    expect(wrong).toBeDefined();
  });

  it("reads the library's other members through", () => {
    const { websift } = recordingWebsift();
    const hooked = hookWebsift(websift, {});
    expect(hooked.net).toBe(websift.net);
    expect(hooked.store).toBe(websift.store);
    expect(hooked.providers).toBe(websift.providers);
  });

  it("calls with the arguments a before hook gives, and hands the caller what the after hook makes of the result", async () => {
    const { websift, calls } = recordingWebsift();
    const hooked = hookWebsift(websift, {
      search: {
        before: ([query, options]) => ({ args: [query.toUpperCase(), { ...options, limit: 3 }] }),
        after: (result, args) => ({ ...result, query: `${args[0]} (after)` }),
      },
    });
    const result = await hooked.search("cats", { region: "de-de" });
    expect(calls).toEqual([
      { method: "search", args: ["CATS", { region: "de-de", limit: 3 }], self: websift },
    ]);
    expect(result.query).toBe("CATS (after)");
    // Other methods are untouched by search's hooks.
    await hooked.read("https://example.com/");
    expect(calls[1].args).toEqual(["https://example.com/"]);
  });

  it("answers in the call's place when a before hook says so: the library is not called and every-call hooks do not run", async () => {
    const { websift, calls } = recordingWebsift();
    const seen: string[] = [];
    const hooked = hookWebsift(websift, {
      close: { before: () => ({ answer: undefined }) },
      every: { start: (m) => seen.push(m), settled: (m) => seen.push(m) },
    });
    await hooked.close();
    expect(calls).toEqual([]);
    expect(seen).toEqual([]);
  });

  it("runs settled when the call throws, skips after, and passes the error on", async () => {
    const { websift } = recordingWebsift();
    (websift as { failing: boolean }).failing = true;
    const order: string[] = [];
    const hooked = hookWebsift(websift, {
      answer: {
        after: (result) => {
          order.push("after");
          return result;
        },
      },
      every: { start: () => order.push("start"), settled: () => order.push("settled") },
    });
    await expect(hooked.answer("why")).rejects.toThrow("answer broke");
    expect(order).toEqual(["start", "settled"]);
  });

  it("runs before hooks at the moment of the call, not a tick later", () => {
    const { websift } = recordingWebsift();
    const lines: string[] = [];
    const hooked = hookWebsift(websift, {
      read: {
        before: ([url]) => {
          lines.push(url);
          return undefined;
        },
      },
    });
    void hooked.read("https://example.com/a");
    expect(lines).toEqual(["https://example.com/a"]);
  });

  it("wraps the part of the library a surface holds, and adds no method it does not have", async () => {
    const { websift, calls } = recordingWebsift();
    const part: Pick<Websift, "search" | "answer"> = {
      search: (q, o) => websift.search(q, o),
      answer: (q, o) => websift.answer(q, o),
    };
    const seen: string[] = [];
    const hooked = hookWebsift(part, { every: { start: (m) => seen.push(m) } });
    await hooked.search("q");
    await hooked.answer("q");
    expect(seen).toEqual(["search", "answer"]);
    expect(calls.map((c) => c.method)).toEqual(["search", "answer"]);
    expect("read" in hooked).toBe(false);
  });
});

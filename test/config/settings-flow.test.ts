import { afterEach, describe, expect, it, vi } from "vitest";
import { settingsFromEnv } from "../../src/config/load.js";
import type { Provider, ProviderContext } from "../../src/search/provider.js";
import { createWebsift } from "../../src/websift.js";

/** An engine that answers from what its context holds, touching no network. */
function probe(seen: ProviderContext[]): Provider {
  return {
    name: "probe",
    kind: "keyed",
    paid: false,
    auto: { rank: 1 },
    keyEnv: ["PROBE_API_KEY"],
    native: {},
    timeoutMs: 1000,
    async search(_query, ctx) {
      seen.push(ctx);
      return { status: "ok", hits: [{ title: "t", url: "https://probe.example/", snippet: "" }] };
    },
  };
}

afterEach(() => vi.restoreAllMocks());

describe("settings passed down from one load", () => {
  it("hands a provider its declared key in config.keys, from the env createWebsift was given", async () => {
    const seen: ProviderContext[] = [];
    const websift = createWebsift({ env: { PROBE_API_KEY: "test-SECRET-probe" }, providers: [probe(seen)] });
    const found = await websift.search("q", { cache: false });
    expect(found.status).toBe("ok");
    expect(seen[0].config.keys.PROBE_API_KEY).toBe("test-SECRET-probe");
    await websift.close();
  });

  it("finds a custom provider's declared key in settings loaded without knowing it", async () => {
    const seen: ProviderContext[] = [];
    // Loaded as the CLI and serve load them: the built-in providers' keys only.
    const resolved = settingsFromEnv({ PROBE_API_KEY: "test-SECRET-probe" });
    expect(resolved.keys.PROBE_API_KEY).toBeUndefined();
    const websift = createWebsift({ resolved, providers: [probe(seen)] });
    expect((await websift.search("q", { cache: false })).status).toBe("ok");
    expect(seen[0].config.keys.PROBE_API_KEY).toBe("test-SECRET-probe");
    await websift.close();
  });

  it("takes resolved settings as they are and reads no env beside them", async () => {
    const seen: ProviderContext[] = [];
    const websift = createWebsift({
      resolved: settingsFromEnv({ WEBSIFT_ENABLED: "0" }),
      env: { WEBSIFT_ENABLED: "1", PROBE_API_KEY: "test-SECRET-probe" },
      providers: [probe(seen)],
    });
    expect((await websift.search("q", { cache: false })).status).toBe("disabled");
    expect(seen).toHaveLength(0);
    await websift.close();
  });

  it("applies the environment's defaults to calls that do not say, the caller's own options winning", async () => {
    const seen: ProviderContext[] = [];
    const queries: number[] = [];
    const engine = probe(seen);
    const counting: Provider = {
      ...engine,
      search: (query, ctx, deadline) => {
        queries.push(query.limit);
        return engine.search(query, ctx, deadline);
      },
    };
    const env = { WEBSIFT_MAX_RESULTS: "3", PROBE_API_KEY: "test-SECRET-probe" };
    const fromEnv = createWebsift({ env, providers: [counting] });
    await fromEnv.search("q", { cache: false });
    const own = createWebsift({ env, providers: [counting], defaults: { limit: 7 } });
    await own.search("q", { cache: false });
    expect(queries).toEqual([3, 7]);
    await fromEnv.close();
    await own.close();
  });

  it("still answers a custom provider's ctx.env, warning once that it is deprecated", async () => {
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => {});
    const seen: ProviderContext[] = [];
    const websift = createWebsift({ env: { PROBE_API_KEY: "test-SECRET-probe" }, providers: [probe(seen)] });
    await websift.search("q", { cache: false });
    await websift.search("q2", { cache: false });
    expect(seen).toHaveLength(2);
    expect(warn).not.toHaveBeenCalled();
    expect(seen[0].env?.PROBE_API_KEY).toBe("test-SECRET-probe");
    expect(seen[1].env?.PROBE_API_KEY).toBe("test-SECRET-probe");
    const calls = warn.mock.calls.filter((c) => String(c[0]).includes("ProviderContext.env"));
    expect(calls).toHaveLength(1);
    await websift.close();
  });
});

import { afterAll, describe, expect, it } from "vitest";
import { settingsFromEnv } from "../../../src/config/load.js";
import { createNet } from "../../../src/net/client.js";
import { type AutoStage, autoStages, type ChainConfig, searchChain } from "../../../src/search/chain.js";
import type { Provider, ProviderOutcome } from "../../../src/search/provider.js";
import { PROVIDERS } from "../../../src/search/registry.js";
import { MemoryStore } from "../../../src/store/store.js";

const ALL_KEYS = {
  PERPLEXITY_API_KEY: "test-SECRET-perplexity",
  EXA_API_KEY: "test-SECRET-exa",
  TAVILY_API_KEY: "test-SECRET-tavily",
  BRAVE_API_KEY: "test-SECRET-brave",
  GEMINI_API_KEY: "test-SECRET-gemini",
  SEARXNG_URL: "https://searx.example/",
};

/** A stage as a line: `name`, or `group[lead; spread…]`. */
function shape(stages: AutoStage[]): string[] {
  return stages.map((s) =>
    s.kind === "one"
      ? s.provider.name
      : `${s.group}[${s.first?.name ?? "-"}; ${s.spread.map((p) => p.name).join(", ")}]`,
  );
}

/** An engine that exists only in this file; it answers `hits` results without touching the network. */
function engine(name: string, extra: Partial<Provider>, hits = 5): Provider {
  return {
    name,
    kind: "keyless",
    paid: false,
    native: {},
    timeoutMs: 1000,
    configured: () => true,
    async search(query): Promise<ProviderOutcome> {
      if (hits === 0) return { status: "empty" };
      return {
        status: "ok",
        hits: Array.from({ length: Math.min(hits, query.limit) }, (_, i) => ({
          title: `${name} ${i}`,
          url: `https://${name}.example/${i}`,
          snippet: "",
        })),
      };
    },
    ...extra,
  };
}

const net = createNet();
afterAll(() => net.close());

function chain(providers: readonly Provider[], env: Record<string, string | undefined>): ChainConfig {
  return {
    providers,
    ctx: { net, config: settingsOf(env), store: new MemoryStore(), log: () => {}, settings: {} },
  };
}

/** Settings from an environment, the key of the engine defined in this file included. */
const settingsOf = (env: Record<string, string | undefined>) => settingsFromEnv(env, ["ACME_SEARCH_KEY"]);

describe("auto: each engine declares its place", () => {
  it("keeps the built-in order: paid (once unfrozen), searxng, the keyless group, wikipedia", () => {
    expect(shape(autoStages(PROVIDERS, settingsOf({ ...ALL_KEYS, WEBSIFT_ENABLE_PAID: "1" })))).toEqual([
      "perplexity",
      "exa",
      "tavily",
      "brave",
      "searxng",
      "keyless[duckduckgo; bing, mojeek, startpage, brave-web]",
      "wikipedia",
    ]);
    expect(shape(autoStages(PROVIDERS, settingsOf(ALL_KEYS)))).toEqual([
      "searxng",
      "keyless[duckduckgo; bing, mojeek, startpage, brave-web]",
      "wikipedia",
    ]);
    expect(shape(autoStages(PROVIDERS, settingsOf({})))).toEqual([
      "keyless[duckduckgo; bing, mojeek, startpage, brave-web]",
      "wikipedia",
    ]);
  });

  it("moves a whole group by any of its names in the operator's order, and leaves out excluded engines", () => {
    expect(shape(autoStages(PROVIDERS, settingsOf(ALL_KEYS), ["mojeek"], ["wikipedia", "bing"]))).toEqual([
      "wikipedia",
      "keyless[duckduckgo; bing, startpage, brave-web]",
      "searxng",
    ]);
  });

  it("places an engine defined here where it declares, alone or inside a group", () => {
    const alone = engine("lone", { auto: { rank: 55 } });
    const grouped = engine("spare", { auto: { rank: 63.5, group: "keyless" } });
    expect(
      shape(autoStages([...PROVIDERS, alone, grouped], settingsOf({ SEARXNG_URL: ALL_KEYS.SEARXNG_URL }))),
    ).toEqual([
      "searxng",
      "lone",
      "keyless[duckduckgo; bing, mojeek, startpage, spare, brave-web]",
      "wikipedia",
    ]);
    // Without a place it is never asked by `auto`.
    expect(shape(autoStages([engine("unplaced", {})], settingsOf({})))).toEqual([]);
  });

  it("asks a group's others only when its lead is thin, as the lead declares", async () => {
    const lead = (hits: number) =>
      engine("lead", { auto: { rank: 1, group: "g", lead: { thinBelow: 3 } } }, hits);
    const others = [
      engine("second", { auto: { rank: 2, group: "g" } }),
      engine("third", { auto: { rank: 3, group: "g" } }),
    ];
    const enough = await searchChain("q", { limit: 5, cache: false }, chain([lead(3), ...others], {}));
    expect(enough.provider).toBe("lead");
    expect(enough.attempted.map((a) => a.provider)).toEqual(["lead"]);
    const thin = await searchChain("q", { limit: 5, cache: false }, chain([lead(2), ...others], {}));
    expect(thin.attempted.map((a) => a.provider)).toEqual(["lead", "second", "third"]);
    expect(thin.provider).toBe("lead+second+third");
  });

  it("freezes a paid engine defined here until paid use is unfrozen, and names its own key when it lacks one", async () => {
    const keyed = engine("acme", {
      kind: "keyed",
      paid: true,
      auto: { rank: 15 },
      keyEnv: ["ACME_SEARCH_KEY"],
      configured: undefined,
    });
    const providers = [...PROVIDERS, keyed];
    const key = { ACME_SEARCH_KEY: "test-SECRET-acme" };
    expect(shape(autoStages(providers, settingsOf(key)))[0]).toBe(
      "keyless[duckduckgo; bing, mojeek, startpage, brave-web]",
    );
    expect(
      shape(autoStages(providers, settingsOf({ ...ALL_KEYS, ...key, WEBSIFT_ENABLE_PAID: "1" }))).slice(0, 3),
    ).toEqual(["perplexity", "acme", "exa"]);
    const pinned = await searchChain("q", { provider: "acme", cache: false }, chain(providers, {}));
    expect(pinned).toMatchObject({ status: "error", code: "not_configured" });
    expect(pinned.error).toBe("acme is not configured: set ACME_SEARCH_KEY");
    const answered = await searchChain("q", { provider: "acme", cache: false }, chain(providers, key));
    expect(answered).toMatchObject({ status: "ok", provider: "acme" });
  });

  it("names every built-in keyed provider's own variable when it is pinned without it", async () => {
    const errors = await Promise.all(
      ["brave", "tavily", "exa", "perplexity", "gemini", "searxng"].map(
        async (provider) => (await searchChain("q", { provider, cache: false }, chain(PROVIDERS, {}))).error,
      ),
    );
    expect(errors).toEqual([
      "brave is not configured: set BRAVE_API_KEY",
      "tavily is not configured: set TAVILY_API_KEY",
      "exa is not configured: set EXA_API_KEY",
      "perplexity is not configured: set PERPLEXITY_API_KEY",
      "gemini is not configured: set GEMINI_API_KEY or GOOGLE_API_KEY",
      "searxng is not configured: set SEARXNG_URL",
    ]);
  });
});

import { describe, expect, it } from "vitest";
import { settingsFromEnv } from "../../../src/config/load.js";
import type { Deadline } from "../../../src/core/deadline.js";
import type { Net } from "../../../src/net/client.js";
import { searchChain } from "../../../src/search/chain.js";
import type { Provider, ProviderContext } from "../../../src/search/provider.js";
import { MemoryStore } from "../../../src/store/store.js";

const noNet: Net = {
  request: async () => {
    throw new Error("no request expected");
  },
  close: async () => {},
};

/** A provider answering at once with one relevant hit, keeping the deadline it was given. */
function answering(): Provider & { seen: Deadline[] } {
  const seen: Deadline[] = [];
  return {
    name: "duckduckgo",
    kind: "keyless",
    paid: false,
    auto: { rank: 60, group: "keyless", lead: { thinBelow: 3 } },
    native: {},
    cooldowns: "self",
    timeoutMs: 5000,
    configured: () => true,
    seen,
    async search(query, _ctx, deadline) {
      seen.push(deadline);
      return { status: "ok", hits: [{ title: query.query, url: "https://ex.com/a", snippet: "" }] };
    },
  };
}

/** The memory store, recording which keys were read and written. */
function recordingStore() {
  const store = new MemoryStore();
  const keys: string[] = [];
  const get = store.get.bind(store);
  const set = store.set.bind(store);
  store.get = async <T>(key: string) => {
    keys.push(`get ${key}`);
    return get<T>(key);
  };
  store.set = async <T>(key: string, value: T, ttlMs: number) => {
    keys.push(`set ${key}`);
    return set(key, value, ttlMs);
  };
  return { store, keys };
}

const ctx = (store: MemoryStore): ProviderContext => ({
  net: noNet,
  config: settingsFromEnv({}),
  store,
  log: () => {},
  settings: {},
});

describe("a provider step", () => {
  it("releases the step's budget once it is over: anything left listening hears a cancellation", async () => {
    const provider = answering();
    const res = await searchChain(
      "openai news",
      { cache: false },
      { providers: [provider], ctx: ctx(new MemoryStore()) },
    );
    expect(res.status).toBe("ok");
    const [budget] = provider.seen;
    expect(budget.ended()).toBe(true);
    expect(budget.cancelled()).toBe(true);
    expect(budget.reason).toBeInstanceOf(Error);
  });

  it("cache: false neither reads nor writes the result cache; the default does both", async () => {
    const { store, keys } = recordingStore();
    const config = { providers: [answering()], ctx: ctx(store) };
    await searchChain("openai news", { cache: false }, config);
    expect(keys.filter((k) => k.includes("search:"))).toEqual([]);
    await searchChain("openai news", {}, config);
    expect(keys.filter((k) => k.includes("search:")).map((k) => k.split(" ")[0])).toEqual(["get", "set"]);
  });
});

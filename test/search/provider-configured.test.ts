import { describe, expect, it } from "vitest";
import { settingsFromEnv } from "../../src/config/load.js";
import { type Provider, providerConfigured } from "../../src/search/provider.js";
import { PROVIDERS } from "../../src/search/registry.js";

const keyed = PROVIDERS.filter((p) => p.kind === "keyed" || p.kind === "model");

describe("providerConfigured", () => {
  it("judges every keyed provider of the registry by the variables it declares, any one of them", () => {
    const declaring = keyed.filter((p) => p.keyEnv?.length);
    expect(declaring.map((p) => p.name)).toEqual(
      expect.arrayContaining(["brave", "tavily", "exa", "gemini"]),
    );
    for (const p of declaring) {
      expect(providerConfigured(p, settingsFromEnv({})), p.name).toBe(false);
      for (const name of p.keyEnv ?? []) {
        expect(
          providerConfigured(p, settingsFromEnv({ [name]: "test-SECRET-key" })),
          `${p.name} ${name}`,
        ).toBe(true);
        expect(providerConfigured(p, settingsFromEnv({ [name]: "" })), `${p.name} ${name} empty`).toBe(false);
      }
      // Another provider's key configures nothing here.
      expect(
        providerConfigured(
          p,
          settingsFromEnv({ UNRELATED_API_KEY: "test-SECRET-key" }, ["UNRELATED_API_KEY"]),
        ),
        p.name,
      ).toBe(false);
    }
  });

  it("lets a provider without a declared key run, and one with its own judgement use it", () => {
    const bare: Provider = {
      name: "bare",
      kind: "keyless",
      paid: false,
      native: {},
      timeoutMs: 1000,
      search: async () => ({ status: "empty" }),
    };
    expect(providerConfigured(bare, settingsFromEnv({}))).toBe(true);
    // A variable it declares counts once the loader is told about it (createWebsift tells it every provider's).
    const acme: Provider = { ...bare, kind: "keyed", keyEnv: ["ACME_KEY"] };
    expect(providerConfigured(acme, settingsFromEnv({ ACME_KEY: "test-SECRET-acme" }, ["ACME_KEY"]))).toBe(
      true,
    );
    expect(providerConfigured(acme, settingsFromEnv({}, ["ACME_KEY"]))).toBe(false);
    const own: Provider = {
      ...bare,
      keyEnv: ["SEARXNG_URL"],
      configured: (settings) => settings.search.searxngUrl === "https://searx.example/",
    };
    expect(providerConfigured(own, settingsFromEnv({ SEARXNG_URL: "https://other.example/" }))).toBe(false);
    expect(providerConfigured(own, settingsFromEnv({ SEARXNG_URL: "https://searx.example/" }))).toBe(true);
  });
});

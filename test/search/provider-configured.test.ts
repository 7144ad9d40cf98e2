import { describe, expect, it } from "vitest";
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
      expect(providerConfigured(p, {}), p.name).toBe(false);
      for (const name of p.keyEnv ?? []) {
        expect(providerConfigured(p, { [name]: "test-SECRET-key" }), `${p.name} ${name}`).toBe(true);
        expect(providerConfigured(p, { [name]: "" }), `${p.name} ${name} empty`).toBe(false);
      }
      // Another provider's key configures nothing here.
      expect(providerConfigured(p, { UNRELATED_API_KEY: "test-SECRET-key" }), p.name).toBe(false);
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
    expect(providerConfigured(bare, {})).toBe(true);
    const own: Provider = { ...bare, keyEnv: ["OWN_URL"], configured: (env) => env.OWN_URL === "yes" };
    expect(providerConfigured(own, { OWN_URL: "no" })).toBe(false);
    expect(providerConfigured(own, { OWN_URL: "yes" })).toBe(true);
  });
});

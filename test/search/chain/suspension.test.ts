import { describe, expect, it } from "vitest";
import { recordFailure, suspendedUntil, suspensionFor } from "../../../src/search/suspension.js";
import { MemoryStore } from "../../../src/store/store.js";

const MIN = 60_000;

describe("suspension table", () => {
  it.each([
    [{ status: "blocked", code: "challenge", message: "" }, 30 * MIN],
    [{ status: "error", code: "unknown_page", message: "" }, 5 * MIN],
    [{ status: "blocked", code: "soft_block", message: "" }, 10 * MIN],
    [{ status: "rate_limited", code: "http_429", message: "", retryAfter: 42 }, 42_000],
    [{ status: "rate_limited", code: "http_429", message: "" }, 3 * MIN],
    [{ status: "denied", code: "http_403", message: "" }, 3 * MIN],
    [{ status: "quota", code: "quota", message: "", retryAfter: 3600 }, 3600_000],
  ] as const)("%j rests the provider for the table's time", (failure, ms) => {
    expect(suspensionFor(failure)?.ms).toBe(ms);
  });

  it("timeouts and plain errors do not suspend", () => {
    expect(suspensionFor({ status: "timeout", code: "timeout", message: "" })).toBeUndefined();
    expect(suspensionFor({ status: "error", code: "http_500", message: "" })).toBeUndefined();
  });

  it("a recorded suspension is read back until it expires", async () => {
    const store = new MemoryStore();
    await recordFailure(store, "bing", {
      status: "rate_limited",
      code: "http_429",
      message: "",
      retryAfter: 60,
    });
    const s = await suspendedUntil(store, "bing");
    expect(s?.status).toBe("rate_limited");
    expect(s!.until).toBeGreaterThan(Date.now() + 50_000);
    expect(await suspendedUntil(store, "mojeek")).toBeUndefined();
  });
});

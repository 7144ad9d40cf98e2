import { describe, expect, it } from "vitest";
import { parseRetryAfter } from "../../src/net/retry-after.js";
import { retryAfterSeconds } from "../../src/provider-http/http-errors.js";

const NOW = Date.parse("2026-01-01T00:00:00Z");

describe("parseRetryAfter", () => {
  it.each([
    ["0", 0],
    ["120", 120],
    [" 7 ", 7],
    ["1.5", 2],
    ["0.1", 1],
    ["Thu, 01 Jan 2026 00:01:00 GMT", 60],
    ["Thu, 01 Jan 2026 00:00:00 GMT", 0],
    ["Wed, 31 Dec 2025 23:00:00 GMT", 0],
  ])("reads %j as %j seconds", (value, seconds) => {
    expect(parseRetryAfter(value, NOW)).toBe(seconds);
  });

  it.each([undefined, "", "  ", "-1", "soon", "1e3", "12abc"])("gives no instruction for %j", (value) => {
    expect(parseRetryAfter(value, NOW)).toBeUndefined();
  });

  it("is the parser the providers' HTTP failures use", () => {
    for (const value of ["1.5", "120", "Thu, 01 Jan 2026 00:01:00 GMT", "-1", "soon"]) {
      expect(retryAfterSeconds({ "retry-after": value }, NOW)).toBe(parseRetryAfter(value, NOW));
    }
  });
});

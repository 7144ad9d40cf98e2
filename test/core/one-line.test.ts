import { describe, expect, it } from "vitest";
import { errorLine, oneLine, optionalLine } from "../../src/core/one-line.js";

describe("oneLine", () => {
  it.each([
    ["a\nb", "a b"],
    ["  a \r\n\t b  ", "a b"],
    ["a\u2028b", "a b"],
    ["", ""],
  ])("puts %j on one line", (text, line) => {
    expect(oneLine(text, 100)).toBe(line);
  });

  it("keeps text that fits whole", () => {
    expect(oneLine("x".repeat(20), 20)).toBe("x".repeat(20));
  });

  it("cuts longer text to maxChars, the mark included, at a word when one ends near the limit", () => {
    const words = "alpha beta gamma delta epsilon zeta eta theta";
    for (let max = 5; max < words.length; max++) {
      const line = oneLine(words, max);
      expect(line.length).toBeLessThanOrEqual(max);
      expect(line.endsWith("…")).toBe(true);
      expect(words.startsWith(line.slice(0, -1))).toBe(true);
    }
    expect(oneLine(words, 20)).toBe("alpha beta gamma…");
    expect(oneLine("x".repeat(50), 10)).toBe(`${"x".repeat(9)}…`);
  });

  it("never ends on half of a surrogate pair", () => {
    const line = oneLine(`${"a".repeat(8)}😀😀`, 10);
    expect(line).toBe(`${"a".repeat(8)}…`);
  });

  it("scrubs before it measures", () => {
    expect(oneLine("key=SECRET\nrest", 100, (s) => s.replace("SECRET", "[x]"))).toBe("key=[x] rest");
  });
});

describe("optionalLine", () => {
  it.each([undefined, null, 3, {}, "", " \n "])("gives undefined for %j", (value) => {
    expect(optionalLine(value, 100)).toBeUndefined();
  });
  it("gives the one line of a string", () => {
    expect(optionalLine(" a\nb ", 100)).toBe("a b");
  });
});

describe("errorLine", () => {
  it("gives an exception's first line, cut to fit, and anything thrown as text", () => {
    expect(errorLine(new Error("bad token at 3:7\n    at parse (x.js:1)\n    at y"))).toBe(
      "bad token at 3:7",
    );
    const long = errorLine(new Error(`unexpected ${"word ".repeat(60)}`), 40);
    expect(long.length).toBeLessThanOrEqual(40);
    expect(long).toMatch(/^unexpected word .*…$/);
    expect(errorLine("plain\nsecond")).toBe("plain");
    expect(errorLine(42)).toBe("42");
  });
});

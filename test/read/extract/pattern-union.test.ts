import { describe, expect, it } from "vitest";
import { topLevelBranches, unionPattern } from "../../../src/read/extract/pattern-union.js";

describe("unionPattern", () => {
  const START = String.raw`(?:^|[.!?]\s*)`;
  const patterns = [
    new RegExp(String.raw`\bsupport us\b|${START}become a (?:member|patron)\b`, "u"),
    new RegExp(String.raw`${START}sign (?:up|in)\b[^.!?]{0,10}news|\b\p{L}+ [|(]x[)|]`, "u"),
    new RegExp(String.raw`(?<![\d.,])\d+ (?:users|guests) online\b|a\|b|${START}rate (?:this|it)$`, "u"),
  ];
  const union = unionPattern(patterns, START);

  it("splits a source only at its top-level bars, not in groups, classes or escapes", () => {
    expect(topLevelBranches(String.raw`a(?:b|c)|[|(]d|e\|f|(g)`)).toEqual([
      "a(?:b|c)",
      "[|(]d",
      String.raw`e\|f`,
      "(g)",
    ]);
  });

  it("groups the alternatives that share the prefix behind one copy of it", () => {
    expect(union.source.split(START).length - 1).toBe(1);
    expect(union.flags).toBe("u");
  });

  it("groups the alternatives that start at a word boundary behind one \\b", () => {
    expect(union.source.startsWith(String.raw`${START}(?:`)).toBe(true);
    expect(union.source).toContain(String.raw`|\b(?:support us\b|\p{L}+ [|(]x[)|])|`);
  });

  it("matches exactly where one of the patterns does", () => {
    const words = [
      "support us",
      "become a member",
      "become a patron",
      "sign up",
      "sign in",
      "news",
      "rate this",
      "rate it",
      "12 users online",
      "1.5 guests online",
      "a|b",
      "é (x)",
      "word |x|",
      ".",
      "!",
      " ",
      "3",
      "x",
    ];
    let seed = 5;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    let matched = 0;
    for (let round = 0; round < 5000; round++) {
      const text = Array.from({ length: 1 + (next() % 5) }, () => words[next() % words.length]).join(
        next() % 2 ? " " : "",
      );
      const expected = patterns.some((re) => re.test(text));
      expect(union.test(text), JSON.stringify(text)).toBe(expected);
      if (expected) matched++;
    }
    expect(matched).toBeGreaterThan(500);
    expect(matched).toBeLessThan(4500);
  });

  it("refuses patterns it cannot join exactly", () => {
    expect(() => unionPattern([/a/u, /b/], "")).toThrow(/flags/);
    expect(() => unionPattern([/(a)\1/u], "")).toThrow(/backreference/);
  });
});

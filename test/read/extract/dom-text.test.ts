import { describe, expect, it } from "vitest";
import { collapseWhitespace } from "../../../src/read/extract/dom.js";

describe("collapseWhitespace", () => {
  it("is `\\s+` made one space and trimmed, for every kind of space, also where it returns the text as it is", () => {
    const reference = (s: string) => s.replace(/\s+/g, " ").trim();
    const spaces = Array.from({ length: 0x10000 }, (_, c) => String.fromCharCode(c)).filter((c) =>
      /\s/.test(c),
    );
    const alphabet = [...spaces, " ", " ", "a", "b", "é", "字", "\u200b", "\u180e", "\ud83d\ude00", "."];
    let seed = 11;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let round = 0; round < 3000; round++) {
      const s = Array.from({ length: next() % 12 }, () => alphabet[next() % alphabet.length]).join("");
      expect(collapseWhitespace(s), JSON.stringify(s)).toBe(reference(s));
    }
    expect(spaces.length).toBeGreaterThan(20);
    expect(collapseWhitespace("one two")).toBe("one two");
  });
});

import { describe, expect, it } from "vitest";
import { cutAtParagraph, sizeText, splitBlocks } from "../../../src/read/size.js";
import { ARABIC, ENGLISH, GERMAN, ITALIAN, JAPANESE } from "./pages.js";

const MARKER = /\n\n\[TRUNCATED: (\d+) of (\d+) characters\]$/;

function bodyOf(text: string): string {
  expect(text).toMatch(MARKER);
  return text.replace(MARKER, "");
}

/** `piece` starts `page` at `from` and stops where a paragraph (block) of the page ends. */
function expectParagraphPrefix(page: string, piece: string, from = 0): void {
  expect(page.startsWith(piece, from)).toBe(true);
  const after = page.slice(from + piece.length);
  expect(after === "" || after.startsWith("\n\n")).toBe(true);
}

describe("sizeText: cut", () => {
  it("returns a page that fits whole, without a marker", () => {
    expect(sizeText("Short page.\n\nTwo paragraphs.")).toEqual({
      text: "Short page.\n\nTwo paragraphs.",
      truncated: false,
      totalChars: 28,
      returnedChars: 28,
      remaining: 0,
      nextOffset: undefined,
    });
  });

  it.each([
    ["English", ENGLISH],
    ["German", GERMAN],
    ["Italian", ITALIAN],
    ["Japanese", JAPANESE],
    ["Arabic", ARABIC],
  ])("cuts %s at a paragraph boundary with a visible marker", (_lang, page) => {
    const sized = sizeText(page, { maxChars: 600 });
    expect(sized.truncated).toBe(true);
    expect(sized.text.length).toBeLessThanOrEqual(600);
    expect(sized.returnedChars).toBe(sized.text.length);
    const body = bodyOf(sized.text);
    expectParagraphPrefix(page, body);
    const [, reached, total] = MARKER.exec(sized.text)!;
    expect(Number(total)).toBe(page.length);
    expect(Number(reached)).toBe(sized.nextOffset);
    expect(sized.remaining).toBe(page.length - sized.nextOffset!);
  });

  it("cuts one long paragraph at a sentence end, never mid-sentence", () => {
    const page = Array.from({ length: 60 }, (_, i) => `Sentence number ${i} says something plain.`).join(" ");
    const body = bodyOf(sizeText(page, { maxChars: 500 }).text);
    expect(body).toMatch(/something plain\.$/);
    expect(page.startsWith(body)).toBe(true);
  });

  it("cuts Japanese prose after a full stop (。)", () => {
    const page = Array.from({ length: 80 }, (_, i) => `これは${i}番目の文です。`).join("");
    const body = bodyOf(sizeText(page, { maxChars: 300 }).text);
    expect(body.endsWith("。")).toBe(true);
    expect(page.startsWith(body)).toBe(true);
  });

  it("reads a long page on window by window until nothing remains", () => {
    const pieces: string[] = [];
    let offset: number | undefined = 0;
    let last = sizeText(ENGLISH, { maxChars: 700, offset });
    for (let guard = 0; guard < 50; guard++) {
      last = sizeText(ENGLISH, { maxChars: 700, offset });
      expect(last.text.length).toBeLessThanOrEqual(700);
      const text = offset
        ? last.text.replace(/^\[CONTINUED: from character \d+ of \d+\]\n\n/, "")
        : last.text;
      pieces.push(last.remaining > 0 ? bodyOf(text) : text);
      if (last.nextOffset === undefined) break;
      expect(last.nextOffset).toBeGreaterThan(offset ?? 0);
      offset = last.nextOffset;
    }
    expect(last.remaining).toBe(0);
    expect(last.text).not.toMatch(MARKER);
    expect(last.text.startsWith("[CONTINUED: from character")).toBe(true);
    expect(pieces.join("\n\n")).toBe(ENGLISH);
  });

  it("keeps a fenced code block with blank lines in one piece and closes a cut fence", () => {
    const code = ["```python", "def a():", "    return 1", "", "", "def b():", "    return 2", "```"].join(
      "\n",
    );
    expect(splitBlocks(`Intro.\n\n${code}\n\nOutro.`)).toHaveLength(3);

    const long = ["```js", ...Array.from({ length: 200 }, (_, i) => `const v${i} = ${i};`), "```"].join("\n");
    const body = bodyOf(sizeText(`${long}\n\nAfter.`, { maxChars: 400 }).text);
    expect(body.startsWith("```js\nconst v0 = 0;")).toBe(true);
    expect(body.endsWith(";\n```")).toBe(true);
  });

  it("never exceeds the budget, whatever the budget", () => {
    for (const maxChars of [100, 150, 333, 1000, 2500]) {
      for (const mode of ["cut", "head-tail", "passages"] as const) {
        const sized = sizeText(GERMAN, { maxChars, mode, lookingFor: "Akkulaufzeit" });
        expect(sized.text.length).toBeLessThanOrEqual(maxChars);
      }
    }
  });
});

describe("sizeText: passages", () => {
  it("returns the page start, then the matching passage, with elisions marked", () => {
    const sized = sizeText(ENGLISH, { maxChars: 1200, lookingFor: "what is thermal runaway" });
    expect(sized.text.startsWith("# Lithium-ion batteries\n\nThis page explains")).toBe(true);
    expect(sized.text).toContain("## Safety\n\nThermal runaway happens");
    expect(sized.text).toContain("[…]");
    expect(sized.text).not.toContain("Factory line 20");
    expect(sized.text.indexOf("This page explains")).toBeLessThan(sized.text.indexOf("Thermal runaway"));
    expect(sized.truncated).toBe(true);
    expect(sized.nextOffset).toBeUndefined();
    expect(sized.remaining).toBeGreaterThan(0);
  });

  it("ignores words about the page in German (Zusammenfassung)", () => {
    const sized = sizeText(GERMAN, { maxChars: 1500, lookingFor: "Zusammenfassung der Akkulaufzeit" });
    expect(sized.text).toContain("Die Akkulaufzeit sinkt");
    expect(sized.text).not.toContain("Abschnitte dieser Seite");
    // No heading left announcing a section that was elided.
    expect(sized.text).not.toMatch(/^#{1,6} .*\n\n\[…\]/m);
  });

  it("ignores words about the page in Italian (riassunto, scritto)", () => {
    const sized = sizeText(ITALIAN, {
      maxChars: 1500,
      lookingFor: "riassunto di quello che è scritto sulla batteria",
    });
    expect(sized.text).toContain("La batteria perde capacità");
    expect(sized.text).not.toContain("scritto per chi ha fretta");
  });

  it("matches Japanese through character bigrams", () => {
    const sized = sizeText(JAPANESE, { maxChars: 600, lookingFor: "電池の寿命について" });
    expect(sized.text.startsWith("# スマートフォンの電池")).toBe(true);
    expect(sized.text).toContain("電池の寿命は充電回数と温度で決まります。");
    expect(sized.text).not.toContain("モデル5");
  });

  it("matches Arabic words with and without the article", () => {
    const sized = sizeText(ARABIC, { maxChars: 700, lookingFor: "بطارية" });
    expect(sized.text).toContain("تفقد البطارية سعتها مع الحرارة");
  });

  it("reads like a plain cut when nothing matches or only words about the page are given", () => {
    const plain = sizeText(ENGLISH, { maxChars: 800 });
    expect(sizeText(ENGLISH, { maxChars: 800, lookingFor: "quantum chromodynamics" })).toEqual(plain);
    expect(sizeText(ENGLISH, { maxChars: 800, lookingFor: "summarize this article" })).toEqual(plain);
  });

  it("returns a page that fits whole even when looking for something", () => {
    const page = "# Title\n\nOne paragraph about thermal runaway.";
    expect(sizeText(page, { lookingFor: "runaway" }).text).toBe(page);
  });
});

describe("sizeText: head-tail", () => {
  it("keeps the start and the end with [TRUNCATED] between", () => {
    const sized = sizeText(ENGLISH, { maxChars: 1000, mode: "head-tail" });
    const [head, tail] = sized.text.split("\n\n[TRUNCATED]\n\n");
    expect(tail).toBeDefined();
    expectParagraphPrefix(ENGLISH, head);
    expect(ENGLISH.endsWith(tail)).toBe(true);
    expect(head.length).toBeGreaterThan(tail.length);
    expect(head.length).toBeLessThanOrEqual(1000 * 0.75);
    const middle = ENGLISH.slice(head.length, ENGLISH.length - tail.length);
    expect(sized.remaining).toBeGreaterThanOrEqual(middle.trim().length);
    expect(sized.remaining).toBeLessThanOrEqual(middle.length);
    expect(sized.truncated).toBe(true);
  });
});

describe("cutAtParagraph", () => {
  it("returns short text unchanged", () => {
    expect(cutAtParagraph("One.\n\nTwo.", 1500)).toBe("One.\n\nTwo.");
  });

  it.each([
    ["English", ENGLISH],
    ["Arabic", ARABIC],
    ["Japanese", JAPANESE],
  ])("cuts %s to whole paragraphs within the limit", (_lang, page) => {
    const cut = cutAtParagraph(page, 500);
    expect(cut.length).toBeLessThanOrEqual(500);
    expect(cut.length).toBeGreaterThan(0);
    expectParagraphPrefix(page, cut);
  });
});

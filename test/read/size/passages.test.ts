import { describe, expect, it } from "vitest";
import { queryTerms, scorePassages, tokenize } from "../../../src/read/passages.js";

describe("tokenize", () => {
  it("folds case and accents and drops stopwords", () => {
    expect(tokenize("The Café in Zürich")).toEqual(["cafe", "zurich"]);
  });

  it("keeps the first six letters of long words, so inflections meet", () => {
    expect(tokenize("battery batteries")).toEqual(["batter", "batter"]);
  });

  it("turns CJK runs into character bigrams and splits them from Latin", () => {
    expect(tokenize("電池の寿命")).toEqual(["電池", "池の", "の寿", "寿命"]);
    expect(tokenize("iPhone15の電池")).toEqual(["iphone", "の電", "電池"]);
  });

  it("strips the Arabic article and diacritics", () => {
    expect(tokenize("البطارية")).toEqual(tokenize("بطارية"));
    expect(tokenize("بَطَّارِيَّة")).toEqual(tokenize("بطارية"));
  });
});

describe("queryTerms", () => {
  it.each([
    ["summarise the article about thermal runaway", ["therma", "runawa"]],
    ["describe the page on Akkulaufzeit", ["akkula"]],
    ["Zusammenfassung: Akkulaufzeit", ["akkula"]],
    ["riassunto di quello che è scritto sulla batteria", ["batter"]],
    ["résumé de l'article sur les batteries", ["batter"]],
    ["resumen del texto sobre baterías", ["bateri"]],
    ["textile pageant", ["textil", "pagean"]],
  ])("%s", (query, terms) => {
    expect(queryTerms(query)).toEqual(terms);
  });

  it("has no subject terms for a request about the page only", () => {
    expect(queryTerms("please summarize this page")).toEqual([]);
  });
});

describe("scorePassages", () => {
  it("ranks the passage with more and rarer matches first and scores non-matches 0", () => {
    const scores = scorePassages(
      [
        "Battery chemistry and battery ageing.",
        "Thermal runaway in a battery is dangerous.",
        "Screens and cases.",
      ],
      "thermal runaway battery",
    );
    expect(scores[2]).toBe(0);
    expect(scores[1]).toBeGreaterThan(scores[0]);
    expect(scores[0]).toBeGreaterThan(0);
  });
});

import { describe, expect, it } from "vitest";
import { isFrontPage, looksLikeLlmsTxt, withLlmsTxt } from "../../../src/read/llms-txt.js";

describe("llms.txt helpers", () => {
  it("treats only path / without a query as a front page", () => {
    expect(isFrontPage("https://docs.example.com/")).toBe(true);
    expect(isFrontPage("https://docs.example.com")).toBe(true);
    expect(isFrontPage("https://docs.example.com/?ref=x")).toBe(false);
    expect(isFrontPage("https://docs.example.com/guide")).toBe(false);
    expect(isFrontPage("not a url")).toBe(false);
  });

  it("accepts markdown maps and rejects HTML and soft-404 text", () => {
    expect(looksLikeLlmsTxt("# Project\n\n> Summary\n\n- [Docs](https://x.example/docs)")).toBe(true);
    expect(looksLikeLlmsTxt("Some notes\n\n- [Guide](/guide.md)")).toBe(true);
    expect(looksLikeLlmsTxt("<!doctype html><title>Not found</title>")).toBe(false);
    expect(looksLikeLlmsTxt("Not Found")).toBe(false);
    expect(looksLikeLlmsTxt("# Oops\n<div id=app></div>")).toBe(false);
  });

  it("appends after the page's own text", () => {
    expect(withLlmsTxt("Home text", { url: "https://x.example/llms.txt", text: "# X" })).toBe(
      "Home text\n\n---\n\n## llms.txt (https://x.example/llms.txt)\n\n# X",
    );
  });
});

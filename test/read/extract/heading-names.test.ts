import { describe, expect, it } from "vitest";
import { extractMarkdown } from "../../../src/read/extract/index.js";

const PROSE =
  "Each value has an owner, there can only be one owner at a time, and when the owner goes out of scope the value is dropped, which frees its memory.";

describe("extractMarkdown: a name inside a heading", () => {
  it("keeps a book generator's headings written as links named 'header'", async () => {
    const section = (id: string, title: string) =>
      `<h2 id="${id}"><a class="header" href="#${id}">${title}</a></h2>${`<p>${PROSE}</p>`.repeat(3)}`;
    const html =
      `<html><body><nav class="sidebar"><ol><li><a href="ch01.html">Getting started</a></li></ol></nav>` +
      `<main><h1 id="what"><a class="header" href="#what">What Is Ownership?</a></h1>` +
      `${section("rules", "Ownership Rules")}${section("scope", "Variable Scope")}</main></body></html>`;
    const { markdown } = await extractMarkdown(
      html,
      "https://doc.example.org/book/ch04-01-what-is-ownership.html",
    );
    expect(markdown).toContain("## Ownership Rules");
    expect(markdown).toContain("## Variable Scope");
  });
});

import { describe, expect, it } from "vitest";
import { extractMarkdown } from "../../../src/read/extract/index.js";

const PROSE =
  "Hosting at home is about the small rituals: a table set an hour early, a playlist chosen with care, and a menu that leaves the host time to sit down with the guests.";

const page = (card: string) =>
  `<html><head><title>Hosting trends for the year</title><meta name="author" content="Rebecca Norris"></head><body>` +
  `<main><article><h1>Hosting trends for the year</h1>${`<p>${PROSE}</p>`.repeat(6)}${card}</article></main></body></html>`;

describe("extractMarkdown: the author's card under a post", () => {
  it("drops a closing block that opens with the byline's writer and a verb of a biography", async () => {
    const card = `<div class="writer"><p>Rebecca Norris is a full-time freelance writer living near the city, who has written about homes and entertaining for a decade.</p></div>`;
    const { markdown } = await extractMarkdown(page(card), "https://mag.example.com/hosting-trends");
    expect(markdown).toContain("small rituals");
    expect(markdown).not.toContain("full-time freelance writer");
  });

  it("drops it when the card calls the writer by the first name", async () => {
    const card = `<div class="writer"><p>Rebecca has covered homes and entertaining for a decade, and lives with two cats and too many plates.</p></div>`;
    const { markdown } = await extractMarkdown(page(card), "https://mag.example.com/hosting-trends");
    expect(markdown).not.toContain("two cats");
  });

  it("drops a card behind its label or with an apposition after the name", async () => {
    for (const card of [
      "<p>About the author: Rebecca Norris is a freelance writer who has covered homes and entertaining for a decade.</p>",
      "<p>Rebecca Norris, an experienced writer on homes and entertaining, specializes in small dinners for large families.</p>",
    ]) {
      const { markdown } = await extractMarkdown(page(card), "https://mag.example.com/hosting-trends");
      expect(markdown).toContain("small rituals");
      expect(markdown).not.toContain("Rebecca Norris");
    }
  });

  it("keeps a closing block about someone else", async () => {
    const card = `<p>Maria Lopez is the caterer behind the dinners in these photos, and she plans each menu with the host a month ahead.</p>`;
    const { markdown } = await extractMarkdown(page(card), "https://mag.example.com/hosting-trends");
    expect(markdown).toContain("Maria Lopez is the caterer");
  });
});

describe("extractMarkdown: prose that opens with the byline's words", () => {
  const withByline = (author: string, title: string, body: string) =>
    `<html><head><title>${title}</title><meta name="author" content="${author}"></head><body>` +
    `<main><article><h1>${title}</h1>${body}</article></main></body></html>`;

  it("keeps a closing paragraph on the company a team's byline is named for", async () => {
    const close =
      "<p>Microsoft has released patches for all supported versions of the product, and customers with automatic updates need do nothing.</p>";
    const html = withByline(
      "Microsoft Security Team",
      "Patch the print spooler now",
      `${`<p>${PROSE}</p>`.repeat(6)}${close}`,
    );
    const { markdown } = await extractMarkdown(html, "https://news.example.com/print-spooler");
    expect(markdown).toContain("Microsoft has released patches");
  });

  it("keeps a lede that opens with the writer's first name", async () => {
    const lede =
      "<p>Georgia has become the latest state to require age checks on social networks, with a law that takes effect next summer.</p>";
    const html = withByline(
      "Georgia Wells",
      "Georgia passes an age-check law",
      `${lede}${`<p>${PROSE}</p>`.repeat(6)}`,
    );
    const { markdown } = await extractMarkdown(html, "https://news.example.com/age-checks");
    expect(markdown).toContain("Georgia has become the latest state");
  });

  it("keeps a closing block too long to be a card", async () => {
    const long = `<p>Rebecca Norris has hosted a dinner every Sunday for twenty years. ${PROSE} ${PROSE} ${PROSE} ${PROSE}</p>`;
    const { markdown } = await extractMarkdown(page(long), "https://mag.example.com/hosting-trends");
    expect(markdown).toContain("a dinner every Sunday");
  });
});

describe("extractMarkdown: a hostile byline", () => {
  it("reads a byline of a million spaces in linear time", async () => {
    const html = `<html><head><meta name="author" content="A${" ".repeat(1_000_000)}B"></head><body><main><article><h1>Title</h1>${"<p>Some words of the article that make a paragraph long enough to be read as prose here.</p>".repeat(6)}</article></main></body></html>`;
    const t0 = performance.now();
    await extractMarkdown(html, "https://mag.example.com/post");
    expect(performance.now() - t0).toBeLessThan(3000);
  });
});

import { describe, expect, it } from "vitest";
import { passageLink } from "../../src/ground/passage-link.js";
import {
  directiveText,
  encodeTerm,
  findTextDirective,
  fragmentUrl,
  PageText,
  parseTextDirective,
  type TextDirective,
} from "../../src/ground/text-fragment.js";

const text = (page: PageText, d: TextDirective) => {
  const r = findTextDirective(page, d);
  if (!r) return undefined;
  if (r.start.block === r.end.block) return page.blocks[r.start.block].slice(r.start.offset, r.end.offset);
  const parts = [page.blocks[r.start.block].slice(r.start.offset)];
  for (let b = r.start.block + 1; b < r.end.block; b++) parts.push(page.blocks[b]);
  parts.push(page.blocks[r.end.block].slice(0, r.end.offset));
  return parts.join("\n");
};
/** A passage's span from its first word to its last: what a link highlights. */
const words = (passage: string) => passage.replace(/[\s.。!?]+$/u, "");
const words4990 = (blocks: string[]) => words(blocks[4990]);
/** The passage a link opens at, by the spec's matching over the page's blocks. */
const opened = (page: PageText, link: string) => {
  const d = parseTextDirective(link.slice(link.indexOf(":~:") + 3));
  return d ? text(page, d) : undefined;
};

describe("text directive encoding", () => {
  it("percent-encodes the delimiters, spaces and non-ASCII as UTF-8", () => {
    expect(encodeTerm("a-b, c&d")).toBe("a%2Db%2C%20c%26d");
    expect(encodeTerm("Zürich café")).toBe("Z%C3%BCrich%20caf%C3%A9");
    expect(encodeTerm("東京タワー")).toBe("%E6%9D%B1%E4%BA%AC%E3%82%BF%E3%83%AF%E3%83%BC");
    expect(directiveText({ prefix: "the", start: "big-dog", end: "ran, away", suffix: "fast" })).toBe(
      "text=the-,big%2Ddog,ran%2C%20away,-fast",
    );
  });

  it("appends to a fragment the URL has and replaces a directive it had", () => {
    expect(fragmentUrl("https://a.org/p", { start: "x" })).toBe("https://a.org/p#:~:text=x");
    expect(fragmentUrl("https://a.org/p#intro", { start: "x" })).toBe("https://a.org/p#intro:~:text=x");
    expect(fragmentUrl("https://a.org/p#:~:text=old", { start: "x" })).toBe("https://a.org/p#:~:text=x");
  });

  it("parses what it writes", () => {
    const d = { prefix: "a-b", start: "c,d", end: "é", suffix: "&" };
    expect(parseTextDirective(directiveText(d))).toEqual(d);
    expect(parseTextDirective("text=")).toBeUndefined();
  });
});

describe("the spec's matching", () => {
  const page = new PageText([
    "The band plays an anthem.",
    "An apple a day.",
    "Crème brûlée is a DESSERT, not a starter.",
    "The dog ran. The dog sat.",
  ]);

  it("matches case- and accent-blind, at word boundaries only", () => {
    expect(text(page, { start: "an" })).toBe("an");
    expect(findTextDirective(page, { start: "an" })?.start).toEqual({ block: 0, offset: 15 });
    expect(text(page, { start: "creme brulee is a dessert" })).toBe("Crème brûlée is a DESSERT");
    expect(text(page, { start: "and" })).toBeUndefined();
  });

  it("a range runs from the start to the first end after it, across blocks", () => {
    expect(text(page, { start: "anthem", end: "apple" })).toBe("anthem.\nAn apple");
  });

  it("prefix and suffix pick the occurrence they stand beside", () => {
    expect(findTextDirective(page, { prefix: "ran.", start: "The dog" })?.start).toEqual({
      block: 3,
      offset: 13,
    });
    expect(findTextDirective(page, { start: "The dog", suffix: "sat" })?.start).toEqual({
      block: 3,
      offset: 13,
    });
    expect(findTextDirective(page, { prefix: "nowhere", start: "The dog" })).toBeUndefined();
  });
});

describe("passage links", () => {
  const url = "https://www.example.com/page";

  it("a unique start opens at the whole passage", () => {
    const page = new PageText([
      "Home News",
      "The Zugspitze is the highest peak of Germany, at 2,962 metres above sea level.",
    ]);
    const link = passageLink(
      url,
      page,
      "The Zugspitze is the highest peak of Germany, at 2,962 metres above sea level.",
    );
    expect(link).toMatch(/^https:\/\/www\.example\.com\/page#:~:text=The%20Zugspitze%20is,/);
    expect(opened(page, link!)).toBe(words(page.blocks[1]));
  });

  it("a start repeated earlier on the page is made unique (longer terms or a prefix)", () => {
    const para = "The Zugspitze is also a ski resort with a glacier that shrinks each summer.";
    const page = new PageText([
      "The Zugspitze is the highest peak of Germany.",
      "Skiing: The Zugspitze is also a ski resort with a glacier that shrinks each summer.",
      "Hiking: The Zugspitze is also a ski resort with a glacier that shrinks each summer.",
    ]);
    const link = passageLink(url, page, para);
    expect(link).toBeDefined();
    const d = parseTextDirective(link!.slice(link!.indexOf(":~:") + 3))!;
    expect(findTextDirective(page, d)?.start.block).toBe(1);
    expect(opened(page, link!)).toBe(words(para));
    // The second copy needs a word from before it: "Hiking:".
    const later = new PageText(page.blocks.slice(0, 2).concat("Hiking: " + para.replace("summer", "winter")));
    const second = passageLink(url, later, para.replace("summer", "winter"));
    expect(opened(later, second!)).toBe(words(para.replace("summer", "winter")));
  });

  it("a passage that opens a block can take its prefix from the block before", () => {
    const page = new PageText([
      "Intro",
      "Same words here and there, and more after them.",
      "Second section",
      "Same words here and there",
    ]);
    const link = passageLink(url, page, "Same words here and there");
    const d = parseTextDirective(link!.slice(link!.indexOf(":~:") + 3));
    expect(d).toEqual({ prefix: "section", start: "Same words here and there" });
    expect(findTextDirective(page, d!)?.start).toEqual({ block: 3, offset: 0 });
  });

  it("non-ASCII passages link with their text encoded", () => {
    const page = new PageText([
      "Über uns",
      "Der Eibsee liegt am Fuß der Zugspitze – 973 m über dem Meer, „klar“ und kalt.",
      "東京タワーは東京都港区にある電波塔です。高さは333メートルです。",
    ]);
    const de = passageLink(url, page, page.blocks[1]);
    expect(de).toContain("%E2%80%9C"); // the closing quote of „klar“
    expect(opened(page, de!)).toBe(words(page.blocks[1]));
    const ja = passageLink(url, page, page.blocks[2]);
    expect(ja).toBeDefined();
    expect(ja).toContain("%E6%9D%B1"); // 東
    expect(opened(page, ja!)).toBe(words(page.blocks[2]));
  });

  it("a span that ends in a paragraph the page repeats right after is opened at its first paragraphs", () => {
    const filler = "Trails and huts are open from May until October every year.";
    const page = new PageText(["The summit has a cross made of gilded copper.", filler, filler, filler]);
    const link = passageLink(url, page, [page.blocks[0], filler, filler].join("\n\n"));
    expect(opened(page, link!)).toBe(words(`${page.blocks[0]}\n${filler}`));
  });

  it("on a long page only blocks that hold the passage's first words are cut into words", () => {
    const blocks = Array.from(
      { length: 5000 },
      (_, i) =>
        `Paragraph ${i} of the report: the glacier lost ice again this year, measured for the record.`,
    );
    const page = new PageText(blocks);
    const segmented = new Set<number>();
    const words = page.words.bind(page);
    page.words = (block: number) => {
      segmented.add(block);
      return words(block);
    };
    expect(opened(page, passageLink(url, page, blocks[4990])!)).toBe(words4990(blocks));
    expect(segmented.size).toBeLessThan(20);
  });

  it("a passage opening with a heading the menu repeats opens at the heading beside it", () => {
    const page = new PageText([
      "Plans",
      "Pricing",
      "Some other text about the product.",
      "Plans",
      "Starter costs $19 a month for up to five databases.",
    ]);
    const link = passageLink(url, page, "## Plans\n\nStarter costs $19 a month for up to five databases.");
    const d = parseTextDirective(link!.slice(link!.indexOf(":~:") + 3))!;
    expect(findTextDirective(page, d)?.start.block).toBe(3);
    expect(opened(page, link!)).toBe("Plans\nStarter costs $19 a month for up to five databases");
  });

  it("a passage the page does not hold gets no link", () => {
    const page = new PageText(["Only this text is on the page."]);
    expect(passageLink(url, page, "Something the markdown says that the page never did.")).toBeUndefined();
  });

  it("no link from a window with a secret or a hidden character in it", () => {
    const secret = "test-SECRET-abcdef0123456789";
    const withKey = new PageText([
      `Set the key api_key=${secret} in the config file and restart the server now.`,
    ]);
    expect(passageLink(url, withKey, withKey.blocks[0])).toBeUndefined();
    const hidden = new PageText([
      "Zero\u200Bwidth characters hide words from a reader in this sentence here.",
    ]);
    expect(
      passageLink(url, hidden, "Zerowidth characters hide words from a reader in this sentence here."),
    ).toBeUndefined();
  });

  it("steps over a few words one side has and the other has not", () => {
    const page = new PageText([
      "The summit cross was set up in 1851 by an expedition led by Joseph Naus, a surveyor.",
    ]);
    const link = passageLink(
      url,
      page,
      "The summit cross was set up in 1851 by an expedition led by Joseph Naus [3], a surveyor.",
    );
    expect(opened(page, link!)).toBe(words(page.blocks[0]));
  });
});

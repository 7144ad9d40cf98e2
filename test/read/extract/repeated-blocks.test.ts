import { describe, expect, it } from "vitest";
import { findFirst, parseHtml } from "../../../src/read/extract/dom.js";
import { renderMarkdown } from "../../../src/read/extract/markdown.js";
import { dropRepeatedBlocks } from "../../../src/read/extract/repeated-blocks.js";

const A =
  "Carry-on luggage is your travel companion, designed to fit the overhead bin of most airlines and to keep what you need close.";
const B =
  "Opting for carry-on luggage saves time at check-in and at the carousel, and spares you the fees that airlines charge for checked bags.";
const C =
  "Hard-shell cases protect fragile things better, while soft-sided ones give a little when the bin is full and carry an outside pocket.";

function afterDrop(body: string): string {
  const doc = parseHtml(`<html><body>${body}</body></html>`);
  const root = findFirst(doc, (el) => el.name === "body")!;
  dropRepeatedBlocks([root]);
  return renderMarkdown([root]).markdown;
}

const count = (text: string, part: string) => text.split(part).length - 1;

describe("dropRepeatedBlocks: a layout's second copy of a section", () => {
  it("keeps one copy of a section that a desktop and a mobile container both carry", () => {
    const section = `<h3>What is carry-on luggage?</h3><p>${A}</p><p>${B}</p>`;
    const out = afterDrop(
      `<div class="desktop">${section}</div><div class="mobile">${section}</div><p>${C}</p>`,
    );
    expect(count(out, A)).toBe(1);
    expect(count(out, B)).toBe(1);
    expect(out).toContain(C);
  });

  it("keeps a paragraph the author says again, alone or beside its sibling", () => {
    const restated = afterDrop(`<div><p>${A}</p><p>${B}</p></div><div><p>${C}</p><p>${A}</p></div>`);
    expect(count(restated, A)).toBe(2);
    const refrain = afterDrop(`<div><p>${A}</p><p>${B}</p><p>${A}</p><p>${B}</p></div>`);
    expect(count(refrain, A)).toBe(2);
    expect(count(refrain, B)).toBe(2);
  });

  it("keeps short blocks that recur by right (a label, a price)", () => {
    const out = afterDrop(
      `<div class="a"><p>Add to compare</p><p>Free shipping</p></div><div class="b"><p>Add to compare</p><p>Free shipping</p></div>`,
    );
    expect(count(out, "Add to compare")).toBe(2);
  });
});

import { describe, expect, it } from "vitest";
import { Deadline } from "../../../src/core/deadline.js";
import { pdfToText } from "../../../src/read/pdf.js";
import { makePdf } from "./make-pdf.js";

const doc = makePdf(
  [
    [
      "Tides of the North Sea",
      "The moon pulls the sea.\nIt does so twice a day.",
      "Spring tides follow the full moon.",
    ],
    ["Page two: neap tides are weaker."],
    ["Page three: tables of heights."],
  ],
  "Tide Report",
);

describe("pdfToText", () => {
  it("returns the text page by page, paragraphs kept apart, with the document title", async () => {
    const out = await pdfToText(doc, { deadline: Deadline.after(10_000) });
    expect(out).toMatchObject({ ok: true, title: "Tide Report", pagesRead: 3, totalPages: 3 });
    if (!out.ok) return;
    expect(out.markdown).toBe(
      "Tides of the North Sea\n\nThe moon pulls the sea.\nIt does so twice a day.\n\nSpring tides follow the full moon.\n\nPage two: neap tides are weaker.\n\nPage three: tables of heights.",
    );
  });

  it("stops at the page limit and says so", async () => {
    const out = await pdfToText(doc, { deadline: Deadline.after(10_000), maxPages: 2 });
    expect(out.ok && out.pagesRead).toBe(2);
    expect(out.ok && out.markdown).toMatch(
      /neap tides are weaker\.\n\n\[PDF: text of the first 2 of 3 pages\]$/,
    );
    expect(out.ok && out.markdown).not.toContain("Page three");
  });

  it("refuses oversized input and reports broken files as errors", async () => {
    expect(await pdfToText(doc, { deadline: Deadline.after(10_000), maxBytes: 100 })).toMatchObject({
      status: "unsupported",
      code: "too_large",
    });
    expect(
      await pdfToText(Buffer.from("%PDF-1.4 nothing else"), { deadline: Deadline.after(10_000) }),
    ).toMatchObject({
      status: "error",
      code: "pdf",
    });
  });

  it("gives up when the deadline has already passed", async () => {
    expect(await pdfToText(doc, { deadline: Deadline.after(0) })).toMatchObject({ status: "timeout" });
  });
});

import { afterAll, describe, expect, it, vi } from "vitest";
import { Deadline, DeadlineExceeded } from "../../../src/core/deadline.js";
import { pdfToText } from "../../../src/read/formats/pdf.js";
import { closePagePool, pagePoolState } from "../../../src/read/page-pool.js";
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

describe("pdfToText on hostile files", () => {
  afterAll(() => closePagePool());

  it("reads compressed content streams", async () => {
    const flate = makePdf([["A compressed page of text."]], "Packed", { flate: true });
    expect(await pdfToText(flate, { deadline: Deadline.after(10_000) })).toMatchObject({
      ok: true,
      markdown: "A compressed page of text.",
    });
  });

  it("refuses a stream that inflates past the cap before pdf.js inflates it, and reads on afterwards", async () => {
    // 4 MB of spaces compress to a few KB; the cap is 1 MB, so a capped inflate stops at a quarter of it.
    const bomb = makePdf([["Bomb."]], undefined, { flate: true, padding: 4 * 1024 * 1024 });
    expect(bomb.length).toBeLessThan(20_000);
    const out = await pdfToText(bomb, { deadline: Deadline.after(10_000), maxInflatedBytes: 1024 * 1024 });
    expect(out).toMatchObject({ ok: false, status: "unsupported", code: "too_large" });
    expect(!out.ok && out.message).toMatch(/inflate past 1024 KB/);
    expect(await pdfToText(doc, { deadline: Deadline.after(10_000) })).toMatchObject({
      ok: true,
      pagesRead: 3,
    });
  });

  it("honours the deadline inside pdf.js's long work: the thread is terminated and replaced", async () => {
    // 48 MB of padding stays under the default cap, so pdf.js inflates and parses it: seconds of work in which
    // it checks no deadline. The test ends the deadline as its clock would once the thread is at work.
    const slow = makePdf([["Slow."]], undefined, { flate: true, padding: 48 * 1024 * 1024 });
    const deadline = Deadline.after(600_000);
    const reading = pdfToText(slow, { deadline });
    await vi.waitFor(() => {
      const now = pagePoolState();
      expect(now.threadIds.length).toBeGreaterThan(0);
      expect(now.queued).toBe(0);
    });
    const busy = pagePoolState().threadIds;
    deadline.abort(new DeadlineExceeded());
    expect(await reading).toMatchObject({ ok: false, status: "timeout", code: "timeout" });
    // The thread that was parsing is gone; the next PDF gets a fresh one.
    await vi.waitFor(() => expect(pagePoolState().threadIds.some((id) => busy.includes(id))).toBe(false));
    expect(await pdfToText(doc, { deadline: Deadline.after(10_000) })).toMatchObject({ ok: true });
  });
});

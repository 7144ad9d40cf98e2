import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { Deadline, DeadlineExceeded } from "../../../src/core/deadline.js";
import { documentReader } from "../../../src/read/formats/documents.js";
import { closePagePool, pagePoolState } from "../../../src/read/page-pool.js";
import { read } from "../../../src/read/read.js";
import { type ReadHarness, startReadHarness } from "../ladder/harness.js";
import { makeDocx, makeXlsx, wp, wtable } from "./make-docs.js";
import { makeZip, zerosBomb } from "./make-zip.js";

let h: ReadHarness;
beforeAll(async () => {
  h = await startReadHarness();
});
afterAll(async () => {
  await h.close();
  await closePagePool();
});
beforeEach(() => h.sim.reset());

const SITE = "files.example.com";
const never = { render: "never" as const };
const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

describe("read: office documents through the ladder", () => {
  it("reads a Word document on the page pool, titled by its properties", async () => {
    const docx = makeDocx(
      [
        wp("Tide tables", "Heading1"),
        wp("High water at Lowmouth is two hours after Dover."),
        wtable([
          ["Port", "Range"],
          ["Hull", "7.2 m"],
        ]),
      ].join(""),
      { title: "Tide Report 2026", creator: "Harbour Office" },
    );
    h.sim.route(SITE, "/report.docx", { headers: { "content-type": DOCX_TYPE }, body: docx });
    const before = pagePoolState().completed;
    const page = await read(`https://${SITE}/report.docx`, never, h.ctx());
    expect(page).toMatchObject({
      status: "ok",
      source: "document",
      title: "Tide Report 2026",
      byline: "Harbour Office",
    });
    expect(page.markdown).toBe(
      "# Tide tables\n\nHigh water at Lowmouth is two hours after Dover.\n\n| Port | Range |\n| --- | --- |\n| Hull | 7.2 m |",
    );
    expect(page.attempts?.map((a) => [a.provider, a.status])).toContainEqual(["docx", "ok"]);
    expect(pagePoolState().completed).toBeGreaterThan(before);
  });

  it("knows a spreadsheet served as application/octet-stream from its parts, and names it by file when untitled", async () => {
    const xlsx = makeXlsx(
      [{ name: "Ports", rows: '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1"><v>7.2</v></c></row>' }],
      ["Hull"],
    );
    h.sim.route(SITE, "/download/ports.xlsx", {
      headers: { "content-type": "application/octet-stream" },
      body: xlsx,
    });
    const page = await read(`https://${SITE}/download/ports.xlsx`, never, h.ctx());
    expect(page).toMatchObject({ status: "ok", source: "document" });
    expect(page.markdown).toBe("## Ports\n\n| Hull | 7.2 |\n| --- | --- |");
  });
});

describe("documentReader", () => {
  it("gives up at once when the read's deadline has passed, never starting the work", async () => {
    const before = pagePoolState().completed;
    const file = { url: "https://files.example.com/a.docx", contentType: DOCX_TYPE, format: "docx" as const };
    const out = await documentReader("docx").read(makeDocx(wp("Late")), file, Deadline.after(0));
    expect(out).toMatchObject({ ok: false, status: "timeout" });
    expect(pagePoolState().completed).toBe(before);
  });

  it("honours the deadline inside a long conversion: the thread is terminated and replaced", async () => {
    // 30,000 paragraphs keep mammoth busy for seconds, in which it checks no deadline. The test ends the
    // deadline as its clock would once the thread is at work.
    const paragraphs = Array.from({ length: 30_000 }, (_, i) => wp(`Paragraph ${i} of the harbour records.`));
    const slow = makeDocx(paragraphs.join(""));
    const file = {
      url: "https://files.example.com/slow.docx",
      contentType: DOCX_TYPE,
      format: "docx" as const,
    };
    const deadline = Deadline.after(600_000);
    const reading = documentReader("docx").read(slow, file, deadline);
    await vi.waitFor(() => {
      const now = pagePoolState();
      expect(now.threadIds.length).toBeGreaterThan(0);
      expect(now.running).toBeGreaterThan(0);
      expect(now.queued).toBe(0);
    });
    const busy = pagePoolState().threadIds;
    deadline.abort(new DeadlineExceeded());
    expect(await reading).toMatchObject({ ok: false, status: "timeout", code: "timeout" });
    await vi.waitFor(() => expect(pagePoolState().threadIds.some((id) => busy.includes(id))).toBe(false));
    const small = await documentReader("docx").read(makeDocx(wp("Next")), file, Deadline.after(30_000));
    expect(small).toMatchObject({ ok: true, markdown: "Next" });
  });

  it("refuses bytes over its own cap before unpacking anything", async () => {
    const file = { url: "https://files.example.com/a.docx", contentType: DOCX_TYPE, format: "docx" as const };
    const out = await documentReader("docx").read(
      new Uint8Array(21 * 1024 * 1024),
      file,
      Deadline.after(30_000),
    );
    expect(out).toMatchObject({ ok: false, status: "unsupported", code: "too_large" });
  });
});

describe("read: document bombs are refused within the read, as values", () => {
  it("a document part that inflates to 400 MB", async () => {
    const bomb = makeZip([
      { name: "[Content_Types].xml", data: "<Types/>" },
      { name: "word/document.xml", deflated: zerosBomb(400) },
    ]);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    h.sim.route(SITE, "/bomb.docx", { headers: { "content-type": DOCX_TYPE }, body: bomb });
    const page = await read(`https://${SITE}/bomb.docx`, never, h.ctx());
    expect(page).toMatchObject({ status: "unsupported", markdown: "", error: { code: "too_large" } });
    expect(page.error?.message).toMatch(/word\/document\.xml inflates past 32 MB/);
  });

  it("a part whose declared size lies", async () => {
    const liar = makeZip([
      { name: "[Content_Types].xml", data: "<Types/>" },
      { name: "word/document.xml", deflated: zerosBomb(200), declaredSize: 1000 },
    ]);
    h.sim.route(SITE, "/liar.docx", { headers: { "content-type": DOCX_TYPE }, body: liar });
    const page = await read(`https://${SITE}/liar.docx`, never, h.ctx());
    expect(page).toMatchObject({ status: "error", markdown: "", error: { code: "corrupt_archive" } });
  });

  it("100,000 tiny entries", async () => {
    const many = makeZip([
      { name: "[Content_Types].xml", data: "<Types/>" },
      { name: "word/document.xml", data: "<w:document/>" },
      // Names kept short so that the archive stays under the read's 10 MB response cap.
      ...Array.from({ length: 100_000 }, (_, i) => ({ name: `${i}`, data: "", store: true })),
    ]);
    expect(many.length).toBeLessThan(10 * 1024 * 1024);
    h.sim.route(SITE, "/many.docx", { headers: { "content-type": "application/octet-stream" }, body: many });
    const page = await read(`https://${SITE}/many.docx`, never, h.ctx());
    expect(page).toMatchObject({ status: "unsupported", error: { code: "too_large" } });
    expect(page.error?.message).toMatch(/100002 entries, over 10000/);
  });

  it("a billion-laughs part", async () => {
    const laughs = [
      '<!ENTITY a "lollollollollollollollollollol">',
      ...Array.from(
        { length: 9 },
        (_, i) => `<!ENTITY ${"b".repeat(i + 1)} "${`&${i ? "b".repeat(i) : "a"};`.repeat(10)}">`,
      ),
    ].join("");
    const lol = makeZip([
      { name: "[Content_Types].xml", data: "<Types/>" },
      {
        name: "xl/workbook.xml",
        data: `<?xml version="1.0"?><!DOCTYPE w [${laughs}]><workbook><sheets><sheet name="&bbbbbbbbb;"/></sheets></workbook>`,
      },
    ]);
    h.sim.route(SITE, "/lol.xlsx", { headers: { "content-type": "application/octet-stream" }, body: lol });
    const page = await read(`https://${SITE}/lol.xlsx`, never, h.ctx());
    expect(page).toMatchObject({ status: "unsupported", error: { code: "xml_entities" } });
  });
});

import { describe, expect, it } from "vitest";
import { Deadline } from "../../../src/core/deadline.js";
import type { DocumentFormat } from "../../../src/read/content-kind.js";
import { DOCUMENT_LIMITS } from "../../../src/read/formats/documents.js";
import { documentToMarkdownHere } from "../../../src/read/formats/read-document.js";
import {
  ap,
  makeDocx,
  makeEpub,
  makeOdf,
  makePptx,
  makeXlsx,
  shape,
  wlinkWithNote,
  wp,
  wtable,
} from "./make-docs.js";
import { makeZip } from "./make-zip.js";

const soon = () => Deadline.after(30_000);
const read = (bytes: Buffer, format: DocumentFormat, limits = DOCUMENT_LIMITS) =>
  documentToMarkdownHere(bytes, format, `https://files.example.com/f.${format}`, soon(), limits);

describe("DOCX", () => {
  it("reads headings, paragraphs, nested and numbered lists and tables, titled by its properties", async () => {
    const docx = makeDocx(
      [
        wp("Tides of the North Sea", "Title"),
        wp("Why the sea rises", "Heading1"),
        wp("The moon pulls the sea &amp; the sun helps."),
        wlinkWithNote("Heights are in the ", "tide tables"),
        wp("Spring tides", undefined, { numId: 1, level: 0 }),
        wp("after a full moon", undefined, { numId: 1, level: 1 }),
        wp("Neap tides", undefined, { numId: 1, level: 0 }),
        wp("Check the almanac", undefined, { numId: 2, level: 0 }),
        wp("Ports", "Heading2"),
        wtable([
          ["Port", "Range"],
          ["Hull", "7.2 m"],
        ]),
      ].join(""),
      { title: "Tide Report", creator: "A. Mariner" },
    );
    expect(await read(docx, "docx")).toEqual({
      ok: true,
      title: "Tide Report",
      byline: "A. Mariner",
      published: "2024-05-01T09:30:00Z",
      links: ["https://harbour.example.org/tides"],
      markdown: [
        "# Tides of the North Sea",
        "# Why the sea rises",
        "The moon pulls the sea & the sun helps.",
        "Heights are in the tide tables[1]",
        "- Spring tides\n  - after a full moon\n- Neap tides",
        "1. Check the almanac",
        "## Ports",
        "| Port | Range |\n| --- | --- |\n| Hull | 7.2 m |",
        "1. Measured at the outer pier.",
      ].join("\n\n"),
    });
  });

  it("says so when the archive holds no Word document", async () => {
    const notDocx = makeZip([{ name: "[Content_Types].xml", data: "<Types/>" }]);
    expect(await read(notDocx, "docx")).toMatchObject({ ok: false, status: "error", code: "not_docx" });
  });

  it("refuses a document.xml that declares entities (billion laughs) without expanding them", async () => {
    const laughs = [
      '<!ENTITY lol "lol">',
      ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ""};`.repeat(10)}">`),
    ].join("");
    // Ten levels of ten references: 10^9 "lol"s, 3 GB, if any parser expanded them.
    const entries = [
      {
        name: "[Content_Types].xml",
        data: '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
      },
      {
        name: "word/document.xml",
        data: `<?xml version="1.0"?><!DOCTYPE lolz [${laughs}]><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>&lol9;</w:t></w:r></w:p></w:body></w:document>`,
      },
    ];
    const out = await read(makeZip(entries), "docx");
    expect(out).toMatchObject({ ok: false, status: "unsupported", code: "xml_entities" });
    expect(!out.ok && out.message).toMatch(/word\/document\.xml declares XML entities/);
  });
});

const SHEET_ROWS = [
  '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c></row>',
  '<row r="2"><c r="A2" t="s"><v>3</v></c><c r="B2"><f>3.6*2</f><v>7.2000000000000002</v></c><c r="C2" s="1"><v>45413</v></c></row>',
  '<row r="4"><c r="A4" t="inlineStr"><is><t>Leith | Edinburgh</t></is></c><c r="B4" t="b"><v>1</v></c><c r="C4" s="2"><v>45413.5</v></c></row>',
].join("");

describe("XLSX", () => {
  it("reads each sheet in workbook order as a table: shared strings, cached formula values, dates", async () => {
    const xlsx = makeXlsx(
      [
        { name: "Ports", dimension: "A1:C4", rows: SHEET_ROWS },
        {
          name: "Old",
          rows: '<row r="1"><c r="A1" t="s"><v>4</v></c><c r="B1" t="s"><v>5</v></c></row>',
          state: "hidden",
        },
      ],
      ["Port", "Range (m)", "Measured", "Hull", "Archived", "Yes"],
      { title: "Tide workbook" },
    );
    const out = await read(xlsx, "xlsx");
    expect(out).toMatchObject({ ok: true, title: "Tide workbook" });
    expect(out.ok && out.markdown).toBe(
      [
        "## Ports",
        "| Port | Range (m) | Measured |\n| --- | --- | --- |\n| Hull | 7.2 | 2024-05-01 |\n| Leith \\| Edinburgh | TRUE | 2024-05-01 12:00:00 |",
        "## Old (hidden)",
        "| Archived | Yes |\n| --- | --- |",
      ].join("\n\n"),
    );
  });

  it("stops a sheet at the row and column limits and says what it cut", async () => {
    const rows = Array.from(
      { length: 50 },
      (_, r) =>
        `<row r="${r + 1}">${Array.from({ length: 10 }, (_, c) => `<c r="${String.fromCharCode(65 + c)}${r + 1}"><v>${r * 10 + c}</v></c>`).join("")}</row>`,
    ).join("");
    const xlsx = makeXlsx([{ name: "Big", dimension: "A1:J5000", rows }], []);
    const out = await read(xlsx, "xlsx", { ...DOCUMENT_LIMITS, sheetRows: 3, sheetColumns: 4 });
    expect(out.ok && out.markdown).toBe(
      [
        "## Big",
        "| 0 | 1 | 2 | 3 |\n| --- | --- | --- | --- |\n| 10 | 11 | 12 | 13 |\n| 20 | 21 | 22 | 23 |",
        '[Sheet "Big": first 3 of 5000 rows, first 4 of 10 columns]',
      ].join("\n\n"),
    );
  });

  it("reads a sheet larger than the part cap as far as the cap, with a note", async () => {
    const row = (r: number) =>
      `<row r="${r}"><c r="A${r}" t="inlineStr"><is><t>row ${r}</t></is></c><c r="B${r}"><v>${r}</v></c></row>`;
    const rows = Array.from({ length: 20_000 }, (_, i) => row(i + 1)).join("");
    const xlsx = makeXlsx([{ name: "Long", rows }], []);
    const out = await read(xlsx, "xlsx", {
      ...DOCUMENT_LIMITS,
      sheetRows: 100_000,
      zip: { ...DOCUMENT_LIMITS.zip, maxEntryBytes: 256 * 1024 },
    });
    expect(out.ok && out.markdown).toMatch(
      /^## Long\n\n\| row 1 \| 1 \|\n\| --- \| --- \|\n\| row 2 \| 2 \|/,
    );
    expect(out.ok && out.markdown).not.toContain("row 20000");
    expect(out.ok && out.markdown).toMatch(/\[Sheet "Long": first \d+ rows \(more follow\)\]$/);
  });
});

describe("PPTX", () => {
  it("reads slides in the presentation's order with their titles, bullets, text boxes and notes", async () => {
    const pptx = makePptx(
      [
        {
          shapes:
            shape("title", [ap("Why tides happen")]) +
            shape("body", [ap("The moon"), ap("pulls the water", 1), ap("The sun")]) +
            shape("sldNum", [ap("2")]),
          notes: "Mention the spring tides.",
        },
        { shapes: shape("ctrTitle", [ap("Tides 101")]) + shape(undefined, [ap("A short course")]) },
      ],
      { order: [1, 0] },
    );
    const out = await read(pptx, "pptx");
    expect(out).toMatchObject({ ok: true, title: "Tides 101" });
    expect(out.ok && out.markdown).toBe(
      [
        "## Slide 1: Tides 101",
        "A short course",
        "## Slide 2: Why tides happen",
        "- The moon\n  - pulls the water\n- The sun",
        "Notes: Mention the spring tides.",
      ].join("\n\n"),
    );
  });
});

describe("PPTX shapes", () => {
  it("reads a table frame as a table and a group's shapes in order, and skips footers", async () => {
    const tc = (t: string, merge = "") =>
      `<a:tc${merge}><a:txBody><a:bodyPr/><a:p><a:r><a:t>${t}</a:t></a:r></a:p></a:txBody><a:tcPr/></a:tc>`;
    const table = `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="Table"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl><a:tblGrid><a:gridCol w="1"/><a:gridCol w="1"/><a:gridCol w="1"/></a:tblGrid><a:tr h="1">${tc("Port")}${tc("Range")}${tc("", ' hMerge="1"')}</a:tr><a:tr h="1">${tc("Hull")}${tc("7.2 m")}${tc("", ' hMerge="1"')}</a:tr></a:tbl></a:graphicData></a:graphic></p:graphicFrame>`;
    const group = `<p:grpSp><p:nvGrpSpPr><p:cNvPr id="5" name="Group"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${shape(undefined, [ap("Inside the group")])}</p:grpSp>`;
    const pptx = makePptx([
      { shapes: shape("title", [ap("Ports")]) + table + group + shape("ftr", [ap("Confidential")]) },
    ]);
    const out = await read(pptx, "pptx");
    expect(out.ok && out.markdown).toBe(
      "## Slide 1: Ports\n\n| Port | Range |\n| --- | --- |\n| Hull | 7.2 m |\n\nInside the group",
    );
  });
});

describe("OpenDocument", () => {
  it("reads an ODT's headings, lists (numbered by their style), tables, links and footnotes", async () => {
    const odt = makeOdf(
      "text",
      [
        '<text:h text:outline-level="1">Harbour history</text:h>',
        '<text:p>Rebuilt in 1922, see <text:a xlink:href="https://harbour.example.org/">the trust</text:a>.<text:note text:note-class="footnote"><text:note-citation>1</text:note-citation><text:note-body><text:p>After the storm.</text:p></text:note-body></text:note></text:p>',
        "<text:table-of-content><text:index-body><text:p>Harbour history 1</text:p></text:index-body></text:table-of-content>",
        '<text:list text:style-name="L1"><text:list-item><text:p>Granite</text:p><text:list><text:list-item><text:p>from upriver</text:p></text:list-item></text:list></text:list-item><text:list-item><text:p>Timber</text:p></text:list-item></text:list>',
        '<table:table table:name="Trade"><table:table-column table:number-columns-repeated="2"/><table:table-header-rows><table:table-row><table:table-cell><text:p>Out</text:p></table:table-cell><table:table-cell><text:p>In</text:p></table:table-cell></table:table-row></table:table-header-rows><table:table-row><table:table-cell><text:p>Coal</text:p></table:table-cell><table:table-cell><text:p>Grain</text:p></table:table-cell></table:table-row></table:table>',
      ].join(""),
      {
        title: "Lowmouth",
        styles:
          '<text:list-style style:name="L1"><text:list-level-style-number text:level="1"/><text:list-level-style-bullet text:level="2"/></text:list-style>',
      },
    );
    expect(await read(odt, "odt")).toEqual({
      ok: true,
      title: "Lowmouth",
      byline: "Ada Lovelace",
      published: "2024-02-03T10:00:00",
      lang: "en-GB",
      links: ["https://harbour.example.org/"],
      markdown: [
        "# Harbour history",
        "Rebuilt in 1922, see the trust.[1]",
        "1. Granite\n   - from upriver\n2. Timber",
        "| Out | In |\n| --- | --- |\n| Coal | Grain |",
        "## Notes",
        "1. After the storm.",
      ].join("\n\n"),
    });
  });

  it("reads an ODS's sheets without expanding a million repeated empty rows and columns", async () => {
    const cell = (t: string) =>
      `<table:table-cell office:value-type="string"><text:p>${t}</text:p></table:table-cell>`;
    const ods = makeOdf(
      "spreadsheet",
      `<table:table table:name="Ports"><table:table-row>${cell("Port")}${cell("Range")}<table:table-cell table:number-columns-repeated="16382"/></table:table-row><table:table-row>${cell("Hull")}${cell("7.2")}<table:table-cell table:number-columns-repeated="16382"/></table:table-row><table:table-row table:number-rows-repeated="1048574"><table:table-cell table:number-columns-repeated="16384"/></table:table-row></table:table>`,
    );
    const out = await read(ods, "ods");
    expect(out.ok && out.markdown).toBe("## Ports\n\n| Port | Range |\n| --- | --- |\n| Hull | 7.2 |");
  });

  it("stops an ODS sheet at the row limit, counting the rest, and reads a content part past the cap as far as it", async () => {
    const cell = (t: string) => `<table:table-cell><text:p>${t}</text:p></table:table-cell>`;
    const rows = (n: number) =>
      Array.from(
        { length: n },
        (_, r) => `<table:table-row>${cell(`r${r}`)}${cell(`${r}`)}</table:table-row>`,
      ).join("");
    const ods = makeOdf(
      "spreadsheet",
      `<table:table table:name="A">${rows(5)}</table:table><table:table table:name="B">${rows(2)}</table:table>`,
    );
    const out = await read(ods, "ods", { ...DOCUMENT_LIMITS, sheetRows: 2 });
    expect(out.ok && out.markdown).toBe(
      [
        "## A",
        "| r0 | 0 |\n| --- | --- |\n| r1 | 1 |",
        "## B",
        "| r0 | 0 |\n| --- | --- |\n| r1 | 1 |",
        '[Sheet "A": first 2 of 5 rows]',
      ].join("\n\n"),
    );
    const long = makeOdf("spreadsheet", `<table:table table:name="Long">${rows(20_000)}</table:table>`);
    const cut = await read(long, "ods", {
      ...DOCUMENT_LIMITS,
      sheetRows: 10,
      zip: { ...DOCUMENT_LIMITS.zip, maxEntryBytes: 256 * 1024 },
    });
    expect(cut.ok && cut.markdown).toMatch(/^## Long\n\n\| r0 \| 0 \|/);
    expect(cut.ok && cut.markdown).not.toContain("r19999");
    expect(cut.ok && cut.markdown).toMatch(
      /\[Sheet "Long": first \d+ rows \(more follow\)\]\n\n\[Spreadsheet: read as far as the inflate cap of its content; later sheets left out\]$/,
    );
  });

  it("reads an ODP's pages as slides with their titles and notes", async () => {
    const odp = makeOdf(
      "presentation",
      [
        '<draw:page draw:name="p1"><draw:frame presentation:class="title"><draw:text-box><text:p>Opening</text:p></draw:text-box></draw:frame><draw:frame presentation:class="outline"><draw:text-box><text:list><text:list-item><text:p>First point</text:p></text:list-item></text:list></draw:text-box></draw:frame><presentation:notes><draw:frame presentation:class="notes"><draw:text-box><text:p>Smile.</text:p></draw:text-box></draw:frame></presentation:notes></draw:page>',
        '<draw:page draw:name="p2"><draw:frame><draw:text-box><text:p>No title here</text:p></draw:text-box></draw:frame></draw:page>',
      ].join(""),
    );
    const out = await read(odp, "odp");
    expect(out.ok && out.markdown).toBe(
      "## Slide 1: Opening\n\n- First point\n\nNotes: Smile.\n\n## Slide 2\n\nNo title here",
    );
  });
});

describe("EPUB", () => {
  it("reads chapters in spine order, without the navigation document or non-linear items", async () => {
    const epub = makeEpub(
      [
        { id: "c2", html: "<h1>Letter 2</h1><p>How slowly the time passes.</p>" },
        { id: "cover", html: "<p>COVER IMAGE</p>", linear: false },
        {
          id: "c1",
          html: '<h1>Letter 1</h1><p>You will rejoice&nbsp;to hear.<a id="note"/></p><p>See <a href="c2.xhtml">the next</a>.</p>',
        },
      ],
      { title: "Frankenstein", nav: true },
    );
    expect(await read(epub, "epub")).toEqual({
      ok: true,
      title: "Frankenstein",
      byline: "Mary Shelley, Percy Shelley",
      published: "1818-01-01",
      lang: "en",
      links: [],
      markdown:
        "# Letter 2\n\nHow slowly the time passes.\n\n# Letter 1\n\nYou will rejoice to hear.\n\nSee the next.",
    });
  });

  it("reads chapters up to the total inflate cap and names what it left out", async () => {
    const long = `<p>${"word ".repeat(40_000)}</p>`;
    const epub = makeEpub(
      [
        { id: "c1", html: `<h1>One</h1>${long}` },
        { id: "c2", html: `<h1>Two</h1>${long}` },
        { id: "c3", html: `<h1>Three</h1>${long}` },
      ],
      { title: "Long" },
    );
    const out = await read(epub, "epub", {
      ...DOCUMENT_LIMITS,
      zip: { ...DOCUMENT_LIMITS.zip, maxTotalBytes: 450 * 1024 },
    });
    expect(out.ok && out.markdown).toMatch(/^# One/);
    expect(out.ok && out.markdown).toContain("# Two");
    expect(out.ok && out.markdown).not.toContain("# Three");
    expect(out.ok && out.markdown).toMatch(
      /\[E-book: the first 2 of 3 chapters; the document's parts inflate past 450 KB in all\]$/,
    );
  });
});

describe("a file that is not the document it claims to be", () => {
  it("is an error naming the part that is missing, never an empty document", async () => {
    const empty = makeZip([{ name: "readme.txt", data: "not a document" }]);
    const missing: Record<DocumentFormat, RegExp> = {
      docx: /no Word document part/,
      xlsx: /no xl\/workbook\.xml/,
      pptx: /no ppt\/presentation\.xml/,
      odt: /no content\.xml/,
      ods: /no content\.xml/,
      odp: /no content\.xml/,
      epub: /no META-INF\/container\.xml/,
    };
    for (const [format, message] of Object.entries(missing)) {
      const out = await read(empty, format as DocumentFormat);
      expect(out, format).toMatchObject({ ok: false, status: "error" });
      expect(!out.ok && out.message, format).toMatch(message);
    }
  });

  it("is an error when the bytes are no zip at all", async () => {
    expect(await read(Buffer.from("PK\x03\x04 and then nothing"), "xlsx")).toMatchObject({
      ok: false,
      status: "error",
      code: "corrupt_archive",
    });
  });
});

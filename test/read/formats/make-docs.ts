import { makeZip, type ZipEntrySpec } from "./make-zip.js";

/**
 * Office documents and e-books built from the parts their specifications describe, with only what a reader
 * needs. Where each shape comes from:
 * - OPC packages (`[Content_Types].xml`, `_rels/.rels`, `docProps/core.xml`): ECMA-376 Part 2; the core
 *   properties as in learn.microsoft.com/office/open-xml/general/structure-of-an-openxml-document.
 * - WordprocessingML `w:body`/`w:p`/`w:pStyle`/`w:numPr`/`w:tbl`: ECMA-376 Part 1 §17, as in the samples of
 *   github.com/vsch/flexmark-java flexmark-docx-converter/src/test/resources/docx_converter_ast_spec.md.
 * - SpreadsheetML `sst`/`si`, `sheetData`/`row`/`c` with `t="s"` and formulas: the ECMA-376 Part 3 primer
 *   (c-rex.net/samples/ooxml/e1/Part3/OOXML_P3_Primer_Cell_topic_ID0ECZHK.html) and
 *   learn.microsoft.com/office/open-xml/spreadsheet/working-with-the-shared-string-table.
 * - PresentationML `p:sldIdLst`, `p:sp`/`p:ph`/`p:txBody`/`a:p`: ECMA-376 Part 1 §19 and
 *   learn.microsoft.com/office/open-xml/presentation/structure-of-a-presentationml-document.
 * - ODF `content.xml`/`meta.xml`, stored `mimetype` first: OASIS ODF 1.2 Part 1 and Part 3 §3.3.
 * - EPUB `META-INF/container.xml`, the package document's metadata, manifest and spine: EPUB 3.3 (w3.org/TR/epub-33).
 */

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships";

function rels(items: [id: string, type: string, target: string][]): string {
  return `${XML}<Relationships xmlns="${PKG_REL}">${items
    .map(([id, type, target]) => `<Relationship Id="${id}" Type="${type}" Target="${target}"/>`)
    .join("")}</Relationships>`;
}

function core(title?: string, creator?: string): string {
  return `${XML}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">${
    title ? `<dc:title>${title}</dc:title>` : ""
  }${creator ? `<dc:creator>${creator}</dc:creator>` : ""}<dcterms:created xsi:type="dcterms:W3CDTF">2024-05-01T09:30:00Z</dcterms:created></cp:coreProperties>`;
}

function opcPackage(
  main: string,
  contentType: string,
  parts: ZipEntrySpec[],
  title?: string,
  creator?: string,
): ZipEntrySpec[] {
  return [
    {
      name: "[Content_Types].xml",
      data: `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/${main}" ContentType="${contentType}"/></Types>`,
    },
    {
      name: "_rels/.rels",
      data: rels([
        ["rId1", `${REL}/officeDocument`, main],
        [
          "rId2",
          "http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties",
          "docProps/core.xml",
        ],
      ]),
    },
    { name: "docProps/core.xml", data: core(title, creator) },
    ...parts,
  ];
}

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

export function wp(text: string, style?: string, list?: { numId: number; level: number }): string {
  const props =
    style || list
      ? `<w:pPr>${style ? `<w:pStyle w:val="${style}"/>` : ""}${
          list ? `<w:numPr><w:ilvl w:val="${list.level}"/><w:numId w:val="${list.numId}"/></w:numPr>` : ""
        }</w:pPr>`
      : "";
  return `<w:p>${props}<w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
}

/** A paragraph with a hyperlink (relationship rIdLink) and a reference to footnote 1. */
export function wlinkWithNote(before: string, link: string): string {
  return `<w:p><w:r><w:t xml:space="preserve">${before}</w:t></w:r><w:hyperlink r:id="rIdLink" xmlns:r="${REL}"><w:r><w:t>${link}</w:t></w:r></w:hyperlink><w:r><w:footnoteReference w:id="1"/></w:r></w:p>`;
}

export function wtable(rows: string[][]): string {
  return `<w:tbl><w:tblPr/>${rows
    .map((r) => `<w:tr>${r.map((c) => `<w:tc><w:tcPr/>${wp(c)}</w:tc>`).join("")}</w:tr>`)
    .join("")}</w:tbl>`;
}

const STYLES = `${XML}<w:styles ${W}>${[
  ["Title", "Title"],
  ["Heading1", "heading 1"],
  ["Heading2", "heading 2"],
  ["ListParagraph", "List Paragraph"],
]
  .map(([id, name]) => `<w:style w:type="paragraph" w:styleId="${id}"><w:name w:val="${name}"/></w:style>`)
  .join("")}</w:styles>`;

// numId 1: bullets; numId 2: decimal.
const NUMBERING = `${XML}<w:numbering ${W}><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/><w:lvlText w:val="•"/></w:lvl><w:lvl w:ilvl="1"><w:numFmt w:val="bullet"/><w:lvlText w:val="o"/></w:lvl></w:abstractNum><w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="0"><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num></w:numbering>`;

export function makeDocx(
  body: string,
  options: { title?: string; creator?: string; extra?: ZipEntrySpec[] } = {},
): Buffer {
  return makeZip(
    opcPackage(
      "word/document.xml",
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
      [
        {
          name: "word/document.xml",
          data: `${XML}<w:document ${W}><w:body>${body}<w:sectPr/></w:body></w:document>`,
        },
        {
          name: "word/_rels/document.xml.rels",
          data: `${rels([
            ["rId1", `${REL}/styles`, "styles.xml"],
            ["rId2", `${REL}/numbering`, "numbering.xml"],
            ["rId3", `${REL}/footnotes`, "footnotes.xml"],
          ]).replace(
            "</Relationships>",
            `<Relationship Id="rIdLink" Type="${REL}/hyperlink" Target="https://harbour.example.org/tides" TargetMode="External"/></Relationships>`,
          )}`,
        },
        {
          name: "word/footnotes.xml",
          data: `${XML}<w:footnotes ${W}><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote><w:footnote w:id="1"><w:p><w:r><w:t>Measured at the outer pier.</w:t></w:r></w:p></w:footnote></w:footnotes>`,
        },
        { name: "word/styles.xml", data: STYLES },
        { name: "word/numbering.xml", data: NUMBERING },
        ...(options.extra ?? []),
      ],
      options.title,
      options.creator,
    ),
  );
}

const S =
  'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';

export interface SheetSpec {
  name: string;
  /** The `sheetData` rows, as XML. */
  rows: string;
  dimension?: string;
  state?: string;
}

export function makeXlsx(
  sheets: SheetSpec[],
  strings: string[],
  options: { title?: string; styles?: string } = {},
): Buffer {
  const styles =
    options.styles ??
    `${XML}<styleSheet ${S}><numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd"/></numFmts><cellXfs count="3"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="164"/></cellXfs></styleSheet>`;
  return makeZip(
    opcPackage(
      "xl/workbook.xml",
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
      [
        {
          name: "xl/workbook.xml",
          data: `${XML}<workbook ${S}><workbookPr/><sheets>${sheets
            .map(
              (s, i) =>
                `<sheet name="${s.name}" sheetId="${i + 1}"${s.state ? ` state="${s.state}"` : ""} r:id="rId${i + 1}"/>`,
            )
            .join("")}</sheets></workbook>`,
        },
        {
          name: "xl/_rels/workbook.xml.rels",
          data: rels([
            ...sheets.map((_, i): [string, string, string] => [
              `rId${i + 1}`,
              `${REL}/worksheet`,
              `worksheets/sheet${i + 1}.xml`,
            ]),
            ["rIdS", `${REL}/sharedStrings`, "sharedStrings.xml"],
            ["rIdT", `${REL}/styles`, "styles.xml"],
          ]),
        },
        {
          name: "xl/sharedStrings.xml",
          data: `${XML}<sst ${S} count="${strings.length}" uniqueCount="${strings.length}">${strings.map((s) => `<si><t>${s}</t></si>`).join("")}</sst>`,
        },
        { name: "xl/styles.xml", data: styles },
        ...sheets.map((s, i) => ({
          name: `xl/worksheets/sheet${i + 1}.xml`,
          data: `${XML}<worksheet ${S}>${s.dimension ? `<dimension ref="${s.dimension}"/>` : ""}<sheetData>${s.rows}</sheetData></worksheet>`,
        })),
      ],
      options.title,
    ),
  );
}

const P =
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';

export function shape(type: string | undefined, paragraphs: string[]): string {
  return `<p:sp><p:nvSpPr><p:cNvPr id="2" name="Shape"/><p:cNvSpPr/><p:nvPr>${type ? `<p:ph type="${type}"/>` : ""}</p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:lstStyle/>${paragraphs.join("")}</p:txBody></p:sp>`;
}

export function ap(text: string, level = 0, props = ""): string {
  return `<a:p><a:pPr lvl="${level}">${props}</a:pPr><a:r><a:rPr lang="en-US"/><a:t>${text}</a:t></a:r></a:p>`;
}

export function makePptx(
  slides: { shapes: string; notes?: string }[],
  options: { title?: string; order?: number[] } = {},
): Buffer {
  const order = options.order ?? slides.map((_, i) => i);
  const parts: ZipEntrySpec[] = [
    {
      name: "ppt/presentation.xml",
      data: `${XML}<p:presentation ${P}><p:sldIdLst>${order.map((i) => `<p:sldId id="${256 + i}" r:id="rId${i + 1}"/>`).join("")}</p:sldIdLst></p:presentation>`,
    },
    {
      name: "ppt/_rels/presentation.xml.rels",
      data: rels(
        slides.map((_, i): [string, string, string] => [
          `rId${i + 1}`,
          `${REL}/slide`,
          `slides/slide${i + 1}.xml`,
        ]),
      ),
    },
  ];
  slides.forEach((slide, i) => {
    parts.push({
      name: `ppt/slides/slide${i + 1}.xml`,
      data: `${XML}<p:sld ${P}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${slide.shapes}</p:spTree></p:cSld></p:sld>`,
    });
    if (slide.notes) {
      parts.push(
        {
          name: `ppt/slides/_rels/slide${i + 1}.xml.rels`,
          data: rels([["rId9", `${REL}/notesSlide`, `../notesSlides/notesSlide${i + 1}.xml`]]),
        },
        {
          name: `ppt/notesSlides/notesSlide${i + 1}.xml`,
          data: `${XML}<p:notes ${P}><p:cSld><p:spTree>${shape("sldImg", [])}${shape("body", [ap(slide.notes)])}${shape("sldNum", [ap("3")])}</p:spTree></p:cSld></p:notes>`,
        },
      );
    }
  });
  return makeZip(
    opcPackage(
      "ppt/presentation.xml",
      "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml",
      parts,
      options.title,
    ),
  );
}

const ODF_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0"';

export function makeOdf(
  kind: "text" | "spreadsheet" | "presentation",
  body: string,
  options: { styles?: string; title?: string } = {},
): Buffer {
  return makeZip([
    { name: "mimetype", data: `application/vnd.oasis.opendocument.${kind}`, store: true },
    {
      name: "META-INF/manifest.xml",
      data: `${XML}<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.${kind}"/></manifest:manifest>`,
    },
    {
      name: "content.xml",
      data: `${XML}<office:document-content ${ODF_NS} office:version="1.2"><office:automatic-styles>${options.styles ?? ""}</office:automatic-styles><office:body><office:${kind}>${body}</office:${kind}></office:body></office:document-content>`,
    },
    {
      name: "meta.xml",
      data: `${XML}<office:document-meta ${ODF_NS} office:version="1.2"><office:meta>${options.title ? `<dc:title>${options.title}</dc:title>` : ""}<meta:initial-creator>Ada Lovelace</meta:initial-creator><meta:creation-date>2024-02-03T10:00:00</meta:creation-date><dc:language>en-GB</dc:language></office:meta></office:document-meta>`,
    },
  ]);
}

export function makeEpub(
  chapters: { id: string; html: string; linear?: boolean }[],
  options: { title?: string; nav?: boolean } = {},
): Buffer {
  const xhtml = (html: string) =>
    `<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Ignored head title</title><link rel="stylesheet" href="style.css"/></head><body>${html}</body></html>`;
  const items = chapters.map(
    (c) => `<item id="${c.id}" href="text/${c.id}.xhtml" media-type="application/xhtml+xml"/>`,
  );
  if (options.nav)
    items.push('<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>');
  return makeZip([
    { name: "mimetype", data: "application/epub+zip", store: true },
    {
      name: "META-INF/container.xml",
      data: `<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
    },
    {
      name: "OEBPS/content.opf",
      data: `<?xml version="1.0" encoding="UTF-8"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="uid"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="uid">urn:uuid:1</dc:identifier>${options.title ? `<dc:title>${options.title}</dc:title>` : ""}<dc:creator>Mary Shelley</dc:creator><dc:creator>Percy Shelley</dc:creator><dc:language>en</dc:language><dc:date>1818-01-01</dc:date></metadata><manifest>${items.join("")}</manifest><spine>${[
        ...(options.nav ? ['<itemref idref="nav"/>'] : []),
        ...chapters.map((c) => `<itemref idref="${c.id}"${c.linear === false ? ' linear="no"' : ""}/>`),
      ].join("")}</spine></package>`,
    },
    ...(options.nav
      ? [
          {
            name: "OEBPS/nav.xhtml",
            data: xhtml(
              '<nav epub:type="toc"><ol><li><a href="text/c1.xhtml">Contents entry</a></li></ol></nav>',
            ),
          },
        ]
      : []),
    ...chapters.map((c) => ({ name: `OEBPS/text/${c.id}.xhtml`, data: xhtml(c.html) })),
  ]);
}

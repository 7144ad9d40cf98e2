import { LinearParser } from "../../core/html-parser.js";
import type { DocumentBody, DocumentLimits } from "./documents.js";
import { metaProperties } from "./odf.js";
import { type SheetGrid, sheetHtml } from "./sheet-table.js";
import { readText } from "./xml.js";
import { attributeByLocalName, localName } from "./xml-elements.js";
import type { CappedZip, ZipFailure } from "./zip.js";

/**
 * An OpenDocument spreadsheet: each `table:table` of `content.xml` a sheet, read as a stream of XML events
 * (a sheet's content is all in the one part, and a tree of a 30 MB part took 400 MB and seconds where the
 * stream holds only the rows kept). Rows past the limit are counted, not kept; a part past the inflate cap is
 * read as far as the cap, with a note.
 */
export async function odsBody(zip: CappedZip, limits: DocumentLimits): Promise<DocumentBody | ZipFailure> {
  const content = await readText(zip, "content.xml", { cut: true });
  if (!content.ok) return content;
  const { sheets, total } = readSheets(content.text, limits);
  const html: string[] = [];
  const notes: string[] = [];
  for (const grid of sheets) {
    // The part's cut ends the last sheet early: how many rows it has in all is unknown.
    if (content.cut && grid === sheets[sheets.length - 1]) {
      grid.rowsCut = true;
      grid.totalRows = undefined;
    }
    const sheet = sheetHtml(grid);
    html.push(sheet.html);
    if (sheet.note) notes.push(sheet.note);
  }
  if (total > limits.sheets) notes.push(`[Workbook: first ${limits.sheets} of ${total} sheets]`);
  if (content.cut)
    notes.push("[Spreadsheet: read as far as the inflate cap of its content; later sheets left out]");
  return { ok: true, html: html.join("\n"), notes, properties: await metaProperties(zip) };
}

// Text inside a cell that is not what the cell shows: comments and notes.
const HIDDEN_IN_CELL = new Set(["annotation", "note"]);
const CHUNK = 64 * 1024;

interface Row {
  cells: string[];
  /** Empty cells seen since the last filled one: kept only when a filled one follows. */
  pendingEmpty: number;
  repeat: number;
}

function readSheets(xml: string, limits: DocumentLimits): { sheets: SheetGrid[]; total: number } {
  const sheets: SheetGrid[] = [];
  let total = 0;
  let sheet: SheetGrid | undefined;
  let tableDepth = 0;
  let pendingRows = 0;
  let totalRows = 0;
  let row: Row | undefined;
  let cell: { text: string; repeat: number; paragraphs: number } | undefined;
  let inParagraph = 0;
  let hidden = 0;

  const endCell = () => {
    if (!row || !cell) return;
    const text = cell.text;
    if (!text.trim()) row.pendingEmpty += cell.repeat;
    else if (sheet) {
      for (let i = 0; i < row.pendingEmpty + cell.repeat; i++) {
        if (row.cells.length >= limits.sheetColumns) {
          sheet.columnsCut = true;
          break;
        }
        row.cells.push(i < row.pendingEmpty ? "" : text);
      }
      row.pendingEmpty = 0;
    }
    cell = undefined;
  };
  const endRow = () => {
    if (!row || !sheet) return;
    if (!row.cells.length) pendingRows += row.repeat;
    else {
      totalRows += pendingRows + row.repeat;
      for (let i = 0; i < pendingRows + row.repeat; i++) {
        if (sheet.rows.length >= limits.sheetRows) {
          sheet.rowsCut = true;
          break;
        }
        sheet.rows.push(i < pendingRows ? [] : row.cells);
      }
      pendingRows = 0;
    }
    row = undefined;
  };

  const parser = new LinearParser(
    {
      onopentag(tag, attribs) {
        const local = localName(tag);
        if (local === "table") {
          tableDepth++;
          if (tableDepth !== 1) return;
          total++;
          pendingRows = 0;
          totalRows = 0;
          sheet =
            total <= limits.sheets
              ? {
                  name: attributeByLocalName(attribs, "name") ?? `Sheet ${total}`,
                  rows: [],
                  rowsCut: false,
                  columnsCut: false,
                }
              : undefined;
          if (sheet) sheets.push(sheet);
          return;
        }
        if (tableDepth !== 1 || !sheet) {
          if (cell && inParagraph) openInline(local, attribs);
          return;
        }
        if (local === "table-row")
          row = { cells: [], pendingEmpty: 0, repeat: count(attribs, "number-rows-repeated") };
        else if ((local === "table-cell" || local === "covered-table-cell") && row)
          cell = { text: "", repeat: count(attribs, "number-columns-repeated"), paragraphs: 0 };
        else if (cell) openInline(local, attribs);
      },
      ontext(data) {
        if (cell && inParagraph && !hidden) cell.text += data;
      },
      onclosetag(tag) {
        const local = localName(tag);
        if (local === "table") {
          if (tableDepth === 1 && sheet && sheet.rowsCut) sheet.totalRows = totalRows;
          tableDepth--;
          if (tableDepth === 0) sheet = undefined;
          return;
        }
        if (HIDDEN_IN_CELL.has(local) && hidden) hidden--;
        else if ((local === "p" || local === "h") && inParagraph) inParagraph--;
        else if (tableDepth === 1 && (local === "table-cell" || local === "covered-table-cell")) endCell();
        else if (tableDepth === 1 && local === "table-row") endRow();
      },
    },
    { xmlMode: true },
  );

  function openInline(local: string, attribs: Record<string, string>) {
    if (!cell) return;
    if (HIDDEN_IN_CELL.has(local)) hidden++;
    else if (hidden) return;
    else if (local === "p" || local === "h") {
      if (cell.paragraphs++ > 0) cell.text += "\n";
      inParagraph++;
    } else if (local === "s") cell.text += " ".repeat(Math.min(100, count(attribs, "c")));
    else if (local === "tab") cell.text += " ";
    else if (local === "line-break") cell.text += "\n";
  }

  for (let at = 0; at < xml.length; at += CHUNK) parser.write(xml.slice(at, at + CHUNK));
  parser.end();
  return { sheets, total };
}

function count(attribs: Record<string, string>, local: string): number {
  return Math.max(1, Number(attributeByLocalName(attribs, local) ?? 1) || 1);
}

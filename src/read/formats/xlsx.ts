import type { Document } from "domhandler";
import { LinearParser } from "../../core/html-parser.js";
import type { DocumentBody, DocumentLimits } from "./documents.js";
import { coreProperties, mainPart, relationships } from "./ooxml.js";
import { type SheetGrid, sheetHtml } from "./sheet-table.js";
import { readText, readXml, relationshipId } from "./xml.js";
import { attr, childElements, findElement, findElements, localName } from "./xml-elements.js";
import type { CappedZip, ZipFailure } from "./zip.js";

/**
 * An Excel workbook (SpreadsheetML, ECMA-376 Part 1 §18): each sheet, in the workbook's order, as a table of
 * what its cells show: shared strings resolved, dates in date-formatted cells as dates, formulas as their
 * cached values. Sheets are read as a stream of XML events, stopped at the row limit, so a sheet of a million
 * rows costs what its first rows cost; a sheet larger than the part cap is read as far as the cap.
 */
export async function xlsxBody(zip: CappedZip, limits: DocumentLimits): Promise<DocumentBody | ZipFailure> {
  const workbookName = await mainPart(zip, "xl/workbook.xml");
  if (typeof workbookName !== "string") return workbookName;
  const workbook = await readXml(zip, workbookName);
  if (!workbook.ok) return workbook;
  const rels = await relationships(zip, workbookName);
  if (!Array.isArray(rels)) return rels;
  const byId = new Map(rels.map((r) => [r.id, r]));

  const strings = await sharedStrings(zip, rels.find((r) => r.type.endsWith("/sharedStrings"))?.target);
  if (!Array.isArray(strings)) return strings;
  const dates = await dateStyles(zip, rels.find((r) => r.type.endsWith("/styles"))?.target);
  const properties = findElement(workbook.doc, "workbookPr");
  const date1904 = !!properties && ["1", "true"].includes(attr(properties, "date1904") ?? "");

  const sheets = findElements(findElement(workbook.doc, "sheets"), "sheet");
  const html: string[] = [];
  const notes: string[] = [];
  for (const sheet of sheets.slice(0, limits.sheets)) {
    const name = attr(sheet, "name") ?? "Sheet";
    const rel = byId.get(relationshipId(sheet) ?? "");
    // Chart sheets and dialog sheets hold no cells.
    if (!rel || !zip.has(rel.target) || !rel.type.endsWith("/worksheet")) continue;
    const target = rel.target;
    const text = await readText(zip, target, { cut: true });
    if (!text.ok) {
      if (text.code !== "too_large") return text;
      notes.push(`[Sheet "${name}" not read: ${text.message.replace(/^document refused: /, "")}]`);
      continue;
    }
    const grid = readSheet(text.text, { strings, dates, date1904 }, limits);
    grid.name = name;
    grid.hidden = attr(sheet, "state") === "hidden" || attr(sheet, "state") === "veryHidden";
    if (text.cut && !grid.rowsCut) grid.rowsCut = true;
    const table = sheetHtml(grid);
    html.push(table.html);
    if (table.note) notes.push(table.note);
  }
  if (sheets.length > limits.sheets)
    notes.push(`[Workbook: first ${limits.sheets} of ${sheets.length} sheets]`);
  return { ok: true, html: html.join("\n"), notes, properties: await coreProperties(zip) };
}

/** The shared string table: each `si`'s text runs, without phonetic guides (`rPh`). */
async function sharedStrings(zip: CappedZip, name: string | undefined): Promise<string[] | ZipFailure> {
  if (!name || !zip.has(name)) return [];
  const text = await readText(zip, name);
  if (!text.ok) return text;
  const strings: string[] = [];
  let current: string | undefined;
  let inText = 0;
  let phonetic = 0;
  const parser = new LinearParser(
    {
      onopentag(tag) {
        const local = localName(tag);
        if (local === "si") current = "";
        else if (local === "rPh") phonetic++;
        else if (local === "t" && !phonetic) inText++;
      },
      ontext(data) {
        if (inText && current !== undefined) current += data;
      },
      onclosetag(tag) {
        const local = localName(tag);
        if (local === "si") {
          strings.push(current ?? "");
          current = undefined;
        } else if (local === "rPh") phonetic--;
        else if (local === "t" && inText) inText--;
      },
    },
    { xmlMode: true },
  );
  parser.end(text.text);
  return strings;
}

// Excel's built-in number formats that show a date or a time (ECMA-376 Part 1 §18.8.30).
const BUILTIN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47]);

/** The cell style indexes (`s`) whose number format shows a date. */
async function dateStyles(zip: CappedZip, name: string | undefined): Promise<Set<number>> {
  const dates = new Set<number>();
  if (!name || !zip.has(name)) return dates;
  const xml = await readXml(zip, name);
  if (!xml.ok) return dates;
  const custom = new Map<number, string>();
  for (const fmt of findElements(findElement(xml.doc, "numFmts"), "numFmt"))
    custom.set(Number(attr(fmt, "numFmtId")), attr(fmt, "formatCode") ?? "");
  childElements(findElement(xml.doc, "cellXfs") ?? (xml.doc as Document), "xf").forEach((xf, i) => {
    const id = Number(attr(xf, "numFmtId") ?? 0);
    const code = custom.get(id);
    if (code !== undefined ? isDateFormat(code) : BUILTIN_DATE_FORMATS.has(id)) dates.add(i);
  });
  return dates;
}

/** A format code that shows a date: d, m, y or h outside quoted text, escapes and [colour] brackets. */
function isDateFormat(code: string): boolean {
  const bare = code.replace(/"[^"]*"|\\.|\[[^\]]*\]/g, "");
  return /[dmyh]/i.test(bare) && !/^[#0.,%\s]*$/.test(bare);
}

interface CellContext {
  strings: string[];
  dates: Set<number>;
  date1904: boolean;
}

const CHUNK = 64 * 1024;

/** A worksheet's cells, row by row, stopped once the row limit is passed. */
export function readSheet(xml: string, context: CellContext, limits: DocumentLimits): SheetGrid {
  const grid: SheetGrid = { name: "", rows: [], rowsCut: false, columnsCut: false };
  let row: string[] | undefined;
  let rowIndex = -1;
  let col = -1;
  let cell: { type: string; style: number; value: string; inline: string } | undefined;
  let reading: "v" | "t" | undefined;
  let done = false;
  const parser = new LinearParser(
    {
      onopentag(tag, attribs) {
        const local = localName(tag);
        if (local === "dimension") {
          const span = spanOf(attribs.ref ?? "");
          if (span) {
            grid.totalRows = span.rows;
            grid.totalColumns = span.columns;
          }
        } else if (local === "row") {
          const r = Number(attribs.r);
          const index = Number.isInteger(r) && r > 0 ? r - 1 : rowIndex + 1;
          if (index >= limits.sheetRows) {
            grid.rowsCut = true;
            done = true;
            return;
          }
          while (grid.rows.length < index) grid.rows.push([]);
          rowIndex = index;
          row = [];
          grid.rows[index] = row;
          col = -1;
        } else if (local === "c" && row) {
          const at = columnOf(attribs.r ?? "");
          col = at ?? col + 1;
          cell = { type: attribs.t ?? "n", style: Number(attribs.s ?? 0), value: "", inline: "" };
        } else if (cell && local === "v") reading = "v";
        else if (cell && local === "t") reading = "t";
      },
      ontext(data) {
        if (!cell || !reading) return;
        if (reading === "v") cell.value += data;
        else cell.inline += data;
      },
      onclosetag(tag) {
        const local = localName(tag);
        if (local === "v" || local === "t") reading = undefined;
        else if (local === "c" && cell && row) {
          if (col < limits.sheetColumns) row[col] = cellText(cell, context);
          else grid.columnsCut = true;
          cell = undefined;
        } else if (local === "row") row = undefined;
      },
    },
    { xmlMode: true },
  );
  for (let at = 0; at < xml.length && !done; at += CHUNK) parser.write(xml.slice(at, at + CHUNK));
  if (!done) parser.end();
  for (let i = 0; i < grid.rows.length; i++) {
    const r = grid.rows[i] ?? [];
    grid.rows[i] = Array.from({ length: r.length }, (_, c) => r[c] ?? "");
  }
  if (grid.totalColumns && grid.totalColumns > limits.sheetColumns) grid.columnsCut = true;
  return grid;
}

function cellText(
  cell: { type: string; style: number; value: string; inline: string },
  context: CellContext,
): string {
  switch (cell.type) {
    case "s":
      return context.strings[Number(cell.value)] ?? "";
    case "inlineStr":
      return cell.inline;
    case "b":
      return cell.value === "1" ? "TRUE" : "FALSE";
    case "str":
    case "e":
      return cell.value;
    default: {
      const n = Number(cell.value);
      if (cell.value === "" || !Number.isFinite(n)) return cell.value;
      if (context.dates.has(cell.style)) return serialDate(n, context.date1904);
      // Excel writes 17 significant digits; it shows 15.
      return Number.isInteger(n) ? cell.value : String(Number(n.toPrecision(15)));
    }
  }
}

/** An Excel serial date (days since 1899-12-30, or 1904-01-01) as ISO text, with the time when it has one. */
function serialDate(serial: number, date1904: boolean): string {
  const epoch = date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, 30);
  const ms = Math.round((serial * 86_400_000) / 1000) * 1000;
  const iso = new Date(epoch + ms).toISOString();
  const day = iso.slice(0, 10);
  const time = iso.slice(11, 19);
  if (time === "00:00:00") return day;
  return serial < 1 ? time : `${day} ${time}`;
}

/** The zero-based column of a cell reference ("AB12" → 27). */
function columnOf(ref: string): number | undefined {
  const letters = /^[A-Z]+/i.exec(ref)?.[0];
  if (!letters) return undefined;
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

/** Rows and columns a `dimension` range covers ("A1:C300" → 300 rows, 3 columns). */
function spanOf(ref: string): { rows: number; columns: number } | undefined {
  const m = /^([A-Z]+)(\d+)(?::([A-Z]+)(\d+))?$/i.exec(ref);
  if (!m?.[3]) return undefined;
  const first = columnOf(m[1]) ?? 0;
  const last = columnOf(m[3]) ?? 0;
  return { rows: Number(m[4]) - Number(m[2]) + 1, columns: last - first + 1 };
}

import { escapeHtml } from "./xml.js";

/** A sheet as read: its cells row by row (within the limits), and how much more the sheet holds. */
export interface SheetGrid {
  name: string;
  hidden?: boolean;
  /** Cell text, row by row; a missing cell is "". */
  rows: string[][];
  /** Rows the sheet has in all, when known (a declared dimension, or counted). */
  totalRows?: number;
  /** Columns the sheet has in all, when known. */
  totalColumns?: number;
  /** Whether rows were left out (past the row limit, or past the part's inflate cap). */
  rowsCut: boolean;
  /** Whether columns were left out. */
  columnsCut: boolean;
}

/**
 * A sheet as a heading and a table whose first row is its header (GFM needs one, and a sheet's first row is
 * its header far more often than not), with a note of what was cut. Empty rows and the empty columns at the
 * right are dropped: a sheet's used range is often far wider than its data.
 */
export function sheetHtml(sheet: SheetGrid): { html: string; note?: string } {
  const rows = sheet.rows.filter((r) => r.some((c) => c.trim()));
  const width = Math.max(0, ...rows.map((r) => lastFilled(r) + 1));
  const heading = `<h2>${escapeHtml(sheet.name)}${sheet.hidden ? " (hidden)" : ""}</h2>`;
  if (!rows.length || width === 0) return { html: `${heading}<p>(empty sheet)</p>`, note: cutNote(sheet, 0) };
  const cells = (row: string[], tag: "th" | "td") =>
    Array.from({ length: width }, (_, i) => `<${tag}>${cellHtml(row[i] ?? "")}</${tag}>`).join("");
  const [head, ...body] = rows;
  const html = `${heading}<table><thead><tr>${cells(head, "th")}</tr></thead><tbody>${body
    .map((r) => `<tr>${cells(r, "td")}</tr>`)
    .join("")}</tbody></table>`;
  return { html, note: cutNote(sheet, sheet.rows.length) };
}

function lastFilled(row: string[]): number {
  for (let i = row.length - 1; i >= 0; i--) if (row[i].trim()) return i;
  return -1;
}

function cellHtml(text: string): string {
  return escapeHtml(text.trim()).replace(/\r?\n/g, "<br>");
}

function cutNote(sheet: SheetGrid, read: number): string | undefined {
  if (!sheet.rowsCut && !sheet.columnsCut) return undefined;
  const parts: string[] = [];
  if (sheet.rowsCut)
    parts.push(
      sheet.totalRows && sheet.totalRows > read
        ? `first ${read} of ${sheet.totalRows} rows`
        : `first ${read} rows (more follow)`,
    );
  if (sheet.columnsCut) {
    const width = Math.max(0, ...sheet.rows.map((r) => r.length));
    parts.push(
      sheet.totalColumns
        ? `first ${width} of ${sheet.totalColumns} columns`
        : `first ${width} columns (more follow)`,
    );
  }
  return `[Sheet "${sheet.name}": ${parts.join(", ")}]`;
}

import type { Element } from "./dom.js";
import { findFirst, isTag } from "./dom.js";
import { CELL_STRUCTURE } from "./tags.js";

const SECTION_TAGS = new Set(["thead", "tbody", "tfoot"]);

function rowsOf(table: Element): Element[] {
  const rows: Element[] = [];
  for (const child of table.children) {
    if (!isTag(child)) continue;
    if (child.name === "tr") rows.push(child);
    else if (SECTION_TAGS.has(child.name))
      for (const r of child.children) if (isTag(r) && r.name === "tr") rows.push(r);
  }
  return rows;
}

function cellsOf(row: Element): Element[] {
  return row.children.filter((c): c is Element => isTag(c) && (c.name === "td" || c.name === "th"));
}

/** The rows and width of a table that holds data, or undefined for a layout table. */
function dataGrid(table: Element): { grid: Element[][]; width: number } | undefined {
  const rows = rowsOf(table);
  if (!rows.length) return undefined;
  const grid = rows.map(cellsOf);
  const width = Math.max(...grid.map((cells) => cells.reduce((n, c) => n + span(c), 0)));
  if (width < 2) return undefined;
  for (const cells of grid)
    for (const cell of cells) if (findFirst(cell, (el) => CELL_STRUCTURE.has(el.name))) return undefined;
  return { grid, width };
}

/**
 * A table that clearly holds data (Readability's test on top of ours): it declares its structure
 * (caption, header cells, column groups) or is too large a grid to be a layout.
 */
export function isDataTable(table: Element): boolean {
  const layout = dataGrid(table);
  if (!layout || layout.grid.length < 2) return false;
  if (table.attribs.role === "presentation") return false;
  const declared = findFirst(table, (el) => ["caption", "thead", "th", "colgroup"].includes(el.name));
  if (declared || table.attribs.summary) return true;
  return layout.grid.length >= 10 || layout.width > 4 || layout.grid.length * layout.width > 10;
}

/**
 * Tables used for page layout (one column, or cells holding lists, headings
 * or nested tables) are read as their cells' blocks; only data tables become
 * GFM tables. Returns undefined for a layout table.
 */
export function renderDataTable(
  table: Element,
  cellText: (cell: Element) => string,
): { caption?: Element; markdown: string } | undefined {
  const layout = dataGrid(table);
  if (!layout) return undefined;
  const { grid, width } = layout;
  const lines = grid
    .map((cells) => {
      const texts: string[] = [];
      for (const cell of cells) {
        texts.push(
          cellText(cell)
            .replace(/\s*\n\s*/g, " ")
            .replace(/\|/g, "\\|"),
        );
        for (let i = 1; i < span(cell); i++) texts.push("");
      }
      while (texts.length < width) texts.push("");
      return texts;
    })
    .filter((texts) => texts.some((t) => t));
  if (!lines.length) return undefined;
  if (lines.some((texts) => texts.join("").length > 1200)) return undefined;
  const row = (texts: string[]) => `| ${texts.join(" | ")} |`;
  const separator = row(Array.from({ length: width }, () => "---"));
  const caption = table.children.find((c): c is Element => isTag(c) && c.name === "caption");
  const [header, ...body] = lines;
  return { caption, markdown: [row(header!), separator, ...body.map(row)].join("\n") };
}

function span(cell: Element): number {
  const n = Number.parseInt(cell.attribs.colspan ?? "1", 10);
  return Number.isFinite(n) && n > 1 ? Math.min(n, 20) : 1;
}

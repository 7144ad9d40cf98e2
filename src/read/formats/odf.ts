import type { Document, Element } from "domhandler";
import { isTag, isText } from "domhandler";
import { oneLine } from "../../core/one-line.js";
import type { DocumentBody, DocumentLimits } from "./documents.js";
import type { SheetGrid } from "./sheet-table.js";
import { escapeHtml, readXml, textContent } from "./xml.js";
import { attr, childElements, findElement, findElements, localName } from "./xml-elements.js";
import type { CappedZip, ZipFailure } from "./zip.js";

/**
 * OpenDocument text and presentations (ODF 1.2 Part 1; spreadsheets are `ods.ts`): `content.xml` holds the
 * body, whose one child says which it is (`office:text`, `office:presentation`), `meta.xml` the title,
 * author, date and language, and the list styles (in either file) whether a list is numbered.
 */
export async function odfBody(zip: CappedZip, limits: DocumentLimits): Promise<DocumentBody | ZipFailure> {
  const content = await readXml(zip, "content.xml");
  if (!content.ok) return content;
  const listKinds = listStyles(content.doc);
  if (zip.has("styles.xml")) {
    const styles = await readXml(zip, "styles.xml");
    if (styles.ok)
      for (const [name, kinds] of listStyles(styles.doc))
        if (!listKinds.has(name)) listKinds.set(name, kinds);
  }
  const properties = await metaProperties(zip);
  const body = childElements(findElement(content.doc, "body") ?? content.doc)[0];
  if (!body) return { ok: true, html: "", notes: [], properties };
  const writer = new OdfWriter(listKinds, limits);
  switch (localName(body.name)) {
    case "presentation":
      return { ok: true, html: presentation(body, writer), notes: [], properties };
    default: {
      const html = writer.blocks(body) + writer.footnotes();
      return { ok: true, html, notes: [], properties };
    }
  }
}

export async function metaProperties(zip: CappedZip): Promise<DocumentBody["properties"]> {
  if (!zip.has("meta.xml")) return {};
  const meta = await readXml(zip, "meta.xml");
  if (!meta.ok) return {};
  const field = (local: string) => oneLine(textContent(findElement(meta.doc, local)), 300) || undefined;
  return {
    title: field("title"),
    byline: field("creator") ?? field("initial-creator"),
    published: field("creation-date") ?? field("date"),
    lang: field("language"),
  };
}

type ListKinds = Map<string, Map<number, "ul" | "ol">>;

/** Each list style's kind at each level: numbered (`list-level-style-number`) or bulleted. */
function listStyles(doc: Document): ListKinds {
  const kinds: ListKinds = new Map();
  for (const style of findElements(doc, "list-style")) {
    const levels = new Map<number, "ul" | "ol">();
    for (const level of childElements(style))
      levels.set(
        Number(attr(level, "level") ?? 1),
        localName(level.name) === "list-level-style-number" ? "ol" : "ul",
      );
    kinds.set(attr(style, "name") ?? "", levels);
  }
  return kinds;
}

// Generated copies of the document's own headings and entries, and text that is not the document's: tracked
// deletions, comments, form and variable declarations.
const SKIPPED = new Set([
  "table-of-content",
  "alphabetical-index",
  "illustration-index",
  "table-index",
  "object-index",
  "user-index",
  "bibliography",
  "tracked-changes",
  "annotation",
  "forms",
  "sequence-decls",
  "variable-decls",
  "user-field-decls",
  "soft-page-break",
]);

class OdfWriter {
  private readonly notes: string[] = [];

  constructor(
    private readonly listKinds: ListKinds,
    private readonly limits: DocumentLimits,
  ) {}

  /** Block content (a text body, a list item, a frame's text box) as HTML. */
  blocks(parent: Element, list?: { style?: string; level: number }): string {
    let html = "";
    for (const el of childElements(parent)) {
      const local = localName(el.name);
      if (SKIPPED.has(local)) continue;
      switch (local) {
        case "h": {
          const level = Math.min(6, Math.max(1, Number(attr(el, "outline-level") ?? 1) || 1));
          const text = this.inline(el);
          if (text.trim()) html += `<h${level}>${text}</h${level}>`;
          break;
        }
        case "p": {
          const text = this.inline(el);
          if (text.trim()) html += `<p>${text}</p>`;
          html += this.anchoredFrames(el);
          break;
        }
        case "list": {
          const style = attr(el, "style-name") ?? list?.style;
          const level = (list?.level ?? 0) + 1;
          const tag = (style && this.listKinds.get(style)?.get(level)) ?? "ul";
          const items = childElements(el)
            .filter((item) => localName(item.name) === "list-item" || localName(item.name) === "list-header")
            .map((item) => `<li>${this.blocks(item, { style, level })}</li>`);
          if (items.length) html += `<${tag}>${items.join("")}</${tag}>`;
          break;
        }
        case "table":
          html += this.table(el);
          break;
        default:
          // Sections, frames, text boxes, shapes: their blocks, in order.
          html += this.blocks(el, list);
      }
    }
    return html;
  }

  /** Text frames anchored inside a paragraph (a text box, a caption) read after it. */
  private anchoredFrames(p: Element): string {
    return findElements(p, "text-box")
      .map((box) => this.blocks(box))
      .join("");
  }

  inline(parent: Element): string {
    let html = "";
    for (const node of parent.children) {
      if (isText(node)) {
        html += escapeHtml(node.data);
        continue;
      }
      if (!isTag(node)) continue;
      const local = localName(node.name);
      if (SKIPPED.has(local)) continue;
      switch (local) {
        case "s":
          html += " ".repeat(Math.min(100, Number(attr(node, "c") ?? 1) || 1));
          break;
        case "tab":
          html += " ";
          break;
        case "line-break":
          html += "<br>";
          break;
        case "a": {
          const href = attr(node, "href");
          const text = this.inline(node);
          html +=
            href && /^(https?|mailto):/i.test(href) ? `<a href="${escapeHtml(href)}">${text}</a>` : text;
          break;
        }
        case "note": {
          const body = findElement(node, "note-body");
          if (body) {
            this.notes.push(this.blocks(body));
            html += `<sup>[${this.notes.length}]</sup>`;
          }
          break;
        }
        case "frame":
          // A frame anchored in the line: its text box is read after the paragraph.
          break;
        default:
          html += this.inline(node);
      }
    }
    return html;
  }

  /** The document's footnotes and endnotes, numbered as they were cited. */
  footnotes(): string {
    if (!this.notes.length) return "";
    return `<h2>Notes</h2><ol>${this.notes.map((n) => `<li>${n}</li>`).join("")}</ol>`;
  }

  private table(table: Element): string {
    const grid = this.grid(table, this.limits.sheetRows);
    if (!grid.rows.length) return "";
    const width = Math.max(...grid.rows.map((r) => r.length));
    const cells = (row: string[], tag: string) =>
      Array.from({ length: width }, (_, i) => `<${tag}>${row[i] ?? ""}</${tag}>`).join("");
    const [head, ...body] = grid.rows;
    return `<table><thead><tr>${cells(head, "th")}</tr></thead><tbody>${body
      .map((r) => `<tr>${cells(r, "td")}</tr>`)
      .join("")}</tbody></table>`;
  }

  /**
   * A table's cells as inline HTML, row by row, within the limits. Repeated rows and cells (a spreadsheet
   * marks its empty tail as one row repeated a million times) are expanded only up to the limits, and a
   * repeated run of empty cells or rows is kept only when something follows it.
   */
  private grid(table: Element, maxRows: number): SheetGrid {
    const grid: SheetGrid = { name: attr(table, "name") ?? "", rows: [], rowsCut: false, columnsCut: false };
    let pendingEmpty = 0;
    let totalRows = 0;
    for (const row of tableRows(table)) {
      const repeat = Math.max(1, Number(attr(row, "number-rows-repeated") ?? 1) || 1);
      const cells = this.rowCells(row, grid);
      if (!cells.some((c) => c.trim())) {
        pendingEmpty += repeat;
        continue;
      }
      totalRows += pendingEmpty + repeat;
      for (let i = 0; i < pendingEmpty + repeat; i++) {
        if (grid.rows.length >= maxRows) {
          grid.rowsCut = true;
          break;
        }
        grid.rows.push(i < pendingEmpty ? [] : cells);
      }
      pendingEmpty = 0;
    }
    if (grid.rowsCut) grid.totalRows = totalRows;
    return grid;
  }

  private rowCells(row: Element, grid: SheetGrid): string[] {
    const cells: string[] = [];
    let pendingEmpty = 0;
    for (const cell of childElements(row)) {
      const local = localName(cell.name);
      if (local !== "table-cell" && local !== "covered-table-cell") continue;
      const repeat = Math.max(1, Number(attr(cell, "number-columns-repeated") ?? 1) || 1);
      const text = local === "covered-table-cell" ? "" : this.cellHtml(cell);
      if (!text.trim()) {
        pendingEmpty += repeat;
        continue;
      }
      for (let i = 0; i < pendingEmpty + repeat; i++) {
        if (cells.length >= this.limits.sheetColumns) {
          grid.columnsCut = true;
          break;
        }
        cells.push(i < pendingEmpty ? "" : text);
      }
      pendingEmpty = 0;
    }
    return cells;
  }

  private cellHtml(cell: Element): string {
    return cellParagraphs(cell)
      .map((p) => this.inline(p))
      .join("<br>");
  }
}

function cellParagraphs(cell: Element): Element[] {
  return childElements(cell).filter((el) => localName(el.name) === "p" || localName(el.name) === "h");
}

function tableRows(table: Element): Element[] {
  const rows: Element[] = [];
  for (const child of childElements(table)) {
    const local = localName(child.name);
    if (local === "table-row") rows.push(child);
    else if (local === "table-header-rows" || local === "table-rows" || local === "table-row-group")
      rows.push(...tableRows(child));
  }
  return rows;
}

/** Each page of a presentation: a heading with its title frame's text, its other frames, its notes. */
function presentation(body: Element, writer: OdfWriter): string {
  const html: string[] = [];
  for (const [i, page] of childElements(body, "page").entries()) {
    let title = "";
    let content = "";
    let notes = "";
    for (const el of childElements(page)) {
      const local = localName(el.name);
      if (local === "notes") {
        notes = findElements(el, "text-box")
          .map((box) => textContent(box))
          .join(" ")
          .replace(/\s+/g, " ")
          .trim();
        continue;
      }
      if (local !== "frame" && local !== "custom-shape" && local !== "g") continue;
      const kind = attr(el, "class");
      if (kind === "title" && !title) {
        title = textContent(el).replace(/\s+/g, " ").trim();
        continue;
      }
      if (kind === "page-number" || kind === "footer" || kind === "date-time" || kind === "header") continue;
      content += writer.blocks(el);
    }
    html.push(`<h2>${escapeHtml(`Slide ${i + 1}${title ? `: ${title}` : ""}`)}</h2>${content}`);
    if (notes) html.push(`<p><strong>Notes:</strong> ${escapeHtml(notes)}</p>`);
  }
  return html.join("\n");
}

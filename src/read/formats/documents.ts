import type { DocumentFormat } from "../content-kind.js";
import { runOnPool } from "../page-pool.js";
import type { FormatOutcome, FormatReader } from "./format-reader.js";
import type { DocumentProperties } from "./ooxml.js";
import { ZIP_LIMITS, type ZipLimits } from "./zip.js";

/**
 * Office documents and e-books: zip archives of XML parts. Each format's file turns its parts into plain HTML
 * (headings, paragraphs, lists, tables), and the one fragment renderer makes that markdown, so every format's
 * tables and lists read alike. The whole read runs on the page pool: a hostile archive's inflating and parsing
 * never hold the caller's event loop, and the thread is terminated when the read's deadline passes. This file is
 * what the ladder loads; the unpacking and the parsers (`read-document.ts`) load on the worker only.
 */

/** What a format's parser makes of the archive: its body as HTML, notes of what was cut, its properties. */
export interface DocumentBody {
  ok: true;
  html: string;
  /** Lines saying what was left out ("[Sheet "Data": first 300 of 12000 rows]"), put after the text. */
  notes: string[];
  properties: DocumentProperties & { lang?: string };
}

export interface DocumentLimits {
  zip: ZipLimits;
  /** Rows of each sheet put in its table (a spreadsheet's, an ODF document's). */
  sheetRows: number;
  /** Columns of each sheet's table. */
  sheetColumns: number;
  /** Sheets of a workbook read. */
  sheets: number;
}

// A sheet's table is for reading, not for analysis: 300 rows by 40 columns is about 60 KB of markdown, and a
// caller who wants the data whole downloads the file.
export const DOCUMENT_LIMITS: DocumentLimits = {
  zip: ZIP_LIMITS,
  sheetRows: 300,
  sheetColumns: 40,
  sheets: 30,
};

export const DOCUMENT_NAMES: Record<DocumentFormat, string> = {
  docx: "Word document",
  xlsx: "spreadsheet",
  pptx: "presentation",
  odt: "OpenDocument text",
  ods: "OpenDocument spreadsheet",
  odp: "OpenDocument presentation",
  epub: "e-book",
};

/** The format reader of one document format: the read goes to the page pool with what is left of its time. */
export function documentReader(format: DocumentFormat): FormatReader {
  return {
    name: format,
    source: "document",
    async read(bytes, file, deadline) {
      if (bytes.length > MAX_DOCUMENT_BYTES)
        return {
          ok: false,
          status: "unsupported",
          code: "too_large",
          message: `${DOCUMENT_NAMES[format]} of ${bytes.length} bytes, over ${MAX_DOCUMENT_BYTES}`,
        };
      const copy = new Uint8Array(bytes);
      const task = { bytes: copy, format, url: file.url, remainingMs: deadline.remaining() };
      const ran = await runOnPool<FormatOutcome>(
        "document",
        task,
        deadline,
        `reading the ${DOCUMENT_NAMES[format]}`,
        [copy.buffer],
      );
      return ran.ok ? ran.value : { ...ran, ok: false };
    },
  };
}

// The read ladder's own cap on a response (10 MB) bounds what arrives; a library caller's bytes are held to the
// same figure as a PDF's.
const MAX_DOCUMENT_BYTES = 20 * 1024 * 1024;

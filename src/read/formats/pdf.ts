import zlib from "node:zlib";
import type { Deadline } from "../../core/deadline.js";
import { errorLine } from "../../core/one-line.js";
import type { Failure } from "../../core/status.js";
import { runOnPool } from "../page-pool.js";
import type { FormatReader } from "./format-reader.js";

export interface PdfText {
  ok: true;
  title?: string;
  markdown: string;
  pagesRead: number;
  totalPages: number;
}

export interface PdfLimits {
  deadline: Deadline;
  maxPages?: number;
  maxBytes?: number;
  /** What its compressed streams may inflate to, all together (default MAX_INFLATED_BYTES). */
  maxInflatedBytes?: number;
}

// unpdf's bundled pdf.js declarations do not resolve under NodeNext, so the few members used are declared here.
interface PdfDocument {
  numPages: number;
  getPage(n: number): Promise<PdfPage>;
  getMetadata(): Promise<{ info?: unknown }>;
  destroy(): Promise<void>;
}
interface PdfPage {
  getTextContent(): Promise<{ items: unknown[] }>;
  cleanup(): void;
}
interface TextItem {
  str?: string;
  hasEOL?: boolean;
  transform?: number[];
  height?: number;
}

export type PdfOutcome = PdfText | (Failure & { ok: false });

const DEFAULT_MAX_PAGES = 60;
const DEFAULT_MAX_BYTES = 20 * 1024 * 1024;
// What the compressed (Flate) streams pdf.js may need to read text may inflate to, all together: a long report's
// content streams, fonts and object streams take a few MB; a few KB of zeros inflate to a gigabyte.
export const MAX_INFLATED_BYTES = 64 * 1024 * 1024;

/**
 * Text of a PDF, page by page, stopping at the page limit or the deadline (what was read by then is kept and
 * labelled). pdf.js runs on a worker thread of the page pool: its inflating and parsing are long stretches of
 * work in which it checks no deadline, so the thread is terminated when the deadline passes.
 */
export async function pdfToText(bytes: Uint8Array, limits: PdfLimits): Promise<PdfOutcome> {
  const maxBytes = limits.maxBytes ?? DEFAULT_MAX_BYTES;
  if (bytes.length > maxBytes)
    return {
      ok: false,
      status: "unsupported",
      code: "too_large",
      message: `PDF of ${bytes.length} bytes, over ${maxBytes}`,
    };
  // pdf.js takes ownership of (and may detach) the buffer it is given, so the thread gets a copy.
  const copy = new Uint8Array(bytes);
  const task = {
    bytes: copy,
    remainingMs: limits.deadline.remaining(),
    maxPages: limits.maxPages,
    maxInflatedBytes: limits.maxInflatedBytes,
  };
  const ran = await runOnPool<PdfOutcome>("pdf", task, limits.deadline, "parsing the PDF", [copy.buffer]);
  return ran.ok ? ran.value : { ...ran, ok: false };
}

/** PDFs in the read ladder: the text of their pages, titled by the document's own title. */
export const pdfReader: FormatReader = {
  name: "pdf",
  source: "pdf",
  async read(bytes, _file, deadline) {
    const pdf = await pdfToText(bytes, { deadline });
    return pdf.ok ? { ok: true, title: pdf.title, markdown: pdf.markdown } : pdf;
  },
};

/** pdfToText on this thread (the page pool's worker runs it): bounded in memory, not in time. */
export async function pdfToTextHere(bytes: Uint8Array, limits: PdfLimits): Promise<PdfOutcome> {
  const maxPages = limits.maxPages ?? DEFAULT_MAX_PAGES;
  const maxInflated = limits.maxInflatedBytes ?? MAX_INFLATED_BYTES;
  if (!flateStreamsWithin(bytes, maxInflated))
    return {
      ok: false,
      status: "unsupported",
      code: "too_large",
      message: `PDF whose compressed streams inflate past ${Math.round(maxInflated / 1024)} KB`,
    };
  let doc: PdfDocument | undefined;
  try {
    // Loaded on first use: the PDF engine is large and most reads are HTML.
    const { getDocumentProxy } = await import("unpdf");
    doc = await withinDeadline<PdfDocument>(getDocumentProxy(bytes), limits.deadline);
    const totalPages = doc.numPages;
    const pages: string[] = [];
    for (let n = 1; n <= Math.min(totalPages, maxPages); n++) {
      if (limits.deadline.expired()) break;
      const page = await withinDeadline(doc.getPage(n), limits.deadline);
      const content = await withinDeadline(page.getTextContent(), limits.deadline);
      pages.push(pageText(content.items as TextItem[]));
      page.cleanup();
    }
    if (pages.length === 0 && limits.deadline.expired())
      return { ok: false, status: "timeout", code: "timeout", message: "timeout while parsing the PDF" };
    const title = await pdfTitle(doc, limits.deadline);
    let markdown = pages.filter((p) => p.trim()).join("\n\n");
    if (pages.length < totalPages)
      markdown += `\n\n[PDF: text of the first ${pages.length} of ${totalPages} pages]`;
    return { ok: true, title, markdown: markdown.trim(), pagesRead: pages.length, totalPages };
  } catch (err) {
    if (limits.deadline.expired())
      return { ok: false, status: "timeout", code: "timeout", message: "timeout while parsing the PDF" };
    return {
      ok: false,
      status: "error",
      code: "pdf",
      message: `could not read the PDF: ${errorLine(err, 160)}`,
    };
  } finally {
    void doc?.destroy().catch(() => {});
  }
}

/**
 * Whether the Flate streams pdf.js may inflate to read text stay within `cap` bytes in all, found by inflating
 * each one here with zlib's output cap: pdf.js inflates a stream whole, into memory that no heap limit counts
 * (typed arrays live outside the JS heap). Images are left out: reading text never decodes them. A stream zlib
 * cannot inflate counts for nothing, since pdf.js stops at the same broken data.
 */
export function flateStreamsWithin(bytes: Uint8Array, cap: number): boolean {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let total = 0;
  for (let at = buf.indexOf("stream"); at !== -1; at = buf.indexOf("stream", at + 6)) {
    if (at >= 3 && buf.toString("latin1", at - 3, at) === "end") continue;
    const head = buf.toString("latin1", Math.max(0, at - 2048), at);
    const dict = head.slice(head.lastIndexOf(" obj") + 1);
    let start = at + 6;
    if (buf[start] === 0x0d) start++;
    if (buf[start] === 0x0a) start++;
    const end = buf.indexOf("endstream", start);
    if (end === -1) break;
    if (/\/(?:FlateDecode|Fl)\b/.test(dict) && !/\/Subtype\s*\/Image\b/.test(dict)) {
      total += inflatedSize(buf.subarray(start, end), cap - total);
      if (total > cap) return false;
    }
    at = end + 3;
  }
  return true;
}

/** Bytes `data` inflates to, or more than `room` as soon as it passes it. */
function inflatedSize(data: Buffer, room: number): number {
  try {
    return zlib.inflateSync(data, { maxOutputLength: room + 1, finishFlush: zlib.constants.Z_SYNC_FLUSH })
      .length;
  } catch (err) {
    return (err as { code?: string }).code === "ERR_BUFFER_TOO_LARGE" ? room + 1 : 0;
  }
}

/**
 * pdf.js gives positioned runs, not paragraphs. A vertical gap clearly wider than the usual line spacing starts a
 * new paragraph, which is what the sizer cuts at.
 */
function pageText(items: TextItem[]): string {
  const lines: { y: number; text: string }[] = [];
  let current = "";
  let y: number | undefined;
  let fontHeight = Number.POSITIVE_INFINITY;
  for (const item of items) {
    if (item.str == null) continue;
    if (y === undefined && item.transform) y = item.transform[5];
    if (item.str.trim() && item.height) fontHeight = Math.min(fontHeight, item.height);
    current += item.str;
    if (item.hasEOL) {
      lines.push({ y: y ?? 0, text: current });
      current = "";
      y = undefined;
    }
  }
  if (current) lines.push({ y: y ?? 0, text: current });
  const gaps = lines
    .slice(1)
    .map((l, i) => Math.abs(lines[i].y - l.y))
    .filter((g) => g > 0)
    .sort((a, b) => a - b);
  // The lower quartile: most gaps are line spacing. A page of few lines has few gaps to vote with, so the
  // font's own height (lines sit about 1.2 heights apart) caps the estimate.
  const usual = Math.min(gaps.length ? gaps[Math.floor(gaps.length / 4)] : 0, fontHeight * 1.3);
  let out = "";
  lines.forEach((line, i) => {
    const text = line.text.replace(/\s+/g, " ").trim();
    if (i > 0) {
      const gap = Math.abs(lines[i - 1].y - line.y);
      out += usual > 0 && gap > usual * 1.6 ? "\n\n" : "\n";
    }
    out += text;
  });
  return out.replace(/\n{3,}/g, "\n\n").trim();
}

async function pdfTitle(doc: PdfDocument, deadline: Deadline): Promise<string | undefined> {
  try {
    const meta = await withinDeadline(doc.getMetadata(), deadline);
    const title = (meta.info as { Title?: unknown } | undefined)?.Title;
    return typeof title === "string" && title.trim() ? title.trim() : undefined;
  } catch {
    return undefined;
  }
}

function withinDeadline<T>(work: Promise<T>, deadline: Deadline): Promise<T> {
  return new Promise((resolve, reject) => {
    if (deadline.signal.aborted) return reject(deadline.signal.reason);
    const onAbort = () => reject(deadline.signal.reason);
    deadline.signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => deadline.signal.removeEventListener("abort", onAbort));
  });
}

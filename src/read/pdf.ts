import type { Deadline } from "../core/deadline.js";
import type { Failure } from "../core/status.js";

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

const DEFAULT_MAX_PAGES = 60;
const DEFAULT_MAX_BYTES = 20 * 1024 * 1024;

/**
 * Text of a PDF, page by page, stopping at the page limit or the deadline (what was read by then is kept and
 * labelled). pdf.js parses on this thread, so the deadline is checked between pages, not inside one.
 */
export async function pdfToText(
  bytes: Uint8Array,
  limits: PdfLimits,
): Promise<PdfText | (Failure & { ok: false })> {
  const maxPages = limits.maxPages ?? DEFAULT_MAX_PAGES;
  const maxBytes = limits.maxBytes ?? DEFAULT_MAX_BYTES;
  if (bytes.length > maxBytes)
    return {
      ok: false,
      status: "unsupported",
      code: "too_large",
      message: `PDF of ${bytes.length} bytes, over ${maxBytes}`,
    };
  let doc: PdfDocument | undefined;
  try {
    // pdf.js takes ownership of (and may detach) the buffer it is given, so it gets a copy.
    // Loaded on first use: the PDF engine is large and most reads are HTML.
    const { getDocumentProxy } = await import("unpdf");
    doc = await withinDeadline<PdfDocument>(getDocumentProxy(new Uint8Array(bytes)), limits.deadline);
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
    const reason = err instanceof Error ? err.message.split("\n")[0].slice(0, 160) : String(err);
    return { ok: false, status: "error", code: "pdf", message: `could not read the PDF: ${reason}` };
  } finally {
    void doc?.destroy().catch(() => {});
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

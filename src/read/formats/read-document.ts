/** Office documents and e-books to markdown, where the page pool's worker runs it (documents.ts is the reader). */
import { Deadline } from "../../core/deadline.js";
import type { DocumentFormat } from "../content-kind.js";
import { htmlFragmentToMarkdown } from "../extract/fragment.js";
import { DOCUMENT_LIMITS, DOCUMENT_NAMES, type DocumentBody, type DocumentLimits } from "./documents.js";
import { docxBody } from "./docx.js";
import { epubBody } from "./epub.js";
import type { FormatOutcome } from "./format-reader.js";
import { odfBody } from "./odf.js";
import { odsBody } from "./ods.js";
import { pptxBody } from "./pptx.js";
import { xlsxBody } from "./xlsx.js";
import { CappedZip, type ZipFailure } from "./zip.js";

type Parser = (zip: CappedZip, limits: DocumentLimits) => Promise<DocumentBody | ZipFailure>;

const PARSERS: Record<DocumentFormat, Parser> = {
  docx: docxBody,
  xlsx: xlsxBody,
  pptx: pptxBody,
  odt: odfBody,
  ods: odsBody,
  odp: odfBody,
  epub: epubBody,
};

/** A document as markdown, on this thread (the page pool's worker runs it): bounded in memory, not in time. */
export async function documentToMarkdownHere(
  bytes: Uint8Array,
  format: DocumentFormat,
  url: string,
  deadline: Deadline,
  limits: DocumentLimits = DOCUMENT_LIMITS,
): Promise<FormatOutcome> {
  const opened = await CappedZip.open(bytes, deadline, limits.zip);
  if (!opened.ok) return opened;
  const { zip } = opened;
  try {
    const body = await PARSERS[format](zip, limits);
    if (!body.ok) return body;
    if (deadline.expired())
      return {
        ok: false,
        status: "timeout",
        code: "timeout",
        message: `timeout while reading the ${DOCUMENT_NAMES[format]}`,
      };
    const { markdown, links } = await htmlFragmentToMarkdown(body.html, url);
    const text = [markdown, ...body.notes].filter(Boolean).join("\n\n");
    const { title, byline, published, lang } = body.properties;
    return { ok: true, title, markdown: text, links, byline, published, lang };
  } finally {
    zip.close();
  }
}

/** The page pool worker's task: the caller's deadline rebuilt from the time it had left. */
export function documentTask(task: {
  bytes: Uint8Array;
  format: DocumentFormat;
  url: string;
  remainingMs: number;
}): Promise<FormatOutcome> {
  return documentToMarkdownHere(task.bytes, task.format, task.url, Deadline.after(task.remainingMs));
}

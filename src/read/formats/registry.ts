import type { FormatName } from "../content-kind.js";
import { documentReader } from "./documents.js";
import { feedReader } from "./feed.js";
import type { FormatReader } from "./format-reader.js";
import { pdfReader } from "./pdf.js";

/** The reader of each format `classifyContent` recognises; a new format is one file and one line here. */
export const FORMAT_READERS: Readonly<Record<FormatName, FormatReader>> = {
  pdf: pdfReader,
  feed: feedReader,
  docx: documentReader("docx"),
  xlsx: documentReader("xlsx"),
  pptx: documentReader("pptx"),
  odt: documentReader("odt"),
  ods: documentReader("ods"),
  odp: documentReader("odp"),
  epub: documentReader("epub"),
};

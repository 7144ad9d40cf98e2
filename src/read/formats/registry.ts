import type { FormatName } from "../content-kind.js";
import { feedReader } from "./feed.js";
import type { FormatReader } from "./format-reader.js";
import { pdfReader } from "./pdf.js";

/** The reader of each format `classifyContent` recognises; a new format is one file and one line here. */
export const FORMAT_READERS: Readonly<Record<FormatName, FormatReader>> = {
  pdf: pdfReader,
  feed: feedReader,
};

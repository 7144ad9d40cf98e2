import type { Deadline } from "../../core/deadline.js";
import type { Failure } from "../../core/status.js";
import type { FormatName } from "../content-kind.js";
import type { ReadSource } from "../ladder.js";

/**
 * A reader for one kind of file that is not a web page (a PDF, an office document, a feed): bytes in, markdown
 * out, within the read's deadline and its own caps. `classifyContent` decides from the bytes and the header
 * which format a response is; the format's reader, named in the registry, turns it into text.
 */
export interface FormatReader {
  /** Its name in attempts ("pdf"). */
  name: string;
  /** What `ReadResult.source` says when it produced the text. */
  source: ReadSource;
  read(bytes: Uint8Array, file: FormatFile, deadline: Deadline): Promise<FormatOutcome>;
}

/** What a format reader knows of the file besides its bytes. */
export interface FormatFile {
  /** The final URL it was served from. */
  url: string;
  contentType: string;
  /** The charset its Content-Type named, if any: a feed's text is decoded by it before its XML declaration. */
  charset?: string;
  format: FormatName;
}

export interface FormatText {
  ok: true;
  /** The file's own title (document properties, a feed's title); the file name when absent. */
  title?: string;
  markdown: string;
  links?: string[];
  byline?: string;
  published?: string;
  /** The file's own language (an e-book's, an OpenDocument's). */
  lang?: string;
}

export type FormatOutcome = FormatText | ({ ok: false } & Failure);

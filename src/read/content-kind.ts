import { zipMarkers } from "./formats/zip-markers.js";

/** Files read by a format reader of their own (src/read/formats/registry.ts), not as text or a page. */
export type FormatName = "pdf" | "feed" | DocumentFormat;
/** Office documents and e-books: zip archives of XML parts (src/read/formats/documents.ts). */
export type DocumentFormat = "docx" | "xlsx" | "pptx" | "odt" | "ods" | "odp" | "epub";

/**
 * What a response body really is, decided from the bytes as much as from the header: servers mislabel
 * (PDFs as application/octet-stream, images as text/html), and an LLM must never receive binary noise as text.
 */
export type ContentKind =
  | { kind: "markdown" }
  | { kind: "html" }
  | { kind: "format"; format: FormatName }
  | { kind: "json" }
  | { kind: "text" }
  | { kind: "binary"; type: string };

// Signatures of common binary formats, checked before any header is believed.
const MAGIC: [bytes: number[], type: string][] = [
  [[0x89, 0x50, 0x4e, 0x47], "image/png"],
  [[0xff, 0xd8, 0xff], "image/jpeg"],
  [[0x47, 0x49, 0x46, 0x38], "image/gif"],
  [[0x00, 0x00, 0x01, 0x00], "image/x-icon"],
  [[0x50, 0x4b, 0x03, 0x04], "application/zip"],
  [[0x1f, 0x8b], "application/gzip"],
  [[0x42, 0x5a, 0x68], "application/x-bzip2"],
  [[0xfd, 0x37, 0x7a, 0x58, 0x5a], "application/x-xz"],
  [[0x37, 0x7a, 0xbc, 0xaf], "application/x-7z-compressed"],
  [[0x52, 0x61, 0x72, 0x21], "application/vnd.rar"],
  [[0x49, 0x44, 0x33], "audio/mpeg"],
  [[0x4f, 0x67, 0x67, 0x53], "audio/ogg"],
  [[0x66, 0x4c, 0x61, 0x43], "audio/flac"],
  [[0x1a, 0x45, 0xdf, 0xa3], "video/webm"],
  [[0x7f, 0x45, 0x4c, 0x46], "application/x-elf"],
  [[0x4d, 0x5a], "application/x-msdownload"],
  [[0x00, 0x61, 0x73, 0x6d], "application/wasm"],
  [[0x77, 0x4f, 0x46, 0x32], "font/woff2"],
  [[0x77, 0x4f, 0x46, 0x46], "font/woff"],
];

const TEXT_TYPES =
  /^(text\/|application\/(.*\+)?(xml|javascript|ecmascript|x-www-form-urlencoded|x-sh|toml|yaml|x-yaml|csv)$)/;
const JSON_TYPE = /^application\/(.*\+)?json$|^text\/json$/;
const MARKDOWN_TYPE = /^text\/(x-)?markdown$/;
const HTML_TYPE = /^(text\/html|application\/xhtml\+xml)$/;
const BINARY_TYPE = /^(image|audio|video|font|model)\//;

export function classifyContent(contentType: string, bytes: Uint8Array): ContentKind {
  const type = contentType.toLowerCase();
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return { kind: "format", format: "pdf" }; // "%PDF-"
  const document = documentFormat(type, bytes);
  if (document) return { kind: "format", format: document };
  const magic = sniffMagic(bytes);
  // SVG is XML text, but as a page it is a drawing: no prose to read.
  if (type === "image/svg+xml") return { kind: "binary", type };
  // A header that claims text for binary bytes is a lie; name what the bytes are.
  if (magic) return { kind: "binary", type: type && !isTextType(type) ? type : magic };
  if (type === "application/pdf") return { kind: "format", format: "pdf" };
  if (BINARY_TYPE.test(type)) return { kind: "binary", type };
  if (looksBinary(bytes)) return { kind: "binary", type: type || "application/octet-stream" };
  if (isFeed(type, bytes)) return { kind: "format", format: "feed" };
  if (MARKDOWN_TYPE.test(type)) return { kind: "markdown" };
  if (HTML_TYPE.test(type)) return { kind: "html" };
  if (JSON_TYPE.test(type)) return { kind: "json" };
  if (TEXT_TYPES.test(type)) return { kind: "text" };
  // Unlabelled or octet-stream text: decide from the first bytes.
  if (type === "" || type === "application/octet-stream" || type === "binary/octet-stream") {
    const head = new TextDecoder().decode(bytes.subarray(0, 512)).trimStart().toLowerCase();
    if (head.startsWith("<!doctype html") || head.startsWith("<html")) return { kind: "html" };
    if (head.startsWith("{") || head.startsWith("[")) return { kind: "json" };
    return { kind: "text" };
  }
  return { kind: "binary", type };
}

// Types a feed is served as: its own, XML's and JSON's, text (servers label feeds text/html too), or none.
const FEED_CARRIERS =
  /^(|application\/(octet-stream|xml|json|rss\+xml|atom\+xml|rdf\+xml|feed\+json)|binary\/octet-stream|text\/(xml|plain|json|html))$/;
const ATOM_NS = "http://www.w3.org/2005/Atom";

/**
 * RSS, Atom or JSON Feed, told by the body whatever the label: the root element after the prolog (`<rss>`,
 * Atom's `<feed>` in its namespace, RSS 1.0's `<rdf:RDF>`), or JSON naming a jsonfeed.org version. A label
 * alone is not believed: servers send feeds as text/xml or text/html, and error pages as application/rss+xml.
 */
function isFeed(type: string, bytes: Uint8Array): boolean {
  if (!FEED_CARRIERS.test(type)) return false;
  const head = new TextDecoder().decode(bytes.subarray(0, 64 * 1024)).replace(/^\uFEFF/, "");
  if (/^\s*\{/.test(head)) return /"version"\s*:\s*"https:\/\/jsonfeed\.org\/version\//.test(head);
  const root = rootTag(head);
  if (!root) return false;
  const [name, attrs] = root;
  if (name === "rss") return true;
  if (name === "feed" || name.endsWith(":feed")) return attrs.includes(ATOM_NS);
  return (
    name.endsWith(":RDF") &&
    /http:\/\/(purl\.org\/rss\/1\.0\/|my\.netscape\.com\/rdf\/simple\/0\.9\/)/.test(head)
  );
}

/** The first element's name and attributes, past the XML declaration, comments, PIs and a DOCTYPE. */
function rootTag(xml: string): [name: string, attrs: string] | undefined {
  const past = (end: string, from: number) => {
    const found = from === -1 ? -1 : xml.indexOf(end, from);
    return found === -1 ? -1 : found + end.length;
  };
  let at = 0;
  while (at !== -1) {
    while (at < xml.length && /\s/.test(xml[at])) at++;
    if (xml.startsWith("<?", at)) at = past("?>", at);
    else if (xml.startsWith("<!--", at)) at = past("-->", at);
    else if (/^<!doctype/i.test(xml.slice(at, at + 9))) {
      // An internal subset ends at "]>"; the declarations inside it hold ">" of their own.
      const bracket = xml.indexOf("[", at);
      const close = xml.indexOf(">", at);
      at = bracket !== -1 && bracket < close ? past(">", past("]", bracket)) : past(">", at);
    } else {
      const tag = /^<([A-Za-z_][\w.:-]*)([^>]*)>/.exec(xml.slice(at, at + 4096));
      return tag ? [tag[1], tag[2]] : undefined;
    }
  }
  return undefined;
}

const DOCUMENT_TYPES: [RegExp, DocumentFormat][] = [
  [/^application\/(vnd\.openxmlformats-officedocument\.wordprocessingml\.|vnd\.ms-word\.)/, "docx"],
  [/^application\/(vnd\.openxmlformats-officedocument\.spreadsheetml\.|vnd\.ms-excel\.sheet)/, "xlsx"],
  [/^application\/(vnd\.openxmlformats-officedocument\.presentationml\.|vnd\.ms-powerpoint\.)/, "pptx"],
  [/^application\/vnd\.oasis\.opendocument\.text/, "odt"],
  [/^application\/vnd\.oasis\.opendocument\.spreadsheet/, "ods"],
  [/^application\/vnd\.oasis\.opendocument\.presentation/, "odp"],
  [/^application\/epub\+zip$/, "epub"],
];
// OOXML's main parts, by the folder each format keeps them in.
const OOXML_PARTS: [RegExp, DocumentFormat][] = [
  [/^word\/document\.xml$/, "docx"],
  [/^xl\/workbook\.xml$/, "xlsx"],
  [/^ppt\/presentation\.xml$/, "pptx"],
];

/**
 * An office document or e-book: a zip whose own markers say which (ODF's and EPUB's stored `mimetype`, OOXML's
 * part names), or whose header names a document type; any other zip stays a binary.
 */
function documentFormat(type: string, bytes: Uint8Array): DocumentFormat | undefined {
  if (!startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return undefined;
  const markers = zipMarkers(bytes);
  const byType = (t: string) => DOCUMENT_TYPES.find(([pattern]) => pattern.test(t))?.[1];
  if (markers.mimetype) {
    const format = byType(markers.mimetype);
    if (format) return format;
  }
  if (markers.names.includes("[Content_Types].xml"))
    for (const [part, format] of OOXML_PARTS) if (markers.names.some((n) => part.test(n))) return format;
  return byType(type);
}

function isTextType(type: string): boolean {
  return HTML_TYPE.test(type) || TEXT_TYPES.test(type) || JSON_TYPE.test(type) || MARKDOWN_TYPE.test(type);
}

function sniffMagic(bytes: Uint8Array): string | undefined {
  for (const [signature, type] of MAGIC) if (startsWith(bytes, signature)) return type;
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  // MP4/QuickTime: "ftyp" at offset 4; RIFF containers name their format at offset 8.
  if (bytes.length > 12 && ascii(4, 8) === "ftyp") return "video/mp4";
  if (bytes.length > 12 && ascii(0, 4) === "RIFF")
    return (
      { WEBP: "image/webp", WAVE: "audio/wav", "AVI ": "video/x-msvideo" }[ascii(8, 12)] ??
      "application/x-riff"
    );
  return undefined;
}

function startsWith(bytes: Uint8Array, signature: number[]): boolean {
  if (bytes.length < signature.length) return false;
  return signature.every((b, i) => bytes[i] === b);
}

/**
 * Text in any encoding we decode has no NUL bytes and few C0 controls; UTF-16 is the exception, recognised by its
 * BOM. A few stray controls are tolerated because real pages carry them.
 */
function looksBinary(bytes: Uint8Array): boolean {
  if (startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff])) return false;
  const sample = bytes.subarray(0, 4096);
  if (sample.length === 0) return false;
  let controls = 0;
  for (const b of sample) {
    if (b === 0) return true;
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c && b !== 0x1b) controls++;
  }
  return controls / sample.length > 0.02;
}

/** JSON pretty-printed for reading; text that does not parse is passed on as it came. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

import { errorLine } from "../../core/one-line.js";
import type { DocumentBody } from "./documents.js";
import { coreProperties, mainPart } from "./ooxml.js";
import { readText } from "./xml.js";
import type { CappedZip, ZipFailure } from "./zip.js";

/** A part mammoth asked for that the capped archive refused: the refusal, carried out through mammoth. */
class PartRefused extends Error {
  constructor(readonly failure: ZipFailure) {
    super(failure.message);
  }
}

// Word's own title style, which mammoth's default map leaves a paragraph.
const STYLE_MAP = ["p[style-name='Title'] => h1:fresh", "p[style-name='Subtitle'] => h2:fresh"];

/**
 * A Word document's body as HTML, by mammoth (headings from paragraph styles, lists from numbering, tables,
 * footnotes). mammoth is handed the capped archive itself, never the bytes: every part it reads is inflated
 * within the caps and through the entity check, and no other zip reader sees the file. (Its `file` input, an
 * object with `exists` and `read`, is how its own unzip layer is built; the version is pinned for it.) Pictures
 * keep their alt text only, and linked files outside the document are never opened.
 */
export async function docxBody(zip: CappedZip): Promise<DocumentBody | ZipFailure> {
  const main = await mainPart(zip, "word/document.xml");
  if (typeof main !== "string") return main;
  if (!zip.has(main))
    return { ok: false, status: "error", code: "not_docx", message: "the file has no Word document part" };
  const mammoth = (await import("mammoth")).default;
  const file = {
    exists: (name: string) => zip.has(name),
    read: async (name: string, encoding?: string) => {
      // mammoth reads its XML parts as "utf-8" text, and pictures as bytes or base64.
      if (encoding === "utf-8" || encoding === "utf8") {
        const text = await readText(zip, name);
        if (!text.ok) throw new PartRefused(text);
        return text.text;
      }
      const part = await zip.read(name);
      if (!part.ok) throw new PartRefused(part);
      return encoding === "base64" ? part.bytes.toString("base64") : part.bytes;
    },
    write: () => {},
    toArrayBuffer: () => Promise.reject(new Error("read only")),
  };
  let html: string;
  try {
    const converted = await mammoth.convertToHtml({ file } as unknown as { buffer: Buffer }, {
      styleMap: STYLE_MAP,
      externalFileAccess: false,
      convertImage: mammoth.images.imgElement(async () => ({ src: "" })),
    });
    // A note's way back to its citation ("↑") is a link within the page, which a reader of markdown cannot follow.
    html = converted.value.replace(/<a href="#(?:footnote|endnote|comment)-ref-[^"]*">↑<\/a>/g, "");
  } catch (err) {
    if (err instanceof PartRefused) return err.failure;
    const reason = errorLine(err, 160);
    return {
      ok: false,
      status: "error",
      code: "docx",
      message: `could not read the Word document: ${reason}`,
    };
  }
  return { ok: true, html, notes: [], properties: await coreProperties(zip) };
}

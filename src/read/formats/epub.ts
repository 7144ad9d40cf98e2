import { oneLine } from "../../core/one-line.js";
import type { DocumentBody, DocumentLimits } from "./documents.js";
import { readText, readXml, resolvePart, textContent } from "./xml.js";
import { attr, childElements, findElement, findElements } from "./xml-elements.js";
import type { CappedZip, ZipFailure } from "./zip.js";

/**
 * An EPUB (2 or 3) e-book: `META-INF/container.xml` names the package document, whose metadata gives the
 * title, authors, date and language, and whose spine gives the chapters' order. Chapters are XHTML, read as
 * HTML fragments; the navigation document and the spine's non-linear items (covers, pop-up notes) are left out.
 * Chapters past the archive's inflate cap are left out with a note.
 */
export async function epubBody(zip: CappedZip, _limits: DocumentLimits): Promise<DocumentBody | ZipFailure> {
  const container = await readXml(zip, "META-INF/container.xml");
  if (!container.ok) return container;
  const opfName = findElements(container.doc, "rootfile")
    .map((r) => attr(r, "full-path"))
    .find((p): p is string => !!p && zip.has(p));
  if (!opfName)
    return { ok: false, status: "error", code: "epub", message: "the e-book names no package document" };
  const opf = await readXml(zip, opfName);
  if (!opf.ok) return opf;

  const metadata = findElement(opf.doc, "metadata");
  const field = (local: string) =>
    findElements(metadata, local)
      .map((el) => oneLine(textContent(el), 200))
      .filter(Boolean);
  const properties = {
    title: field("title")[0],
    byline: field("creator").join(", ") || undefined,
    published: field("date")[0],
    lang: field("language")[0],
  };

  const manifest = new Map(
    findElements(findElement(opf.doc, "manifest"), "item").map((item) => [attr(item, "id") ?? "", item]),
  );
  const chapters = childElements(findElement(opf.doc, "spine") ?? opf.doc, "itemref")
    .filter((ref) => attr(ref, "linear") !== "no")
    .map((ref) => manifest.get(attr(ref, "idref") ?? ""))
    .filter((item) => !!item && !/\bnav\b/.test(attr(item, "properties") ?? ""))
    .map((item) => resolvePart(opfName, attr(item!, "href") ?? ""))
    .filter((name) => zip.has(name));

  const html: string[] = [];
  const notes: string[] = [];
  for (const [i, name] of chapters.entries()) {
    const chapter = await readText(zip, name);
    if (!chapter.ok) {
      if (chapter.code !== "too_large") return chapter;
      notes.push(
        `[E-book: the first ${i} of ${chapters.length} chapters; ${chapter.message.replace(/^document refused: /, "")}]`,
      );
      break;
    }
    html.push(chapterHtml(chapter.text));
  }
  return { ok: true, html: html.join("\n"), notes, properties };
}

// HTML's void elements: every other element written empty in XHTML (`<a id="p1"/>`) must be closed for an
// HTML parser, which would otherwise read the rest of the chapter as its content.
const VOID = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "source",
  "track",
  "wbr",
]);

/** A chapter's body, its links inside the book made text (they point into the archive, not at the web). */
function chapterHtml(xhtml: string): string {
  const body = /<body\b[^>]*>([\s\S]*)<\/body>/i.exec(xhtml)?.[1] ?? xhtml;
  return body
    .replace(/<([a-zA-Z][\w:-]*)(\s[^<>]*?)?\/>/g, (tag, name: string, attrs = "") =>
      VOID.has(name.toLowerCase()) ? tag : `<${name}${attrs}></${name}>`,
    )
    .replace(/\shref\s*=\s*("(?!https?:|mailto:)[^"]*"|'(?!https?:|mailto:)[^']*')/gi, "");
}

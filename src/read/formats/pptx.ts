import type { Element } from "domhandler";
import type { DocumentBody, DocumentLimits } from "./documents.js";
import { coreProperties, mainPart, relationships } from "./ooxml.js";
import { type Paragraph, paragraphsHtml } from "./paragraphs.js";
import { escapeHtml, readXml, relationshipId } from "./xml.js";
import { attr, childElements, findElement, findElements, firstChild, localName } from "./xml-elements.js";
import type { CappedZip, ZipFailure } from "./zip.js";

/**
 * A PowerPoint deck (PresentationML, ECMA-376 Part 1 §19): its slides in the presentation's order (the
 * `sldIdLst`, not the part names), each under a heading with its title, then the text of its shapes in the
 * order of the shape tree (bulleted body text as lists, tables as tables), then its speaker notes.
 */
export async function pptxBody(zip: CappedZip, _limits: DocumentLimits): Promise<DocumentBody | ZipFailure> {
  const presentationName = await mainPart(zip, "ppt/presentation.xml");
  if (typeof presentationName !== "string") return presentationName;
  const presentation = await readXml(zip, presentationName);
  if (!presentation.ok) return presentation;
  const rels = await relationships(zip, presentationName);
  if (!Array.isArray(rels)) return rels;
  const byId = new Map(rels.map((r) => [r.id, r]));
  const slideNames = findElements(findElement(presentation.doc, "sldIdLst"), "sldId")
    .map((s) => byId.get(relationshipId(s) ?? "")?.target)
    .filter((name): name is string => !!name && zip.has(name));

  const html: string[] = [];
  let firstTitle: string | undefined;
  for (const [i, name] of slideNames.entries()) {
    const slide = await readXml(zip, name);
    if (!slide.ok) return slide;
    const root = findElement(slide.doc, "sld");
    const tree = findElement(findElement(slide.doc, "cSld"), "spTree");
    const read = readShapes(tree);
    firstTitle ??= read.title;
    const hidden = root && attr(root, "show") === "0" ? " (hidden)" : "";
    html.push(`<h2>${escapeHtml(`Slide ${i + 1}${read.title ? `: ${read.title}` : ""}${hidden}`)}</h2>`);
    html.push(...read.blocks);
    const notes = await speakerNotes(zip, name);
    if (typeof notes !== "string") return notes;
    if (notes) html.push(`<p><strong>Notes:</strong> ${escapeHtml(notes)}</p>`);
  }
  const properties = await coreProperties(zip);
  return {
    ok: true,
    html: html.join("\n"),
    notes: [],
    properties: { ...properties, title: properties.title ?? firstTitle },
  };
}

/** The slide's title (its title placeholder) and the HTML of its other shapes, in shape-tree order. */
function readShapes(tree: Element | undefined): { title?: string; blocks: string[] } {
  const out: { title?: string; blocks: string[] } = { blocks: [] };
  const walk = (parent: Element) => {
    for (const child of childElements(parent)) {
      switch (localName(child.name)) {
        case "grpSp":
          walk(child);
          break;
        case "AlternateContent": {
          // The first choice a reader understands; its fallback repeats it for older readers.
          const choice = firstChild(child, "Choice") ?? firstChild(child, "Fallback");
          if (choice) walk(choice);
          break;
        }
        case "sp":
          shape(child, out);
          break;
        case "graphicFrame": {
          const table = findElement(child, "tbl");
          if (table) out.blocks.push(tableHtml(table));
          break;
        }
      }
    }
  };
  if (tree) walk(tree);
  return out;
}

const TITLE_TYPES = new Set(["title", "ctrTitle"]);
// Placeholders that are not body text: slide numbers, dates, footers.
const CHROME_TYPES = new Set(["sldNum", "dt", "ftr", "hdr"]);

function shape(sp: Element, out: { title?: string; blocks: string[] }): void {
  const placeholder = findElement(findElement(sp, "nvSpPr"), "ph");
  const type = placeholder ? (attr(placeholder, "type") ?? "body") : undefined;
  if (type && CHROME_TYPES.has(type)) return;
  const body = firstChild(sp, "txBody");
  if (!body) return;
  const paragraphs = childElements(body, "p").map((p) => paragraphOf(p, type));
  if (type && TITLE_TYPES.has(type) && out.title === undefined) {
    out.title = paragraphs
      .map((p) => p.text.trim())
      .filter(Boolean)
      .join(" ");
    return;
  }
  const html = paragraphsHtml(paragraphs);
  if (html) out.blocks.push(html);
}

/** A text paragraph: its runs' text, its level, and whether it is a bullet (as written, or as a body placeholder's). */
function paragraphOf(p: Element, placeholderType: string | undefined): Paragraph {
  const props = firstChild(p, "pPr");
  const level = Number((props && attr(props, "lvl")) ?? 0) || 0;
  let bullet: Paragraph["bullet"];
  if (props && firstChild(props, "buAutoNum")) bullet = "ordered";
  else if (props && firstChild(props, "buChar")) bullet = "unordered";
  else if (props && firstChild(props, "buNone")) bullet = undefined;
  else if (placeholderType === "body" || placeholderType === "obj") bullet = "unordered";
  return { text: runsText(p), level, bullet };
}

function runsText(p: Element): string {
  let text = "";
  for (const child of childElements(p)) {
    const local = localName(child.name);
    if (local === "r" || local === "fld") text += findElements(child, "t").map(textOf).join("");
    else if (local === "br") text += "\n";
  }
  return text;
}

function textOf(t: Element): string {
  return t.children.map((c) => ("data" in c ? String(c.data) : "")).join("");
}

function tableHtml(table: Element): string {
  // A cell merged into the one on its left is left out; one merged into the cell above stays, empty, so the
  // columns keep their places.
  const rows = childElements(table, "tr").map((tr) =>
    childElements(tr, "tc")
      .filter((tc) => attr(tc, "hMerge") !== "1")
      .map((tc) =>
        attr(tc, "vMerge") === "1"
          ? ""
          : childElements(firstChild(tc, "txBody") ?? tc, "p")
              .map(runsText)
              .join(" "),
      ),
  );
  if (!rows.length) return "";
  const width = Math.max(...rows.map((r) => r.length));
  const cells = (row: string[], tag: string) =>
    Array.from({ length: width }, (_, i) => `<${tag}>${escapeHtml(row[i] ?? "")}</${tag}>`).join("");
  const [head, ...body] = rows;
  return `<table><thead><tr>${cells(head, "th")}</tr></thead><tbody>${body
    .map((r) => `<tr>${cells(r, "td")}</tr>`)
    .join("")}</tbody></table>`;
}

/** The text of the slide's notes page: its body placeholder, without the slide image and the page number. */
async function speakerNotes(zip: CappedZip, slideName: string): Promise<string | ZipFailure> {
  const rels = await relationships(zip, slideName);
  if (!Array.isArray(rels)) return rels;
  const notesName = rels.find((r) => r.type.endsWith("/notesSlide") && !r.external)?.target;
  if (!notesName || !zip.has(notesName)) return "";
  const notes = await readXml(zip, notesName);
  if (!notes.ok) return notes.code === "too_large" || notes.code === "xml_entities" ? notes : "";
  const texts: string[] = [];
  for (const sp of findElements(notes.doc, "sp")) {
    const ph = findElement(findElement(sp, "nvSpPr"), "ph");
    if (!ph || (attr(ph, "type") ?? "body") !== "body") continue;
    const body = firstChild(sp, "txBody");
    if (body) texts.push(...childElements(body, "p").map(runsText));
  }
  return texts.join(" ").replace(/\s+/g, " ").trim();
}

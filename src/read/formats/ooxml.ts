import type { Document } from "domhandler";
import { oneLine } from "../../core/one-line.js";
import { readXml, resolvePart, textContent } from "./xml.js";
import { attr, childElements, findElement } from "./xml-elements.js";
import type { CappedZip, ZipFailure } from "./zip.js";

/**
 * What DOCX, XLSX and PPTX share (ECMA-376 Part 2, Open Packaging Conventions): parts found through
 * relationship files, and the package's core properties (title, author, dates).
 */

export interface Relationship {
  id: string;
  type: string;
  /** The part it points to, resolved against the part that holds the relationship; for an external target, as written. */
  target: string;
  external: boolean;
}

export interface DocumentProperties {
  title?: string;
  byline?: string;
  published?: string;
}

/** A part's relationships ("xl/workbook.xml" → "xl/_rels/workbook.xml.rels"); none when it has no file. */
export async function relationships(zip: CappedZip, part: string): Promise<Relationship[] | ZipFailure> {
  const slash = part.lastIndexOf("/");
  const relsName = `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
  if (!zip.has(relsName)) return [];
  const xml = await readXml(zip, relsName);
  if (!xml.ok) return xml;
  return relationshipsIn(xml.doc, part);
}

function relationshipsIn(doc: Document, part: string): Relationship[] {
  const root = findElement(doc, "Relationships");
  return childElements(root ?? doc, "Relationship").map((rel) => {
    const target = attr(rel, "Target") ?? "";
    const external = attr(rel, "TargetMode") === "External";
    return {
      id: attr(rel, "Id") ?? "",
      type: attr(rel, "Type") ?? "",
      target: external ? target : resolvePart(part, target),
      external,
    };
  });
}

/** The package's main part (officeDocument relationship of the package), or `fallback` where it is usual. */
export async function mainPart(zip: CappedZip, fallback: string): Promise<string | ZipFailure> {
  const rels = await relationships(zip, "");
  if (!Array.isArray(rels)) return rels;
  const main = rels.find((r) => r.type.endsWith("/officeDocument") && !r.external);
  return main && zip.has(main.target) ? main.target : fallback;
}

/** Title, author and date from the core properties part; nothing when it is missing or unreadable. */
export async function coreProperties(zip: CappedZip): Promise<DocumentProperties> {
  const rels = await relationships(zip, "");
  const named = Array.isArray(rels)
    ? rels.find((r) => r.type.endsWith("/core-properties") && !r.external)?.target
    : undefined;
  const name = named && zip.has(named) ? named : "docProps/core.xml";
  if (!zip.has(name)) return {};
  const xml = await readXml(zip, name);
  if (!xml.ok) return {};
  const field = (local: string) => {
    const text = oneLine(textContent(findElement(xml.doc, local)), 300);
    return text || undefined;
  };
  return { title: field("title"), byline: field("creator"), published: field("created") };
}

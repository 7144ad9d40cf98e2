import type { AnyNode, Document, Element } from "domhandler";
import { isCDATA, isTag, isText } from "domhandler";
import { parseDocument } from "../../core/html-parser.js";
import { localName } from "./xml-elements.js";
import type { CappedZip, ReadOptions, ZipFailure } from "./zip.js";

/**
 * The XML parts of office documents and e-books, parsed by htmlparser2 in XML mode: it decodes the five XML
 * entities and character references and nothing else, so no DTD entity is ever expanded and nothing external
 * is ever fetched. A part that declares entities at all (billion laughs, XXE) is refused: no office format or
 * e-book declares any, and reading one with its references left out would give a reader text that is not there.
 */

export type XmlPart = { ok: true; doc: Document; cut: boolean } | ZipFailure;

const ENTITY_DECLARATION = /<!ENTITY/i;

/** A part's text: UTF-8 (what every one of these formats writes), its byte-order mark dropped. */
export async function readText(
  zip: CappedZip,
  name: string,
  options: ReadOptions = {},
): Promise<{ ok: true; text: string; cut: boolean } | ZipFailure> {
  const part = await zip.read(name, options);
  if (!part.ok) return part;
  const text = new TextDecoder("utf-8").decode(part.bytes);
  if (ENTITY_DECLARATION.test(text))
    return {
      ok: false,
      status: "unsupported",
      code: "xml_entities",
      message: `document refused: ${name} declares XML entities, which websift never expands`,
    };
  return { ok: true, text, cut: part.cut };
}

export async function readXml(zip: CappedZip, name: string, options: ReadOptions = {}): Promise<XmlPart> {
  const got = await readText(zip, name, options);
  if (!got.ok) return got;
  return { ok: true, doc: parseXml(got.text), cut: got.cut };
}

function parseXml(text: string): Document {
  return parseDocument(text, { xmlMode: true });
}

/** The `r:id` of an element that points at a relationship (beside an `id` of its own, as `p:sldId` has). */
export function relationshipId(el: Element): string | undefined {
  for (const [key, value] of Object.entries(el.attribs))
    if (key.includes(":") && localName(key) === "id") return value;
  return undefined;
}

/** The text of an element and its descendants, as written; a CDATA section's text is text like any other. */
export function textContent(root: Element | Document | undefined): string {
  if (!root) return "";
  let out = "";
  const stack: AnyNode[] = [...root.children].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (isText(node)) out += node.data;
    else if (isTag(node) || isCDATA(node))
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return out;
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };

/** Document text placed in the HTML the markdown renderer reads: never markup of its own. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => HTML_ESCAPES[c]);
}

/** A part name resolved against the part that refers to it ("ppt/slides/slide1.xml" + "../media/a.png"). */
export function resolvePart(from: string, target: string): string {
  if (target.startsWith("/")) return target.slice(1);
  const parts = from.split("/").slice(0, -1);
  for (const segment of decodeTarget(target).split("/")) {
    if (segment === "..") parts.pop();
    else if (segment !== "." && segment !== "") parts.push(segment);
  }
  return parts.join("/");
}

function decodeTarget(target: string): string {
  const bare = target.split("#")[0];
  try {
    return decodeURIComponent(bare);
  } catch {
    return bare;
  }
}

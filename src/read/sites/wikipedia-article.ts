import render from "dom-serializer";
import { oneLine } from "../../core/one-line.js";
import {
  type AnyNode,
  classNames,
  collapseWhitespace,
  type Element,
  findAll,
  findFirst,
  hasClass,
  isAncestor,
  isTag,
  isText,
  type ParentNode,
  parseHtml,
  removeNodes,
  textContent,
} from "../extract/dom.js";
import { htmlFragmentToMarkdown } from "../extract/fragment.js";
import { HEADING_LEVEL } from "../extract/tags.js";

/**
 * A Wikipedia article's parser output (the parse API's `text`, the REST API's HTML) as the article a reader
 * wants: its prose, lists, tables and math, with the infobox as a table of label and value after the lead, and
 * without what surrounds the article in print and on screen (reference markers and lists, edit links, navboxes,
 * maintenance notices, hatnotes, figures, the references and external-links sections).
 */

/** Classes whose element is never the article's text, in the legacy parser's output and in Parsoid's. */
const DROPPED_CLASSES = new Set([
  "mw-editsection",
  "reference",
  "mw-ref",
  "reflist",
  "references",
  "mw-references-wrap",
  "refbegin",
  "mw-cite-backlink",
  "navbox",
  "navbox-styles",
  "vertical-navbox",
  "sidebar",
  "navbar",
  "metadata",
  "ambox",
  "ombox",
  "tmbox",
  "cmbox",
  "fmbox",
  "mbox-small",
  "hatnote",
  "dablink",
  "shortdescription",
  "noprint",
  "toc",
  "mw-empty-elt",
  "thumb",
  "gallery",
  "portalbox",
  "sistersitebox",
  "side-box",
  "mw-jump-link",
  "printfooter",
  "catlinks",
  "mwe-math-fallback-image-inline",
  "mwe-math-fallback-image-display",
]);
const DROPPED_TAGS = new Set(["style", "link", "meta", "figure", "script", "noscript"]);
const DROPPED_IDS = new Set(["toc", "coordinates"]);
/** Navboxes and hatnotes say what they are to screen readers too. */
const DROPPED_ROLES = new Set(["navigation", "note"]);

/**
 * Sections that hold only the apparatus around an article, by their heading in the larger wikis' languages.
 * Sections left empty once the reference lists are gone, and link lists of nothing but external links, go too,
 * whatever their heading says. "See also" stays: a few article names that say where to read on.
 */
const DROPPED_SECTIONS = new Set(
  [
    "references",
    "notes",
    "footnotes",
    "citations",
    "sources",
    "works cited",
    "notes and references",
    "references and notes",
    "external links",
    "further reading",
    "einzelnachweise",
    "anmerkungen",
    "weblinks",
    "literatur",
    "quellen",
    "références",
    "notes et références",
    "liens externes",
    "referencias",
    "notas",
    "enlaces externos",
    "note",
    "collegamenti esterni",
    "referências",
    "ligações externas",
    "referenties",
    "externe links",
    "bronnen",
    "примечания",
    "ссылки",
    "литература",
    "przypisy",
    "linki zewnętrzne",
    "脚注",
    "出典",
    "外部リンク",
    "参考文献",
    "外部链接",
    "外部連結",
    "注释",
    "参考资料",
  ].map((t) => t.toLowerCase()),
);

const MAX_INFOBOXES = 2;
const MAX_INFOBOX_ROWS = 60;
const MAX_CELL_CHARS = 300;

export interface Article {
  /** The display title's text (`displaytitle` is HTML: `<i>Dune</i>`), empty when there is none. */
  title: string;
  markdown: string;
  links: string[];
}

export async function articleMarkdown(
  html: string,
  displaytitle: string | undefined,
  baseUrl: string,
): Promise<Article> {
  const doc = parseHtml(html);
  const root = findFirst(doc, (el) => hasClass(el, "mw-parser-output")) ?? doc;
  const boxes = findAll(root, isInfobox).filter(
    (box, _i, all) => !all.some((o) => o !== box && isAncestor(o, box)),
  );
  const tables = boxes
    .slice(0, MAX_INFOBOXES)
    .map(infoboxTable)
    .filter((t): t is string => !!t);
  removeNodes(boxes);
  removeNodes(findAll(root, isApparatus));
  dropApparatusSections(root);
  const body = await htmlFragmentToMarkdown(render(root.children), baseUrl);
  const title = displaytitle ? collapseWhitespace(textContent(parseHtml(displaytitle))) : "";
  return { title, markdown: afterLead(body.markdown, tables), links: body.links };
}

/** `infobox` and the older wikis' `infobox_v2`/`infobox_v3`, not the `infobox-label`-style parts of one. */
function isInfobox(el: Element): boolean {
  return (el.name === "table" || el.name === "div") && classNames(el).some((c) => /^infobox(_v\d)?$/.test(c));
}

function isApparatus(el: Element): boolean {
  if (DROPPED_TAGS.has(el.name)) return true;
  if (el.attribs.id && DROPPED_IDS.has(el.attribs.id)) return true;
  if (el.attribs.role && DROPPED_ROLES.has(el.attribs.role)) return true;
  if ((el.attribs.typeof ?? "").includes("mw:Extension/references")) return true;
  return classNames(el).some((c) => DROPPED_CLASSES.has(c));
}

/** The infobox's rows as a two-column table: its title as the header, section headers in bold. */
function infoboxTable(box: Element): string | undefined {
  removeNodes(findAll(box, (el) => isApparatus(el) || isHidden(el)));
  const caption = findFirst(box, (el) => el.name === "caption");
  let title = caption ? cellText(caption) : "";
  const rows: string[] = [];
  for (const tr of rowsOf(box)) {
    const cells = tr.children.filter((c): c is Element => isTag(c) && (c.name === "th" || c.name === "td"));
    if (cells.length >= 2) {
      const label = cellText(cells[0]!);
      const value = cells.slice(1).map(cellText).filter(Boolean).join(" ");
      if (label || value) rows.push(`| ${label} | ${value} |`);
    } else if (cells.length === 1) {
      const cell = cells[0]!;
      const text = cellText(cell);
      if (!text || classNames(cell).some((c) => c === "infobox-image" || c === "infobox-caption")) continue;
      if (
        cell.name === "th" ||
        classNames(cell).some((c) => /^infobox-(above|title|header|subheader)$/.test(c))
      ) {
        if (!title && !rows.length) title = text;
        else rows.push(`| **${text}** | |`);
      } else rows.push(`| | ${text} |`);
    }
    if (rows.length >= MAX_INFOBOX_ROWS) break;
  }
  if (!rows.length) return undefined;
  return [`| ${title || "Infobox"} | |`, "| --- | --- |", ...rows].join("\n");
}

/**
 * The box's own rows in order: a table nested in a cell (a signature, a small chart) is part of its cell, but
 * a child box in a full-width cell (an officeholder's box inside a person's) gives its rows in its place.
 */
function rowsOf(box: Element): Element[] {
  const rows: Element[] = [];
  const visit = (el: Element) => {
    for (const child of el.children) {
      if (!isTag(child)) continue;
      if (child.name === "tr") {
        const nested = childBox(child);
        if (nested) visit(nested);
        else rows.push(child);
      } else if (child.name !== "td" && child.name !== "th") visit(child);
    }
  };
  visit(box);
  return rows;
}

function childBox(row: Element): Element | undefined {
  const cells = row.children.filter((c): c is Element => isTag(c) && (c.name === "td" || c.name === "th"));
  if (cells.length !== 1 || !hasClass(cells[0]!, "infobox-full-data")) return undefined;
  return findFirst(
    cells[0]!,
    (el) => el.name === "table" && classNames(el).some((c) => c.startsWith("infobox")),
  );
}

function isHidden(el: Element): boolean {
  return /display\s*:\s*none/i.test(el.attribs.style ?? "");
}

/** A cell's text on one line: line breaks and list items become "; ", as an infobox lists several values. */
function cellText(cell: Element): string {
  let out = "";
  const visit = (node: AnyNode) => {
    if (isText(node)) out += node.data;
    else if (isTag(node)) {
      if (node.name === "br") {
        out += "; ";
        return;
      }
      for (const child of node.children) visit(child);
      if (node.name === "li" || node.name === "p" || node.name === "div") out += "; ";
    }
  };
  for (const child of cell.children) visit(child);
  const text = collapseWhitespace(out)
    .replace(/\s*;\s*(?:;\s*)*/g, "; ")
    .replace(/^[;\s]+|[;\s]+$/g, "")
    .replace(/;\s+\(/g, " (")
    .replace(/\s+([,.)])/g, "$1")
    .replace(/\(\s+/g, "(");
  return oneLine(text, MAX_CELL_CHARS).replace(/\|/g, "\\|");
}

/**
 * Drops the sections that are apparatus: by their heading, or because nothing but external links or nothing at
 * all is left in them. Headings come in three forms: a bare `<h2>`, the newer `<div class="mw-heading">` around
 * one, and Parsoid's `<section>` that holds a heading and its text.
 */
function dropApparatusSections(root: ParentNode): void {
  const headings = findAll(root, (el) => el.name in HEADING_LEVEL && el.name !== "h1");
  const doomed: AnyNode[] = [];
  for (const heading of headings) {
    if (doomed.some((d) => isTag(d) && (d === heading || isAncestor(d, heading)))) continue;
    const region = sectionOf(heading);
    if (!region) continue;
    const title = collapseWhitespace(textContent(heading)).toLowerCase();
    if (DROPPED_SECTIONS.has(title) || isApparatusOnly(region.body)) doomed.push(...region.nodes);
  }
  removeNodes(doomed);
}

function sectionOf(heading: Element): { nodes: AnyNode[]; body: AnyNode[] } | undefined {
  const block =
    heading.parent && isTag(heading.parent) && hasClass(heading.parent, "mw-heading")
      ? heading.parent
      : heading;
  const parent = block.parent;
  if (!parent) return undefined;
  const siblings = parent.children;
  const at = siblings.indexOf(block);
  if (isTag(parent) && parent.name === "section" && siblings.find(isTag) === block)
    return { nodes: [parent], body: siblings.filter((n) => n !== block) };
  const level = HEADING_LEVEL[heading.name]!;
  const body: AnyNode[] = [];
  for (const node of siblings.slice(at + 1)) {
    const next = isTag(node) ? headingIn(node) : undefined;
    if (next && HEADING_LEVEL[next.name]! <= level) break;
    body.push(node);
  }
  return { nodes: [block, ...body], body };
}

/** The heading a top-level block is or wraps, if any. */
function headingIn(el: Element): Element | undefined {
  if (el.name in HEADING_LEVEL) return el;
  if (hasClass(el, "mw-heading")) return findFirst(el, (h) => h.name in HEADING_LEVEL);
  return undefined;
}

/** Nothing left but headings, or links that all lead off the wiki. */
function isApparatusOnly(body: AnyNode[]): boolean {
  let text = "";
  let links = 0;
  let external = 0;
  const visit = (node: AnyNode) => {
    if (isText(node)) text += node.data;
    else if (isTag(node) && !(node.name in HEADING_LEVEL) && !hasClass(node, "mw-heading")) {
      if (node.name === "a") {
        links++;
        if (hasClass(node, "external")) external++;
      }
      for (const child of node.children) visit(child);
    }
  };
  for (const node of body) visit(node);
  if (!text.trim()) return true;
  return links > 0 && external === links;
}

/** The infobox tables after the lead (the text before the first heading), where a reader looks for them. */
function afterLead(markdown: string, tables: string[]): string {
  if (!tables.length) return markdown;
  const block = tables.join("\n\n");
  const lines = markdown.split("\n");
  let fence = false;
  for (let i = 0; i < lines.length; i++) {
    if (/^\s{0,3}(```|~~~)/.test(lines[i]!)) fence = !fence;
    if (!fence && /^#{1,6}\s/.test(lines[i]!)) {
      const lead = lines.slice(0, i).join("\n").trim();
      const rest = lines.slice(i).join("\n");
      return lead ? `${lead}\n\n${block}\n\n${rest}` : `${block}\n\n${rest}`;
    }
  }
  return markdown.trim() ? `${markdown.trim()}\n\n${block}` : block;
}

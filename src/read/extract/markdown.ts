import { CREDIT_TAIL } from "./boilerplate-text.js";
import { renderCodeBlock } from "./code-block.js";
import type { Element } from "./dom.js";
import { collapseWhitespace, findFirst, isInside, isTag, isText } from "./dom.js";
import { dropInvisible } from "./invisible.js";
import { mathToLatex } from "./math.js";
import { renderDataTable } from "./table.js";
import { HEADING_LEVEL, RENDER_BLOCKS } from "./tags.js";

// Alt text that only names a file or a generic picture says nothing to a reader.
const USELESS_ALT =
  /^(?:image|img|photo|picture|logo|icon|banner|thumbnail|avatar|spacer|placeholder)\b|\.(?:jpe?g|png|gif|webp|svg|avif)$/i;

/**
 * Alt text worth a reader's tokens describes what the picture shows in words of its own: not a label or a name
 * ("Annette Henkel", "Foto Berlin", "東京タワー": fewer than four words), not a linked image's (a teaser, an ad,
 * a logo: its target is in the link list), and not a figure's whose caption already says it.
 */
function describesPicture(img: Element, alt: string): boolean {
  if (wordCount(alt) < 4 || USELESS_ALT.test(alt)) return false;
  if (isInside(img, LINK)) return false;
  for (let a = img.parent; a && isTag(a); a = a.parent)
    if (a.name === "figure") return !findFirst(a, (d) => d.name === "figcaption");
  return true;
}

const LINK = new Set(["a"]);

// Scripts written without spaces between words: about two characters make a word there.
const UNSPACED_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/gu;

function wordCount(text: string): number {
  const unspaced = text.match(UNSPACED_CHAR)?.length ?? 0;
  return text.replace(UNSPACED_CHAR, "").split(/\s+/).filter(Boolean).length + Math.floor(unspaced / 2);
}

export interface Rendered {
  markdown: string;
  /** The top-level blocks `markdown` is made of (a fenced code block or a table is one block). */
  blocks: string[];
  /** `href` values in document order, as written in the page. */
  hrefs: string[];
  /** For each of `hrefs`, the index of the block it sits in. */
  hrefBlocks: number[];
}

/**
 * Serialises content subtrees to markdown; anchors keep their words, their targets go to `hrefs`. Without
 * `pictures`, no image's alt text is read.
 */
export function renderMarkdown(roots: Element[], pictures = true): Rendered {
  const r = new MarkdownRenderer(pictures);
  const blocks: string[] = r.top;
  for (const root of roots) r.block(root, blocks);
  return { markdown: blocks.join("\n\n"), blocks, hrefs: r.hrefs, hrefBlocks: r.hrefBlocks };
}

class MarkdownRenderer {
  readonly hrefs: string[] = [];
  readonly hrefBlocks: number[] = [];
  /** The top-level blocks: a link's block is the next one pushed there (nested blocks are pushed as one). */
  readonly top: string[] = [];
  private readonly blockish = new Map<Element, boolean>();
  private readonly alts = new Set<string>();

  constructor(private readonly pictures: boolean) {}

  /** Whether the element must be laid out as blocks (a block tag, or inline markup wrapping blocks). */
  private isBlockish(el: Element): boolean {
    if (RENDER_BLOCKS.has(el.name)) return true;
    let known = this.blockish.get(el);
    if (known === undefined) {
      known = el.children.some((c) => isTag(c) && this.isBlockish(c));
      this.blockish.set(el, known);
    }
    return known;
  }

  /** Renders a node's children, grouping runs of inline content into paragraphs. */
  container(el: Element, out: string[]): void {
    let inline = "";
    for (const child of el.children) {
      if (isText(child)) inline += spaced(child.data);
      else if (isTag(child)) {
        if (this.isBlockish(child)) {
          pushParagraph(inline, out);
          inline = "";
          this.block(child, out);
        } else inline += this.inline(child);
      }
    }
    pushParagraph(inline, out);
  }

  block(el: Element, out: string[]): void {
    const level = HEADING_LEVEL[el.name];
    if (level) {
      // Permalink markers ("¶", "#") that doc generators append to headings.
      const text = flattenLines(this.inlineChildren(el)).replace(/\s*[¶§#🔗]+$/u, "");
      if (text) out.push(`${"#".repeat(level)} ${text}`);
      return;
    }
    switch (el.name) {
      case "pre": {
        const code = renderCodeBlock(el);
        if (code) out.push(code);
        return;
      }
      case "ul":
      case "ol":
      case "menu":
      case "dir":
        this.list(el, out);
        return;
      case "blockquote": {
        const inner: string[] = [];
        this.container(el, inner);
        if (inner.length) out.push(prefixLines(inner.join("\n\n"), "> ", "> "));
        return;
      }
      case "table":
        this.table(el, out);
        return;
      case "hr":
        out.push("---");
        return;
      case "li": {
        const inner: string[] = [];
        this.container(el, inner);
        if (inner.length) out.push(prefixLines(inner.join("\n"), "- ", "  "));
        return;
      }
      case "a": {
        this.recordHref(el);
        this.container(el, out);
        return;
      }
      default:
        this.container(el, out);
    }
  }

  private list(el: Element, out: string[]): void {
    const ordered = el.name === "ol";
    let n = Number.parseInt(el.attribs.start ?? "1", 10);
    if (!Number.isFinite(n)) n = 1;
    const items: string[] = [];
    for (const child of el.children) {
      const inner: string[] = [];
      if (isTag(child) && child.name === "li") this.container(child, inner);
      else if (isTag(child)) this.block(child, inner);
      else if (isText(child)) pushParagraph(spaced(child.data), inner);
      if (!inner.length) continue;
      const marker = ordered ? `${n++}. ` : "- ";
      items.push(prefixLines(inner.join("\n"), marker, " ".repeat(marker.length)));
    }
    if (items.length) out.push(items.join("\n"));
  }

  private table(el: Element, out: string[]): void {
    const data = renderDataTable(el, (cell) => {
      const blocks: string[] = [];
      this.container(cell, blocks);
      return blocks.join(" ");
    });
    if (!data) {
      // Layout table: its cells are page regions, read in order.
      this.container(el, out);
      return;
    }
    if (data.caption) this.container(data.caption, out);
    out.push(data.markdown);
  }

  private inlineChildren(el: Element): string {
    let s = "";
    for (const child of el.children) {
      if (isText(child)) s += spaced(child.data);
      else if (isTag(child)) s += this.inline(child);
    }
    return s;
  }

  private inline(el: Element): string {
    switch (el.name) {
      case "br":
        return "\n";
      case "img": {
        // A credit ("(Credit: Nasa)") says who took the picture, not what it shows.
        let alt = el.attribs.alt && dropInvisible(el.attribs.alt).replace(/\s+/g, " ").trim();
        if (alt) alt = alt.replace(CREDIT_TAIL, "").trim();
        if (!this.pictures || !alt || !describesPicture(el, alt)) return "";
        // The same alt text again (a gallery's or a lazy loader's copies) tells the reader nothing new.
        if (this.alts.has(alt)) return "";
        this.alts.add(alt);
        return ` ${alt} `;
      }
      case "code":
      case "kbd":
      case "samp":
      case "tt": {
        const text = this.inlineChildren(el).replace(/\s+/g, " ");
        if (!text.trim()) return text;
        const ticks = text.includes("`") ? "``" : "`";
        return `${ticks}${text}${ticks}`;
      }
      case "a": {
        this.recordHref(el);
        // Links set side by side with nothing between (a row of tags, drawn apart by their padding) are words apart.
        const text = this.inlineChildren(el);
        return el.prev && isTag(el.prev) && el.prev.name === "a" ? ` ${text}` : text;
      }
      case "wbr":
        return "";
      case "math": {
        const tex = mathToLatex(el);
        if (!tex) return "";
        return el.attribs.display === "block" ? `\n$$${tex}$$\n` : ` $${tex}$ `;
      }
      default:
        if (this.isBlockish(el)) {
          const blocks: string[] = [];
          this.container(el, blocks);
          return ` ${blocks.join(" ")} `;
        }
        return this.inlineChildren(el);
    }
  }

  private recordHref(el: Element): void {
    const href = el.attribs.href;
    if (!href) return;
    this.hrefs.push(href);
    this.hrefBlocks.push(this.top.length);
  }
}

/** Collapses whitespace inside lines while keeping `<br>` line breaks. */
function flattenLines(inline: string): string {
  return inline.split("\n").map(collapseWhitespace).filter(Boolean).join(" ");
}

function pushParagraph(inline: string, out: string[]): void {
  if (!inline || !/\S/.test(inline)) return;
  // One line (no `<br>`), as most paragraphs are: the split and join below would change nothing.
  if (!inline.includes("\n")) {
    out.push(collapseWhitespace(inline));
    return;
  }
  const text = inline.split("\n").map(collapseWhitespace).filter(Boolean).join("\n");
  if (text) out.push(text);
}

function prefixLines(text: string, first: string, rest: string): string {
  return text
    .split("\n")
    .map((line, i) => (i === 0 ? first + line : line ? rest + line : rest.trimEnd()))
    .join("\n");
}

// Where making each whitespace run one space changes a text: a run of two, or whitespace other than a space.
const UNSPACED = /\s\s|[\t\n\v\f\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/;

/** Source newlines in text are spaces; only `<br>` breaks a line. */
function spaced(data: string): string {
  const text = dropInvisible(data);
  return UNSPACED.test(text) ? text.replace(/\s+/g, " ") : text;
}

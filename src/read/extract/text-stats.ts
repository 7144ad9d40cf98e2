import type { Element, ParentNode } from "./dom.js";
import { isTag, isText } from "./dom.js";

export interface TextStats {
  /** Visible characters, whitespace not counted. */
  chars: number;
  /** Of those, characters inside links. */
  linkChars: number;
  /** Commas, the cheapest signal of running prose (any script's comma). */
  commas: number;
  /** Descendant element counts that tell prose from widgets. */
  paragraphs: number;
  codeBlocks: number;
  images: number;
  items: number;
  inputs: number;
  headings: number;
}

/**
 * Non-whitespace characters and commas (any script's) of a text, without allocating. Every character of the
 * page passes here, twice per extraction: letters (above the comma's code) are told apart with one or two
 * comparisons, not ten.
 */
function countText(data: string): [number, number] {
  let chars = 0;
  let commas = 0;
  for (let i = 0; i < data.length; i++) {
    const c = data.charCodeAt(i);
    if (c > 44) {
      // Above the comma: only the no-break space is white, only three commas of other scripts count.
      if (c === 160) continue;
      chars++;
      if (c >= 0x60c && (c === 0x60c || c === 0x3001 || c === 0xff0c)) commas++;
    } else if (c !== 32 && c !== 10 && c !== 9 && c !== 13 && c !== 12) {
      chars++;
      if (c === 44) commas++;
    }
  }
  return [chars, commas];
}
const EMPTY: TextStats = zero();

function zero(): TextStats {
  return {
    chars: 0,
    linkChars: 0,
    commas: 0,
    paragraphs: 0,
    codeBlocks: 0,
    images: 0,
    items: 0,
    inputs: 0,
    headings: 0,
  };
}

function countTag(total: TextStats, name: string): void {
  if (name === "p") total.paragraphs++;
  else if (name === "pre") total.codeBlocks++;
  else if (name === "img") total.images++;
  else if (name === "li") total.items++;
  else if (name === "input" || name === "select" || name === "textarea" || name === "button") total.inputs++;
  else if (name.length === 2 && name[0] === "h" && name[1]! >= "1" && name[1]! <= "6") total.headings++;
}

/** A link to a place on the same page (a permalink, a footnote) does not lead away from the content. */
function linkWeight(href: string | undefined): number {
  return href?.startsWith("#") ? 0.3 : 1;
}

/** Text statistics for every element of a subtree, computed in one pass. */
export class TextStatsIndex {
  private readonly stats = new Map<Element, TextStats>();

  constructor(root: ParentNode) {
    this.collect(root, 0);
  }

  of(el: Element): TextStats {
    return this.stats.get(el) ?? EMPTY;
  }

  /** Characters outside links: the element's own text, as against what it points to. */
  unlinked(el: Element): number {
    const s = this.of(el);
    return s.chars - s.linkChars;
  }

  linkDensity(el: Element): number {
    const s = this.of(el);
    return s.chars ? s.linkChars / s.chars : 0;
  }

  /** `inLink`: how much a character counts as link text here (Readability: a same-page `#` link 0.3). */
  private collect(node: ParentNode, inLink: number): TextStats {
    const total = zero();
    for (const child of node.children) {
      if (isText(child)) {
        const [chars, commas] = countText(child.data);
        total.chars += chars;
        if (inLink) total.linkChars += chars * inLink;
        total.commas += commas;
        continue;
      }
      if (!isTag(child)) continue;
      const s = this.collect(child, inLink || (child.name === "a" ? linkWeight(child.attribs.href) : 0));
      total.chars += s.chars;
      total.linkChars += s.linkChars;
      total.commas += s.commas;
      total.paragraphs += s.paragraphs;
      total.codeBlocks += s.codeBlocks;
      total.images += s.images;
      total.items += s.items;
      total.inputs += s.inputs;
      total.headings += s.headings;
      countTag(total, child.name);
    }
    if (isTag(node)) this.stats.set(node, total);
    return total;
  }
}

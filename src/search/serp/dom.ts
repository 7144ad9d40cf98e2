// cheerio's slim build: the tree is parsed here, so its parse5 and fetch layers (~200 ms at import) are not loaded.
import * as cheerio from "cheerio/slim";
import type { AnyNode, Element } from "domhandler";
import { DomUtils } from "htmlparser2";
import { parseDocument } from "../../core/html-parser.js";
import type { ProviderHit } from "../provider.js";
import type { SerpParse } from "./outcome.js";

/**
 * Result pages are read with htmlparser2 rather than parse5: about four times faster on a 35 KB DDG page, and a
 * SERP needs tags and attributes, not the HTML5 tree-building repairs a browser would make. The parser is
 * core/html-parser.ts's, linear in nesting depth.
 */
export function loadSerp(html: string): cheerio.CheerioAPI {
  // cheerio is handed the tree rather than the text: its own htmlparser2 parse is quadratic in nesting depth.
  return cheerio.load(parseDocument(html, { decodeEntities: true }), {
    xml: { xmlMode: false, decodeEntities: true },
  });
}

/**
 * The same htmlparser2 tree `loadSerp` builds, as its elements in document order, for DDG's parsers: on its 35 KB
 * page, cheerio's wrapping and its selectors (compiled afresh on every call) cost twice what the tree does.
 */
export function serpElements(html: string): Element[] {
  return DomUtils.findAll(() => true, parseDocument(html, { decodeEntities: true }).children);
}

// Whitespace as cheerio's hasClass and css-select's `.class` see it, so both readings agree on every page.
const SPACE = /\s/;

/** `class` holds `name` as a whole word: what `.name` matches. */
export function hasClass(el: Element, name: string): boolean {
  return classHas(el.attribs.class, name);
}

/** A class attribute's value holds `name` as a whole word. */
export function classHas(value: string | undefined, name: string): boolean {
  if (!value) return false;
  for (let at = value.indexOf(name); at >= 0; at = value.indexOf(name, at + 1)) {
    const end = at + name.length;
    if ((at === 0 || SPACE.test(value[at - 1])) && (end === value.length || SPACE.test(value[end])))
      return true;
  }
  return false;
}

/** First descendant (document order) that passes `test`: cheerio's `.find(selector).first()`. */
export function firstInside(el: Element, test: (e: Element) => boolean): Element | undefined {
  return DomUtils.findOne(test, el.children) ?? undefined;
}

/** Text of every descendant that passes `test`, joined: cheerio's `.find(selector).text()`. */
export function textInside(el: Element, test: (e: Element) => boolean): string {
  return DomUtils.findAll(test, el.children).map(textOf).join("");
}

export function textOf(node: AnyNode | undefined): string {
  return node ? DomUtils.textContent(node) : "";
}

/**
 * The hits of every result block on a page without a no-results marker of its own: none found is an unknown page
 * (a layout change or a block in disguise), never "no results".
 */
export function hitsIn(
  $: cheerio.CheerioAPI,
  blocks: string,
  hitOf: (block: cheerio.Cheerio<AnyNode>) => ProviderHit | undefined,
): SerpParse {
  const hits: ProviderHit[] = [];
  $(blocks).each((_, el) => {
    const hit = hitOf($(el));
    if (hit) hits.push(hit);
  });
  if (hits.length > 0) return { kind: "results", hits };
  return { kind: "unrecognised", reason: `no ${blocks} results and no no-results marker` };
}

import { type ChromeKind, chromeKind, isMediaPlayer, namesFurniture } from "./chrome-names.js";
import { disclosureTargets, isClosedPanel } from "./disclosure.js";
import type { AnyNode, Document, Element, ParentNode } from "./dom.js";
import {
  collapseWhitespace,
  findFirst,
  HEADINGS,
  isInside,
  isTag,
  isText,
  removeNodes,
  textContent,
  walkElements,
} from "./dom.js";
import { isHidden, isHiddenForGood } from "./hidden.js";
import { itemKeys } from "./item-list.js";
import { runningProse } from "./running-prose.js";
import { SETTINGS } from "./settings.js";
import { TextStatsIndex } from "./text-stats.js";

// Never content: code, widgets, embedded media and form controls. <head> itself stays: htmlparser2 does
// not close an unterminated <head> at the first body tag, so on some pages it holds the whole page.
// A ruby annotation (`<rt>`, `<rtc>`: furigana, a reading set above its word) and its fallback brackets
// (`<rp>`) are not words of the line: read inline they glue onto the word they annotate ("子こども").
const JUNK_TAGS = new Set(
  (
    "script style noscript template svg canvas iframe object embed applet button select input textarea option " +
    "datalist dialog link meta base frame frameset audio video source track map title rt rtc rp"
  ).split(" "),
);

/**
 * A button inside a heading is the heading's text: the accessible accordion and disclosure pattern puts
 * the section's title (an FAQ's question) in the button that opens it.
 */
function isHeadingToggle(el: Element): boolean {
  if (el.name !== "button" || !isInside(el, HEADINGS)) return false;
  // A disclosure button says what it opens; a heading's other buttons ("Copy link to this section") are
  // controls beside its words, while a button holding all of them is the heading itself (an accordion
  // without ARIA attributes).
  if (el.attribs["aria-expanded"] !== undefined || el.attribs["aria-controls"] !== undefined) return true;
  const heading = closestHeading(el);
  if (!heading) return false;
  const words = collapseWhitespace(textContent(el));
  return words.length > 0 && words === headingText(heading);
}

// A heading's text, read once however many buttons it holds.
const headingTexts = new WeakMap<Element, string>();

function headingText(heading: Element): string {
  let text = headingTexts.get(heading);
  if (text === undefined) {
    text = collapseWhitespace(textContent(heading));
    headingTexts.set(heading, text);
  }
  return text;
}

function closestHeading(el: Element): Element | undefined {
  for (let a = el.parent; a && isTag(a); a = a.parent) if (HEADINGS.has(a.name)) return a;
  return undefined;
}

const CHROME_ROLES = new Set(
  "navigation banner contentinfo complementary search menu menubar dialog alertdialog".split(" "),
);

const TEXT_ROOTS = new Set(["body", "html", "main", "article"]);
const PAGE_SECTIONS = new Set(["article", "main"]);

interface Candidate {
  el: Element;
  kind: ChromeKind;
}

/**
 * Removes everything that is never main content, in place: hidden subtrees,
 * code, widgets, page chrome (navigation, page header, footers, asides,
 * banners) and class-named boilerplate. Name-based candidates are still
 * walked, so hidden text inside a wrapper that survives is removed too.
 * `loose` removes only what is never content (hidden subtrees, code, widgets)
 * and trusts no names or landmarks: the fallback for pages whose wrappers are misnamed.
 */
export function cleanTree(doc: Document, mode: "strict" | "loose" = "strict", thread = false): void {
  const drop: Element[] = [];
  const soft: Candidate[] = [];
  const sides = new SiblingText();
  const panels = disclosureTargets(doc);
  walkElements(doc, (el) => {
    if (isHeadingToggle(el)) el.name = "span";
    const hidden = isHidden(el) && (isHiddenForGood(el) || !isClosedPanel(el, panels));
    if (JUNK_TAGS.has(el.name) || hidden || isMediaPlayer(el)) {
      drop.push(el);
      return false;
    }
    if (mode === "loose") return true;
    const role = el.attribs.role?.toLowerCase();
    if (el.name === "nav" || el.name === "aside" || (role && CHROME_ROLES.has(role))) {
      drop.push(el);
      return false;
    }
    if (isHeadlineHeader(el)) return true;
    if (
      el.name === "footer" ||
      (el.name === "header" && !isInside(el, PAGE_SECTIONS)) ||
      el.name === "form"
    ) {
      soft.push({ el, kind: "chrome" });
      return true;
    }
    if (TEXT_ROOTS.has(el.name)) return true;
    // The name first: most inline elements carry none, and then the sentence around them is not read.
    const kind = chromeKind(el);
    if (kind && !inSentence(el, sides)) soft.push({ el, kind });
    return true;
  });
  removeNodes(drop);
  if (soft.length) removeChrome(doc, soft, thread);
}

const HEADER_NAME = /head/i;

/**
 * A header that holds the page's headline (an `<h1>` of words, not a linked logo) and a lead or subtitle heads
 * the article ("standfirst", dateline), while a site's header holds a logo and menus.
 */
function isHeadlineHeader(el: Element): boolean {
  if (el.name !== "header" && !HEADER_NAME.test(`${el.attribs.class ?? ""} ${el.attribs.id ?? ""}`))
    return false;
  if (namesFurniture(el)) return false;
  const h1 = findFirst(el, (d) => d.name === "h1", HEADER_SCAN);
  if (!h1) return false;
  const text = collapseWhitespace(textContent(h1));
  let linked = 0;
  walkElements(h1, (d) => {
    if (d.name !== "a") return true;
    linked += collapseWhitespace(textContent(d)).length;
    return false;
  });
  if (text.length < 20 || linked >= text.length / 2) return false;
  // Beside it, a lead or subtitle of a sentence's length.
  return !!findFirst(
    el,
    (d) =>
      (d.name === "p" || d.name === "h2") &&
      !isInside(d, LINKS) &&
      collapseWhitespace(textContent(d)).length >= 60,
    HEADER_SCAN,
  );
}

const LINKS = new Set(["a", "nav"]);

// A headline header is small: looking further into a page-sized wrapper named "…head…" only costs time (every
// nested element so named would scan the page again).
const HEADER_SCAN = 300;

/**
 * Names are hints; the text they would take away decides. A wrapper named
 * "header-wrap" or an ASP.NET page-wide <form> may hold the whole page, and a
 * forum thread is made of what a blog would call its comments.
 */
function removeChrome(doc: Document, soft: Candidate[], thread: boolean): void {
  const stats = new TextStatsIndex(doc);
  let total = 0;
  for (const child of doc.children) if (isTag(child)) total += stats.of(child).chars;
  // Ancestors are looked up, not every other candidate tried: a thread of 10,000 comments was quadratic.
  const byKind = new Map<Element, Set<ChromeKind>>();
  for (const c of soft) byKind.set(c.el, (byKind.get(c.el) ?? new Set()).add(c.kind));
  const outermost = (c: Candidate) => {
    for (let p = c.el.parent; p && isTag(p); p = p.parent) if (byKind.get(p)?.has(c.kind)) return false;
    return true;
  };
  const commentChars = soft
    .filter((c) => c.kind === "comments" && outermost(c))
    .reduce((n, c) => n + stats.of(c.el).chars, 0);
  // A blog post with a long discussion still has its article outside the comments.
  const isThread = commentChars > total * 0.6 && total - commentChars < 1500;
  const prose = runningProse(doc, stats);
  const pageProse = prose.get(doc) ?? 0;
  const parts = new ItemParts(stats, thread ? SETTINGS.threadItemPartLevels : SETTINGS.itemPartLevels);
  const doomed: Element[] = [];
  for (const { el, kind } of soft) {
    if (kind === "comments" && (isThread || (thread && holdsPosts(el)))) continue;
    if (kind === "chrome" && parts.isPart(el)) continue;
    // The page's running prose is its content whatever its wrapper is called ("newsArticleMeta").
    if (kind === "chrome" && (prose.get(el) ?? 0) > pageProse * 0.5) continue;
    const chars = stats.of(el).chars;
    const rest = total - chars;
    if (
      chars < total * 0.4 ||
      (rest >= 2000 && chars < total * 0.75) ||
      (kind === "comments" && rest >= 500)
    ) {
      // A poster's card says who wrote the post: on a thread its name stays, the rank and statistics go.
      const name = thread && kind === "chrome" ? posterName(el) : undefined;
      if (name) keepOnly(el, name);
      else doomed.push(el);
    }
  }
  removeNodes(doomed);
}

// A link to a member's profile, as forum software writes it.
const PROFILE_HREF =
  /\/(?:members?|users?|u|profiles?|memberlist\.php|member\.php)(?:\/|\?|$)|[?&](?:u|uid|user|userid|showuser)=\d/i;
const USER_CARD =
  /(?:^|[\s_-])(?:user-?(?:info|details|card|profile)|post-?profile|message-?user\w*)(?:$|[\s_-])/i;

/** The poster's name in a poster's card (a profile link, in its heading when it has one), or undefined. */
function posterName(card: Element): Element | undefined {
  if (!USER_CARD.test(`${card.attribs.class ?? ""} ${card.attribs.id ?? ""}`)) return undefined;
  const link = findFirst(
    card,
    (d) => d.name === "a" && PROFILE_HREF.test(d.attribs.href ?? ""),
    SETTINGS.posterCardScan,
  );
  if (!link || !collapseWhitespace(textContent(link))) return undefined;
  for (let a = link.parent; a && a !== card && isTag(a); a = a.parent) if (HEADINGS.has(a.name)) return a;
  return link;
}

/** Empties the element but for one of its descendants. */
function keepOnly(el: Element, keep: Element): void {
  keep.parent = el;
  keep.prev = null;
  keep.next = null;
  el.children = [keep];
}

/**
 * On a page that says it is a thread (a forum's or a Q&A site's markup, a thread's URL), a comment section
 * holding paragraphs is its replies, the posts the page is made of; one of one-line remarks under a post
 * (Stack Exchange's comments) stays dropped.
 */
function holdsPosts(el: Element): boolean {
  return !!findFirst(el, (d) => d.name === "p" || d.name === "blockquote");
}

/**
 * A name that recurs in every card of a grid is a part of the card, not chrome around the page: a shop's
 * "product-caption" holds each product's name and price, a section front's "module-meta-info" each story's
 * headline. The card is an ancestor a few levels up with alike, linked siblings (same tag and class); the part
 * holds the card's heading and sits at the same place in at least `listMinItems` of them. Chrome around the
 * grid is named once and still goes.
 */
class ItemParts {
  // Per grid (the cards' parent): how many cards of a kind hold a part of a name at a depth.
  private readonly seen = new Map<ParentNode, Map<string, number>>();
  private readonly alike = new Map<ParentNode, Map<string, number>>();
  private readonly keys = new Map<ParentNode, Map<Element, string>>();

  constructor(
    private readonly stats: TextStatsIndex,
    private readonly levels: number,
  ) {}

  isPart(el: Element): boolean {
    const name = el.attribs.class;
    if (!name) return false;
    let card = el.parent;
    for (let level = 1; level <= this.levels; level++, card = card.parent) {
      const grid = card?.parent;
      if (!card || !grid || !isTag(card) || !isTag(grid)) return false;
      if (this.alikeCount(grid, card) < SETTINGS.listMinItems) continue;
      // A card that is all caption is a captioned picture (a gallery's teaser), not an item with a title block;
      // a <header> is a title block whatever else the card holds (an archive's cards of a linked title only).
      if (this.stats.of(card).chars <= this.stats.of(el).chars && el.name !== "header") return false;
      // The part is the card's title block, or its rating as a figure ("Rated 4.6 out of 5 stars", "4.35 avg
      // rating — 9,993 ratings"), a fact of the item as its price is; not a credit, a star widget of words to
      // click ("Rate this book") or a poster's card.
      const heading = findFirst(
        el,
        (d) => HEADINGS.has(d.name) && collapseWhitespace(textContent(d)).length > 0,
        SETTINGS.itemPartScan,
      );
      if (!heading && !isRatingFigure(el)) return false;
      return this.cardsWith(grid, name, level, card) >= SETTINGS.listMinItems;
    }
    return false;
  }

  /**
   * Each card's kind: its tag and the class names most of its same-tag siblings carry, not the ones naming the
   * product's own categories and states (WooCommerce's `product_cat-on-sale`, `instock`, `sale`).
   */
  private cardKey(grid: ParentNode, card: Element): string {
    let keys = this.keys.get(grid);
    if (!keys) {
      keys = itemKeys(grid.children.filter(isTag));
      this.keys.set(grid, keys);
    }
    return keys.get(card) ?? "";
  }

  /** How many children of the grid are built like the card (tag and class) and hold a link. */
  private alikeCount(grid: ParentNode, card: Element): number {
    let counts = this.alike.get(grid);
    if (!counts) {
      counts = new Map();
      for (const c of grid.children)
        if (isTag(c) && findFirst(c, (d) => d.name === "a", 200)) {
          const key = this.cardKey(grid, c);
          counts.set(key, (counts.get(key) ?? 0) + 1);
        }
      this.alike.set(grid, counts);
    }
    return counts.get(this.cardKey(grid, card)) ?? 0;
  }

  private cardsWith(grid: ParentNode, name: string, level: number, card: Element): number {
    let byName = this.seen.get(grid);
    if (!byName) {
      byName = new Map();
      this.seen.set(grid, byName);
    }
    const ck = this.cardKey(grid, card);
    const key = `${level}|${name}|${ck}`;
    let count = byName.get(key);
    if (count === undefined) {
      count = 0;
      for (const c of grid.children)
        if (isTag(c) && this.cardKey(grid, c) === ck && holdsNamedAt(c, name, level)) count++;
      byName.set(key, count);
    }
    return count;
  }
}

const RATING_NAME = /rating/i;
// A score with its scale or its count of votes: "4.6 out of 5", "4.35 avg rating", "(1,234 reviews)", "4.5/5".
const RATING_FIGURE =
  /\d(?:[.,]\d+)?\s*(?:out of|von|sur|de|su|\/)\s*\d|\d\s*(?:avg|average)|\d[\d,.]*\s*(?:ratings?|reviews?|votes?)\b/i;

/** A rating-named part whose short text states the score as a figure, not a widget of stars to click. */
function isRatingFigure(el: Element): boolean {
  if (!RATING_NAME.test(el.attribs.class ?? "")) return false;
  const text = collapseWhitespace(textContent(el));
  return text.length <= 200 && RATING_FIGURE.test(text);
}

/** Whether an element `level` levels below the card carries the class name. */
function holdsNamedAt(card: Element, name: string, level: number): boolean {
  let found = false;
  const visit = (el: Element, depth: number): void => {
    if (found) return;
    if (depth === level) {
      found = el.attribs.class === name;
      return;
    }
    for (const c of el.children) if (isTag(c)) visit(c, depth + 1);
  };
  visit(card, 0);
  return found;
}

// Phrasing elements: inside a line of text they are words of that line.
const PHRASING = new Set(
  "a span em strong b i u s abbr cite q mark small sup sub font dfn time var ins del".split(" "),
);

/**
 * An inline element with running text on both sides is part of a sentence (a link with a "popup" note, a
 * term with a "tooltip"): its class name describes a decoration, and removing it would cut words out of the
 * sentence.
 */
function inSentence(el: Element, sides: SiblingText): boolean {
  if (!PHRASING.has(el.name) || !el.parent) return false;
  const { before, total } = sides.around(el);
  const after = total - before;
  return before > 0 && after > 0 && before + after >= 20;
}

/**
 * The text beside each child of a parent, counted once per parent: scanning the siblings of every inline
 * element made a paragraph of 20,000 links quadratic. Valid while the walk that uses it changes no children.
 */
class SiblingText {
  private readonly parents = new Map<ParentNode, { before: Map<AnyNode, number>; total: number }>();

  around(el: Element): { before: number; total: number } {
    const parent = el.parent!;
    let sums = this.parents.get(parent);
    if (!sums) {
      const before = new Map<AnyNode, number>();
      let total = 0;
      for (const c of parent.children) {
        before.set(c, total);
        if (isText(c)) total += c.data.trim().length;
      }
      sums = { before, total };
      this.parents.set(parent, sums);
    }
    return { before: sums.before.get(el) ?? 0, total: sums.total };
  }
}

import { isBoldLine } from "./bold-lines.js";
import type { Element } from "./dom.js";
import {
  adjacentElement,
  classNames,
  collapseWhitespace,
  findFirst,
  isAncestor,
  isHeading,
  isTag,
  removeNode,
  textContent,
  walkElements,
} from "./dom.js";
import { classWeight } from "./main-content.js";
import { isPrice } from "./price.js";
import { isSourceList } from "./reference-lists.js";
import { SETTINGS } from "./settings.js";
import { isDataTable } from "./table.js";
import type { TextStatsIndex } from "./text-stats.js";

const CONDITIONAL = new Set([
  "div",
  "section",
  "ul",
  "ol",
  "dl",
  "table",
  "form",
  "fieldset",
  "header",
  "footer",
  "figure",
  "aside",
  "nav",
]);

/**
 * Inside the chosen content, removes blocks that read as widgets rather than
 * prose (Readability's conditional cleaning): link lists, image grids, form
 * remnants and short fragments. A block holding `chosen` (the best container, when a wider region was
 * taken around it) stays: its link-heavy neighbours would otherwise take the content with them. The `items`
 * of a listing that is the content are kept whole; on a product page (`specs`), so are its specification rows,
 * in documentation (`docs`), its lists of references, and on a landing page (`landing`), its short lines and
 * its headed cards with icons.
 */
export function pruneContent(
  roots: Element[],
  scores: Map<Element, number>,
  stats: TextStatsIndex,
  chosen: Element[] = [],
  items: ReadonlySet<Element> = new Set(),
  specs = false,
  docs = false,
  landing = false,
): void {
  for (const root of roots) {
    const rootChars = stats.of(root).chars;
    // Innermost first. Counts are not updated after a removal: stale counts over-estimate what
    // remains, which errs toward keeping.
    const blocks: Element[] = [];
    walkElements(root, (el) => {
      // A data table and everything in it is content (Readability's rule): its cells are short by nature.
      if (el.name === "table" && isDataTable(el)) return false;
      // So is a listing's item: its title is a link and its words are few by nature.
      if (items.has(el)) return false;
      // A block inside a heading is the heading's words (GitBook wraps each heading's text in a <div>).
      if (isHeading(el)) return false;
      if (CONDITIONAL.has(el.name)) blocks.push(el);
      return el.name !== "pre";
    });
    blocks.reverse();
    // A bold line is a heading by what follows it, read before any removal (what follows goes first); only a
    // fragment is asked, since only a fragment is pruned for being short.
    const boldLines = new Set(
      blocks.filter((el) => stats.of(el).chars < SETTINGS.fragmentMaxChars && isBoldLine(el, stats)),
    );
    for (const el of blocks) {
      if (chosen.some((c) => c === el || isAncestor(el, c))) continue;
      // A run right beside the chosen content, in the same parent, continues it: a listicle's items after its
      // introduction ("The 10 best blenders": each item's heading links to the shop).
      const apart = !chosen.some((c) => isAncestor(c, el) || c.parent === el.parent);
      if (
        (apart && isTeaserRun(el, stats)) ||
        looksLikeWidget(el, scores, stats, rootChars, specs, docs, landing, boldLines)
      )
        removeNode(el);
    }
  }
}

/**
 * A run of at least four items built alike, each a linked heading over a few lines (a stream of story teasers),
 * outside the chosen content (a wider region was taken around it): more stories, not more of this one. A
 * listing that is the page's content holds the chosen container or lies inside it.
 */
function isTeaserRun(el: Element, stats: TextStatsIndex): boolean {
  return !!headedRun(el, stats)?.every((c) => stats.of(c).linkChars > 0 && stats.of(c).chars <= 600);
}

function looksLikeWidget(
  el: Element,
  scores: Map<Element, number>,
  stats: TextStatsIndex,
  rootChars: number,
  specs: boolean,
  docs: boolean,
  landing: boolean,
  boldLines: ReadonlySet<Element>,
): boolean {
  // The linked title of an item of a listing that makes most of the content (a category page) is the item's
  // title, not a link list; teasers beside an article are a minority of its text and still go.
  if (isListingTitle(el, stats, rootChars) || isListing(el, stats, rootChars)) return false;
  const weight = classWeight(el);
  // Layout wrappers carry misleading names ("sticky-sidebar" around the article): a block holding
  // much of the prose stays unless it is mostly links.
  if (
    stats.of(el).chars > rootChars * SETTINGS.pruneKeepShare &&
    stats.linkDensity(el) < SETTINGS.pruneKeepMaxLinkDensity
  )
    return false;
  if (weight < 0 && weight + (scores.get(el) ?? 0) < 0) return true;
  const s = stats.of(el);
  if (s.commas >= SETTINGS.pruneKeepCommas || s.codeBlocks > 0) return false;
  const isList = el.name === "ul" || el.name === "ol" || el.name === "dl";
  const isTable = el.name === "table";
  // In documentation a list of links to other pages is the section's references ("Redis string command
  // reference" under each data type, a setup step per language in a tab pane), not the site's navigation,
  // which cleaning took with the sidebar; a table of contents links within the page and still goes.
  if (docs && (isList || el.attribs.role === "tabpanel") && linksAway(el)) return false;
  // A list of links under "References" or "Sources" is the article's citations.
  if (isList && isSourceList(el)) return false;
  // An image grid, unless its list items carry sentences (a recipe's steps with a photo each), or it is a
  // landing page's headed card with its icons (a feature's name and line under a pictogram).
  const textItems = s.items >= 2 && s.chars / s.items >= 40;
  if (
    s.images > 1 &&
    s.paragraphs / s.images < 0.5 &&
    s.chars < s.images * 60 &&
    el.name !== "figure" &&
    !textItems &&
    !(landing && s.headings > 0)
  )
    return true;
  if (!isList && !isTable && s.items > s.paragraphs + 1 && s.headings === 0 && stats.linkDensity(el) > 0.3)
    return true;
  if (s.inputs > Math.floor(s.paragraphs / 3)) return true;
  // A landing page's short lines are its figures, taglines and calls to action ("3X", "Creative output"):
  // its sections are short by design.
  if (
    !landing &&
    !isList &&
    !isTable &&
    s.chars < SETTINGS.fragmentMaxChars &&
    s.headings === 0 &&
    (s.images === 0 || s.images > 2) &&
    !isPrice(collapseWhitespace(textContent(el))) &&
    !(specs && (holdsDefinition(el) || inBuyBox(el) || isHeadedValue(el, stats))) &&
    // A line set all in bold is a heading by its type ("4. Quit Tobacco Use" over its paragraphs).
    !boldLines.has(el)
  )
    return true;
  const density = stats.linkDensity(el);
  // A list nested in an item that has words of its own is that item's sub-points (a release note's bug links
  // under its feature), not a block of navigation.
  if (isList && isSubList(el, stats)) return false;
  const named = weight >= SETTINGS.nameWeight;
  if (!named && density > (isList ? SETTINGS.pruneListLinkDensity : SETTINGS.pruneBlockLinkDensity))
    return true;
  if (named && density > SETTINGS.pruneNamedLinkDensity) return true;
  return false;
}

/**
 * On a product page, a short block around a term and its definition is one row of its specifications
 * ("Strike Type: Proof", a `<dl>` per row in grid cells), not a fragment of chrome. Elsewhere such rows are
 * mostly a forum poster's statistics ("Joined: 2019"), which go.
 */
function holdsDefinition(el: Element): boolean {
  return !!findFirst(el, (d) => d.name === "dd") || inDefinition(el);
}

/** Inside a term or its definition, a few wrappers deep (eBay's `<dd><div><div><span>Proof`). */
function inDefinition(el: Element): boolean {
  let up = el.parent;
  for (let level = 0; up && isTag(up) && level < SETTINGS.definitionWrapperLevels; level++, up = up.parent)
    if (up.name === "dd" || up.name === "dt") return true;
  return false;
}

/**
 * On a product page, a short unlinked block right under a short heading of its own is the value that heading
 * names ("Manufacturer" over the maker's name, "Part #" over the part number): a specification laid out as a
 * heading and its value, not a fragment of chrome.
 */
function isHeadedValue(el: Element, stats: TextStatsIndex): boolean {
  const s = stats.of(el);
  if (!s.chars || s.linkChars) return false;
  const prev = adjacentElement(el, "prev");
  if (!prev || !isHeading(prev)) return false;
  const label = stats.of(prev).chars;
  return label > 0 && label <= SETTINGS.headedValueMaxLabelChars;
}

/**
 * Inside a form a few wrappers up: a product's buy box, whose short lines are its choices ("Avignon Velvet
 * Cocoa" under "Colour & Material:"), sizes and stock, not chrome.
 */
function inBuyBox(el: Element): boolean {
  let up: Element["parent"] = el;
  for (let level = 0; up && isTag(up) && level < SETTINGS.buyBoxLevels; level++, up = up.parent)
    if (up.name === "form") return true;
  return false;
}

// Whether a subtree holds a link to another page, each element judged once (nested lists stay linear).
const awayLinks = new WeakMap<Element, boolean>();

function linksAway(el: Element): boolean {
  let known = awayLinks.get(el);
  if (known === undefined) {
    known =
      (el.name === "a" && !!el.attribs.href && !el.attribs.href.startsWith("#")) ||
      el.children.some((c) => isTag(c) && linksAway(c));
    awayLinks.set(el, known);
  }
  return known;
}

function isSubList(list: Element, stats: TextStatsIndex): boolean {
  const item = list.parent;
  if (!item || !isTag(item) || item.name !== "li") return false;
  return stats.of(item).chars - stats.of(list).chars >= 3 && stats.linkDensity(item) < 1;
}

/** A wrapper holding only a heading, inside one of a run of items built alike that hold most of the text. */
function isListingTitle(el: Element, stats: TextStatsIndex, rootChars: number): boolean {
  const s = stats.of(el);
  if (!s.headings || !s.chars) return false;
  let inHeadings = 0;
  walkElements(el, (d) => {
    if (!isHeading(d)) return true;
    inHeadings += stats.of(d).chars;
    return false;
  });
  if (inHeadings !== s.chars) return false;
  for (let item = el.parent; item && isTag(item) && item.parent && isTag(item.parent); item = item.parent)
    if (hasAlikeNeighbours(item, stats)) return stats.of(item.parent as Element).chars > rootChars * 0.5;
  return false;
}

// A listing's items stand together: looking at a few neighbours on each side keeps this linear on pages with
// thousands of items (comparing every item with every sibling took seconds on a long archive page).
const NEIGHBOURS = 6;

/** Whether the item and at least two of its nearest siblings are built alike and are not link blocks. */
function hasAlikeNeighbours(item: Element, stats: TextStatsIndex): boolean {
  const alike = (sib: Element) =>
    sib.name === item.name && sameKind(sib, item) && stats.linkDensity(sib) < 0.5;
  if (!alike(item)) return false;
  let found = 1;
  for (const step of ["prev", "next"] as const) {
    let seen = 0;
    for (let n = item[step]; n && seen < NEIGHBOURS; n = n[step]) {
      if (!isTag(n)) continue;
      seen++;
      if (alike(n) && ++found >= 3) return true;
    }
  }
  return false;
}

const classTokens = new WeakMap<Element, Set<string>>();

function tokensOf(el: Element): Set<string> {
  let tokens = classTokens.get(el);
  if (!tokens) {
    tokens = new Set(classNames(el));
    classTokens.set(el, tokens);
  }
  return tokens;
}

/** Same tag and most class names in common ("post post-12 type-post" and "post post-14 type-post"). */
function sameKind(a: Element, b: Element): boolean {
  if (a === b) return true;
  const ta = tokensOf(a);
  const tb = tokensOf(b);
  if (!ta.size || !tb.size) return false;
  let common = 0;
  for (const t of ta) if (tb.has(t)) common++;
  return common * 2 >= Math.max(ta.size, tb.size);
}

/**
 * A run of at least four items built alike, each with a heading (a product grid), that makes most of the
 * content is the page's listing (a shop's category page), not a teaser grid beside an article.
 */
function isListing(el: Element, stats: TextStatsIndex, rootChars: number): boolean {
  return stats.of(el).chars > rootChars * 0.5 && headedRun(el, stats) !== undefined;
}

/** The element's items when it is a run of at least four built alike, each with a heading; else undefined. */
function headedRun(el: Element, stats: TextStatsIndex): Element[] | undefined {
  const items = el.children.filter((c): c is Element => isTag(c) && stats.of(c).chars > 0);
  if (items.length < 4) return undefined;
  const first = items[0]!;
  const alike = items.every((c) => c.name === first.name && sameKind(c, first) && stats.of(c).headings > 0);
  return alike ? items : undefined;
}

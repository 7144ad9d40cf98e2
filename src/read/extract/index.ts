import { dropAuthorBio } from "./author-bio.js";
import { dropBoilerplateText } from "./boilerplate-text.js";
import { dropCardControls } from "./card-controls.js";
import { cleanTree } from "./clean.js";
import { dropConsentDialogs } from "./consent-dialogs.js";
import { limitDepth } from "./depth-limit.js";
import type { Document, Element } from "./dom.js";
import { findFirst, isAncestor, isTag, parseHtml } from "./dom.js";
import { trimLeadingStubs, trimTrailingStubs } from "./edge-lines.js";
import { dropFormStates } from "./form-states.js";
import { largestItemRun } from "./item-list.js";
import { dropItemTwins } from "./item-twins.js";
import { isLandingPage } from "./landing-page.js";
import { baseUrlOf, usefulLinks } from "./links.js";
import { listingHead } from "./listing-head.js";
import { leadBefore, scoreContainers, topCandidate, withSiblings } from "./main-content.js";
import { type Rendered, renderMarkdown } from "./markdown.js";
import { loadMathConverter } from "./math.js";
import { documentTitle, readMetadata } from "./metadata.js";
import { holdsOnlyFurniture } from "./no-content.js";
import type { PageDates } from "./page-dates.js";
import { type PageKind, pageKind } from "./page-kind.js";
import { pageTextBlocks } from "./page-text.js";
import { dropPosterStats } from "./poster-stats.js";
import { declaredDescription, withDeclaredDescription } from "./product-data.js";
import { dropOffProductSections } from "./product-sections.js";
import { proselessItems } from "./proseless-items.js";
import { pruneContent } from "./prune.js";
import { prefersRegion } from "./region-choice.js";
import { dropRepeatedBlocks } from "./repeated-blocks.js";
import { dropRepeatedQuotes } from "./repeated-quotes.js";
import { dropRepeatedRuns } from "./repeated-runs.js";
import { dropReplySubjects } from "./reply-subjects.js";
import { dropReviewBlocks } from "./review-blocks.js";
import { revealServerView } from "./server-view.js";
import { SETTINGS } from "./settings.js";
import { largestPricedRun, withGrid } from "./shop-grid.js";
import { dropSignatures } from "./signatures.js";
import { hasStreamedContent, placeStreamedContent } from "./streamed-content.js";
import { TextStatsIndex } from "./text-stats.js";
import { dropTitleHeading } from "./title-heading.js";
import { dropTooltips } from "./tooltips.js";
import { isUndeclaredListing } from "./undeclared-listing.js";

export interface ExtractedPage {
  title?: string;
  /** The main content as markdown; anchors keep their words, targets are in `links`. */
  markdown: string;
  /** Absolute http(s) links of the main content, de-duplicated, in page order. */
  links: string[];
  lang?: string;
  byline?: string;
  published?: string;
  siteName?: string;
  dates?: PageDates;
  /** The page's visible text as a browser lays it out, in blocks: what a text-fragment link is matched against. */
  pageText?: string[];
}

/** HTML → main content → markdown, with the content's links moved out of the prose. */
export async function extractMarkdown(html: string, url: string): Promise<ExtractedPage> {
  if (/<math[\s>]/i.test(html)) await loadMathConverter();
  const doc = parseHtml(html);
  limitDepth(doc);
  const meta = { ...readMetadata(doc), pageText: pageTextBlocks(doc) };
  const baseUrl = baseUrlOf(doc, url);
  const declaredTitle = documentTitle(doc);
  const kind = pageKind(doc, url);
  const description = kind === "product" ? declaredDescription(doc) : undefined;
  const streamed = hasStreamedContent(html);
  if (streamed) placeStreamedContent(doc);
  revealServerView(doc);
  if (holdsOnlyFurniture(doc)) return { ...meta, markdown: "", links: [] };
  let best = extract(doc, "strict", declaredTitle, kind, meta.byline);
  // A short primary may mean a name or landmark took the article with it (a "sidebar" layout wrapper, an
  // unclosed <header>); a second pass that trusts no names wins when it finds clearly more.
  if (best.markdown.length < SETTINGS.minPrimaryChars) {
    const again = parseHtml(html);
    limitDepth(again);
    if (streamed) placeStreamedContent(again);
    revealServerView(again);
    dropConsentDialogs(again);
    const loose = extract(again, "loose", declaredTitle, kind, meta.byline);
    if (loose.markdown.length > best.markdown.length * SETTINGS.looseOverPrimary) best = loose;
  }
  // A description the page draws by script is in its declaration only.
  const markdown = description
    ? withDeclaredDescription(best.blocks, description).join("\n\n")
    : best.markdown;
  return { ...meta, markdown, links: usefulLinks(best.hrefs, baseUrl, url) };
}

function extract(
  doc: Document,
  mode: "strict" | "loose",
  title: string | undefined,
  kind: PageKind,
  byline?: string,
): Rendered {
  cleanTree(doc, mode, kind === "forum");
  if (kind === "product") dropReviewBlocks(doc);
  dropTooltips(doc);
  if (kind === "forum") {
    dropPosterStats(doc);
    dropSignatures(doc);
  }
  const root =
    findFirst(doc, (el) => el.name === "body") ??
    findFirst(doc, (el) => el.name === "html") ??
    doc.children.find(isTag);
  const content = root ? mainContent(root, kind, mode) : { roots: [], listing: false };
  // A reply's quote of a post shown above it says it a second time.
  if (kind === "forum") {
    dropRepeatedQuotes(content.roots);
    dropReplySubjects(content.roots, title);
  }
  // A product's name is the first fact about it, not a copy of the page's title to save tokens on.
  const roots = kind === "product" ? content.roots : dropTitleHeading(content.roots, title);
  // A product's gallery describes its photos ("Close-up, front view of the laptop…"); its description says it.
  const rendered = renderMarkdown(roots, kind !== "product");
  // Furniture lines around the article (dates, bylines, labels, appeals) are cut at both ends; a listing's
  // items are short lines by nature and stay.
  if (content.listing) return rendered;
  // A shop's sections about other products and buyers' reviews follow the product's own; its forms' error
  // states are in the page for a script to show.
  const own =
    kind === "product"
      ? dropFormStates(dropOffProductSections(rendered.blocks))
      : kind === "forum"
        ? rendered.blocks
        : dropAuthorBio(rendered.blocks, byline);
  const trimmed = trimLeadingStubs(trimTrailingStubs(own));
  // A section a shop or a blog template carries twice (for narrow and wide screens) is read once; on a page of no
  // declared kind only a run of blocks said again in order is, since documentation repeats single blocks
  // (a parameter's description under each signature) and its references keep both.
  const blocks =
    kind === "product" || kind === "article"
      ? dropRepeatedBlocks(trimmed)
      : kind === "unknown"
        ? dropRepeatedRuns(trimmed)
        : trimmed;
  if (blocks.length === rendered.blocks.length) return rendered;
  // The links of the dropped lines go with them ("Jetzt teilen", "Zurück zu allen Meldungen").
  const kept = new Map<number, number>();
  for (let i = 0, j = 0; i < rendered.blocks.length && j < blocks.length; i++)
    if (rendered.blocks[i] === blocks[j]) kept.set(i, j++);
  const hrefs: string[] = [];
  const hrefBlocks: number[] = [];
  rendered.hrefs.forEach((href, k) => {
    const block = kept.get(rendered.hrefBlocks[k]!);
    if (block === undefined) return;
    hrefs.push(href);
    hrefBlocks.push(block);
  });
  return { blocks, markdown: blocks.join("\n\n"), hrefs, hrefBlocks };
}

/**
 * The innermost element still holding nearly all of the page's prose and the chosen content: the page
 * minus its frame. The fallback widens around the chosen content and never moves away from it: a
 * sidebar can hold most of the prose of a page whose article is short.
 */
function proseRegion(root: Element, prose: (el: Element) => number, chosen: Element[]): Element {
  let region = root;
  for (;;) {
    const total = prose(region);
    const next = region.children.find(
      (c): c is Element =>
        isTag(c) &&
        prose(c) >= total * SETTINGS.regionProseShare &&
        chosen.every((el) => el === c || isAncestor(c, el)),
    );
    if (!next) return region;
    region = next;
  }
}

/**
 * An `<article>` around the best container also holds its headline, lead and
 * fact boxes; take it when it adds little besides them.
 */
function widenToArticle(top: Element, stats: TextStatsIndex): Element {
  for (let a = top.parent; a && isTag(a); a = a.parent) {
    if (a.name !== "article" && a.attribs.itemprop !== "articleBody") continue;
    const ok =
      stats.of(a).chars <= stats.of(top).chars * SETTINGS.articleWidenChars &&
      stats.linkDensity(a) < SETTINGS.articleWidenMaxLinkDensity;
    return ok ? a : top;
  }
  return top;
}

/**
 * The primary extraction is the best-scoring container; the fallback is the
 * prose region around it. A container holding little of the page's prose missed
 * the content (product pages, listings, split layouts), so the fallback wins.
 */
function mainContent(
  root: Element,
  kind: PageKind,
  mode: "strict" | "loose",
): { roots: Element[]; listing: boolean } {
  const stats = new TextStatsIndex(root);
  const scores = scoreContainers(root, stats);
  const top = topCandidate(root, scores);
  const prose = (el: Element) => stats.unlinked(el);
  let picked = top ? withSiblings(widenToArticle(top, stats), scores, stats) : [root];
  const lead = top && leadBefore(picked[0]!, root, stats);
  if (lead) picked = [lead, ...picked];
  const chosen = picked;
  const region = proseRegion(root, prose, picked);
  if (prefersRegion(root, picked, region, stats, kind === "listing")) picked = [region];
  // A listing's content is its items: the largest run of alike items is kept whole, and it replaces a
  // container beside it that holds less (a category page's intro, a lead story).
  // A page that says nothing about itself is a listing when its items are most of its text: an article or a
  // service page that declares no kind holds its prose besides any grid of teasers.
  let run =
    kind === "listing" || kind === "unknown" ? largestItemRun(root, stats, kind === "listing") : undefined;
  if (run && kind === "unknown" && !isUndeclaredListing(run, chosen, root, stats)) run = undefined;
  let listing = false;
  if (run) {
    const inside = picked.some((el) => el === run.parent || isAncestor(el, run.parent));
    const pickedChars = picked.reduce((n, el) => n + stats.of(el).chars, 0);
    if (!inside && run.chars > pickedChars * SETTINGS.listOverPrimary && !run.bare) picked = [run.parent];
    // A run of cards of a linked title only (each an <article> or titled by a heading, all link like a menu's
    // entries) joins the intro in the page's order: a category's description and its posts are both the page.
    else if (!inside && kind === "listing" && run.bare) {
      picked = withGrid(picked, run.parent);
      listing = true;
    }
    // Kept whole only where it is most of what was taken: a grid of teasers under an article is pruned as before.
    listing ||= run.chars * 2 > stats.of(picked[0]!).chars;
  }
  const kept = listing ? [run!] : [];
  // A shop's grid beside the prose that scored as the content (a category's intro, a buyer's guide, an FAQ)
  // is what the page lists: it joins the content, whole; also when it is the listing's own run, which replaces only
  // a container holding less.
  const grid = kind === "listing" || kind === "unknown" ? largestPricedRun(root, stats) : undefined;
  if (grid) {
    if (!picked.some((el) => el === grid.parent || isAncestor(el, grid.parent))) {
      picked = withGrid(picked, grid.parent);
      listing = true;
    }
    if (!kept.includes(grid)) kept.push(grid);
  }
  // On a listing whose best container is only its intro, the region taken around it (short of the whole body)
  // is the listing: its runs of items (a recipe index's carousels under the category's description) are content.
  const scope = kind === "listing" && !listing && !picked.includes(root) ? [...chosen, ...picked] : chosen;
  // In the names-blind pass the page's menus and footers are still there, and may be built as alike items.
  const { items, parents } =
    mode === "strict" ? proselessItems(root, scope, kind, stats) : { items: new Set<Element>(), parents: [] };
  for (const r of kept) for (const it of r.items) items.add(it);
  // A card's controls ("Compare", "Add to cart", "Quick View") act on its item and say nothing about it.
  dropCardControls(items);
  // A listing's items are kept whole, their twin title blocks too unless dropped here.
  if (listing) dropItemTwins(kept.flatMap((r) => r.items));
  // A list taken whole comes with the headline and intro that say what it lists.
  const head = listing ? listingHead(picked, root, stats) : undefined;
  if (head) picked = [head, ...picked];
  const held = [...chosen, ...parents, ...kept.map((r) => r.parent)];
  if (listing) pruneContent(picked, scores, stats, held, items);
  else
    pruneContent(
      picked,
      scores,
      stats,
      held,
      items,
      kind === "product",
      kind === "docs",
      isLandingPage(root, kind, stats),
    );
  dropBoilerplateText(picked, stats);
  return { roots: picked, listing };
}

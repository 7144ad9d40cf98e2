import type { Element } from "./dom.js";
import { findFirst, isAncestor, isHeading, isTag, isText, textContent, walkElements } from "./dom.js";
import { isNoteList, withoutNoteNames } from "./footnotes.js";
import { isHeadingSlug } from "./heading-slug.js";
import { SETTINGS } from "./settings.js";
import { BLOCK_CHILDREN } from "./tags.js";
import type { TextStatsIndex } from "./text-stats.js";

// Paragraph-like elements whose text is scored and credited to their ancestors.
const SCORED = new Set(["p", "pre", "td", "blockquote", "dd"]);
// Scored only when they hold no blocks. A list item holding paragraphs is a wrapper (a teaser card, a
// comment): its paragraphs are scored and credit the list at half weight, as in Readability, or a long
// list of teasers outscores the article beside it.
const TEXT_WRAPPERS = new Set(["div", "section", "article", "span", "font", "center", "main", "li"]);

const TAG_PRIOR: Record<string, number> = {
  div: 5,
  article: 8,
  main: 8,
  section: 3,
  pre: 3,
  td: 3,
  blockquote: 3,
  address: -3,
  ol: -3,
  ul: -3,
  dl: -3,
  dd: -3,
  dt: -3,
  li: -3,
  form: -3,
  h1: -5,
  h2: -5,
  h3: -5,
  h4: -5,
  h5: -5,
  h6: -5,
  th: -5,
};

const POSITIVE =
  /article|body|content|entry|hentry|h-entry|main|page|pagination|post|text|blog|story|prose|markdown|thread|message|forum|doc/i;
const NEGATIVE =
  /-ad-|^hid$| hid$| hid |^hid |banner|combx|contact|foot|footer|footnote|gdpr|masthead|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|tool|teaser|recommend|navigation|menu|breadcrumb/i;

/**
 * Readability's class/id weight: names are weak but cheap evidence. Schema.org's `articleBody`, and less so a
 * `description` (a product's, an offer's), are the publisher saying where the content is.
 */
export function classWeight(el: Element): number {
  let w = 0;
  // The article's footnotes are its text, though Readability's names ("foot") read them as a page footer; the
  // rest of their names still count ("footnotes hid").
  const notes = isNoteList(el);
  for (let name of [el.attribs.class, isHeadingSlug(el) ? undefined : el.attribs.id]) {
    if (name && notes) name = withoutNoteNames(name);
    if (!name) continue;
    if (NEGATIVE.test(name)) w -= SETTINGS.nameWeight;
    if (POSITIVE.test(name)) w += SETTINGS.nameWeight;
  }
  if (el.attribs.itemprop === "articleBody") w += SETTINGS.articleBodyWeight;
  else if (el.attribs.itemprop === "description") w += SETTINGS.descriptionWeight;
  return w;
}

function isParagraphLike(el: Element): boolean {
  if (SCORED.has(el.name)) return true;
  if (!TEXT_WRAPPERS.has(el.name)) return false;
  return !el.children.some((c) => isTag(c) && BLOCK_CHILDREN.has(c.name));
}

/**
 * Scores containers by the prose they hold (Readability's algorithm on our
 * tree): each paragraph credits its parent fully and farther ancestors less,
 * then link-heavy containers are discounted.
 */
export function scoreContainers(root: Element, stats: TextStatsIndex): Map<Element, number> {
  const scores = new Map<Element, number>();
  walkElements(root, (el) => {
    if (!isParagraphLike(el)) return true;
    const s = stats.of(el);
    if (s.chars < SETTINGS.paragraphMinChars) return !SCORED.has(el.name);
    const credit =
      1 + s.commas + Math.min(Math.floor(s.chars / SETTINGS.charsPerPoint), SETTINGS.maxLengthPoints);
    let level = 0;
    for (let a = el.parent; a && isTag(a) && level < SETTINGS.creditLevels; a = a.parent, level++) {
      if (!scores.has(a)) scores.set(a, (TAG_PRIOR[a.name] ?? 0) + classWeight(a));
      const divider = level === 0 ? 1 : level === 1 ? 2 : level * 3;
      scores.set(a, scores.get(a)! + credit / divider);
      if (a === root) break;
    }
    // Nested paragraph-like elements (li inside td) would be counted twice.
    return false;
  });
  for (const [el, score] of scores) scores.set(el, score * (1 - stats.linkDensity(el)));
  return scores;
}

/** The best-scoring container, moved up to a common ancestor when the runners-up share one. */
export function topCandidate(root: Element, scores: Map<Element, number>): Element | undefined {
  const ranked = [...scores].sort((a, b) => b[1] - a[1]);
  if (!ranked.length) return undefined;
  let [top, topScore] = ranked[0]!;
  const close = ranked
    .slice(1, 1 + SETTINGS.runnersUp)
    .filter(([, s]) => s >= topScore * SETTINGS.closeScoreShare)
    .map(([el]) => el);
  if (close.length >= SETTINGS.closeRunnersUp) {
    for (let a = top.parent; a && isTag(a) && a !== root; a = a.parent) {
      if (close.filter((el) => isAncestor(a, el)).length >= SETTINGS.closeRunnersUp) {
        top = a;
        break;
      }
    }
  }
  // An ancestor that scores above the level below it gathers more of the same article from other
  // branches (an intro outside a "read more" wrapper); ancestors far below the top score are chrome.
  let last = topScore;
  for (let p = top.parent; p && isTag(p) && p !== root; p = p.parent) {
    const ps = scores.get(p);
    if (ps === undefined) continue;
    if (ps < topScore / SETTINGS.ancestorFloorDivisor) break;
    if (ps > last) {
      top = p;
      topScore = ps;
      break;
    }
    last = ps;
  }
  // A parent that scores about as well holds more of the same article (intro, lead image, headline).
  for (let p = top.parent; p && isTag(p) && p !== root; p = p.parent) {
    const ps = scores.get(p);
    if (ps === undefined || ps < topScore * SETTINGS.parentScoreShare) break;
    top = p;
    topScore = Math.max(topScore, ps);
  }
  return top;
}

/** The top candidate plus siblings that continue the same content. */
export function withSiblings(top: Element, scores: Map<Element, number>, stats: TextStatsIndex): Element[] {
  const parent = top.parent;
  if (!parent || !isTag(parent)) return [top];
  const topScore = scores.get(top) ?? 0;
  const threshold = Math.max(SETTINGS.siblingMinScore, topScore * SETTINGS.siblingScoreShare);
  // Each child of the parent: the best score of a container inside it.
  const bestInside = new Map<Element, number>();
  for (const [el, score] of scores) {
    let a: Element = el;
    while (a.parent && a.parent !== parent && isTag(a.parent)) a = a.parent;
    if (a.parent === parent) bestInside.set(a, Math.max(bestInside.get(a) ?? 0, score));
  }
  const out: Element[] = [];
  // Content that opens with its headline starts there: what stands before it is the page above the article.
  const headlineFirst = opensWithHeadline(top);
  let beforeTop = true;
  for (const sib of parent.children) {
    if (!isTag(sib)) continue;
    if (sib === top) {
      out.push(sib);
      beforeTop = false;
      continue;
    }
    if (beforeTop && headlineFirst) continue;
    let bonus = 0;
    if (sib.attribs.class && sib.attribs.class === top.attribs.class)
      bonus += topScore * SETTINGS.sameClassBonusShare;
    const score = scores.get(sib);
    if (score !== undefined && score + bonus >= threshold) {
      out.push(sib);
      continue;
    }
    // A sibling section whose best block of prose scores nearly as well as the chosen one is another part
    // of the same content (the question beside its answers, a product's description beside its details).
    const inner = bestInside.get(sib) ?? 0;
    if (
      inner >= Math.max(SETTINGS.siblingMinScore, topScore * SETTINGS.sectionScoreShare) &&
      stats.linkDensity(sib) < SETTINGS.sectionMaxLinkDensity
    ) {
      out.push(sib);
      continue;
    }
    // A lead in its own wrapper (`<div class="teaser-text"><p>…</p></div>`) is judged as the paragraph it is.
    const para = singleBlock(sib);
    if (para.name === "p" || isParagraphLike(para)) {
      const s = stats.of(para);
      const density = stats.linkDensity(para);
      const long = s.chars > SETTINGS.siblingParagraphChars;
      if (long && density < SETTINGS.paragraphMaxLinkDensity) out.push(sib);
      else if (s.chars > 0 && !long && density === 0 && /[.!?:。！？]\s*$/.test(textEnd(para))) out.push(sib);
    }
  }
  // A heading belongs with the content that follows it. A set: thousands of siblings may be taken.
  const taken = new Set(out);
  return parent.children.filter(
    (c): c is Element => isTag(c) && (taken.has(c) || (isHeading(c) && !!c.next && taken.has(nextTag(c)!))),
  );
}

function nextTag(el: Element): Element | undefined {
  for (let n = el.next; n; n = n.next) if (isTag(n)) return n;
  return undefined;
}

function textEnd(el: Element): string {
  return textContent(el).trimEnd().slice(-2);
}

/** The one block a wrapper holds (a lead's `<div class="intro"><p>…</p></div>`), or the wrapper itself. */
function singleBlock(el: Element): Element {
  let inner = el;
  for (;;) {
    const kids = inner.children.filter((c) => isTag(c) || (isText(c) && c.data.trim()));
    if (kids.length !== 1 || !isTag(kids[0]!)) return inner;
    inner = kids[0] as Element;
  }
}

// A lead or standfirst often sits in its own block before the body (a "teaser-text" column, an article
// header holding the summary), a few levels away from the best container.

/**
 * The block just before the content, or before one of its nearest ancestors, when it is short, hardly
 * linked and holds a sentence of running prose: the article's lead.
 */
export function leadBefore(first: Element, root: Element, stats: TextStatsIndex): Element | undefined {
  let at = first;
  for (let level = 0; level < SETTINGS.leadLevels && at !== root; level++) {
    let prev = at.prev;
    while (prev && (!isTag(prev) || stats.of(prev).chars === 0)) prev = prev.prev;
    // A lead follows its headline: past the headline is the page above the article (a site notice, a banner).
    if (opensWithHeadline(at) || (prev && isTag(prev) && /^h[12]$/.test(singleBlock(prev).name)))
      return undefined;
    if (
      prev &&
      isTag(prev) &&
      stats.of(prev).chars <= SETTINGS.leadMaxChars &&
      stats.linkDensity(prev) < SETTINGS.leadMaxLinkDensity &&
      (isLeadParagraph(prev, stats) || findFirst(prev, (el) => isLeadParagraph(el, stats)))
    )
      return prev;
    if (!at.parent || !isTag(at.parent)) return undefined;
    at = at.parent;
  }
  return undefined;
}

function opensWithHeadline(el: Element): boolean {
  return /^h[12]$/.test(el.children.find(isTag)?.name ?? "");
}

function isLeadParagraph(el: Element, stats: TextStatsIndex): boolean {
  if (
    el.name !== "p" &&
    !(el.name === "div" && !el.children.some((c) => isTag(c) && (c.name === "div" || c.name === "p")))
  )
    return false;
  return (
    stats.of(el).chars >= SETTINGS.leadParagraphMinChars &&
    stats.linkDensity(el) < SETTINGS.leadParagraphMaxLinkDensity &&
    /[.!?…"“”»«)]\s*$/.test(textContent(el).trim())
  );
}

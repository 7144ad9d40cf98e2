import { dropAppeals } from "./appeals.js";
import type { Element } from "./dom.js";
import {
  collapseWhitespace,
  findAll,
  findFirst,
  isHeading,
  isTag,
  removeNodes,
  textContent,
  walkElements,
} from "./dom.js";
import { HEADINGS, TEXT_BLOCKS } from "./tags.js";
import type { TextStatsIndex } from "./text-stats.js";

// Headings that open a block of teasers to other pages, in the languages of the benchmark and beyond.
const MORE_LINKS_HEADING =
  /^(?:mehr zum thema|schon gelesen|das könnte (?:sie|dich) auch interessieren|auch interessant|weitere (?:artikel|beiträge|themen|nachrichten)|ähnliche (?:beiträge|artikel)|lesen sie (?:auch|mehr)|meistgelesen|related(?: posts| articles| stories)?|you (?:might|may) also like|read (?:more|also|next)|more (?:from|stories|on this)|recommended(?: for you)?|top stories|most popular|à lire aussi|lire aussi|sur le même sujet|vea también|lee también|leia também|leggi anche|czytaj (?:też|także)|zobacz (?:też|także))(?![\p{L}\p{N}_])/iu;

// More wordings of such headings, in more languages; as they also open ordinary sentences ("Latest news from
// the front arrived on Tuesday."), they count only as a short line that is not a sentence.
const LIST_HEADING =
  /^(?:verwandte (?:beiträge|artikel|themen|inhalte)|neueste (?:artikel|beiträge|nachrichten)|beliebte (?:artikel|beiträge)|latest (?:posts|articles|news|stories)|related (?:content|news|links)|popular (?:posts|articles|stories)|more (?:articles|posts|news)|artículos relacionados|noticias relacionadas|más noticias|lo más leído|articles (?:similaires|liés|connexes)|à lire également|les plus lus|articoli correlati|potrebbe interessarti|i più letti|(?:powiązane|podobne|najnowsze) artykuły|gerelateerde artikelen|lees ook|meer nieuws|(?:notícias|artigos) relacionad[oa]s|mais lidas)\b/i;
const SENTENCE = /[.!?]["'»”’)]*$/u;

function isListHeading(text: string): boolean {
  return LIST_HEADING.test(text) && !SENTENCE.test(text) && text.split(" ").length <= 6;
}

// Short lines that are page furniture in any article: sharing, credits, rights, navigation, bylines.
const FURNITURE_LINE =
  /^(?:(?:möchten sie (?:den|diesen) artikel teilen|teilen|share(?: this)?|jetzt registrieren|drucken|print|zurück|back to|alle angaben ohne gewähr|anzeige|werbung|advertisement|sponsored|follow us|folgen sie uns|síguenos|nos siga|abonnieren|subscribe)\b|(?:quelle|quellen|quellenangaben|foto|fotos|photo|bild|bildquelle|image|credit|titelbild|von|autor|autoren|author|tags|schlagwörter|kategorien|categories|last modified|zuletzt aktualisiert|ultima modifica)\s*:|©|copyright\b|all rights reserved|alle rechte vorbehalten)/i;

// "Lea también: <other story>" lines pointing away from the article.
const TEASER_LINE =
  /^(?:lea(?: también| más)?|lee también|leia também|lesen sie (?:auch|mehr|hier)|auch lesen|siehe auch|mehr dazu|(?:zum )?weiterlesen|das (?:thema )?könnte (?:dich|sie) auch interessieren|read (?:also|more)|also read|see also|vea también|(?:(?:también )?(?:le|te) )?puede interesar(?:le|te)?|puedes ver|mir[ae]|à lire aussi|lire aussi|leggi anche|czytaj (?:też|także)|zobacz (?:też|także)|dowiedz się więcej)\s*:|^>>.*<<$/i;

// "Lesen Sie hier einen weiteren spannenden Beitrag …", "Read more →": a lead-in that trails off into a link.
const TRAILING_TEASER =
  /^(?:lesen sie|lies (?:auch|hier|mehr)|weiterlesen|mehr dazu|mehr lesen|read (?:more|also|on|the full)|continue reading|lea (?:también|más)|lee también|leia também|lire (?:aussi|la suite)|leggi anche|czytaj (?:też|także|więcej))(?![\p{L}\p{N}_]).{0,80}(?:…|\.\.\.|→|»|>>)$/iu;

function isTrailingTeaser(text: string): boolean {
  return text.length <= 100 && TRAILING_TEASER.test(text);
}

// A line that ends in a picture credit ("… Foto: dpa", "(Credit: Grist)", "© AFP / X", Getty's "/ AFP / NAME
// (Photo credit should read NAME/AFP/Getty Images)") is an image caption: it describes a picture the reader
// does not get. Every repetition is bounded: the match may start anywhere, and an unbounded "/ NAME" run made
// an alt text of many slashes cost quadratic time.
export const CREDIT_TAIL =
  /(?:^|[\s(|/–—-])(?:fotos?|photos?|bild|bildquelle|kuva|quelle|credits?|crédits?|fuente|źródło|zdjęcie|foto ?credit|image)\s*:\s*[^.!?:]{2,80}\)?$|(?:^|[\s(|–—-])©\s*[^.!?:]{2,80}\)?$|(?:\s+\/\s+[A-Z][A-Z .-]{0,60}){0,4}\s*\(photo credit should read [^()]{2,80}\)$/i;

const LINE_TAGS: ReadonlySet<string> = new Set([
  ..."figcaption p div span li strong b em small dt dd".split(" "),
  ...HEADINGS,
]);

/**
 * Removes short furniture lines ("Foto: …", "© 2020", "Teilen") and teaser
 * blocks under "Mehr zum Thema"-style headings from the chosen content.
 */
export function dropBoilerplateText(roots: Element[], stats: TextStatsIndex): void {
  const doomed: Element[] = [];
  for (const root of roots) {
    walkElements(root, (el) => {
      // Code is verbatim: `print(…)` or `image: nginx` in a listing is not a furniture line.
      if (el.name === "pre" || el.name === "code") return false;
      if (stats.of(el).chars > 200) return true;
      if (!LINE_TAGS.has(el.name) || el.children.some((c) => isTag(c) && TEXT_BLOCKS.has(c.name)))
        return true;
      const text = collapseWhitespace(textContent(el));
      if (!text || text.length > 200) return true;
      if (TEASER_LINE.test(text) || isTrailingTeaser(text)) {
        doomed.push(el);
        return false;
      }
      if (CREDIT_TAIL.test(text)) {
        doomed.push(el);
        return false;
      }
      if (text.length > 120) return true;
      if (MORE_LINKS_HEADING.test(text) || isListHeading(text)) {
        // The heading goes with its teasers (only links: a list or a table without them is the page's own).
        // The wordings that also title content ("Latest news" over a live blog's list) stay over content.
        const block = headingBlock(el, root);
        const teasers = teasersAfter(block, stats);
        if (!teasers.length && !MORE_LINKS_HEADING.test(text) && introducesContent(block, stats)) return true;
        doomed.push(el, ...teasers);
        return false;
      }
      if (text.length <= 80 && (FURNITURE_LINE.test(text) || isBracketedFurniture(text))) {
        doomed.push(el);
        return false;
      }
      return true;
    });
  }
  removeNodes(doomed);
  dropAppeals(roots, stats);
}

/** "(Alle Angaben ohne Gewähr)": a furniture line in brackets; a bracketed sentence ("(Teilen … Geld.)") stays. */
function isBracketedFurniture(text: string): boolean {
  const inner = /^\((.*)\)$/.exec(text)?.[1];
  return inner !== undefined && FURNITURE_LINE.test(inner) && !SENTENCE.test(inner);
}

/** The element that stands in its parent's flow for a heading wrapped in inline markup. */
function headingBlock(el: Element, root: Element): Element {
  let block = el;
  while (block.parent && isTag(block.parent) && block.parent !== root && onlyChild(block.parent, block))
    block = block.parent;
  return block;
}

function onlyChild(parent: Element, child: Element): boolean {
  return parent.children.every((c) => c === child || (!isTag(c) && !collapseWhitespace(textContent(c))));
}

/** The heading is followed by a block of text that is not links (a list, a table, a paragraph). */
function introducesContent(heading: Element, stats: TextStatsIndex): boolean {
  let n = heading.next;
  while (n && !(isTag(n) && stats.of(n).chars)) n = n.next;
  if (!n || !isTag(n) || isHeading(n) || isTeaserBlock(n, stats)) return false;
  const text = collapseWhitespace(textContent(n));
  return !MORE_LINKS_HEADING.test(text) && !isListHeading(text);
}

/**
 * Links to other pages: a block mostly of link text ("Title – subtitle" lines lean on their link), or cards
 * whose titles are links above a short excerpt. A list or a table without links is the page's own.
 */
function isTeaserBlock(el: Element, stats: TextStatsIndex): boolean {
  const density = stats.linkDensity(el);
  if (density > 0.3) return true;
  const titles = findAll(el, isLinkedHeading).length;
  return titles >= 2 || (titles === 1 && density >= 0.1);
}

function isLinkedHeading(el: Element): boolean {
  if (isHeading(el)) return !!findFirst(el, (d) => d.name === "a");
  return el.name === "a" && !!findFirst(el, (d) => isHeading(d));
}

/** The link-dense siblings after the heading, up to the next heading or the first block that is not links. */
function teasersAfter(heading: Element, stats: TextStatsIndex): Element[] {
  const out: Element[] = [];
  for (let n = heading.next; n; n = n.next) {
    if (!isTag(n)) continue;
    if (isHeading(n)) break;
    // A teaser's picture has no text: it goes with the links around it.
    if (!stats.of(n).chars) {
      out.push(n);
      continue;
    }
    if (!isTeaserBlock(n, stats)) break;
    out.push(n);
  }
  // Pictures after the last link are not teasers.
  while (out.length && !stats.of(out[out.length - 1]!).chars) out.pop();
  return out;
}

import type { Element } from "./dom.js";
import { isTag, textContent, walkElements } from "./dom.js";
import { calendarDay } from "./page-dates.js";
import type { PageKind } from "./page-kind.js";
import { runningProse } from "./running-prose.js";
import { SETTINGS } from "./settings.js";
import type { TextStatsIndex } from "./text-stats.js";
import { isPostMark } from "./undeclared-listing.js";

/**
 * A page that declares no kind is a landing page (a service's, a product's marketing page, a company's) when
 * it is a stack of headed sections (at least `landingMinHeadings` section headings), carries no post's marks
 * (a date or a byline by its markup, or a short line stating a day, "Letzte Änderung: 14.01.2022": articles,
 * threads and posts carry them) and holds under `landingMaxProseShare` of its text as running prose: its
 * sections are short by design (a hero, feature cards, figures, calls to action), as an article's widgets are.
 * One walk of the cleaned tree, which reads nothing past the first post mark.
 */
export function isLandingPage(root: Element, kind: PageKind, stats: TextStatsIndex): boolean {
  if (kind !== "unknown") return false;
  let headings = 0;
  let marked = false;
  walkElements(root, (el) => {
    if (marked) return false;
    if (el.name === "h2" || el.name === "h3") headings++;
    if (isPostMark(el) || isDateLine(el, stats)) marked = true;
    return !marked;
  });
  if (marked || headings < SETTINGS.landingMinHeadings) return false;
  const prose = runningProse(root, stats).get(root) ?? 0;
  return prose < stats.of(root).chars * SETTINGS.landingMaxProseShare;
}

// Inline elements a dated line may hold ("<b>Updated:</b> 5 May 2024").
const INLINE = new Set(["span", "strong", "b", "em", "i", "small"]);

/** A short line of text that states a calendar day: a post's date or its last edit. */
function isDateLine(el: Element, stats: TextStatsIndex): boolean {
  const chars = stats.of(el).chars;
  if (chars < 6 || chars > SETTINGS.landingDateLineMaxChars) return false;
  if (el.children.some((c) => isTag(c) && !INLINE.has(c.name))) return false;
  return calendarDay(textContent(el)) !== undefined;
}

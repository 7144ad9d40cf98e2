import type { Element } from "./dom.js";
import { isAncestor, walkElements } from "./dom.js";
import type { ItemRun } from "./item-list.js";
import { runningProse } from "./running-prose.js";
import { SETTINGS } from "./settings.js";
import type { TextStatsIndex } from "./text-stats.js";

// A post's own marks: when it was published and who wrote it. A listing's intro carries neither; its items
// may, but those are the run's, not the content's beside it.
const POST_MARK_CLASS =
  /(?:^|[\s_-])(?:date|time|byline|author|posted|pubdate|published|dateline|postdata|post-meta|entry-meta)(?:$|[\s_-])/i;
const POST_MARK_ITEMPROP = /^(?:datePublished|dateCreated|dateModified|author)$/;

export function isPostMark(el: Element): boolean {
  return (
    el.name === "time" ||
    el.attribs.rel === "author" ||
    POST_MARK_ITEMPROP.test(el.attribs.itemprop ?? "") ||
    POST_MARK_CLASS.test(el.attribs.class ?? "")
  );
}

function holdsPostMark(roots: Element[]): boolean {
  let found = false;
  for (const root of roots)
    walkElements(root, (el) => {
      if (found || isPostMark(el)) found = true;
      return !found;
    });
  return found;
}

/**
 * A page that declares no kind is a listing when its items are most of its text and the content chosen
 * by its prose is not a post of its own. A post is told by what it is, not only by the size of what stands
 * beside it: content that is one of the run's alike blocks (a post among its wrappers' siblings) is the
 * page; content beside the run that carries a date or a byline, or running prose, is an article beside a
 * feed or an archive list; and beside such content the items must be nearly the whole page, unless it is a
 * small part of them (a welcome line over a home page's grid).
 */
export function isUndeclaredListing(
  run: ItemRun,
  chosen: Element[],
  root: Element,
  stats: TextStatsIndex,
): boolean {
  const share = run.chars / (stats.of(root).chars || 1);
  if (share < SETTINGS.listUndeclaredShare) return false;
  if (chosen.some((el) => isAncestor(run.parent, el))) return false;
  const beside = chosen.filter((el) => el !== run.parent && !isAncestor(el, run.parent));
  if (!beside.length) return true;
  if (holdsPostMark(beside)) return false;
  let besideChars = 0;
  for (const el of beside) besideChars += stats.of(el).chars;
  if (besideChars * SETTINGS.listUndeclaredMinorBeside < run.chars) return true;
  if (share < SETTINGS.listUndeclaredBesideShare) return false;
  const prose = runningProse(root, stats);
  let besideProse = 0;
  for (const el of beside) besideProse += prose.get(el) ?? 0;
  return besideProse < SETTINGS.listUndeclaredMaxProse;
}

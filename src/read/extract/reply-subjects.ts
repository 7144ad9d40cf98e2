import type { Element } from "./dom.js";
import { collapseWhitespace, isHeading, removeNodes, textContent, walkElements } from "./dom.js";

// Forum engines (phpBB, FluxBB, SMF, vBulletin) print a subject above every post, which for a reply is the
// thread's title again behind "Re:": the same line once per post, nothing of the reply's own.
const REPLY = /^(?:re|aw|sv|odp|antw|rif)\s*(?:\[\d+\])?\s*:\s*/i;

const norm = (s: string) => collapseWhitespace(s).toLowerCase();

/**
 * Removes, in place, the headings of a thread's replies that repeat its title behind "Re:". The title is the
 * page's (which sites suffix with the forum's name) or the content's first heading: two strings to compare
 * with, however long the thread.
 */
export function dropReplySubjects(roots: Element[], title: string | undefined): void {
  const titles = title ? [norm(title)] : [];
  let first = true;
  const drop: Element[] = [];
  for (const root of roots)
    walkElements(root, (el) => {
      if (!isHeading(el)) return true;
      const text = norm(textContent(el));
      const m = REPLY.exec(text);
      if (!m) {
        if (first) titles.push(text);
        first = false;
      } else {
        const subject = text.slice(m[0].length);
        if (subject && titles.some((t) => t.startsWith(subject))) drop.push(el);
      }
      return false;
    });
  removeNodes(drop);
}

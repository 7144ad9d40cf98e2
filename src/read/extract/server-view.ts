import type { Document, Element } from "./dom.js";
import { findAll, findFirst, isTag, isText } from "./dom.js";
import { SETTINGS } from "./settings.js";

/** Non-whitespace characters of a subtree's text, `skip` subtrees not counted. */
function textChars(el: Element, skip: (el: Element) => boolean): number {
  let n = 0;
  const stack = [...el.children];
  while (stack.length) {
    const node = stack.pop()!;
    if (isText(node)) {
      for (let i = 0; i < node.data.length; i++) if (node.data.charCodeAt(i) > 32) n++;
    } else if (isTag(node) && !skip(node)) stack.push(...node.children);
  }
  return n;
}

const SCRIPTING = new Set(["script", "style", "template", "noscript"]);

/**
 * A script-rendered application (Discourse, some shops) ships the page's own server-rendered view inside
 * `<noscript>`, for readers without JavaScript: when that view holds most of the page's text, it is the page
 * a reader sees, and it is kept. Other `<noscript>` blocks ("enable JavaScript", tracking pixels) stay
 * dropped as never-rendered content.
 */
export function revealServerView(doc: Document): void {
  const body = findFirst(doc, (el) => el.name === "body");
  if (!body) return;
  const views = findAll(body, (el) => el.name === "noscript");
  if (!views.length) return;
  let best: Element | undefined;
  let bestChars = 0;
  for (const view of views) {
    const n = textChars(view, (el) => SCRIPTING.has(el.name));
    if (n > bestChars) [best, bestChars] = [view, n];
  }
  if (!best || bestChars < SETTINGS.serverViewMinChars) return;
  const rest = textChars(body, (el) => SCRIPTING.has(el.name));
  if (bestChars >= rest * SETTINGS.serverViewShare) best.name = "div";
}

import type { Document, Element } from "./dom.js";
import { collapseWhitespace, findFirst, isInside, isTag, isText, textContent, walkElements } from "./dom.js";
import { isHidden } from "./hidden.js";
import { SETTINGS } from "./settings.js";

// A script-rendered page saved before its script ran (a shop's product page, an app) is a frame with nothing
// in it: its header, menus and footer. Every other rule takes the most contentful block of a page, so on
// such a page the footer's list of sister sites or the header's skip links would be returned as its
// content. A page whose visible text outside its furniture is a few words has no main content to give.

const FURNITURE_TAGS = new Set(["header", "footer", "nav", "aside"]);
const FURNITURE_ROLES = new Set(["banner", "contentinfo", "navigation", "complementary", "search"]);

// A header inside an article or the main landmark is the article's (its headline), not the page's.
const PAGE_SECTIONS = new Set(["article", "main"]);

// Furniture that holds the article, the main landmark or a paragraph of running prose is the page in a
// misnamed or unclosed wrapper (an `<aside class="layout">`, an unclosed `<header>`), not furniture.
function isPageSection(el: Element): boolean {
  return PAGE_SECTIONS.has(el.name) || el.attribs.role?.toLowerCase() === "main";
}

function holdsPage(el: Element): boolean {
  if (isPageSection(el)) return true;
  if (el.name !== "p") return false;
  const text = collapseWhitespace(textContent(el));
  if (text.length < SETTINGS.noContentProseChars) return false;
  let linked = 0;
  walkElements(el, (d) => {
    if (d.name !== "a") return true;
    linked += collapseWhitespace(textContent(d)).length;
    return false;
  });
  return linked < text.length / 2;
}

function isFurniture(el: Element): boolean {
  const role = el.attribs.role?.toLowerCase();
  if (role && FURNITURE_ROLES.has(role)) return true;
  if (!FURNITURE_TAGS.has(el.name)) return false;
  return el.name !== "header" || !isInside(el, PAGE_SECTIONS);
}

/**
 * True when the page's visible text is all in its header, menus and footer: at most a few words elsewhere,
 * none of them in its main landmark or an article (a short note is still a page).
 */
export function holdsOnlyFurniture(doc: Document): boolean {
  const root = findFirst(doc, (el) => el.name === "body");
  if (!root) return false;
  let framed = false;
  let other = 0;
  // Text in the page's main landmark or an article, however short, is content the page points at.
  let declared = false;
  const visit = (el: Element, inPage: boolean): void => {
    for (const c of el.children) {
      if (isText(c)) {
        const n = c.data.trim().length;
        other += n;
        if (inPage && n) declared = true;
      } else if (isTag(c) && !isHidden(c)) {
        if (isFurniture(c) && !findFirst(c, holdsPage)) framed ||= textContent(c).trim().length > 0;
        else visit(c, inPage || isPageSection(c));
      }
      if (declared || other > SETTINGS.noContentMaxChars) return;
    }
  };
  visit(root, false);
  return framed && !declared && other <= SETTINGS.noContentMaxChars;
}

import type { Document, Element } from "./dom.js";
import { isInside, removeNode, textContent, walkElements } from "./dom.js";
import { isHidden } from "./hidden.js";

// Never content: code, widgets, embedded media and form controls.
const JUNK_TAGS = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "canvas",
  "iframe",
  "object",
  "embed",
  "applet",
  "button",
  "select",
  "input",
  "textarea",
  "option",
  "datalist",
  "dialog",
  "link",
  "meta",
  "base",
  "frame",
  "frameset",
  "audio",
  "video",
  "source",
  "track",
  "map",
  "head",
  "title",
]);

const CHROME_ROLES = new Set([
  "navigation",
  "banner",
  "contentinfo",
  "complementary",
  "search",
  "menu",
  "menubar",
  "dialog",
  "alertdialog",
]);

// Consent banners and share bars hide under every tag; their names give them away.
const ALWAYS_CHROME =
  /cookie|consent|gdpr|cmp-|onetrust|didomi|share|sharing|social|newsletter|subscribe|paywall|advert|\bads?\b|ad-slot|adslot|sponsor|promo|popup|modal|overlay|skip-?link|print-?only/i;

// Readability's "unlikely candidates", minus words that also name real content containers.
const LIKELY_CHROME =
  /breadcrumb|combx|comment|disqus|foot|header|masthead|menu|navbar|\bnav\b|pagination|pager|related|remark|replies|rss|shoutbox|sidebar|skyscraper|widget|toolbar|banner|tags?-?(?:list|cloud)|author-?(?:box|bio)|login|signup|search/i;
const CONTENT_HINT = /article|body|content|main|post|entry|story|text|blog|thread|mathjax/i;

const TEXT_ROOTS = new Set(["body", "html", "main", "article"]);
const PAGE_SECTIONS = new Set(["article", "main"]);

function nameOf(el: Element): string {
  const a = el.attribs;
  return `${a.class ?? ""} ${a.id ?? ""}`;
}

/**
 * Removes everything that is never main content, in place: hidden subtrees,
 * code, widgets, page chrome (navigation, page header and footer, asides,
 * banners) and class-named boilerplate. Soft candidates are still walked, so
 * hidden text inside a wrapper that survives is removed too.
 */
export function cleanTree(doc: Document): void {
  const drop: Element[] = [];
  const soft: Element[] = [];
  walkElements(doc, (el) => {
    if (JUNK_TAGS.has(el.name) || isHidden(el)) {
      drop.push(el);
      return false;
    }
    const role = el.attribs.role?.toLowerCase();
    if (el.name === "nav" || el.name === "aside" || (role && CHROME_ROLES.has(role))) {
      drop.push(el);
      return false;
    }
    if ((el.name === "header" || el.name === "footer") && !isInside(el, PAGE_SECTIONS)) {
      soft.push(el);
      return true;
    }
    if (el.name === "form") {
      soft.push(el);
      return true;
    }
    if (TEXT_ROOTS.has(el.name)) return true;
    const name = nameOf(el);
    if (name.length < 2) return true;
    if (ALWAYS_CHROME.test(name) && !CONTENT_HINT.test(name)) {
      soft.push(el);
      return true;
    }
    if (LIKELY_CHROME.test(name) && !CONTENT_HINT.test(name)) {
      soft.push(el);
      return true;
    }
    return true;
  });
  for (const el of drop) removeNode(el);
  if (!soft.length) return;
  // A wrapper named "header-wrap" or an ASP.NET page-wide <form> may hold the whole page:
  // class names are hints, the text they would take away decides.
  const total = textLength(doc);
  for (const el of soft) if (textLength(el) < total * 0.4) removeNode(el);
}

function textLength(node: Document | Element): number {
  return textContent(node).replace(/\s+/g, "").length;
}

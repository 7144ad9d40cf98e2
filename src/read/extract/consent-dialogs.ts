import type { Document, Element } from "./dom.js";
import { removeNodes, textContent, walkElements } from "./dom.js";

// A cookie consent screen is a dialog about the site, never the page's content. The strict cleaning drops every
// dialog by its role; the names-blind pass keeps dialogs (a shop's quick view may hold the product), so on a page
// whose own text is short that pass took a consent tool's paragraphs ("Customize Your Cookie Settings", a
// description per category of cookies) for the content. Its words tell it apart from other dialogs.

const DIALOG_ROLES = new Set(["dialog", "alertdialog"]);
const COOKIES = /\bcookies?\b/i;
const CONSENT = /\b(?:consent|privacy|preferences|tracking|third[- ]part(?:y|ies))\b/i;

function isDialog(el: Element): boolean {
  const role = el.attribs.role?.toLowerCase();
  return (!!role && DIALOG_ROLES.has(role)) || el.attribs["aria-modal"] === "true";
}

/** Removes the dialogs that ask for consent to cookies. */
export function dropConsentDialogs(doc: Document): void {
  const consent: Element[] = [];
  walkElements(doc, (el) => {
    if (!isDialog(el)) return true;
    const text = textContent(el);
    if (COOKIES.test(text) && CONSENT.test(text)) consent.push(el);
    return false;
  });
  removeNodes(consent);
}

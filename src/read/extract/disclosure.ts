import type { Document, Element } from "./dom.js";
import { classNames, hasClass, isTag, isText, walkElements } from "./dom.js";

// A closed tab pane or accordion panel is hidden until its control is clicked, yet it is content the page
// offers every reader: a product's specifications tab, a service page's FAQ answers, the second language
// of a code sample. It is told apart from text hidden for good (a prompt injection kept off the screen) by
// the control that opens it: an element naming it in `aria-controls` or in Bootstrap's `data-bs-target`, a
// tab linking to it, or its own `role="tabpanel"`. A dialog opened by a button is a modal (a consent
// screen, a login form), not a panel of the page.

const NOT_PANELS = new Set(["dialog", "alertdialog", "menu", "menubar", "navigation", "listbox", "tooltip"]);

/** The ids of the elements that a control on the page opens. */
export function disclosureTargets(doc: Document): Set<string> {
  const ids = new Set<string>();
  walkElements(doc, (el) => {
    const a = el.attribs;
    if (a["aria-controls"]) for (const id of a["aria-controls"].split(/\s+/)) if (id) ids.add(id);
    for (const target of [a["data-bs-target"], a["data-target"], a.role === "tab" ? a.href : undefined])
      if (target?.startsWith("#") && target.length > 1) ids.add(target.slice(1));
    return true;
  });
  return ids;
}

/**
 * True for a panel that a tab or an accordion's button opens, or for the wrapper that hides it: an accordion
 * library's collapse animation hides a wrapper whose one child is the panel the button names (Chakra UI's
 * `chakra-collapse`, Bootstrap's `.collapse` around a `.card-body`).
 */
export function isClosedPanel(el: Element, targets: Set<string>): boolean {
  for (let at: Element | undefined = el, depth = 0; at && depth <= WRAPPER_DEPTH; depth++) {
    const a = at.attribs;
    const role = a.role?.toLowerCase();
    if (role && NOT_PANELS.has(role)) return false;
    if (a["aria-modal"] === "true" || at.name === "nav" || at.name === "dialog") return false;
    if (role === "tabpanel" || (!!a.id && targets.has(a.id)) || isTabPane(at)) return true;
    at = onlyChild(at);
  }
  return false;
}

// Bootstrap's name for a tab's pane, which tab scripts without ARIA use too (a shop's "Specs" and "Reviews" tabs
// beside its "Overview"): a pane is one of a set, so a lone element of that name is not taken for one.
const TAB_PANE = /^(?:tab[-_]?pane|tab[-_]?panel|tabs[-_]panel)$/i;

function isTabPane(el: Element): boolean {
  const name = classNames(el).find((t) => TAB_PANE.test(t));
  if (!name) return false;
  // Panes stand together: the nearest siblings are enough, and keep this bounded under a parent of thousands.
  for (const step of ["prev", "next"] as const) {
    let seen = 0;
    for (let n = el[step]; n && seen < PANE_NEIGHBOURS; n = n[step]) {
      if (!isTag(n)) continue;
      if (hasClass(n, name)) return true;
      seen++;
    }
  }
  return false;
}

const PANE_NEIGHBOURS = 3;

// A collapse wrapper sits a level or two above its panel.
const WRAPPER_DEPTH = 2;

function onlyChild(el: Element): Element | undefined {
  let only: Element | undefined;
  for (const c of el.children) {
    if (isText(c)) {
      if (c.data.trim()) return undefined;
    } else if (isTag(c)) {
      if (only) return undefined;
      only = c;
    }
  }
  return only;
}

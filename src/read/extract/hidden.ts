import { isFalseCondition } from "./builder-conditions.js";
import type { Element } from "./dom.js";
import { isFadingIn } from "./fade-in.js";
import { isInertBackground } from "./inert-background.js";
import { hasScreenReaderTwin } from "./screen-reader-twin.js";

// Inline-style tricks that keep text in the DOM but off the screen: a favourite
// place for prompt injections aimed at agents that read raw page text.
const HIDING_STYLE =
  /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse)|opacity\s*:\s*0(?:\.0*)?\s*(?:!important)?\s*(?:;|$)|font-size\s*:\s*0(?:px|em|rem|%)?\s*(?:!important)?\s*(?:;|$)|(?:left|top|text-indent)\s*:\s*-\d{4,}px)/i;

const INVISIBLE_TAGS = new Set(["template", "noscript", "script", "style"]);

// Screen-reader-only helpers ("Skip to content", "Opens in new window") are never prose.
const SCREEN_READER_ONLY = /(?:^|\s)(?:sr-only|visually-hidden|screen-reader-text|visuallyhidden)(?:\s|$)/i;

/** True when the element is not rendered for a sighted reader. */
export function isHidden(el: Element): boolean {
  if (INVISIBLE_TAGS.has(el.name)) return true;
  const a = el.attribs;
  if (a.hidden !== undefined) return true;
  // A popover (a tooltip, an "install the app" card) is not rendered until it is opened.
  if (a.popover !== undefined) return true;
  if (a["aria-hidden"]?.trim().toLowerCase() === "true" && !isInertBackground(el) && !hasScreenReaderTwin(el))
    return true;
  if (el.name === "input" && a.type?.toLowerCase() === "hidden") return true;
  if (a.style && HIDING_STYLE.test(a.style) && !isFadingIn(el)) return true;
  if (a.class && SCREEN_READER_ONLY.test(a.class)) return true;
  return isFalseCondition(el);
}

// Ways of hiding that no control undoes: text shrunk to nothing or pushed off the screen, or kept for
// screen readers only.
const HIDDEN_FOR_GOOD_STYLE =
  /(?:^|;)\s*(?:font-size\s*:\s*0(?:px|em|rem|%)?\s*(?:!important)?\s*(?:;|$)|(?:left|top|text-indent)\s*:\s*-\d{4,}px)/i;

/** True when the element is hidden in a way that opening a panel would not show (see disclosure.ts). */
export function isHiddenForGood(el: Element): boolean {
  const a = el.attribs;
  if (INVISIBLE_TAGS.has(el.name) || a.popover !== undefined) return true;
  if (a.style && HIDDEN_FOR_GOOD_STYLE.test(a.style)) return true;
  return (!!a.class && SCREEN_READER_ONLY.test(a.class)) || isFalseCondition(el);
}

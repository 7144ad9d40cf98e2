import { isFalseCondition } from "./builder-conditions.js";
import type { Element } from "./dom.js";
import { isFadingIn } from "./fade-in.js";
import { isInertBackground } from "./inert-background.js";
import { hasScreenReaderTwin, isScreenReaderOnly } from "./screen-reader-twin.js";

// Inline-style tricks that keep text in the DOM but off the screen: a favourite
// place for prompt injections aimed at agents that read raw page text. Whitespace around `!important` is one
// run (`\s*(?:!important\s*)?`): two `\s*` side by side split a long run of spaces every way before failing,
// and a page of 20,000 spaces in one style attribute took 3.6 s to extract, 80,000 half a minute.
const TRANSPARENT_STYLE = /(?:^|;)\s*opacity\s*:\s*0(?:\.0*)?\s*(?:!important\s*)?(?:;|$)/i;
const ZERO_FONT = String.raw`font-size\s*:\s*0(?:px|em|rem|%)?\s*(?:!important\s*)?(?:;|$)`;
const OFF_SCREEN = String.raw`(?:left|top|text-indent)\s*:\s*-\d{4,}px`;
const HIDING_STYLE = new RegExp(
  String.raw`(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse)|${ZERO_FONT}|${OFF_SCREEN})`,
  "i",
);

const INVISIBLE_TAGS = new Set(["template", "noscript", "script", "style"]);

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
  // Transparency alone, on the element that is the page, is its entrance animation (fade-in.ts).
  if (a.style && (HIDING_STYLE.test(a.style) || (TRANSPARENT_STYLE.test(a.style) && !isFadingIn(el))))
    return true;
  if (isScreenReaderOnly(el)) return true;
  return isFalseCondition(el);
}

// Ways of hiding that no control undoes: text shrunk to nothing or pushed off the screen, or kept for
// screen readers only.
const HIDDEN_FOR_GOOD_STYLE = new RegExp(String.raw`(?:^|;)\s*(?:${ZERO_FONT}|${OFF_SCREEN})`, "i");

/** True when the element is hidden in a way that opening a panel would not show (see disclosure.ts). */
export function isHiddenForGood(el: Element): boolean {
  const a = el.attribs;
  if (INVISIBLE_TAGS.has(el.name) || a.popover !== undefined) return true;
  if (a.style && HIDDEN_FOR_GOOD_STYLE.test(a.style)) return true;
  return isScreenReaderOnly(el) || isFalseCondition(el);
}

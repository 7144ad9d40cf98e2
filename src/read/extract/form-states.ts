import { SETTINGS } from "./settings.js";

// A shop's forms (notify me when back in stock, a postcode for shipping, the newsletter) carry their error states
// in the served page, shown by script when a submission fails: "Oops! Something went wrong. Please try again.",
// "Please enter a valid postal code.", "Captcha failed to load.". A reader of the product never sees them, and
// their words are no fact of it. Only a short block that is such a message goes: each pattern is a phrase of
// its own, opening the message or one of its sentences (a sentence that mentions an error in passing stays).
const FORM_STATE =
  /^(?:oops|opps|whoops)\b|^(?:we(?:'|’)re |we are )?sorry\b[^.!?]{0,80}\b(?:try again|went wrong|can(?:'|’)t be completed)|(?:^|[.!?]\s*)(?:something went wrong|please try again)\b|^please (?:enter|provide) a valid\b|^[\p{L}\p{N} ]{0,30}failed to load\b|^there was an? (?:problem|error)\b/iu;

// Markdown's marks before a line's words: a heading's hashes, a list's dash, a quote's bracket.
const LINE_MARKS = /^[#>*\s-]+/;

/** The rendered blocks without the error states of the page's forms. */
export function dropFormStates(blocks: string[]): string[] {
  return blocks.filter((block) => {
    if (block.length > SETTINGS.formStateMaxChars) return true;
    return !FORM_STATE.test(block.replace(LINE_MARKS, ""));
  });
}

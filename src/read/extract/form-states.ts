import { SETTINGS } from "./settings.js";

// A shop's forms (notify me when back in stock, a postcode for shipping, the newsletter) carry their error states
// in the served page, shown by script when a submission fails: "Oops! Something went wrong. Please try again.",
// "Please enter a valid postal code.", "Captcha failed to load.". A reader of the product never sees them, and
// their words are no fact of it. Only a short block that is nothing but such messages goes: every one of its
// sentences must be one whole (a sentence that mentions an error in passing, or a block with one sentence of
// its own, stays). Each alternative is anchored at both ends of a sentence and bounded, so nothing backtracks.
const MESSAGE =
  /^(?:(?:oops|opps|whoops)[!.]*|(?:(?:we(?:'|’)re |we are )?sorry\b[^.!?]{0,80}\b(?:try again(?: later)?|went wrong|can(?:'|’)t be completed(?: right now)?)|something went wrong|please try again(?: later)?|please (?:enter|provide) a valid [\p{L} -]{1,40}|[\p{L}\p{N} ]{0,30} failed to load|there was an? (?:problem|error)(?: (?:with|processing|submitting|calculating|loading|saving) (?:your|the|this) \p{L}+(?: \p{L}+)?)?|your session has expired|please refresh the page(?: and try again)?|try (?:using )?(?:a different|another) browser[^.!?]{0,60})[.!]*)$/iu;

// Markdown's marks before a line's words: a heading's hashes, a list's dash, a quote's bracket.
const LINE_MARKS = /^[#>*\s-]+/;

// A sentence's end: its stop, then the space before the next one (or its capital, when a script's messages
// were printed side by side: "…try again later.Your session has expired.").
const SENTENCE_END = /(?<=[.!?])(?:\s+|(?=\p{Lu}))/u;

function isMessage(block: string): boolean {
  if (block.length > SETTINGS.formStateMaxChars) return false;
  const sentences = block.replace(LINE_MARKS, "").trim().split(SENTENCE_END);
  // A heading is a title ("Oops! All Berries" is a cereal): one is a message only as a run of them.
  if (block.startsWith("#") && sentences.length < 2) return false;
  return sentences.every((s) => MESSAGE.test(s));
}

/** The rendered blocks without the error states of the page's forms. */
export function dropFormStates(blocks: string[]): string[] {
  return blocks.filter((block) => !isMessage(block));
}

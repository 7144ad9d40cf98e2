import { oneLine } from "../core/one-line.js";
import { modelSafe } from "../ground/fence.js";

// Text written by strangers (titles, page text, result titles) sits on one line of a model's window with
// invisible characters and secrets gone and no line breaks, so a page cannot start a line of its own and pass
// it off as the session's: `oneLine(text, max, modelSafe)`.

/** A title inside double quotes: its own double quotes become single ones, so the quotes stay unambiguous. */
export function quotedTitle(text: string, maxChars = 150): string {
  return `"${oneLine(text, maxChars, modelSafe).replace(/"/g, "'")}"`;
}

/** A URL shown to a model: one line, secrets in its query string redacted. */
export function shownUrl(url: string): string {
  return oneLine(url, 500, modelSafe).replace(/\s/g, "%20");
}

/** The site a result came from, for "Title (site)". */
export function siteOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return "";
  }
}

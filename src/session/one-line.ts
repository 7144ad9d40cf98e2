import { stripInvisible } from "../ground/fence.js";
import { redactSecrets } from "../ground/redact.js";

/**
 * Text written by strangers (titles, page text, result titles), made safe to sit on one line of a model's
 * window: invisible characters and secrets gone, and no line breaks, so a page cannot start a line of its own
 * and pass it off as the session's.
 */
export function oneLine(text: string, maxChars: number): string {
  const flat = redactSecrets(stripInvisible(text)).text.replace(/\s+/g, " ").trim();
  if (flat.length <= maxChars) return flat;
  const cut = flat.slice(0, maxChars);
  const space = cut.lastIndexOf(" ");
  return `${(space > maxChars * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** A title inside double quotes: its own double quotes become single ones, so the quotes stay unambiguous. */
export function quotedTitle(text: string, maxChars = 150): string {
  return `"${oneLine(text, maxChars).replace(/"/g, "'")}"`;
}

/** A URL shown to a model: one line, secrets in its query string redacted. */
export function shownUrl(url: string): string {
  return oneLine(url, 500).replace(/\s/g, "%20");
}

/** The site a result came from, for "Title (site)". */
export function siteOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return "";
  }
}

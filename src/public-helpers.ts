import {
  BadInputError,
  checkArgument,
  FENCE_OPTIONS,
  SIZE_LIMIT,
  SIZE_OPTIONS,
  TEXT_ARGUMENT,
  URL_ARGUMENT,
  VET_OPTIONS,
} from "./arguments.js";
import { fenceUntrusted as fence, stripInvisible as strip } from "./ground/fence.js";
import { guardQuery as guard, type QueryVerdict } from "./ground/query-guard.js";
import { type Redaction, redactSecrets as redact } from "./ground/redact.js";
import type { Resolve } from "./net/url-policy.js";
import { type VetResult, vetUrl as vet } from "./net/vet-url.js";
import type { ExtractedPage } from "./read/extract/index.js";
import { extractMarkdown as extract } from "./read/extractor.js";
import { cutAtParagraph as cut, type SizedText, type SizeOptions, sizeText as size } from "./read/size.js";

/**
 * The helpers the library exports, with their arguments checked. Inside websift they are called with values
 * already checked, on every title and page, so the check sits only on this public door. A helper whose result
 * has a failure shape (vetUrl) answers bad input with it; the others throw `BadInputError`.
 */
export function redactSecrets(text: string): Redaction {
  return redact(checkArgument("redactSecrets", "text", TEXT_ARGUMENT, text));
}

export function guardQuery(query: string): QueryVerdict {
  return guard(checkArgument("guardQuery", "query", TEXT_ARGUMENT, query));
}

export function stripInvisible(text: string): string {
  return strip(checkArgument("stripInvisible", "text", TEXT_ARGUMENT, text));
}

export function fenceUntrusted(text: string, options?: { source?: string; nonce?: string }): string {
  checkArgument("fenceUntrusted", "text", TEXT_ARGUMENT, text);
  return fence(text, checkArgument("fenceUntrusted", "options", FENCE_OPTIONS, options));
}

export async function extractMarkdown(html: string, url: string): Promise<ExtractedPage> {
  checkArgument("extractMarkdown", "html", TEXT_ARGUMENT, html);
  return extract(html, checkArgument("extractMarkdown", "url", URL_ARGUMENT, url));
}

export async function vetUrl(url: string, options?: { resolve?: Resolve }): Promise<VetResult> {
  try {
    checkArgument("vetUrl", "url", URL_ARGUMENT, url);
    return vet(url, checkArgument("vetUrl", "options", VET_OPTIONS, options));
  } catch (err) {
    if (err instanceof BadInputError) return { ok: false, code: err.code, reason: err.message };
    throw err;
  }
}

export function sizeText(markdown: string, options?: SizeOptions): SizedText {
  checkArgument("sizeText", "markdown", TEXT_ARGUMENT, markdown);
  return size(markdown, checkArgument("sizeText", "options", SIZE_OPTIONS, options));
}

export function cutAtParagraph(text: string, maxChars: number): string {
  checkArgument("cutAtParagraph", "text", TEXT_ARGUMENT, text);
  return cut(text, checkArgument("cutAtParagraph", "maxChars", SIZE_LIMIT, maxChars));
}

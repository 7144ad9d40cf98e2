import type { ExtractedPage } from "./extract/index.js";

let extractor: Promise<typeof import("./extract/index.js")> | undefined;

/**
 * HTML → main content, with the extractor (its parser, DOM toolkit and every rule: about a third of what the
 * library's modules weigh) loaded at the first page it reads rather than with the package: a caller that only
 * searches never pays for it.
 */
export async function extractMarkdown(html: string, url: string): Promise<ExtractedPage> {
  extractor ??= import("./extract/index.js");
  return (await extractor).extractMarkdown(html, url);
}

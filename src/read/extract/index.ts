import { cleanTree } from "./clean.js";
import { findFirst, parseHtml } from "./dom.js";
import { baseUrlOf, usefulLinks } from "./links.js";
import { findMainContent } from "./main-content.js";
import { renderMarkdown } from "./markdown.js";
import { readMetadata } from "./metadata.js";

export interface ExtractedPage {
  title?: string;
  /** The main content as markdown; anchors keep their words, targets are in `links`. */
  markdown: string;
  /** Absolute http(s) links of the main content, de-duplicated, in page order. */
  links: string[];
  lang?: string;
  byline?: string;
  published?: string;
  siteName?: string;
}

/** HTML → main content → markdown, with the content's links moved out of the prose. */
export async function extractMarkdown(html: string, url: string): Promise<ExtractedPage> {
  const doc = parseHtml(html);
  const meta = readMetadata(doc);
  const baseUrl = baseUrlOf(doc, url);
  cleanTree(doc);
  const body = findFirst(doc, (el) => el.name === "body") ?? findFirst(doc, (el) => el.name === "html");
  const roots = body ? findMainContent(body) : [];
  const { markdown, hrefs } = renderMarkdown(roots);
  return { ...meta, markdown, links: usefulLinks(hrefs, baseUrl, url) };
}

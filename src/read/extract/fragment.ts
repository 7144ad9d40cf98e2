import { limitDepth } from "./depth-limit.js";
import { findAll, findFirst, parseHtml, removeNodes } from "./dom.js";
import { usefulLinks } from "./links.js";
import { renderMarkdown } from "./markdown.js";
import { loadMathConverter } from "./math.js";

const UNREAD = new Set(["script", "style", "noscript", "template", "iframe", "object", "embed"]);

/**
 * A fragment of HTML that is already the content (an API's answer body, a comment's text) as markdown, with
 * its links moved out like a page's: nothing is chosen or pruned, only what a reader never sees is dropped.
 */
export async function htmlFragmentToMarkdown(
  html: string,
  baseUrl: string,
): Promise<{ markdown: string; links: string[] }> {
  if (/<math[\s>]/i.test(html)) await loadMathConverter();
  const doc = parseHtml(`<div>${html}</div>`);
  limitDepth(doc);
  const root = findFirst(doc, (el) => el.name === "div");
  if (!root) return { markdown: "", links: [] };
  removeNodes(findAll(root, (el) => UNREAD.has(el.name)));
  const rendered = renderMarkdown([root]);
  return { markdown: rendered.markdown.trim(), links: usefulLinks(rendered.hrefs, baseUrl, baseUrl) };
}

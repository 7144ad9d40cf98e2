import type { Deadline } from "../core/deadline.js";
import type { Net } from "../net/client.js";
import { classifyContent } from "./content-kind.js";

/**
 * A site's /llms.txt (llmstxt.org) is a map written for models: on a front page, whose own text is mostly
 * navigation, it is often the most useful thing to read. It is added after the homepage's text, never instead.
 */
export interface LlmsTxt {
  url: string;
  text: string;
}

const MAX_BYTES = 256 * 1024;

/** Path `/` and no query: a site's front page, where llms.txt is worth the extra request. */
export function isFrontPage(url: string): boolean {
  try {
    const u = new URL(url);
    return (u.pathname === "/" || u.pathname === "") && u.search === "";
  } catch {
    return false;
  }
}

export async function fetchLlmsTxt(
  pageUrl: string,
  net: Net,
  deadline: Deadline,
): Promise<LlmsTxt | undefined> {
  const url = new URL("/llms.txt", pageUrl).href;
  const res = await net.request(url, {
    deadline,
    maxBytes: MAX_BYTES,
    headers: { accept: "text/markdown, text/plain;q=0.9, */*;q=0.1" },
  });
  if (!res.ok || res.status !== 200) return undefined;
  const kind = classifyContent(res.contentType, res.bytes).kind;
  if (kind !== "markdown" && kind !== "text") return undefined;
  const text = res.text().trim();
  return looksLikeLlmsTxt(text) ? { url: res.finalUrl, text } : undefined;
}

/**
 * Many sites answer every path with their HTML app or a soft-404 page, some labelled text/plain. An llms.txt is
 * markdown: it opens with an H1 (the spec requires one) or at least carries markdown headings or links early on.
 */
export function looksLikeLlmsTxt(text: string): boolean {
  if (!text || text.startsWith("<")) return false;
  const head = text.slice(0, 4096);
  if (/<(html|body|head|div|script)\b/i.test(head)) return false;
  return /^#{1,3} \S/m.test(head) || /\[[^\]]+\]\([^)\s]+\)/.test(head);
}

export function withLlmsTxt(markdown: string, llms: LlmsTxt): string {
  const own = markdown.trim();
  const section = `## llms.txt (${llms.url})\n\n${llms.text}`;
  return own ? `${own}\n\n---\n\n${section}` : section;
}

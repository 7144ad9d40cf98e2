import type { Document, Element } from "./dom.js";
import { findAll, textContent } from "./dom.js";

// JSON-LD nests its objects in arrays and `@graph`s (a page's graph of its site, its article, the article's
// author); this many levels reach every object a publisher declares, and a hostile nesting ends here.
const MAX_DEPTH = 6;

/** Calls `visit` on every object the page's JSON-LD declares, in the page's order; invalid JSON is skipped. */
export function forEachLinkedObject(doc: Document, visit: (obj: Record<string, unknown>) => void): void {
  const scripts = findAll(doc, (e: Element) => e.name === "script" && /ld\+json/i.test(e.attribs.type ?? ""));
  for (const script of scripts) {
    let data: unknown;
    try {
      data = JSON.parse(textContent(script));
    } catch {
      continue;
    }
    walk(data, visit, 0);
  }
}

function walk(node: unknown, visit: (obj: Record<string, unknown>) => void, depth: number): void {
  if (depth > MAX_DEPTH || !node || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (const item of node) walk(item, visit, depth + 1);
    return;
  }
  const obj = node as Record<string, unknown>;
  visit(obj);
  if (obj["@graph"]) walk(obj["@graph"], visit, depth + 1);
}

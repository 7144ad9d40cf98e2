import type { Document, Element } from "./dom.js";
import { collapseWhitespace, findAll, parseHtml, textContent } from "./dom.js";
import { SETTINGS } from "./settings.js";

// A shop declares its product in JSON-LD for search engines, and some draw the description on the page only by
// script from the same data (its features, its materials): the served HTML then holds the name and
// the buy box, and the description only in the declaration. It is the publisher's own text about the product,
// read only where the page's content does not already say it.

const PRODUCT_TYPE = /^(?:Product|ProductGroup|IndividualProduct)$/;

/** The longest description a schema.org Product declares in the page's JSON-LD, as text; call before cleaning. */
export function declaredDescription(doc: Document): string | undefined {
  let best = "";
  const scripts = findAll(doc, (e: Element) => e.name === "script" && /ld\+json/i.test(e.attribs.type ?? ""));
  for (const script of scripts) {
    let data: unknown;
    try {
      data = JSON.parse(textContent(script));
    } catch {
      continue;
    }
    const found = productDescription(data, 0);
    if (found && found.length > best.length) best = found;
  }
  // A description escaped for a URL ("An%20elegant%20sofa") is not text to read.
  if (!best || best.includes("%20")) return undefined;
  const text = collapseWhitespace(best.includes("<") ? textContent(parseHtml(best)) : best);
  return text || undefined;
}

function productDescription(node: unknown, depth: number): string | undefined {
  if (depth > SETTINGS.linkedDataDepth || !node || typeof node !== "object") return undefined;
  let best: string | undefined;
  const keep = (d: string | undefined) => {
    if (d && d.length > (best?.length ?? 0)) best = d;
  };
  if (Array.isArray(node)) {
    for (const item of node) keep(productDescription(item, depth + 1));
    return best;
  }
  const obj = node as Record<string, unknown>;
  const types = ([] as unknown[]).concat(obj["@type"] ?? []);
  if (types.some((t) => typeof t === "string" && PRODUCT_TYPE.test(t)) && typeof obj.description === "string")
    keep(obj.description);
  if (obj["@graph"]) keep(productDescription(obj["@graph"], depth + 1));
  return best;
}

/**
 * The content with the declared description added after its first line (the product's name) when the content
 * does not say it: fewer than half of the description's words appear in it. A short description (a tagline, a
 * meta description's sentence) is left to the page.
 */
export function withDeclaredDescription(blocks: string[], description: string | undefined): string[] {
  if (!description) return blocks;
  const words = description.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  if (words.length < SETTINGS.declaredDescriptionMinWords) return blocks;
  const said = new Set(
    blocks
      .join("\n")
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [],
  );
  const known = words.filter((w) => said.has(w)).length;
  if (known >= words.length * SETTINGS.declaredDescriptionSaidShare) return blocks;
  const at = blocks[0]?.startsWith("#") ? 1 : 0;
  return [...blocks.slice(0, at), description, ...blocks.slice(at)];
}

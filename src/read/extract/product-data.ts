import { decodeHTML } from "entities";
import { limitDepth } from "./depth-limit.js";
import type { AnyNode, Document } from "./dom.js";
import { collapseWhitespace, isTag, isText, parseHtml } from "./dom.js";
import { isHidden } from "./hidden.js";
import { dropInvisible } from "./invisible.js";
import { forEachLinkedObject } from "./linked-data.js";
import { SETTINGS } from "./settings.js";
import { RENDER_BLOCKS } from "./tags.js";

// A shop declares its product in JSON-LD for search engines, and some draw the description on the page only by
// script from the same data (its features, its materials): the served HTML then holds the name and
// the buy box, and the description only in the declaration. It is the publisher's own text about the product,
// read only where the page's content does not already say it.

const PRODUCT_TYPE = /^(?:Product|ProductGroup|IndividualProduct)$/;

// A tag opens with a letter; "a<b" in a size chart is text. `[^<>]` keeps the scan linear: each try ends at the
// next `<`, where the next try starts.
const REAL_TAG = /<[a-z][^<>]*>/i;

/**
 * The longest description a schema.org Product declares in the page's JSON-LD, as the text a browser would show
 * of it; call before cleaning. The declaration is the page's like its content is: what is hidden in it stays
 * hidden, and one too long to be a description is refused whole rather than cut.
 */
export function declaredDescription(doc: Document): string | undefined {
  let best = "";
  forEachLinkedObject(doc, (obj) => {
    const types = ([] as unknown[]).concat(obj["@type"] ?? []);
    if (!types.some((t) => typeof t === "string" && PRODUCT_TYPE.test(t))) return;
    const d = obj.description;
    if (typeof d === "string" && d.length > best.length && d.length <= SETTINGS.declaredDescriptionMaxChars)
      best = d;
  });
  // A description escaped for a URL ("An%20elegant%20sofa") is not text to read.
  if (!best || best.includes("%20")) return undefined;
  const text = collapseWhitespace(dropInvisible(REAL_TAG.test(best) ? visibleText(best) : decodeHTML(best)));
  return text || undefined;
}

/**
 * The text of an HTML fragment a browser would render: hidden elements and their subtrees are left out, and a
 * block or a line break parts the words on either side ("<p>Soft</p><p>Warm</p>" is two words).
 */
function visibleText(html: string): string {
  const fragment = parseHtml(html);
  limitDepth(fragment);
  let text = "";
  // A space stands for a block's edge: it is pushed to be met again after the block's children.
  const stack: (AnyNode | " ")[] = [...fragment.children].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (node === " ") text += " ";
    else if (isText(node)) text += node.data;
    else if (isTag(node) && !isHidden(node)) {
      const block = RENDER_BLOCKS.has(node.name) || node.name === "br";
      if (block) {
        text += " ";
        stack.push(" ");
      }
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
    }
  }
  return text;
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

import type { Document, Element } from "domhandler";
import { isTag } from "domhandler";

/**
 * Elements and attributes of a parsed XML tree found by their local names, whatever prefix the writer chose:
 * prefixes are the writer's choice, local names are the format's. Nothing here decodes: an office part's
 * entities are decoded by its parser (`xml.ts`), web XML's once per field by its reader (`xml-tree.ts`).
 */

/** A name without its namespace prefix ("atom:link" → "link"). */
export function localName(name: string): string {
  return name.slice(name.indexOf(":") + 1);
}

/** An attribute by its local name: the unprefixed one first, else the first of any prefix. */
export function attributeByLocalName(attribs: Record<string, string>, local: string): string | undefined {
  if (attribs[local] !== undefined) return attribs[local];
  for (const [key, value] of Object.entries(attribs)) if (localName(key) === local) return value;
  return undefined;
}

/** An element's attribute by its local name, whatever its prefix. */
export function attr(el: Element, local: string): string | undefined {
  return attributeByLocalName(el.attribs, local);
}

/** Child elements, or those of one local name. */
export function childElements(el: Element | Document, local?: string): Element[] {
  return el.children.filter((c): c is Element => isTag(c) && (!local || localName(c.name) === local));
}

export function firstChild(el: Element | Document | undefined, local: string): Element | undefined {
  return el?.children.find((c): c is Element => isTag(c) && localName(c.name) === local);
}

/** The first element with this local name, depth first, in document order. */
export function findElement(root: Element | Document | undefined, local: string): Element | undefined {
  for (const el of descendantsNamed(root, local)) return el;
  return undefined;
}

/** Every element with this local name, in document order (a match's own descendants are searched too). */
export function findElements(root: Element | Document | undefined, local: string): Element[] {
  return [...descendantsNamed(root, local)];
}

/** Walked with a stack, not recursion: a hostile document may nest elements a hundred thousand deep. */
function* descendantsNamed(root: Element | Document | undefined, local: string): Generator<Element> {
  if (!root) return;
  const stack = [...root.children].reverse();
  while (stack.length) {
    const node = stack.pop();
    if (!node || !isTag(node)) continue;
    if (localName(node.name) === local) yield node;
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
}

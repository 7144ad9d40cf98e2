import type { Element } from "./dom.js";
import { isHeading, isTag, textContent } from "./dom.js";

// Documentation generators (Sphinx, pandoc, Antora) wrap each section in an element whose id is its heading's
// text made into an address: `<section id="tooling"><h2>Tooling¶</h2>`. Such an id says what the section is
// about, not what part of the page it is, so a section titled "Tooling" or "Related work" is no toolbar or
// teaser box.
const SUFFIX = /-\d+$/;

/** True when the element's id is the address of the heading it opens with ("references", "references-1"). */
export function isHeadingSlug(el: Element): boolean {
  const id = el.attribs.id;
  if (!id) return false;
  const first = el.children.find(isTag);
  if (!first || !isHeading(first)) return false;
  const slug = slugOf(textContent(first));
  return !!slug && (id === slug || id.replace(SUFFIX, "") === slug);
}

function slugOf(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "");
}

import type { Element } from "./dom.js";
import { collapseWhitespace, isTag, removeNodes, textContent, walkElements } from "./dom.js";

type Converter = (math: Element) => string;
let convert: Converter | undefined;

/**
 * Loads the MathML converter, once, for pages that hold MathML: the libraries take ~90 ms to import, which every
 * CLI start would otherwise pay. A failed import leaves formulas as their visible text.
 */
export async function loadMathConverter(): Promise<void> {
  if (convert) return;
  try {
    const [{ default: serialize }, { MathMLToLaTeX }] = await Promise.all([
      import("dom-serializer"),
      import("mathml-to-latex"),
    ]);
    convert = (math) =>
      MathMLToLaTeX.convert(serialize(math, { xmlMode: true, decodeEntities: true, encodeEntities: "utf8" }));
  } catch {
    convert = undefined;
  }
}

/**
 * MathML as LaTeX, the notation models read best (a well-kept library converts it: the mapping of MathML's
 * layout elements to TeX is long). Flattened MathML ("x 2" for x²) reads as other words. Only what a reader
 * sees is converted: annotations are never rendered, and an `<maction>` shows one child, so text there is a
 * hiding place like any hidden element; the page's TeX annotation is not used for the same reason.
 */
export function mathToLatex(math: Element): string {
  dropInvisibleMath(math);
  try {
    if (convert) return collapseWhitespace(convert(math)).trim();
  } catch {
    // Markup the converter cannot read keeps its visible text.
  }
  return collapseWhitespace(textContent(math)).trim();
}

function dropInvisibleMath(math: Element): void {
  const drop: Element[] = [];
  walkElements(math, (el) => {
    if (el.name === "annotation" || el.name === "annotation-xml") {
      drop.push(el);
      return false;
    }
    if (el.name === "maction") {
      const shown = Number.parseInt(el.attribs.selection ?? "1", 10);
      el.children.filter(isTag).forEach((child, i) => {
        if (i + 1 !== shown) drop.push(child);
      });
    }
    return true;
  });
  removeNodes(drop);
}

import type { Element } from "./dom.js";
import { collapseWhitespace, findFirst, textContent } from "./dom.js";

type Converter = (math: Element) => string;
let convert: Converter | undefined;

/**
 * Loads the MathML converter, once, for pages that hold MathML: the libraries take ~90 ms to import,
 * which every CLI start would otherwise pay.
 */
export async function loadMathConverter(): Promise<void> {
  if (convert) return;
  const [{ default: serialize }, { MathMLToLaTeX }] = await Promise.all([
    import("dom-serializer"),
    import("mathml-to-latex"),
  ]);
  convert = (math) =>
    MathMLToLaTeX.convert(serialize(math, { xmlMode: true, decodeEntities: true, encodeEntities: "utf8" }));
}

/**
 * MathML as LaTeX, the notation models read best: the page's own TeX annotation when it kept one,
 * otherwise a conversion of the markup (a well-kept library: the mapping of MathML's layout elements
 * to TeX is long). Flattened MathML ("x 2" for x²) reads as other words.
 */
export function mathToLatex(math: Element): string {
  const annotation = findFirst(
    math,
    (el) => el.name === "annotation" && /tex/i.test(el.attribs.encoding ?? ""),
  );
  if (annotation) return collapseWhitespace(textContent(annotation)).trim();
  try {
    if (convert) return collapseWhitespace(convert(math)).trim();
  } catch {
    // Markup the converter cannot read keeps its plain text.
  }
  return collapseWhitespace(textContent(math)).trim();
}

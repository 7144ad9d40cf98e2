import type { AnyNode, Element } from "./dom.js";
import { isTag, isText } from "./dom.js";
import { dropInvisible } from "./invisible.js";

const LANG_CLASS = /(?:^|\s)(?:language|lang|highlight|brush|sourcecode)[-_:]\s*([a-z0-9][\w+#.-]*)/i;
const LINE_BLOCKS = new Set(["div", "p", "li", "tr"]);

function languageOf(el: Element): string | undefined {
  for (let node: Element | null = el, depth = 0; node && depth < 4; depth++) {
    const a = node.attribs;
    const fromData = a["data-lang"] ?? a["data-language"];
    if (fromData && /^[\w+#.-]{1,20}$/.test(fromData)) return fromData.toLowerCase();
    const m = a.class ? LANG_CLASS.exec(a.class) : null;
    if (m && m[1]!.toLowerCase() !== "none" && m[1]!.toLowerCase() !== "plaintext")
      return m[1]!.toLowerCase();
    node = node.parent && isTag(node.parent) ? node.parent : null;
  }
  return undefined;
}

function languageInside(pre: Element): string | undefined {
  const code = pre.children.find((c): c is Element => isTag(c) && c.name === "code");
  return (code && languageOf(code)) ?? languageOf(pre);
}

function codeText(node: AnyNode): string {
  if (isText(node)) return dropInvisible(node.data);
  if (!isTag(node)) return "";
  if (node.name === "br") return "\n";
  let out = "";
  for (const child of node.children) out += codeText(child);
  // Some highlighters put each line in its own <div> with no newline character.
  if (LINE_BLOCKS.has(node.name) && !out.endsWith("\n")) out += "\n";
  return out;
}

/** A line-number gutter rendered as its own <pre> is not code. */
function isLineNumbers(text: string): boolean {
  return /^[\d\s]+$/.test(text);
}

/** `<pre>` as a fenced block, language from `language-x`/`lang-x`/`highlight-x` classes. */
export function renderCodeBlock(pre: Element): string | undefined {
  const text = codeText(pre)
    .replace(/\r\n?/g, "\n")
    .replace(/^\s*\n/, "")
    .replace(/\s+$/, "");
  if (!text.trim() || isLineNumbers(text)) return undefined;
  const longestTicks = Math.max(2, ...(text.match(/`+/g) ?? []).map((t) => t.length));
  const fence = "`".repeat(longestTicks + 1);
  return `${fence}${languageInside(pre) ?? ""}\n${text}\n${fence}`;
}

/**
 * A JavaScript shell: HTML whose readable text only exists after scripts run. Passing its static text off as the
 * page would hand the caller a loading spinner or a "please enable JavaScript" line as if it were the content.
 */
export interface ShellVerdict {
  shell: boolean;
  /** Which signal decided, for the attempt log. */
  reason?: string;
}

/** Below this many characters of prose a page may be a shell; above it, it has content of its own. */
const TINY_TEXT = 250;

// Framework mount points left empty in the served HTML: React, Next, Nuxt, Vue, Gatsby, Svelte, Angular, Quasar.
const EMPTY_MOUNT =
  /<(div|main|section|body)\b[^>]*\bid\s*=\s*["']?(root|app|__next|__nuxt|___gatsby|svelte|q-app|application|main-app)\b["']?[^>]*>\s*(<\/\1>|<!--.*?-->\s*<\/\1>)|<(app-root|ng-app)\b[^>]*>\s*<\/\4>/is;
const JS_NOTICE =
  /\b(enable|turn on|activate|allow)\s+javascript\b|\bjavascript\s+(is\s+)?(required|disabled|must be enabled|needs to be enabled)\b|\brequires?\s+javascript\b|\bdoesn't work properly without javascript\b/i;

/** `prose`: the extracted text's `proseLength`, when the caller has it already. */
export function detectJsShell(html: string, extractedText: string, prose?: number): ShellVerdict {
  const textLen = prose ?? proseLength(extractedText);
  if (textLen >= TINY_TEXT) return { shell: false };
  if (EMPTY_MOUNT.test(html)) return { shell: true, reason: "empty mount point" };
  if (JS_NOTICE.test(visibleAndNoscriptText(html))) return { shell: true, reason: "asks for JavaScript" };
  // Tiny text against a large document is the shape of a client-rendered page even without a known mount point.
  if (html.length > 20_000 && textLen * 100 < html.length && scriptBytes(html) > html.length / 3)
    return { shell: true, reason: "tiny text in a script-heavy page" };
  return { shell: false };
}

// Markdown syntax characters: # > * _ ` | - [ ] ( ) !
const SYNTAX = new Set([35, 62, 42, 95, 96, 124, 45, 91, 93, 40, 41, 33]);
// What `\s` matches beyond ASCII (ECMAScript's WhiteSpace and LineTerminator: Unicode Zs, NBSP, BOM, LS, PS).
const WIDE_SPACE = new Set([
  0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a,
  0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
]);

function isGap(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13) || SYNTAX.has(c);
  return WIDE_SPACE.has(c);
}

/**
 * Characters of words, not of markdown syntax or whitespace: the length of the text with every run of syntax
 * and whitespace made one space, trimmed. Counted in one pass, without the two copies of a whole page that
 * replacing would make (a 3 MB page's markdown, on every large read).
 */
export function proseLength(markdown: string): number {
  let chars = 0;
  let words = 0;
  let inWord = false;
  for (let i = 0; i < markdown.length; i++) {
    if (isGap(markdown.charCodeAt(i))) inWord = false;
    else {
      chars++;
      if (!inWord) words++;
      inWord = true;
    }
  }
  return words ? chars + words - 1 : 0;
}

function visibleAndNoscriptText(html: string): string {
  return html
    .replace(/<(script|style|template)\b[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]+>/g, " ")
    .slice(0, 200_000);
}

function scriptBytes(html: string): number {
  let total = 0;
  for (const m of html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)) total += m[0].length;
  return total;
}

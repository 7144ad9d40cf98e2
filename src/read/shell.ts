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

export function detectJsShell(html: string, extractedText: string): ShellVerdict {
  const textLen = proseLength(extractedText);
  if (textLen >= TINY_TEXT) return { shell: false };
  if (EMPTY_MOUNT.test(html)) return { shell: true, reason: "empty mount point" };
  if (JS_NOTICE.test(visibleAndNoscriptText(html))) return { shell: true, reason: "asks for JavaScript" };
  // Tiny text against a large document is the shape of a client-rendered page even without a known mount point.
  if (html.length > 20_000 && textLen * 100 < html.length && scriptBytes(html) > html.length / 3)
    return { shell: true, reason: "tiny text in a script-heavy page" };
  return { shell: false };
}

/** Characters of words, not of markdown syntax or whitespace. */
export function proseLength(markdown: string): number {
  return markdown
    .replace(/[#>*_`|\-[\]()!]+/g, " ")
    .replace(/\s+/g, " ")
    .trim().length;
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

const LEFTOVER_ENTITY = /&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|nbsp);/gi;
const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/**
 * Text as an LLM should read it: one space between words, no padding. Engines double-escape some snippets
 * (DDG serves `&amp;quot;`), so an entity still present after the HTML parser decoded once is decoded here.
 */
export function cleanText(raw: string): string {
  return decodeLeftoverEntities(raw)
    .replace(/[\s\u00a0\u200b]+/g, " ")
    .trim();
}

function decodeLeftoverEntities(text: string): string {
  return text.replace(LEFTOVER_ENTITY, (whole, name: string) => {
    const lower = name.toLowerCase();
    if (lower.startsWith("#x")) return codePoint(Number.parseInt(lower.slice(2), 16), whole);
    if (lower.startsWith("#")) return codePoint(Number.parseInt(lower.slice(1), 10), whole);
    return NAMED[lower] ?? whole;
  });
}

function codePoint(n: number, fallback: string): string {
  return Number.isInteger(n) && n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : fallback;
}

/** `YYYY-MM-DD` from an engine's date text ("Jan 30, 2025", "2026-02-13T00:00:00.0000000"); undefined for
 * relative ages ("2 weeks ago") and anything without a four-digit year. */
export function isoDay(text: string): string | undefined {
  const iso = /\b(\d{4}-\d{2}-\d{2})(?:T|\b)/.exec(text);
  if (iso) return iso[1];
  if (!/\b\d{4}\b/.test(text)) return undefined;
  const at = Date.parse(`${text.replace(/[\s·,\-–—]+$/, "")} UTC`);
  return Number.isNaN(at) ? undefined : new Date(at).toISOString().slice(0, 10);
}

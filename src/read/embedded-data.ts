/**
 * Client-rendered sites usually ship their content inside the HTML as data for the scripts to render:
 * Next's __NEXT_DATA__, Nuxt's __NUXT_DATA__ / window.__NUXT__, Redux/Apollo state assignments, JSON-LD
 * articleBody, generic application/json islands. Reading those is far cheaper than starting a browser.
 */
export interface EmbeddedText {
  title?: string;
  markdown: string;
  /** Which island the text came from (for the attempt log). */
  from: string;
}

const JSON_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;
const STATE_ASSIGNMENT =
  /\bwindow\.(__NUXT__|__INITIAL_STATE__|__PRELOADED_STATE__|__APOLLO_STATE__|__APP_STATE__|__DATA__|__remixContext|__INITIAL_DATA__)\s*=\s*/;
// Keys whose strings are never prose: addresses, styling, identifiers, build metadata.
const SKIP_KEY =
  /^(@?id|@context|@type|url|href|src|srcset|image|images|icon|logo|thumbnail|class(name)?|style|css|slug|key|hash|token|nonce|build.*|script.*|locale.*|path|pathname|asPath|query|mime.*|__typename|sizes|width|height)$/i;
// In preference order: "name" is as often an author or a site as a page.
const TITLE_KEYS = ["headline", "title", "name"];
const BODY_KEY = /^(articleBody|text)$/;

export function textFromEmbeddedData(html: string): EmbeddedText | undefined {
  const jsonLd = fromJsonLd(html);
  if (jsonLd) return jsonLd;
  const islands: { from: string; value: unknown }[] = [];
  for (const m of html.matchAll(JSON_SCRIPT)) {
    const attrs = m[1];
    const body = m[2];
    const id = /\bid\s*=\s*["']?([\w-]+)/i.exec(attrs)?.[1];
    if (/type\s*=\s*["']?application\/(ld\+)?json/i.test(attrs)) {
      if (/ld\+json/i.test(attrs)) continue;
      const value = parseJson(body);
      if (value !== undefined) islands.push({ from: id ?? "application/json", value });
      continue;
    }
    const assignment = STATE_ASSIGNMENT.exec(body);
    if (assignment) islands.push({ from: assignment[1], value: stateValue(body.slice(assignment.index)) });
  }
  let best: EmbeddedText | undefined;
  for (const island of islands) {
    const found = collectProse(island.value);
    if (!found.paragraphs.length) continue;
    const markdown = found.paragraphs.join("\n\n");
    if (!best || markdown.length > best.markdown.length)
      best = { title: found.title, markdown, from: island.from };
  }
  return best;
}

/** JSON-LD: the schema.org fields that hold the whole text (Article.articleBody, Answer.text). */
function fromJsonLd(html: string): EmbeddedText | undefined {
  let headline: string | undefined;
  let name: string | undefined;
  const bodies: string[] = [];
  for (const m of html.matchAll(JSON_SCRIPT)) {
    if (!/type\s*=\s*["']?application\/ld\+json/i.test(m[1])) continue;
    walk(parseJson(m[2]), (key, value) => {
      if (BODY_KEY.test(key) && isProse(value)) bodies.push(htmlToText(value));
      else if (key === "headline" && !headline && value.length < 300) headline = value.trim();
      else if (key === "name" && !name && value.length < 300) name = value.trim();
    });
  }
  const unique = [...new Set(bodies)];
  if (!unique.length) return undefined;
  return { title: headline ?? name, markdown: unique.join("\n\n"), from: "json-ld" };
}

/**
 * window.X = {...} is JSON often enough; when it is code instead (Nuxt 2 wraps its state in a function call),
 * the string literals still carry the text.
 */
function stateValue(code: string): unknown {
  const start = code.search(/[{[(]/);
  const tail = code.slice(start).replace(/;\s*$/, "");
  const parsed = parseJson(tail.replace(/;\s*(window\.|$)[\s\S]*$/, ""));
  if (parsed !== undefined) return parsed;
  const literals: string[] = [];
  for (const m of tail.matchAll(/"(?:[^"\\\n]|\\.)*"/g)) {
    const s = parseJson(m[0]);
    if (typeof s === "string") literals.push(s);
  }
  return literals;
}

function collectProse(value: unknown): { title?: string; paragraphs: string[] } {
  const titles = new Map<string, string>();
  const seen = new Set<string>();
  const paragraphs: string[] = [];
  walk(value, (key, s) => {
    if (SKIP_KEY.test(key)) return;
    const titleKey = key.toLowerCase();
    if (TITLE_KEYS.includes(titleKey) && !titles.has(titleKey) && s.trim().length > 3 && s.length < 300)
      titles.set(titleKey, s.trim());
    if (!isProse(s)) return;
    const text = htmlToText(s);
    const norm = text.replace(/\s+/g, " ").toLowerCase();
    if (seen.has(norm)) return;
    seen.add(norm);
    paragraphs.push(text);
  });
  const title = TITLE_KEYS.map((k) => titles.get(k)).find(Boolean);
  return { title, paragraphs };
}

function walk(value: unknown, visit: (key: string, s: string) => void, key = "", depth = 0): void {
  if (depth > 60 || value == null) return;
  if (typeof value === "string") visit(key, value);
  else if (Array.isArray(value)) for (const item of value) walk(item, visit, key, depth + 1);
  else if (typeof value === "object")
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) walk(v, visit, k, depth + 1);
}

/** Sentences, not identifiers, URLs, class lists or encoded blobs. */
function isProse(s: string): boolean {
  const t = s.trim();
  if (t.length < 60) return false;
  if (/^(https?:|data:|\/)[^\s]*$/.test(t)) return false;
  const words = t.split(/\s+/).length;
  if (words < 8) return false;
  const letters = (t.match(/\p{L}/gu) ?? []).length;
  if (letters / t.length < 0.55 && !/<\/?[a-z]/i.test(t)) return false;
  // Tailwind-style class lists: many words, no sentence punctuation, lots of hyphens and colons.
  if (!/[.!?。！？:;,]\s|[.!?。！？]$/.test(t) && /(\b[\w-]+:[\w-]+\b.*){3}/.test(t)) return false;
  return true;
}

/** CMS bodies arrive as HTML fragments; keep block boundaries as blank lines and headings as markdown. */
function htmlToText(s: string): string {
  if (!/<\/?[a-z][^>]*>/i.test(s)) return s.trim();
  return decodeEntities(
    s
      .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, "")
      .replace(/<h([1-6])\b[^>]*>/gi, (_, n: string) => `\n\n${"#".repeat(Number(n))} `)
      .replace(/<li\b[^>]*>/gi, "\n- ")
      .replace(/<br\s*\/?>/gi, "\n")
      .replace(/<\/(p|div|h[1-6]|blockquote|section|article|ul|ol|table|tr|pre)>/gi, "\n\n")
      .replace(/<[^>]+>/g, ""),
  )
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

function decodeEntities(s: string): string {
  const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, e: string) => {
    if (e[0] === "#") {
      const code = e[1] === "x" || e[1] === "X" ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
    }
    return named[e.toLowerCase()] ?? whole;
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text.trim());
  } catch {
    return undefined;
  }
}

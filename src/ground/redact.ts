import { SECRET_RULES } from "./secret-rules.js";

export interface Redaction {
  text: string;
  found: { kind: string }[];
}

interface Hit {
  start: number;
  end: number;
  kind: string;
  order: number;
}

// Base64 images are long runs of random-looking characters; a vendor prefix turns up in them by chance.
const DATA_URI = /data:[\w.+-]+\/[\w.+-]+(?:;[\w=.-]+)*;base64,[A-Za-z0-9+/=]+/g;

/**
 * Replaces every secret the rule table recognises with `[REDACTED:<kind>]`, for queries, titles,
 * snippets, page text and error messages alike. `found` lists one entry per hit, in text order, so a
 * caller can say what was hidden without ever holding the value.
 */
export function redactSecrets(text: string): Redaction {
  const hits = pickHits(findHits(text), spans(DATA_URI, text));
  if (hits.length === 0) return { text, found: [] };
  let out = "";
  let at = 0;
  for (const hit of hits) {
    out += text.slice(at, hit.start) + `[REDACTED:${hit.kind}]`;
    at = hit.end;
  }
  return { text: out + text.slice(at), found: hits.map((hit) => ({ kind: hit.kind })) };
}

function findHits(text: string): Hit[] {
  const hits: Hit[] = [];
  SECRET_RULES.forEach((rule, order) => {
    for (const match of text.matchAll(rule.pattern)) {
      const [start, end] =
        rule.group === undefined
          ? [match.index, match.index + match[0].length]
          : (match.indices?.[rule.group] ?? [-1, -1]);
      if (start < 0 || start === end) continue;
      if (rule.accept && !rule.accept(text.slice(start, end))) continue;
      hits.push({ start, end, kind: rule.kind, order });
    }
  });
  return hits;
}

/** Earliest first, then the longest, then the more specific rule; overlapping later hits are dropped. */
function pickHits(hits: Hit[], protectedSpans: [number, number][]): Hit[] {
  hits.sort((a, b) => a.start - b.start || b.end - a.end || a.order - b.order);
  const kept: Hit[] = [];
  let reached = 0;
  for (const hit of hits) {
    if (hit.start < reached) continue;
    if (protectedSpans.some(([start, end]) => hit.start < end && hit.end > start)) continue;
    kept.push(hit);
    reached = hit.end;
  }
  return kept;
}

function spans(pattern: RegExp, text: string): [number, number][] {
  return [...text.matchAll(pattern)].map((match) => [match.index, match.index + match[0].length]);
}

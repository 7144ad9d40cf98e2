import { SECRET_RULES, type SecretRule } from "./secret-rules.js";

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
// What the redactor wrote is never a secret again: redacting redacted text changes nothing and finds nothing.
const PLACEHOLDER = /\[REDACTED:[\w-]+\]/g;

/**
 * Replaces every secret the rule table recognises with `[REDACTED:<kind>]`, for queries, titles,
 * snippets, page text and error messages alike. `found` lists one entry per hit, in text order, so a
 * caller can say what was hidden without ever holding the value. Idempotent: its own output is left as it is.
 */
export function redactSecrets(text: string): Redaction {
  // A placeholder is opaque to every rule, as context too: "[REDACTED:private-key]" must not make the hex
  // digest after it a labelled key. Masking keeps every index where it was.
  const seen = text.includes("[REDACTED:")
    ? text.replace(PLACEHOLDER, (p) => "\u0000".repeat(p.length))
    : text;
  const hits = findHits(seen);
  if (hits.length === 0) return { text, found: [] };
  const kept = pickHits(hits, [...spans(DATA_URI, text), ...spans(PLACEHOLDER, text)]);
  if (kept.length === 0) return { text, found: [] };
  let out = "";
  let at = 0;
  for (const hit of kept) {
    out += text.slice(at, hit.start) + `[REDACTED:${hit.kind}]`;
    at = hit.end;
  }
  return { text: out + text.slice(at), found: kept.map((hit) => ({ kind: hit.kind })) };
}

interface Scanned {
  rule: SecretRule;
  order: number;
  /** The same pattern, anchored: tried only where the shared scan found this rule's token. */
  sticky: RegExp;
}

/**
 * V8 finds a pattern that opens with a literal fast, but each pattern is a pass over the page of its own: the
 * eighty vendor prefixes scanned one by one cost about three times one alternation of them. So the rules that open
 * with `\b` and a literal (and take no flags) share one scan, each alternative in a named group that says which
 * rule it is; that rule then runs anchored at the spot for its own capture groups. The others run alone.
 */
function planScans(rules: SecretRule[]) {
  const shared: Scanned[] = [];
  const alone: { rule: SecretRule; order: number }[] = [];
  rules.forEach((rule, order) => {
    const source = rule.pattern.source;
    const plain = rule.pattern.flags.replace("d", "") === "g";
    if (plain && /^\\b(?:[A-Za-z0-9_]|\(\?:[A-Za-z0-9_])/.test(source) && !/\\\d/.test(source))
      shared.push({ rule, order, sticky: new RegExp(source, "dy") });
    else alone.push({ rule, order });
  });
  const alternatives = shared.map(
    ({ rule }, i) => `(?<r${i}>${rule.pattern.source.slice(2).replace(/(?<!\\)\((?!\?)/g, "(?:")})`,
  );
  return { shared, alone, scan: new RegExp(String.raw`\b(?:${alternatives.join("|")})`, "g") };
}

const PLAN = planScans(SECRET_RULES);

function findHits(text: string): Hit[] {
  const hits: Hit[] = [];
  const add = (rule: SecretRule, order: number, match: RegExpExecArray) => {
    const [start, end] = secretSpan(rule, match);
    if (start < 0 || start === end) return;
    if (rule.accept && !rule.accept(text.slice(start, end), text, start)) return;
    hits.push({ start, end, kind: rule.kind, order });
  };
  for (const found of eachMatch(PLAN.scan, text)) {
    const which = Object.entries(found.groups ?? {}).find(([, value]) => value !== undefined)?.[0];
    const scanned = which === undefined ? undefined : PLAN.shared[Number(which.slice(1))];
    if (!scanned) continue;
    scanned.sticky.lastIndex = found.index;
    const match = scanned.sticky.exec(text);
    if (match) add(scanned.rule, scanned.order, match);
  }
  for (const { rule, order } of PLAN.alone)
    for (const match of eachMatch(rule.pattern, text)) add(rule, order, match);
  return hits;
}

/**
 * `text.matchAll(pattern)` without its copy of the pattern: matchAll clones its RegExp on every call, and the
 * redactor runs a couple of dozen patterns over every title, URL and snippet of a search, a few hundred clones a
 * search. Safe because the loop runs to its end before anything else can use the pattern, and leaves
 * `lastIndex` at 0 as it found it. An empty match steps on by one code point under the `u` flag, as matchAll's.
 */
function* eachMatch(pattern: RegExp, text: string): Generator<RegExpExecArray> {
  // As matchAll: without the g flag, exec would find the first match forever.
  if (!pattern.global) throw new TypeError(`redact: ${pattern} needs the g flag`);
  pattern.lastIndex = 0;
  try {
    for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
      if (match[0] === "") {
        const code = pattern.unicode ? text.codePointAt(pattern.lastIndex) : undefined;
        pattern.lastIndex += code !== undefined && code > 0xffff ? 2 : 1;
      }
      yield match;
    }
  } finally {
    pattern.lastIndex = 0;
  }
}

function secretSpan(rule: SecretRule, match: RegExpExecArray): [number, number] {
  if (rule.group === undefined) return [match.index, match.index + match[0].length];
  for (const group of typeof rule.group === "number" ? [rule.group] : rule.group) {
    const span = match.indices?.[group];
    if (span) return span;
  }
  return [-1, -1];
}

/** Earliest first, then the longest, then the more specific rule; overlapping later hits are dropped. */
function pickHits(hits: Hit[], protectedSpans: [number, number][]): Hit[] {
  hits.sort((a, b) => a.start - b.start || b.end - a.end || a.order - b.order);
  protectedSpans.sort((a, b) => a[0] - b[0]);
  const kept: Hit[] = [];
  let reached = 0;
  // Both lists are in text order, so one walk over the protected spans serves every hit.
  let next = 0;
  for (const hit of hits) {
    if (hit.start < reached) continue;
    while (next < protectedSpans.length && (protectedSpans[next] as [number, number])[1] <= hit.start) next++;
    const guarded = protectedSpans[next];
    if (guarded && guarded[0] < hit.end) continue;
    kept.push(hit);
    reached = hit.end;
  }
  return kept;
}

function spans(pattern: RegExp, text: string): [number, number][] {
  return [...text.matchAll(pattern)].map((match) => [match.index, match.index + match[0].length]);
}
